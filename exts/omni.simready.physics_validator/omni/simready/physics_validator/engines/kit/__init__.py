"""The kit engine: the Engine protocol on the stage open in Isaac Sim / Kit, through omni.physx.

- `engine`: `KitPhysxEngine`, the only module here that calls omni.physx / omni.physics.tensors
  (imported lazily, so the package imports outside Kit);
- `layer`: the validation sublayer of the live stage's session layer and the user state put back
  after a test (the authoring itself is `engines.validation_layer`, shared with headless engines
  that load the asset's USD);
- `dof_map`: tensor-view DOF slots and units, bounds from PhysX body poses, the default force point.

Everything but `engine` is omni-free and covered by pytest. The Kit frontend (live runner, open-stage
reader, viewport recorder) is the `live` package beside `ui`.
"""
