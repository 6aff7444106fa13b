"""ground_drop's drop-height rules: 3.2.0 (NVIDIA's current, the default) drops from 2x the bounding-box height with at
least 0.1 m of fall above the touch band; the spec's 8x stays selectable. The report names the test version."""

from __future__ import annotations

import pytest

from omni.simready.physics_validator.core.results import AssetResult, RunReport
from omni.simready.physics_validator.core.status import Status
from omni.simready.physics_validator.reports.junit import report_junit
from tests.fixtures.runs import require_engine, run_test
from tests.fixtures.usd_assets import box_asset


@pytest.mark.parametrize("size, rule, bottom", [
    (0.3, "3.2.0", 0.6),  # 2 x 0.3 m
    (0.3, "spec_8x", 2.4),  # 8 x 0.3 m
    (0.05, "3.2.0", 0.2),  # 2 x 0.05 = 0.1 m is under the touch band + 0.1 m: floor_margin 0.1 + 0.1
    (0.05, "spec_8x", 0.4),
])
def test_each_rule_gives_the_documented_drop_height(tmp_path, size, rule, bottom):
    result = run_test(box_asset(tmp_path / "box.usda", size=size), "ground_drop", require_engine("physx"), drop_rule=rule)
    assert result.status is Status.PASS, result.reason
    assert result.metrics["initial_z_min"] == pytest.approx(bottom, abs=1e-4)
    assert result.version == "3.2.0" and result.config["drop_rule"] == rule


def test_the_default_is_3_2_0_and_the_report_names_the_version(tmp_path):
    result = run_test(box_asset(tmp_path / "box.usda", size=0.3), "ground_drop", require_engine("physx"))
    assert result.config["drop_rule"] == "3.2.0" and result.metrics["initial_z_min"] == pytest.approx(0.6, abs=1e-4)
    report = RunReport(assets=[AssetResult(path=str(tmp_path / "box.usda"), tests=[result])])
    assert '<property name="test_version" value="3.2.0"' in report_junit(report)
    assert report.model_dump(mode="json")["assets"][0]["tests"][0]["version"] == "3.2.0"
