"""What the four driven-joint tests share, end to end on real engines and pxr-built robot fixtures.

The exclusions, the joint filter, the prechecks and the spec defaults; the well-tuned fixture arm passing all
four; and one story for a dead drive (issue 13 item 7) and a negative drive gain (item 8) in all four. Each
test's own cases live in tests/physics_tests/test_<name>.py. Fixtures: tests/fixtures/arms.py, driven_arms.py.
"""

import pytest

from tests.fixtures import driven_arms as F
from tests.fixtures.arms import build_arm, build_unarticulated
from tests.fixtures.runs import ENGINES, require_engine, rows, run_test
from omni.simready.physics_validator.physics_tests import default_registry
from omni.simready.physics_validator.physics_tests.driven.hints import DEAD_DRIVE as HINT_DEAD_DRIVE
from omni.simready.physics_validator.core.status import Status

JOINT_TESTS = ("velocity_limit", "full_range_sweep", "drive_gain_validation", "effort_limit")


def run(path, name, **overrides):
    return run_test(path, name, require_engine("physx"), **overrides)


@pytest.fixture(scope="module")
def arm_dir(tmp_path_factory):
    return tmp_path_factory.mktemp("arms")


@pytest.fixture(scope="module")
def good_arm(arm_dir):
    return build_arm(arm_dir / "good.usda", fingers="physx")


@pytest.mark.parametrize("name", JOINT_TESTS)
def test_well_tuned_arm_passes(good_arm, name):
    result = run(good_arm, name)
    assert "finger_b_joint" in {e.joint for e in result.excluded_joints}  # the mimic follower
    assert result.metrics["joints_excluded_mimic_follower"] == 1
    if name == "velocity_limit":
        # Issue 13 item 5 on the 6R fixture arm itself: its shoulder carries five links, and PhysX moves it ~7.6 %
        # faster than the 120 deg/s cap while reporting exactly the cap (the excess grows with the load: 2.6 % with
        # 4 joints, 4.8 % with 5). Judged by the position rate it FAILs; every other joint reaches and holds its cap.
        # The 4-joint arm is the velocity_limit PASS control (test_velocity_limit.py).
        assert result.status is Status.FAIL, result.reason
        shoulder = rows(result)["joint2"]
        assert shoulder.measured["peak_velocity"] <= shoulder.limits["allowed"] < shoulder.measured["peak_displacement_rate"]
        assert all(r.status is Status.PASS and r.measured["ratio"] >= 0.9 for r in result.joints if r.joint != "joint2")
        return
    assert result.status is Status.PASS, result.reason
    assert all(r.status is Status.PASS for r in result.joints)
    if name == "drive_gain_validation":
        assert result.metrics["max_overshoot_pct"] < 50 and result.metrics["max_settling_time_s"] < 5
    if name == "effort_limit":
        assert result.metrics["max_deflection"] < 0.05
    if name == "full_range_sweep":
        assert max(r.measured["zero_error"] for r in result.joints) <= 0.01


@pytest.mark.parametrize("name", JOINT_TESTS)
def test_all_passive_skips_with_reason(arm_dir, name):
    result = run(build_arm(arm_dir / f"passive_{name}.usda", joints=2, passive=(1, 2)), name)
    assert result.status is Status.SKIP
    assert "2 passive (joint1, joint2)" in result.reason
    assert result.metrics["joints_excluded_passive"] == 2 and result.metrics["joints_tested"] == 0


def test_joint_filter_runs_only_the_requested_joint(good_arm):
    result = run(good_arm, "drive_gain_validation", joints=["joint2"])
    assert [r.joint for r in result.joints] == ["joint2"]
    assert "joint1" in {e.joint for e in result.excluded_joints if "filter" in e.why}
    unknown = run(good_arm, "drive_gain_validation", joints=["no_such_joint"])
    assert unknown.status is Status.SKIP and any("no_such_joint" in w for w in unknown.warnings)


def test_no_articulation_is_a_precheck_failure(tmp_path):
    result = run(build_unarticulated(tmp_path / "loose.usda"), "full_range_sweep")
    assert result.status is Status.PRECHECK_FAILURE


@pytest.mark.parametrize("name", JOINT_TESTS)
def test_no_collider_is_a_precheck_failure_not_an_engine_error(tmp_path, name):
    """A robot whose meshes failed to convert has no collision geometry (the corpus' pb_xarm6): the explosion watch
    could never trigger, and the physx engine used to end it as ERROR 'no bounded collision shape'."""
    from pxr import Usd, UsdPhysics

    path = build_arm(tmp_path / "no_colliders.usda", joints=2)
    stage = Usd.Stage.Open(str(path))
    for prim in stage.Traverse():
        if prim.HasAPI(UsdPhysics.CollisionAPI):
            prim.RemoveAPI(UsdPhysics.CollisionAPI)
    stage.GetRootLayer().Save()
    result = run(path, name)
    assert result.status is Status.PRECHECK_FAILURE
    assert result.reason.startswith("no collider (UsdPhysics.CollisionAPI) on any rigid body")
    assert result.fix_hints and "CollisionAPI" in result.fix_hints[0]


