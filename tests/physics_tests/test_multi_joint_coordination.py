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


def test_one_joint_is_nothing_to_coordinate(folder):
    result = run_test(F.turntable(folder / "one.usda"), "multi_joint_coordination", require_engine("physx"))
    assert result.status is Status.SKIP and result.code == "TOO_FEW_JOINTS"


def test_tolerance_is_capped_by_the_range():
    from omni.simready.physics_validator.physics_tests.driven.tracking import capped_tolerance, range_target

    assert capped_tolerance(math.radians(1), 0.05, math.radians(4)) == pytest.approx(math.radians(0.2))
    assert capped_tolerance(math.radians(1), 0.05, math.radians(90)) == pytest.approx(math.radians(1))
    assert range_target(0.0, 1.0, 0.1, 0.5) == pytest.approx(0.5) and range_target(0.0, 1.0, 0.1, 0.0) == pytest.approx(0.1)
