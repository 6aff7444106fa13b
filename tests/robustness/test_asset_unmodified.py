"""The input asset is never modified: every layer keeps its bytes and mtime.

Headless: the real engines run every registered test on a multi-layer articulated asset (root,
sublayer, reference, payload). Kit: the session-sublayer logic of engines/kit/layer.py is applied
to the stage the way the Kit engine does it, then the stage is saved as a user would; what needs a
running Kit (PhysX write-back into the edit target during simulation, the panel) cannot run here.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from pxr import Sdf, Usd, UsdGeom, UsdPhysics

from omni.simready.physics_validator.core.config import ValidationConfig
from omni.simready.physics_validator.physics_tests import default_registry
from omni.simready.physics_validator import validate
from omni.simready.physics_validator.core.usd import read_asset
from omni.simready.physics_validator.engines import EngineUnavailable, engine_class

from . import builders as b
from .corpus import changed_files, snapshot


def layered_arm(folder: Path) -> Path:
    """An articulated arm whose physics is spread over a sublayer, a reference and a payload."""
    folder.mkdir(parents=True, exist_ok=True)
    part = b.Stage(folder / "parts" / "link.usda", root="Link")
    part.stage.GetRootLayer().Save()
    cube = UsdGeom.Cube.Define(part.stage, "/Link/Collider")
    cube.CreateSizeAttr(2.0)
    cube.AddScaleOp().Set((0.03, 0.03, 0.15))
    UsdPhysics.CollisionAPI.Apply(cube.GetPrim())
    part.save()
    physics = Sdf.Layer.CreateNew(str(folder / "physics.usda"))
    physics.Save()

    s = b.Stage(folder / "arm.usda")
    s.stage.GetRootLayer().subLayerPaths.append("./physics.usda")
    s.box_body(f"{s.root}/Base", center=(0, 0, 0.1), half=(0.2, 0.2, 0.1), mass=5.0)
    link = UsdGeom.Xform.Define(s.stage, f"{s.root}/Link")
    link.AddTranslateOp().Set(s.vec((0, 0, 0.35)))
    link.GetPrim().GetReferences().AddReference("./parts/link.usda")
    heavy = s.stage.DefinePrim(f"{s.root}/Decor")
    heavy.GetPayloads().AddPayload("./parts/link.usda")
    s.save()
    # Physics opinions live in the sublayer: the body, mass and a driven, limited joint.
    stage = Usd.Stage.Open(str(folder / "arm.usda"))
    stage.SetEditTarget(Usd.EditTarget(physics))
    prim = stage.GetPrimAtPath(f"{s.root}/Link")
    UsdPhysics.RigidBodyAPI.Apply(prim)
    UsdPhysics.MassAPI.Apply(prim).CreateMassAttr(0.5)
    joint = UsdPhysics.RevoluteJoint.Define(stage, f"{s.root}/Joints/shoulder")
    joint.CreateBody0Rel().SetTargets([f"{s.root}/Base"])
    joint.CreateBody1Rel().SetTargets([f"{s.root}/Link"])
    joint.CreateLocalPos0Attr((0, 0, 0.1))
    joint.CreateLocalPos1Attr((0, 0, -0.15))
    joint.CreateAxisAttr("Y")
    joint.CreateLowerLimitAttr(-60.0)
    joint.CreateUpperLimitAttr(60.0)
    drive = UsdPhysics.DriveAPI.Apply(joint.GetPrim(), "angular")
    drive.CreateStiffnessAttr(50.0)
    drive.CreateDampingAttr(5.0)
    drive.CreateMaxForceAttr(100.0)
    joint.GetPrim().CreateAttribute("physxJoint:maxJointVelocity", Sdf.ValueTypeNames.Float).Set(90.0)
    UsdPhysics.ArticulationRootAPI.Apply(stage.GetPrimAtPath(s.root))
    physics.Save()
    return folder / "arm.usda"


@pytest.fixture
def arm(tmp_path):
    path = layered_arm(tmp_path / "asset")
    model = read_asset(path)
    assert not model.errors(), model.errors()
    assert len(model.bodies) == 2 and len(model.joints) == 1  # the sublayer and the reference really compose
    return path


@pytest.mark.parametrize(
    "engine,isolate", [("physx", False), ("physx", True), ("newton", False)], ids=["physx-in_process", "physx-worker", "newton"]
)
def test_headless_engines_leave_every_layer_untouched(arm, tmp_path, engine, isolate):
    try:
        engine_class(engine)
    except EngineUnavailable as exc:
        pytest.skip(str(exc))
    folder = arm.parent
    before = snapshot(folder)
    assert {"arm.usda", "physics.usda", "parts/link.usda"} <= set(before)
    config = ValidationConfig.defaults(default_registry())
    config.run.video = False
    config.run.isolate = isolate
    tests = default_registry().names() if engine == "physx" and not isolate else ["ground_drop"]
    report = validate([arm], tests, config, engine, out_dir=tmp_path / "out")
    assert report.complete and len(report.assets[0].tests) == len(tests)
    assert changed_files(before, snapshot(folder)) == []


def test_kit_session_sublayer_never_dirties_or_rewrites_a_user_layer(arm):
    """Every test's edits (scene, ground, lift, pinned base) go to an anonymous session sublayer."""
    from omni.simready.physics_validator.engines.kit.layer import ValidationLayer
    from omni.simready.physics_validator.engines.validation_layer import physics_scene_paths, plan_validation_layer

    folder = arm.parent
    before = snapshot(folder)
    stage = Usd.Stage.Open(str(arm))
    asset = read_asset(arm)
    config = ValidationConfig.defaults(default_registry())
    user_layers = [layer for layer in stage.GetUsedLayers() if not layer.anonymous]
    assert len(user_layers) >= 3
    composed_before = stage.ExportToString()
    planned = 0
    for name, test_cls in default_registry().items():
        test = test_cls()
        if test.precheck(asset, config.for_test(name)) is not None:
            continue  # as the session: no scene for a test its precheck decided (a gripper test on an arm)
        planned += 1
        scene = test.scene(asset, config.for_test(name))
        plan = plan_validation_layer(asset, scene, existing_scenes=physics_scene_paths(stage))
        layer = ValidationLayer(stage, plan).apply()
        # The user's edit target is theirs while a test runs (their edits are kept); PhysX writes go to the
        # sublayer: held as edit target from play to the first step and from stop to STOPPED (reset-on-stop).
        assert not stage.GetEditTarget().GetLayer().anonymous
        layer.hold_edit_target()
        assert stage.GetEditTarget().GetLayer().anonymous
        stage.GetPrimAtPath(f"{asset.default_prim}/Link").GetAttribute("xformOp:translate").Set((0, 0,
                                                                                                 1.0))  # as PhysX resets on stop
        layer.release_edit_target()
        assert not [lyr.identifier for lyr in user_layers if lyr.dirty], f"{name} dirtied a user layer"
        layer.remove()
        assert stage.ExportToString() == composed_before, f"{name} left an edit on the composed stage"
    assert planned >= 8  # ground_drop, slope_drop, joint_movement, jacobian_ik and the driven tests that apply
    stage.Save()  # a user pressing Save after validating writes nothing to the asset
    assert changed_files(before, snapshot(folder)) == []
