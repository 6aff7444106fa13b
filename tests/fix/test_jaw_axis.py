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


@pytest.mark.slow
def test_a_drive_less_reversed_gripper_gets_drives_then_its_axes_negated_physx(tmp_path):
    """The converted gripper's road: no drive, the reverse convention. Round 1 gives the jaws first drives (the
    driven-joint test SKIPs them), its re-run lets the gripper test judge them (JAW_REVERSED), round 2 negates the axes
    in the same layer: the gripper test then judges the grip (first drives sized for full_range_sweep, 49 N/m under the
    authored 40 N cap, squeeze under 2 N: NOT_LIFTED, which fix names, not sizes), never the convention again."""
    from omni.simready.physics_validator.fix import FixTargets

    asset = build_gripper(tmp_path / "bare.usda", reversed=True, stiffness=0.0, damping=0.0)
    report = fix_assets([str(asset)], tests=["full_range_sweep", TESTS[0]], out_dir=tmp_path / "out", in_process=True,
                        targets=FixTargets(add_drives=True))
    fix = report.assets[0].fix
    assert fix is not None and fix.status == "accepted" and fix.rounds == 2, fix and fix.summary
    gripper = next(t for t in fix.tests if t.test == TESTS[0])
    assert gripper.before == Status.PRECHECK_FAILURE and gripper.after_code not in ("JAW_REVERSED", ""), gripper
    layer = Sdf.Layer.FindOrOpen(fix.layer)
    assert "drive-tuning and jaw-axis" in layer.comment
    assert layer.GetAttributeAtPath(f"{LEFT}.physics:lowerLimit").default == pytest.approx(-0.038)
    assert layer.GetPrimAtPath(LEFT).GetInfo("apiSchemas").prependedItems == ["PhysicsDriveAPI:linear"]


def test_a_test_that_could_not_run_and_passes_with_the_layer_counts_and_its_precheck_is_not_named(tmp_path):
    """A drive-less gripper's FET028 tests are PRECHECK_FAILURE (nothing closes it); with the layer's jaw drives and
    negated axes they PASS (the converted YuMi): counted as such, and the precheck no longer named as not fixable."""
    from omni.simready.physics_validator.core.config import ValidationConfig
    from omni.simready.physics_validator.core.results import AssetResult, TestResult
    from omni.simready.physics_validator.fix.diagnose import diagnose
    from omni.simready.physics_validator.fix.outcome import build_result
    from omni.simready.physics_validator.fix.rounds import Round, compare
    from omni.simready.physics_validator.fix.state import AssetFix
    from omni.simready.physics_validator.fix.targets import FixTargets
    from omni.simready.physics_validator.physics_tests import default_registry

    asset = build_gripper(tmp_path / "bare.usda", reversed=True, stiffness=0.0, damping=0.0)
    before = AssetResult(path=str(asset), tests=[TestResult(name=TESTS[0], status=Status.PRECHECK_FAILURE,
                                                            code="NO_JAW_DRIVE", reason="nothing closes the gripper")])
    state = AssetFix(before=before, work=tmp_path, config=ValidationConfig.defaults(default_registry()), names=TESTS[:1])
    state.diagnosis = diagnose(before, read_asset(str(asset)), default_registry())
    assert [n.cause for n in state.diagnosis.not_fixable] == ["precheck"]
    rnd = Round(1, {}, {}, tmp_path / "l", tmp_path / "c", negate={LEFT: ["jaw"], RIGHT: ["jaw"]},
                after=AssetResult(path=str(asset), tests=[TestResult(name=TESTS[0], status=Status.PASS)]))
    compare(before, rnd)
    assert rnd.unblocked == TESTS[:1] and rnd.worth and rnd.clean
    result = build_result(state, rnd, FixTargets())
    assert "1 PRECHECK_FAILURE -> PASS" in result.summary and not result.not_fixable