def test_config_defaults_follow_the_specs():
    reg = default_registry()
    assert reg.get("velocity_limit").Config().tolerance_fraction == 0.05
    frs = reg.get("full_range_sweep").Config()
    assert (frs.rest_tolerance_rad, frs.zero_return_tolerance_rad, frs.sweep_speed_scale, frs.pause_at_limits_seconds,
            frs.bbox_explode_ratio, frs.rest_check_fatal) == (0.10, 0.01, 0.8, 0.15, 10.0, True)
    dgv = reg.get("drive_gain_validation").Config()
    assert (dgv.step_magnitude_deg, dgv.max_overshoot_pct, dgv.max_settling_seconds, dgv.max_oscillations,
            dgv.settling_tolerance, dgv.step_fatal) == (30.0, 50.0, 5.0, 20, 0.05, False)
    eff = reg.get("effort_limit").Config()
    assert (eff.force_magnitude_newtons, eff.test_duration_seconds, eff.break_tolerance, eff.stop_on_first_break) == (
        10.0, 2.0, 0.10, True)
    # Our additions (docs/tests/*.md "Our choices"): range caps, exercise and dead-drive thresholds, tail, load.
    assert (frs.rest_range_fraction, frs.zero_range_fraction) == (0.10, 0.01)
    assert reg.get("velocity_limit").Config().min_exercised_ratio == 0.9
    assert (dgv.settling_tail_seconds, dgv.oscillation_threshold) == (0.5, 0.001)
    assert (eff.unlimited_prismatic_range_m, eff.recovery_seconds) == (1.0, 0.5)
    for name in JOINT_TESTS:
        assert all(f.description for f in reg.get(name).Config.model_fields.values() if f.description is not None)


@pytest.fixture(params=ENGINES)
def engine(request):
    return require_engine(request.param)


def test_dead_drive_reads_the_same_in_all_four_tests(arm_dir, engine):
    """Item 7: joint1's drive gives 10 uN m. It used to read sweep FAIL, gains WARN, velocity PASS, effort PASS with
    four unrelated reasons; now each reason tells the same story (dead drive, the same authored drive) and the
    deciding measure: the joint moved < 10 % of what was commanded."""
    path = F.dead_drive_arm(arm_dir / f"dead_{engine}.usda")
    results = {name: run_test(path, name, engine) for name in JOINT_TESTS}
    expected = {"full_range_sweep": Status.FAIL, "drive_gain_validation": Status.WARN,
                "velocity_limit": Status.PASS, "effort_limit": Status.FAIL}
    if engine == "newton":
        # Newton clamps only the explicit part of a drive's force to maxForce; its implicit stiffness/damping
        # response is unbounded (docs/engine-divergences.md #2), so this drive cannot move joint1 to a new target
        # but does hold it against the load: effort_limit passes there, with joint1 barely deflected.
        effort = results.pop("effort_limit")
        assert effort.status is Status.PASS, effort.reason
        assert rows(effort)["joint1"].measured["max_deflection"] < rows(effort)["joint1"].limits["deflection_tolerance"]
    for name, result in results.items():
        assert result.status is expected[name], (name, result.reason)
        joint1 = rows(result)["joint1"]
        assert "dead drive: joint1 moved" in joint1.reason, (name, joint1.reason)
        assert "driveMaxForce 1.000e-05 N·m" in joint1.reason
        assert "the drive pulls with at most 1.000e-05 N·m over it (its maxForce)" in joint1.reason  # the deciding pull
        assert "dead drive: joint1 moved" in result.reason  # the verdict's reason carries the story too
        assert HINT_DEAD_DRIVE in result.fix_hints
    assert rows(results["full_range_sweep"])["joint1"].measured["follow_max"] < 0.1
    assert rows(results["drive_gain_validation"])["joint1"].measured["follow"] < 0.1
    velocity = rows(results["velocity_limit"])["joint1"]
    assert velocity.status is Status.SKIP and velocity.measured["ratio"] < 0.9  # not exercised: not a PASS row
    assert results["velocity_limit"].metrics["joints_not_exercised"] == 1
    if engine != "newton":
        effort = rows(results["effort_limit"])["joint1"]
        assert effort.measured["dead_drive"] is True and effort.measured["recovered"] < 0.1
        assert effort.measured["max_deflection"] > effort.limits["deflection_tolerance"]


@pytest.mark.parametrize("attr", ["stiffness", "damping"])
@pytest.mark.parametrize("name", JOINT_TESTS)
def test_negative_drive_gain_is_an_asset_error(arm_dir, name, attr):
    """Item 8: a negative gain used to be clamped to 0 silently (velocity_limit PASS); it is broken content."""
    result = run(F.negative_gain_arm(arm_dir / f"negative_{attr}_{name}.usda", attr), name)
    assert result.status is Status.PRECHECK_FAILURE
    assert result.reason.startswith("DRIVE_GAIN_NEGATIVE at /Robot/joints/joint1")
    assert f"drive:angular:physics:{attr} = -100" in result.reason
    assert result.metrics["asset_errors"] == 1


@pytest.mark.parametrize("name", JOINT_TESTS)
def test_a_locked_joint_is_excluded_not_driven_as_a_free_one(arm_dir, name):
    """lowerLimit = upperLimit (a converted [0, 0] range, the corpus' double pendulum): PhysX holds the joint fixed, and
    the reader used to see no limits, so sapien drove it as a free joint while physx read it as a dead drive."""
    from pxr import Usd

    path = build_arm(arm_dir / f"locked_{name}.usda", joints=2)
    stage = Usd.Stage.Open(str(path))
    for attr in ("physics:lowerLimit", "physics:upperLimit"):
        stage.GetPrimAtPath("/Robot/joints/joint2").GetAttribute(attr).Set(0.0)
    stage.GetRootLayer().Save()
    result = run(path, name)
    excluded = {e.joint: e.why for e in result.excluded_joints}
    assert excluded.get("joint2", "").startswith("locked: lowerLimit >= upperLimit"), excluded
    assert "joint2" not in rows(result) and result.metrics["joints_excluded_locked"] == 1
