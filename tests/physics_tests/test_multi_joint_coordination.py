"""multi_joint_coordination on real engines: every joint commanded together must reach and hold its target."""

from __future__ import annotations

import math

import pytest

from tests.fixtures import driven_arms as F
from tests.fixtures.arms import build_arm
from tests.fixtures.runs import ENGINES, require_engine, rows, run_test
from omni.simready.physics_validator.core.status import Status


@pytest.fixture(params=ENGINES)
def engine(request):
    return require_engine(request.param)


@pytest.fixture(scope="module")
def folder(tmp_path_factory):
    return tmp_path_factory.mktemp("coordination")


def test_healthy_arm_reaches_and_holds_every_configuration(folder, engine):
    result = run_test(build_arm(folder / "arm.usda", joints=3), "multi_joint_coordination", engine)
    assert result.status is Status.PASS, result.reason
    assert result.metrics["iterations"] == 3 and result.metrics["max_error_ratio"] < 1
    assert all({f"error_{i}" for i in (1, 2, 3)} <= set(r.measured) for r in result.joints)


def test_a_dead_joint_among_healthy_ones_fails(folder, engine):
    result = run_test(F.dead_drive_arm(folder / "dead.usda"), "multi_joint_coordination", engine)
    assert result.status is Status.FAIL
    by_joint = rows(result)
    assert {"DEAD_DRIVE", "NOT_CONVERGED"} <= set(by_joint["joint1"].codes)
    assert by_joint["joint1"].measured["error_ratio"] > 1 and result.metrics["max_error_ratio"] > 1
    assert by_joint["joint2"].status is Status.PASS and by_joint["joint3"].status is Status.PASS
    # a wide-range joint (+-170 deg): its targets lie in the 180 deg window around its home, and it still fails dead
    joint1 = by_joint["joint1"]
    assert joint1.limits["upper"] - joint1.limits["lower"] > math.pi
    assert joint1.limits["target_upper"] - joint1.limits["target_lower"] == pytest.approx(math.pi)


def test_ur5_overlay_with_360_degree_joints_passes(shared_assets, tmp_path):
    """NVIDIA's 0.6 of the UR5's +-360 deg ranges folds the arm into itself: its shoulder stopped 21.9 deg short (PASS
    with self-collision off), a FAIL on a sound arm. A revolute range wider than 180 deg gets its target fractions in a
    180 deg window around the joint's home, and the arm reaches every configuration."""
    from tests.fixtures.weak_drives import overlay

    ur5 = overlay(shared_assets / "erd_ur5" / "ur5.usda", tmp_path)
    result = run_test(ur5, "multi_joint_coordination", require_engine("physx"))
    assert result.status is Status.PASS, result.reason
    assert result.metrics["iterations"] == 3 and result.metrics["max_error_ratio"] < 1
    shoulder = rows(result)["shoulder_lift_joint"]
    assert shoulder.limits["upper"] - shoulder.limits["lower"] == pytest.approx(4 * math.pi)
    assert (shoulder.limits["target_lower"], shoulder.limits["target_upper"]) == pytest.approx((-math.pi / 2, math.pi / 2))


def test_one_movable_joint_is_not_applicable(folder):
    """One joint has nothing to coordinate: the test does not concern the asset (NOT_APPLICABLE, not a SKIP that
    --fail-on-skip would fail)."""
    result = run_test(F.turntable(folder / "one.usda"), "multi_joint_coordination", require_engine("physx"))
    assert result.status is Status.NOT_APPLICABLE and result.code == "ONE_MOVABLE_JOINT", result.reason


def test_two_movable_joints_with_one_drive_skip(folder):
    """Two movable joints, one of them without a drive: the test applies and cannot run (SKIP TOO_FEW_JOINTS)."""
    from tests.fixtures.arms import build_arm

    result = run_test(build_arm(folder / "half_driven.usda", joints=2, passive=(2,)), "multi_joint_coordination",
                      require_engine("physx"))
    assert result.status is Status.SKIP and result.code == "TOO_FEW_JOINTS", result.reason


def test_tolerance_is_capped_by_the_range():
    from omni.simready.physics_validator.physics_tests.driven.tracking import capped_tolerance, range_target

    assert capped_tolerance(math.radians(1), 0.05, math.radians(4)) == pytest.approx(math.radians(0.2))
    assert capped_tolerance(math.radians(1), 0.05, math.radians(90)) == pytest.approx(math.radians(1))
    assert range_target(0.0, 1.0, 0.1, 0.5) == pytest.approx(0.5) and range_target(0.0, 1.0, 0.1, 0.0) == pytest.approx(0.1)


def test_wide_revolute_ranges_get_a_window_around_home():
    from omni.simready.physics_validator.physics_tests.driven.tracking import coordination_range

    half_turn = math.pi
    assert coordination_range(-2 * math.pi, 2 * math.pi, 0.0, half_turn) == pytest.approx((-math.pi / 2, math.pi / 2))
    assert coordination_range(-1.0, 1.0, 0.5, half_turn) == (-1.0, 1.0)  # 115 deg: the whole range, as NVIDIA
    assert coordination_range(-math.pi, math.pi, 3.0, half_turn) == pytest.approx((3.0 - math.pi / 2, math.pi))  # clipped
