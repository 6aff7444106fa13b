"""state_accuracy on real engines: the healthy arm holds every waypoint; a joint that cannot move fails with the
deciding metric, also where NVIDIA's absolute 5 deg tolerance (0.087 in metres on a prismatic joint) would pass it."""

from __future__ import annotations

import math

import pytest

from tests.fixtures import driven_arms as F
from tests.fixtures.arms import build_arm
from tests.fixtures.runs import ENGINES, require_engine, rows, run_test
from tests.fixtures.suite_assets import stuck_finger
from omni.simready.physics_validator.core.status import Status


@pytest.fixture(params=ENGINES)
def engine(request):
    return require_engine(request.param)


@pytest.fixture(scope="module")
def folder(tmp_path_factory):
    return tmp_path_factory.mktemp("state_accuracy")


def test_healthy_arm_holds_every_waypoint(folder, engine):
    result = run_test(build_arm(folder / "arm.usda", joints=3), "state_accuracy", engine)
    assert result.status is Status.PASS, result.reason
    assert result.metrics["joints_passed"] == 3 and result.metrics["max_error_ratio"] < 0.5
    for row in result.joints:
        assert row.limits["tolerance"] == pytest.approx(min(math.radians(5), 0.25 * math.radians(15)))
        assert row.measured["min_follow"] > 0.9  # each step was really made


def test_dead_drive_fails_off_target(folder, engine):
    result = run_test(F.dead_drive_arm(folder / "dead.usda"), "state_accuracy", engine)
    assert result.status is Status.FAIL
    joint1 = rows(result)["joint1"]
    assert {"DEAD_DRIVE", "OFF_TARGET"} <= set(joint1.codes)
    assert joint1.measured["error_ratio"] > 1 and result.metrics["max_error_ratio"] > 1


def test_stuck_prismatic_finger_fails_where_an_absolute_tolerance_passes_it(folder, engine):
    """A 5 cm finger whose drive pushes 1 uN: the 5 mm step never happens. NVIDIA's 5 deg tolerance is 0.087 'm' here."""
    result = run_test(stuck_finger(folder / "stuck.usda"), "state_accuracy", engine)
    assert result.status is Status.FAIL, result.reason
    row = rows(result)["joint"]
    assert row.limits["tolerance"] == pytest.approx(0.25 * 0.005)  # a quarter of the 5 mm step
    assert row.limits["tolerance"] < row.measured["max_error"] < math.radians(5)
    assert "DEAD_DRIVE" in row.codes


def test_scenery_the_asset_carries_is_said(folder):
    """A static collider in the asset (an MJCF scene's floor) is named in a warning: pinned where it is authored, a
    robot resting on its own floor cannot move into it (the gym hopper's leg FAILs with its floor and PASSes without)."""
    from pxr import UsdGeom, UsdPhysics

    from tests.fixtures.driven_arms import edit_usd

    def add_floor(stage):
        plane = UsdGeom.Plane.Define(stage, "/Robot/floor")
        plane.CreateAxisAttr().Set("Z")
        plane.AddTranslateOp().Set((0.0, 0.0, -5.0))
        UsdPhysics.CollisionAPI.Apply(plane.GetPrim())

    path = edit_usd(build_arm(folder / "floored.usda", joints=2), add_floor)
    result = run_test(path, "state_accuracy", require_engine("physx"))
    assert result.status is Status.PASS, result.reason  # far below: it blocks nothing, and is said
    assert any("static collider /Robot/floor (plane)" in w for w in result.warnings)
