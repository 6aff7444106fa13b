"""full_range_sweep, second audit (issue 24, items 8 and 9): the return to zero judged over a window, and an
explosion watch a flat start cannot fool; each class beside its healthy twin, asserting status and deciding metric."""

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
    return tmp_path_factory.mktemp("audit_sweep")


def test_a_drive_ringing_around_zero_fails_whatever_the_phase_of_the_last_frame(folder, engine):
    """Item 8: undamped, the joint rings in and out of the band; one sample decided by its phase (was PASS or FAIL).
    Newton's implicit drive damps an undamped drive (it settles within the 2 s), so the ring is physx's alone."""
    if engine == "physx":
        ringing = run_test(A.ringing_turntable(folder / "ringing.usda", damping=0.0), "full_range_sweep", engine)
        row = rows(ringing)["joint"]
        assert ringing.status is Status.FAIL and row.code == "NOT_RETURNED", ringing.reason
        assert row.measured["zero_error"] > row.limits["zero_return_tolerance"]
    damped = run_test(A.ringing_turntable(folder / "damped.usda", damping=0.7), "full_range_sweep", engine)
    assert damped.status is Status.PASS, damped.reason
    assert rows(damped)["joint"].measured["zero_error"] <= rows(damped)["joint"].limits["zero_return_tolerance"]


def test_a_lid_opening_from_flat_is_not_an_explosion(folder, engine):
    """Item 9: its box's volume grows more than tenfold as it opens (was FAIL 'exploded')."""
    result = run_test(A.flat_lid(folder / "lid.usda"), "full_range_sweep", engine)
    assert result.status is Status.PASS, result.reason
    assert result.metrics["bbox_max_ratio"] > 10  # what the volume rule called an explosion
    assert result.metrics["bbox_max_excursion"] < result.metrics["reach_allowance"]


def test_a_part_that_breaks_loose_still_explodes(folder):
    """Item 9's other side: a joint that breaks (physics:breakForce) lets its plate fall away: every driven-joint
    test FAILs it as exploded (physx; newton does not break joints)."""
    path = A.arm_with_a_breaking_joint(folder / "breaking.usda")
    for test in ("full_range_sweep", "velocity_limit", "drive_gain_validation", "effort_limit"):
        result = run_test(path, test, "physx")
        assert result.status is Status.FAIL, (test, result.reason)
        assert any("EXPLODED" in r.codes for r in result.joints), (test, result.reason)
        assert "simulation exploded" in result.reason
