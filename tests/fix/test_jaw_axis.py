"""`fix` on a gripper whose jaws' limits run the reverse of FET028's convention (lower = fingers together): the layer
negates each jaw's axis (both joint frames half a turn across it, limits mirrored, drive target and mimic offsets
negated), the re-run passes both FET028 tests, and the healthy twin gets nothing. The console names the command."""

from __future__ import annotations

import math

import pytest
from pxr import Gf, Sdf, Usd

from omni.simready.physics_validator.core.status import Status
from omni.simready.physics_validator.core.usd import read_asset
from omni.simready.physics_validator.fix import fix_assets
from omni.simready.physics_validator.fix.jaw_axis import joints_to_negate, negate
from omni.simready.physics_validator.fix.layers import JointOverride
from tests.fixtures.manipulation import build_gripper

TESTS = ["gripper_close_lift_sphere", "gripper_close_lift_cube"]
LEFT, RIGHT = "/Gripper/joints/left_finger_joint", "/Gripper/joints/right_finger_joint"


def test_fix_negates_a_reversed_jaw_and_the_re_run_passes_physx(tmp_path):
    asset = build_gripper(tmp_path / "reversed.usda", reversed=True)
    report = fix_assets([str(asset)], tests=TESTS, out_dir=tmp_path / "out", in_process=True)
    fix = report.assets[0].fix
    assert fix is not None and fix.status == "accepted", fix and fix.summary
    assert {(t.test, t.before_code, t.after) for t in fix.tests} == {(t, "JAW_REVERSED", Status.PASS) for t in TESTS}
    stage = Usd.Stage.Open(fix.composed)
    for path in (LEFT, RIGHT):
        prim = stage.GetPrimAtPath(path)
        assert prim.GetAttribute("physics:lowerLimit").Get() == pytest.approx(-0.038)
        assert prim.GetAttribute("physics:upperLimit").Get() == pytest.approx(0.0)
    assert "jaw-axis overrides" in Sdf.Layer.FindOrOpen(fix.layer).comment
    fixed = read_asset(fix.composed)  # nothing moved: the fingers sit where they sat, at q = 0 now the upper limit
    authored = read_asset(str(asset))
    for body in ("/Gripper/left_finger", "/Gripper/right_finger"):
        assert fixed.bodies[body].world_pose.pos == pytest.approx(authored.bodies[body].world_pose.pos)
    twin = fix_assets([str(build_gripper(tmp_path / "sound.usda"))], tests=TESTS, out_dir=tmp_path / "out2", in_process=True)
    assert twin.assets[0].fix.status == "nothing_to_fix" and not twin.assets[0].fix.layer


def test_a_mimic_follower_turns_with_its_jaw_and_its_offset_is_negated(tmp_path):
    asset = build_gripper(tmp_path / "coupled.usda", reversed=True)
    stage = Usd.Stage.Open(str(asset))
    follower = stage.GetPrimAtPath(RIGHT)
    follower.AddAppliedSchema("NewtonMimicAPI")
    follower.CreateRelationship("newton:mimicJoint").SetTargets([LEFT])
    follower.CreateAttribute("newton:mimicCoef0", Sdf.ValueTypeNames.Float).Set(0.004)
    follower.CreateAttribute("newton:mimicCoef1", Sdf.ValueTypeNames.Float).Set(1.0)
    stage.GetPrimAtPath(LEFT).CreateAttribute("drive:linear:physics:targetPosition", Sdf.ValueTypeNames.Float).Set(0.01)
    stage.GetRootLayer().Save()
    model = read_asset(str(asset))
    assert joints_to_negate(model, [LEFT]) == [LEFT, RIGHT]
    items = {p: JointOverride(p) for p in (LEFT, RIGHT)}
    for item in items.values():
        negate(item, stage, model)
    assert items[RIGHT].values["newton:mimicCoef0"] == pytest.approx(-0.004)  # gearing kept: both coordinates negated
    assert "newton:mimicCoef1" not in items[RIGHT].values
    assert items[LEFT].values["drive:linear:physics:targetPosition"] == pytest.approx(-0.01)
    authored = Gf.Rotation(Gf.Quatd(stage.GetPrimAtPath(LEFT).GetAttribute("physics:localRot0").Get()))
    now = Gf.Rotation(Gf.Quatd(items[LEFT].values["physics:localRot0"]))
    before, after = authored.TransformDir(Gf.Vec3d(1, 0, 0)), now.TransformDir(Gf.Vec3d(1, 0, 0))
    assert math.isclose(Gf.Dot(before, after), -1.0, abs_tol=1e-6)  # the joint axis reversed
