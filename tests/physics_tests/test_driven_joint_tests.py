"""The four driven-joint tests end to end on the real SAPIEN PhysX engine and pxr-built robot fixtures.

Every case asserts the verdict and the metric that decides it. Fixtures: tests/joint_fixtures.py.
"""

import pytest

from tests.fixtures.arms import build_arm, build_unarticulated
from omni.simready.physics_validator.physics_tests import default_registry
from omni.simready.physics_validator.core.session import TestSession
from omni.simready.physics_validator.core.status import Status
from omni.simready.physics_validator.core.usd import read_asset

pytest.importorskip("sapien")
from omni.simready.physics_validator.engines import create_engine  # noqa: E402

JOINT_TESTS = ("velocity_limit", "full_range_sweep", "drive_gain_validation", "effort_limit")


def run(path, name, **overrides):
    test_cls = default_registry().get(name)
    return TestSession(test_cls(), read_asset(path), test_cls.Config(**overrides), create_engine("physx")).run_to_end()


def rows(result):
    return {r.joint: r for r in result.joints}


@pytest.fixture(scope="module")
def arm_dir(tmp_path_factory):
    return tmp_path_factory.mktemp("arms")


@pytest.fixture(scope="module")
def good_arm(arm_dir):
    return build_arm(arm_dir / "good.usda", fingers="physx")


@pytest.mark.parametrize("name", JOINT_TESTS)
def test_well_tuned_arm_passes(good_arm, name):
    result = run(good_arm, name)
    assert result.status is Status.PASS, result.reason
    assert "finger_b_joint" in {e.joint for e in result.excluded_joints}  # the mimic follower
    assert result.metrics["joints_excluded_mimic_follower"] == 1
    assert all(r.status is Status.PASS for r in result.joints)
    if name == "velocity_limit":
        assert 0.9 < result.metrics["max_velocity_ratio"] <= 1.05  # the cap was reached and held
    if name == "drive_gain_validation":
        assert result.metrics["max_overshoot_pct"] < 50 and result.metrics["max_settling_time_s"] < 5
    if name == "effort_limit":
        assert result.metrics["max_deflection"] < 0.05
    if name == "full_range_sweep":
        assert max(r.measured["zero_error"] for r in result.joints) <= 0.01


@pytest.fixture(scope="module")
def weak_arm(arm_dir):
    return build_arm(arm_dir / "weak.usda", joints=3, max_force=0.5)


def test_weak_max_force_cannot_reach_limits(weak_arm):
    result = run(weak_arm, "full_range_sweep")
    assert result.status is Status.FAIL
    shoulder = rows(result)["joint2"]
    assert shoulder.status is Status.FAIL and shoulder.measured["hold_error_max"] > 0.1
    assert "did not reach and hold" in shoulder.reason
    assert any("maxforce" in h.lower() for h in shoulder.fix_hints)
    assert rows(result)["joint1"].status is Status.PASS  # the vertical axis carries no gravity load


def test_weak_max_force_step_response_warns(weak_arm):
    result = run(weak_arm, "drive_gain_validation")
    assert result.status is Status.WARN
    shoulder = rows(result)["joint2"]
    assert shoulder.measured["settling_time_s"] is None and shoulder.measured["overshoot_pct"] > 50
    assert any("driveMaxForce" in h for h in shoulder.fix_hints)


def test_weak_max_force_effort_gives_way_but_limits_hold(weak_arm):
    # Spec: a break is a joint beyond its limits; PhysX holds the limits, so a weak drive is a warning only.
    result = run(weak_arm, "effort_limit", force_magnitude_newtons=10.0)
    assert result.status is Status.PASS
    assert any("too weak to hold" in w for w in result.warnings)


def test_stiffness_too_low_fails_sweep(arm_dir):
    path = build_arm(arm_dir / "soft.usda", joints=3, stiffness=20.0, damping=5.0)
    result = run(path, "full_range_sweep")
    assert result.status is Status.FAIL
    shoulder = rows(result)["joint2"]
    assert shoulder.status is Status.FAIL and shoulder.measured["zero_error"] > 0.01
    assert max(r.measured["hold_error_max"] for r in result.joints) > 0.1


@pytest.fixture(scope="module")
def undamped_arm(arm_dir):
    return build_arm(arm_dir / "undamped.usda", damping=0.0)


def test_zero_damping_oscillates_warn(undamped_arm):
    result = run(undamped_arm, "drive_gain_validation")
    assert result.status is Status.WARN
    assert result.metrics["max_oscillations"] > 20
    oscillating = [r for r in result.joints if r.measured["oscillations"] > 20]
    assert oscillating and all(r.status is Status.WARN for r in oscillating)
    assert any("driveDamping" in h for h in oscillating[0].fix_hints)


def test_zero_damping_fails_with_step_fatal(undamped_arm):
    result = run(undamped_arm, "drive_gain_validation", step_fatal=True)
    assert result.status is Status.FAIL
    assert result.metrics["max_oscillations"] > 20


