"""effort_limit, second audit (issue 24, items 1-4): four classes of asset that got a wrong verdict, each beside its
healthy twin, on physx and newton. Each case asserts the status and the metric that decides it."""

from __future__ import annotations

import math

import pytest

from omni.simready.physics_validator.core.status import Status
from tests.fixtures import audit_assets as A
from tests.fixtures.runs import ENGINES, require_engine, rows, run_test

HALF_TURN_ALLOWANCE = 0.1 * math.pi  # 10 % of the largest range counted (180°): 18°


@pytest.fixture(params=ENGINES)
def engine(request):
    return require_engine(request.param)


@pytest.fixture(scope="module")
def folder(tmp_path_factory):
    return tmp_path_factory.mktemp("audit_effort")


def test_a_wide_range_joint_that_visibly_gives_way_fails(folder, engine):
    """Item 1: +-360° allowed 72° of give; a weak drive turning ~22° under the load PASSed."""
    weak = rows(run_test(A.wide_range_turntable(folder / "wide_weak.usda", 1.0), "effort_limit", engine))["joint"]
    assert weak.status is Status.FAIL and weak.code == "GAVE_WAY", weak.reason
    assert weak.limits["deflection_tolerance"] == pytest.approx(HALF_TURN_ALLOWANCE)
    assert weak.measured["max_deflection"] > HALF_TURN_ALLOWANCE
    strong = run_test(A.wide_range_turntable(folder / "wide_strong.usda", 200.0), "effort_limit", engine)
    assert strong.status is Status.PASS, strong.reason
    assert rows(strong)["joint"].measured["max_deflection"] < HALF_TURN_ALLOWANCE / 10


def test_a_joint_authored_child_to_parent_loads_its_moving_body(folder, engine):
    """Item 2: body0 = the plate, body1 = the pinned base: the load went to the base and a dead drive was not caught."""
    if engine == "newton":
        pytest.skip("newton roots the tree at a joint's body0 and pins that body (the plate), so the base hangs from "
                    "the joint: docs/engine-divergences.md S19")
    dead = run_test(A.reversed_turntable(folder / "reversed_dead.usda", A.DEAD_MAX_FORCE), "effort_limit", engine)
    assert dead.status is Status.FAIL, dead.reason
    row = rows(dead)["joint"]
    assert row.limits["loaded_body"] == "/Robot/child"
    assert row.measured["max_deflection"] > row.limits["deflection_tolerance"]
    healthy = run_test(A.reversed_turntable(folder / "reversed_ok.usda"), "effort_limit", engine)
    assert healthy.status is Status.PASS, healthy.reason
    assert rows(healthy)["joint"].limits["loaded_body"] == "/Robot/child"
    assert rows(healthy)["joint"].measured["lever_arm"] > 0.2


def test_a_roll_joint_is_loaded_through_the_tool_welded_to_it(folder, engine):
    """Item 3: its own link has no collider and sits on the axis; the load at its centre of mass gave no torque."""
    dead = run_test(A.roll_joint_with_welded_tool(folder / "roll_dead.usda", A.DEAD_MAX_FORCE), "effort_limit", engine)
    assert dead.status is Status.FAIL, dead.reason
    row = rows(dead)["joint"]
    assert row.limits["loaded_body"] == "/Robot/tool"
    assert row.measured["lever_arm"] > 0.2 and row.limits["load_torque"] > 2.0
    healthy = run_test(A.roll_joint_with_welded_tool(folder / "roll_ok.usda"), "effort_limit", engine)
    assert healthy.status is Status.PASS, healthy.reason
    assert rows(healthy)["joint"].limits["loaded_body"] == "/Robot/tool"


def test_a_joint_no_load_can_turn_is_not_judged(folder, engine):
    """Item 3: with nothing off the axis there is no torque to apply: a SKIP row saying why, never a PASS."""
    result = run_test(A.roll_joint_on_axis(folder / "on_axis.usda"), "effort_limit", engine)
    assert result.status is Status.SKIP, result.reason
    row = rows(result)["joint"]
    assert row.status is Status.SKIP and row.code == "NO_LEVER_ARM"


def test_a_slider_held_by_a_velocity_cap_is_not_judged(folder, engine):
    """Item 4: 10 N against a 1 N drive, yet it barely moves: the cap holds it, not the drive (was PASS: the load's
    force was taken as a torque, 10 N x the centre of mass's distance from the axis)."""
    held = run_test(A.slider(folder / "slider_held.usda", True), "effort_limit", engine)
    row = rows(held)["joint"]
    if engine == "newton" and row.status is Status.FAIL:
        pytest.skip("newton does not hold a joint at a velocity cap against a load (it gives way): nothing to judge")
    assert held.status is Status.SKIP and row.code == "HELD_BY_OTHER", held.reason
    assert row.limits["load_torque"] == pytest.approx(10.0) and row.units["load_torque"] == "N"
    healthy = run_test(A.slider(folder / "slider_ok.usda", False), "effort_limit", engine)
    assert healthy.status is Status.PASS, healthy.reason
    assert rows(healthy)["joint"].measured["max_deflection"] < rows(healthy)["joint"].limits["deflection_tolerance"]
