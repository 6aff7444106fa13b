"""HTML report of unusual runs: interrupted, an asset that never ran, non-finite metrics, hostile text."""

from __future__ import annotations

import math
import re

from omni.simready.physics_validator.core.results import AssetResult, JointRow, RunReport, TestResult
from omni.simready.physics_validator.core.status import Status
from omni.simready.physics_validator.reports.html import write_html_report
from omni.simready.physics_validator.physics_tests import default_registry


def test_interrupted_run_with_a_crashed_asset_and_hostile_text(tmp_path):
    report = RunReport(
        engine="physx",
        complete=False,
        not_run=["/a/late.usda::ground_drop", "/a/late.usda::effort_limit"],
        assets=[
            AssetResult(
                path="/a/robot.usda",
                tests=[
                    TestResult(name="ground_drop", status=Status.ERROR, reason="<script>alert(1)</script> hang",
                               metrics={"max_penetration": math.nan, "touch_time": math.inf}),
                    TestResult(name="velocity_limit", status=Status.WARN, reason="joint2 slow",
                               joints=[JointRow(joint="joint2", status=Status.WARN, measured={"peak_velocity": 1.0},
                                                limits={"allowed": 2.1, "unit": "rad/s"})]),
                ],
            ),
            AssetResult(path="/a/broken.usda", error="engine crashed: the worker process died (SIGSEGV)"),
        ],
    )
    html = write_html_report(report, tmp_path, default_registry()).read_text()
    assert "<script>alert(1)</script>" not in html and "&lt;script&gt;" in html
    assert "This run was interrupted: 2 test(s) did not run." in html
    assert "/a/late.usda::effort_limit" in html
    cells = re.findall(r'<td class="[^"]*" data-asset="([^"]+)" data-test="([^"]+)" data-status="([^"]*)"', html)
    assert ("/a/robot.usda", "ground_drop", "ERROR") in cells
    assert ("/a/broken.usda", "ground_drop", "") in cells and ("/a/broken.usda", "velocity_limit", "") in cells
    assert "engine crashed: the worker process died (SIGSEGV)" in html
    assert re.search(r'data-metric="max_penetration"><th>max_penetration</th><td class="value">nan</td>', html)
    # The measured velocity is shown next to the limit it is judged against, in degrees per second.
    assert "peak_velocity <b>57.3°/s</b> / allowed 120°/s" in html