def test_no_velocity_limits_skips(arm_dir):
    result = run(build_arm(arm_dir / "novel.usda", joints=2, velocity_limit_deg=None), "velocity_limit")
    assert result.status is Status.SKIP
    assert "no driven joint has a velocity limit" in result.reason
    assert result.metrics["joints_excluded_no_velocity_limit"] == 2
    assert any("maxJointVelocity" in h for h in result.fix_hints)


def test_joint_without_limits_is_skipped_by_sweep(arm_dir):
    result = run(build_arm(arm_dir / "unlimited.usda", joints=2, unlimited=(1,)), "full_range_sweep")
    assert result.status is Status.PASS
    assert [r.joint for r in result.joints] == ["joint2"]
    assert result.metrics["joints_excluded_no_limits"] == 1


@pytest.mark.parametrize("name", JOINT_TESTS)
def test_all_passive_skips_with_reason(arm_dir, name):
    result = run(build_arm(arm_dir / f"passive_{name}.usda", joints=2, passive=(1, 2)), name)
    assert result.status is Status.SKIP
    assert "2 passive (joint1, joint2)" in result.reason
    assert result.metrics["joints_excluded_passive"] == 2 and result.metrics["joints_tested"] == 0


def test_velocity_limit_physx_axis_spelling(arm_dir):
    attr = "physxJointAxis:angular:maxJointVelocity"
    path = build_arm(arm_dir / "vel_physxJointAxis.usda", joints=2, velocity_attr=attr)
    result = run(path, "velocity_limit")
    assert result.status is Status.PASS
    assert {r.limits["source"] for r in result.joints} == {attr}


def test_newton_only_velocity_limit_is_not_enforced_by_physx(arm_dir):
    """omni.physx ignores newton:velocityLimit: the joint runs uncapped and the test must say so."""
    attr = "newton:velocityLimit"
    path = build_arm(arm_dir / "vel_newton.usda", joints=2, velocity_attr=attr)
    result = run(path, "velocity_limit")
    assert result.status is Status.FAIL
    assert {r.limits["source"] for r in result.joints} == {attr}
    assert all(r.measured["ratio"] > 1.05 for r in result.joints if r.status is Status.FAIL)
    assert any("physxJoint:maxJointVelocity" in h for h in result.fix_hints)
    assert any("not a PhysX attribute" in w for w in result.warnings)


def test_joint_filter_runs_only_the_requested_joint(good_arm):
    result = run(good_arm, "drive_gain_validation", joints=["joint2"])
    assert [r.joint for r in result.joints] == ["joint2"]
    assert "joint1" in {e.joint for e in result.excluded_joints if "filter" in e.why}
    unknown = run(good_arm, "drive_gain_validation", joints=["no_such_joint"])
    assert unknown.status is Status.SKIP and any("no_such_joint" in w for w in unknown.warnings)


def test_velocity_limit_outside_articulation_is_not_enforced(arm_dir):
    result = run(build_arm(arm_dir / "turntable.usda", joints=2, turntable=True), "velocity_limit")
    assert result.status is Status.FAIL
    table = rows(result)["turntable_joint"]
    assert table.status is Status.FAIL and table.limits["articulated"] is False
    assert table.measured["peak_velocity"] > table.limits["allowed"]
    assert any("articulation" in h for h in table.fix_hints)
    assert rows(result)["joint1"].status is Status.PASS


def test_unrealistic_low_mass_breaks_under_load(arm_dir):
    result = run(build_arm(arm_dir / "feather.usda", joints=4, link_mass=1e-5), "effort_limit")
    assert result.status is Status.FAIL
    broken = [r for r in result.joints if r.status is Status.FAIL]
    assert len(broken) == 1 and "beyond its limits" in broken[0].reason  # stop_on_first_break
    assert any(r.status is Status.SKIP for r in result.joints[result.joints.index(broken[0]) + 1:]) or \
        broken[0] is result.joints[-1]


def test_no_articulation_is_a_precheck_failure(tmp_path):
    result = run(build_unarticulated(tmp_path / "loose.usda"), "full_range_sweep")
    assert result.status is Status.PRECHECK_FAILURE


def test_config_defaults_follow_the_specs():
    reg = default_registry()
    assert reg.get("velocity_limit").Config().tolerance_percent == 0.05
    frs = reg.get("full_range_sweep").Config()
    assert (frs.rest_tolerance, frs.zero_return_tolerance, frs.sweep_speed_scale, frs.pause_at_limits_seconds,
            frs.bbox_explode_ratio, frs.rest_check_fatal) == (0.10, 0.01, 0.8, 0.15, 10.0, True)
    dgv = reg.get("drive_gain_validation").Config()
    assert (dgv.step_magnitude_deg, dgv.max_overshoot_pct, dgv.max_settling_seconds, dgv.max_oscillations,
            dgv.settling_tolerance, dgv.step_fatal) == (30.0, 50.0, 5.0, 20, 0.05, False)
    eff = reg.get("effort_limit").Config()
    assert (eff.force_magnitude_newtons, eff.test_duration_seconds, eff.break_tolerance, eff.stop_on_first_break) == (
        10.0, 2.0, 0.10, True)
    for name in JOINT_TESTS:
        assert all(f.description for f in reg.get(name).Config.model_fields.values() if f.description is not None)
