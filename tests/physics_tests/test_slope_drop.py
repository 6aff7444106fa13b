"""slope_drop on real engines: a slab that slides passes; one whose friction holds it on the 45 degree ramp and one
with collisions disabled (it sinks into the ramp) fail, each with the deciding metric."""

from __future__ import annotations

import pytest

from tests.fixtures.runs import ENGINES, require_engine, run_test
from tests.fixtures.suite_assets import slope_box
from tests.fixtures.usd_assets import box_asset
from omni.simready.physics_validator.core.status import Status


@pytest.fixture(params=ENGINES)
def engine(request):
    return require_engine(request.param)


@pytest.fixture(scope="module")
def folder(tmp_path_factory):
    return tmp_path_factory.mktemp("slope")


def test_a_sliding_slab_passes(folder, engine):
    result = run_test(slope_box(folder / "slab.usda"), "slope_drop", engine)
    assert result.status is Status.PASS, result.reason
    m = result.metrics
    assert m["touched_ramp"] and m["slid"] and m["downhill_travel"] >= 0.05
    assert m["max_ramp_penetration"] < m["ramp_penetration_allowance"] and m["max_ramp_gap"] < 0.05


def test_a_slab_its_friction_holds_fails_no_slide(folder, engine):
    result = run_test(slope_box(folder / "sticky.usda", friction=2.0), "slope_drop", engine)
    assert result.status is Status.FAIL and result.code == "NO_SLIDE", result.reason
    assert result.metrics["touched_ramp"] and result.metrics["downhill_travel"] < 0.05


def test_collisions_disabled_sinks_into_the_ramp(folder, engine):
    result = run_test(slope_box(folder / "ghost.usda", collision_enabled=False), "slope_drop", engine)
    assert result.status is Status.FAIL and result.code == "SANK_INTO_RAMP", result.reason
    assert result.metrics["max_ramp_penetration"] > result.metrics["ramp_penetration_allowance"]


def test_a_world_anchored_asset_is_not_applicable(folder):
    result = run_test(box_asset(folder / "anchored.usda", anchored=True), "slope_drop", require_engine("physx"))
    assert result.status is Status.NOT_APPLICABLE and result.code == "WORLD_ANCHORED"
