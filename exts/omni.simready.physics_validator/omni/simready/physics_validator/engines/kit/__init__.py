"""The kit engine: the Engine protocol on the stage open in Isaac Sim / Kit, through omni.physx.

- `engine`: `KitPhysxEngine`, the only module here that calls omni.physx / omni.physics.tensors
  (imported lazily, so the package imports outside Kit);
- `layer`: the validation sublayer of the live stage's session layer and the edit target around it,
  the user state a live run puts back, the GPU override (the authoring itself is
  `engines.validation_layer`, shared with the headless engine that loads the asset's USD);
- `dof_map`: tensor-view DOF slots and units, bounds from PhysX body poses, joints outside
  articulations from body poses, the warm-up step undone, the default force point.

Everything but `engine` is omni-free and covered by pytest; `engine` runs in pytest over a test double of
its Kit calls (tests/fixtures/fake_kit, backed by ovphysx). The Kit frontend (live runner, open-stage
reader, viewport recorder) is the `live` package beside `ui`.
"""
