"""ground_drop, second audit (issue 24, items 5-7): every part that should fall is judged, and a small object may
not hide under the floor. Each class beside its healthy twin, on physx and newton, asserting status and the
deciding metric."""

from __future__ import annotations

import pytest

from omni.simready.physics_validator.core.status import Status
from tests.fixtures import audit_assets as A
from tests.fixtures.runs import ENGINES, require_engine, run_test


@pytest.fixture(params=ENGINES)
def engine(request):
    return require_engine(request.param)


@pytest.fixture(scope="module")
def folder(tmp_path_factory):
    return tmp_path_factory.mktemp("audit_drop")


def test_a_kinematic_part_beside_a_falling_one_is_named(folder, engine):
    """Item 5: the kinematic part hung at the drop height while the box landed, and the union of their bounds read
    'at rest' (was PASS)."""
    stuck = run_test(A.box_with_a_second_part(folder / "kinematic.usda", True), "ground_drop", engine)
    assert stuck.status is Status.FAIL and stuck.code == "KINEMATIC_BODY", stuck.reason
    assert "/Asset/Part" in stuck.reason and stuck.metrics["kinematic_bodies"] == 1
    both = run_test(A.box_with_a_second_part(folder / "both_fall.usda", False), "ground_drop", engine)
    assert both.status is Status.PASS and both.metrics["rested"] is True, both.reason


def test_free_parts_of_a_world_anchored_asset_are_dropped(folder, engine):
    """Item 6: a robot welded to the world made the whole file NOT_APPLICABLE, so a tray without collisions, which
    falls through the floor, was never judged."""
    through = run_test(A.welded_arm_and_a_tray(folder / "tray_through.usda", False), "ground_drop", engine)
    assert through.status is Status.FAIL and through.code == "PENETRATED", through.reason
    assert through.metrics["free_bodies"] == 1
    assert through.metrics["max_penetration"] > through.metrics["sink_allowance"]
    resting = run_test(A.welded_arm_and_a_tray(folder / "tray_ok.usda", True), "ground_drop", engine)
    assert resting.status is Status.PASS and resting.metrics["rested"] is True, resting.reason
    assert resting.metrics["max_penetration"] < resting.metrics["sink_allowance"]


def test_a_small_cube_may_not_sink_out_of_sight(folder, engine):
    """Item 7: a 4 cm cube resting 7 cm into the floor (top 3 cm under it) passed the fixed 0.1 m margin."""
    sunk = run_test(A.small_cube(folder / "sunk.usda", True), "ground_drop", engine)
    assert sunk.status is Status.FAIL and sunk.code == "PENETRATED", sunk.reason
    assert sunk.metrics["sink_allowance"] == pytest.approx(0.02, rel=1e-3)  # half its 4 cm extent
    assert sunk.metrics["max_penetration"] > sunk.metrics["sink_allowance"]
    resting = run_test(A.small_cube(folder / "cube.usda", False), "ground_drop", engine)
    assert resting.status is Status.PASS, resting.reason
    assert resting.metrics["max_penetration"] < 0.002
