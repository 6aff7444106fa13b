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
