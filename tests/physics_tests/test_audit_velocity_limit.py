"""velocity_limit, second audit (issue 24, item 10 and the neighbour row): each class beside its healthy twin,
asserting status and the deciding metric, on physx and newton."""

from __future__ import annotations

import pytest

from omni.simready.physics_validator.core.status import Status
from tests.fixtures import audit_assets as A
from tests.fixtures.runs import ENGINES, require_engine, rows, run_test


@pytest.fixture(params=ENGINES)
def engine(request):
    return require_engine(request.param)


@pytest.fixture(scope="module")
def folder(tmp_path_factory):
    return tmp_path_factory.mktemp("audit_velocity")


def test_an_unlimited_joint_is_driven_even_when_its_far_target_is_a_whole_turn(folder, engine):
    """Item 10: with a 90°/s cap the far target was exactly one turn, the runtime read it as no move, the turntable
    read as a dead drive and the test PASSed on the other joint although its cap is not enforced (outside the
    articulation). It must move, and its overspeed show."""
    outside = run_test(A.unlimited_turntable_outside_articulation(folder / "outside.usda"), "velocity_limit", engine)
    row = rows(outside)["turntable_joint"]
    assert outside.status is Status.FAIL and row.code == "OVERSPEED_OUTSIDE_ARTICULATION", outside.reason
    assert row.measured["ratio"] > 2.0 and row.measured["follow"] > 1.0
    inside = run_test(A.unlimited_turntable(folder / "inside.usda"), "velocity_limit", engine)
    assert inside.status is Status.PASS, inside.reason
    assert 0.9 <= rows(inside)["joint"].measured["ratio"] <= 1.05


def test_each_joint_is_judged_from_a_pose_where_it_is_free_to_move(folder, engine):
    """The neighbour row: the flap, tested first and left down at its far end, stood in the slide's way (the slide
    followed 8 % of its move before). Each joint now goes back home before the next one is judged."""
    result = run_test(A.flap_over_a_slide(folder / "flap.usda"), "velocity_limit", engine)
    assert result.status is Status.PASS, result.reason
    slide = rows(result)["slide"]
    assert slide.status is Status.PASS and slide.measured["follow"] > 0.9


def test_a_velocity_drive_is_commanded_by_velocity_and_never_called_dead(folder, engine):
    """Item 11: a drive with stiffness 0 and damping > 0 ignores position targets; commanded with them its cap was
    never exercised and the joint read as a dead drive beside a PASS. Outside the articulation PhysX does not enforce
    its cap, so driven by velocity it overspeeds; in an articulation it holds its cap."""
    outside = run_test(A.velocity_drive_turntable_outside_articulation(folder / "vel_outside.usda"), "velocity_limit",
                       engine)
    row = rows(outside)["turntable_joint"]
    assert outside.status is Status.FAIL and row.code.startswith("OVERSPEED"), outside.reason
    assert row.measured["follow"] > 0.9 and "DEAD_DRIVE" not in row.codes
    inside = run_test(A.velocity_drive_turntable(folder / "vel_inside.usda"), "velocity_limit", engine)
    assert inside.status is Status.PASS, inside.reason
    assert 0.9 <= rows(inside)["joint"].measured["ratio"] <= 1.05


@pytest.mark.parametrize("test", ["full_range_sweep", "drive_gain_validation", "effort_limit"])
def test_position_tests_leave_a_velocity_drive_out_saying_why(folder, test):
    """Item 11: the tests that command positions cannot exercise a velocity drive: excluded as such, not dead."""
    result = run_test(A.velocity_drive_turntable(folder / f"vel_{test}.usda"), test, "physx")
    assert result.status is Status.SKIP, result.reason
    (excluded,) = result.excluded_joints
    assert excluded.code == "VELOCITY_DRIVE" and "velocity" in excluded.why
    assert not any("DEAD_DRIVE" in r.codes for r in result.joints)
