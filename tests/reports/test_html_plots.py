"""Each driven-joint test gets its own plot in the HTML report, drawn from the series it recorded on
a real run (a two-joint arm on the physx engine; no video needed), and its joint table."""

from __future__ import annotations

import re

import pytest

from tests.fixtures.arms import build_arm
from omni.simready.physics_validator.physics_tests import default_registry
from omni.simready.physics_validator.core.config import ValidationConfig
from omni.simready.physics_validator import validate
from omni.simready.physics_validator.reports.html import write_html_report

pytestmark = pytest.mark.usefixtures("physx_available")

CAPTIONS = {
    "full_range_sweep": "tracking error near each hold (shaded) against ±rest_tolerance",
    "drive_gain_validation": "step response with the settling band and the overshoot limit",
    "velocity_limit": "|velocity| per joint against its limit and the tolerance line",
    "effort_limit": "largest deflection per force direction against break_tolerance × range",
}


@pytest.fixture(scope="module")
def arm_report(tmp_path_factory):
    root = tmp_path_factory.mktemp("arm")
    arm = build_arm(root / "arm.usda", joints=2)
    config = ValidationConfig.defaults(default_registry())
    config.run.isolate = False
    config.run.video = False
    report = validate([str(arm)], list(CAPTIONS), config, "physx", root / "out")
    return report, write_html_report(report, root / "out", default_registry())


def section(html: str, test: str) -> str:
    start = re.search(f'<details class="test" id="[^"]*" data-test="{test}"', html).start()
    end = html.find("<details class=\"test\"", start + 1)
    return html[start: end if end > 0 else len(html)]


@pytest.mark.parametrize("test", list(CAPTIONS))
def test_each_joint_test_has_its_own_plot_and_joint_table(arm_report, test):
    report, index = arm_report
    result = next(r for r in report.all_results() if r.name == test)
    assert result.status.value in ("PASS", "WARN", "FAIL"), result.reason  # it ran
    assert result.series, "the test recorded no series"
    part = section(index.read_text(), test)
    assert CAPTIONS[test] in part
    images = re.findall(r'<img src="([^"]+)"', part)
    assert images and all((index.parent / src).is_file() for src in images)
    rows = re.findall(r'<tr data-joint="([^"]+)" data-status="([^"]+)"', part)
    assert {(j.joint, j.status.value) for j in result.joints} == set(rows)


def test_generic_plot_for_an_unknown_test(tmp_path):
    from omni.simready.physics_validator.core.results import TestResult
    from omni.simready.physics_validator.core.status import Status
    from omni.simready.physics_validator.reports.plots import write_plots

    result = TestResult(name="third_party_check", status=Status.PASS)
    series = {"a/time": [0, 1, 2], "a/value": [1, 2, 3], "b/time": [0, 1], "b/x": [0, 1], "b/y": [1, 0]}
    plots = write_plots(result, series, tmp_path, "third")
    assert len(plots) == 1 and plots[0]["title"] == "Recorded series" and plots[0]["path"].stat().st_size > 1000
