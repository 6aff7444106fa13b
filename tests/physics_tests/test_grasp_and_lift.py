"""grasp_and_lift on real engines, on a block prop with two grasp lines (tests/fixtures/manipulation.py): at 0.3 kg it is
held along both and released; at 60 kg no two-finger squeeze (capped at 235 N, a Robotiq 2F-85's most) lifts it;
with friction 0.05 it slides out on PhysX (the pads combine by 'min'); without grasp lines the test skips and says why."""

from __future__ import annotations

import pytest

from omni.simready.physics_validator.core.status import Status
from tests.fixtures.manipulation import build_prop
from tests.fixtures.runs import ENGINES, require_engine, rows, run_test


@pytest.fixture(params=ENGINES)
def engine(request):
    return require_engine(request.param)


@pytest.fixture(scope="module")
def folder(tmp_path_factory):
    return tmp_path_factory.mktemp("props")


def test_a_light_prop_is_held_and_a_too_heavy_one_is_not(folder, engine):
    light = run_test(build_prop(folder / "light.usda"), "grasp_and_lift", engine)
    assert light.status is Status.PASS, light.reason
    assert light.metrics["lines_held"] == 2 and light.metrics["min_line_slip"] < 0.005
    assert all(row.measured["fall"] > 0.05 for row in light.joints)
    heavy = run_test(build_prop(folder / "heavy.usda", mass=60.0), "grasp_and_lift", engine)
    assert heavy.status is Status.FAIL and heavy.code == "ALL_LINES_FAILED", heavy.reason
    assert heavy.metrics["lines_held"] == 0 and heavy.metrics["jaw_force_capped"] is True  # the deciding metrics
    assert {row.code for row in heavy.joints} <= {"NOT_LIFTED", "DROPPED", "SLIPPED"}


def test_a_slippery_prop_slides_out_physx(folder):
    ice = run_test(build_prop(folder / "ice.usda", friction=0.05), "grasp_and_lift", "physx")
    assert ice.status is Status.FAIL and ice.metrics["lines_held"] == 0, ice.reason
    assert rows(ice)["grasp_identifier_0"].code in ("NOT_LIFTED", "DROPPED", "SLIPPED")


def test_a_prop_without_grasp_lines_skips_with_the_reason(folder):
    result = run_test(build_prop(folder / "bare.usda", lines=False), "grasp_and_lift", "physx")
    assert result.status is Status.SKIP and result.code == "NO_GRASP_LINES"
    assert "grasp_identifier" in result.reason


@pytest.mark.parametrize("drives", [True, False])
def test_an_arm_without_grasp_lines_is_not_applicable(folder, drives):
    """A robot is no prop: without lines it is NOT_APPLICABLE (not a SKIP that would leave every arm INCOMPLETE), driven
    or as a URDF import arrives (no drives); the prop without lines above still SKIPs."""
    from tests.fixtures.arms import build_arm

    asset = build_arm(folder / f"arm_{drives}.usda", joints=3, world_anchor=True, passive=() if drives else (1, 2, 3))
    result = run_test(asset, "grasp_and_lift", "physx")
    assert result.status is Status.NOT_APPLICABLE and result.code == "NOT_A_PROP", result.reason
