"""The HTML report in headless Chromium (issue 25): near-identical warnings read as one group, and the sweep's
±0.57° zero-return band is visible on a plot whose axis spans ±17°. Screenshots in $TEST_ARTIFACTS_DIR
(tmp/artifacts/): html_grouped_warnings.png, html_zero_return_band.png.

The report is built from results in memory (no engine): a sweep whose joint holds its endpoints within 5.7° and
ends 0.74° off zero (a gravity offset), with 16 forward-compatibility warnings that differ only in the joint."""

from __future__ import annotations

import io
import math

import numpy as np
import pytest

from omni.simready.physics_validator.core.results import AssetResult, JointRow, RunReport, TestResult
from omni.simready.physics_validator.core.status import Status
from omni.simready.physics_validator.physics_tests import default_registry
from omni.simready.physics_validator.reports.html import write_html_report
from tests.fixtures.recording import artifacts_dir, chromium

JOINTS = [f"joint_{i:02d}" for i in range(16)]
WARNING = ("/robot/joints/{joint}: physxJoint:maxJointVelocity = {value} (PhysxJointAPI) is honoured by Isaac Sim 5.x but not "
           "parsed by PhysX 5.12 / ovphysx 0.7; carried over to physxJointAxis:angular:maxJointVelocity for this run "
           "(physx.target=isaacsim-5). Author physxJointAxis:angular:maxJointVelocity with PhysxJointAxisAPI:angular to "
           "stay forward-compatible")
ZERO_BAND = np.array([0xE0, 0x7B, 0x00])  # full_range_sweep.plot.ZERO_BAND_COLOR


def sweep_result() -> TestResult:
    """One joint swept to +/-1.2 rad and back: off by up to 4° while moving, 0.74° off zero at the end (> 0.573°)."""
    fps, top = 60.0, 1.2
    plan = [(0.0, 1.0), (top, 1.0), (top, 0.15), (-top, 2.0), (-top, 0.15), (0.0, 1.0), (0.0, 0.6)]
    t, target, start = [], [], 0.0
    for goal, seconds in plan:
        for k in range(int(seconds * fps)):
            s = (k + 1) / (seconds * fps)
            target.append(start + (goal - start) * (s * s * (3 - 2 * s)))
            t.append(len(t) / fps)
        start = goal
    t, target = np.array(t), np.array(target)
    offset = math.radians(0.74)
    q = target - np.gradient(target, t) * 0.06 - offset  # lag while moving, a gravity offset at rest
    row = JointRow(joint="elbow", path="/robot/joints/elbow", status=Status.FAIL, code="NOT_RETURNED",
                   reason="did not return to zero: error 0.74° > zero-return tolerance 0.573°",
                   measured={"hold_error_max": 0.02, "hold_error_min": 0.02, "zero_error": offset},
                   limits={"max_target": top, "min_target": -top, "zero_target": 0.0, "rest_tolerance": 0.1,
                           "zero_return_tolerance": 0.01, "unit": "rad"},
                   units={"hold_error_max": "rad", "hold_error_min": "rad", "zero_error": "rad"})
    warnings = [WARNING.format(joint=j, value=100 + 5 * (i % 3)) for i, j in enumerate(JOINTS)]
    return TestResult(name="full_range_sweep", status=Status.FAIL, code="JOINTS_FAILED", joints=[row],
                      reason="1 of 1 joints failed the sweep: elbow: did not return to zero", warnings=warnings,
                      config={"rest_tolerance_rad": 0.1, "zero_return_tolerance_rad": 0.01},
                      series={"elbow/time": t.tolist(), "elbow/q": q.tolist(), "elbow/target": target.tolist()})


@pytest.fixture(scope="module")
def page(tmp_path_factory):
    out = tmp_path_factory.mktemp("groups")
    report = RunReport(tool_version="0.1.0", engine="physx",
                       assets=[AssetResult(path=str(out / "robot.usda"), tests=[sweep_result()])])
    index = write_html_report(report, out, default_registry())
    with chromium() as browser:
        tab = browser.new_page(viewport={"width": 1280, "height": 1000})
        tab.goto(index.resolve().as_uri())
        tab.wait_for_function("Array.from(document.images).every(i => i.complete)", timeout=10000)
        yield tab
        tab.close()


def test_near_identical_warnings_read_as_one_group(page):
    groups = page.eval_on_selector_all("details.test li.warning-group", "els => els.map(e => [e.dataset.count, e.innerText])")
    assert len(groups) == 1, groups
    count, text = groups[0]
    assert count == "16" and text.startswith("/robot/joints/joint_00: physxJoint:maxJointVelocity = 100")
    assert "the same for 15 more: " + ", ".join(JOINTS[1:]) in text
    heading = page.inner_text("details.test h4:has-text('Warnings')")
    assert heading == "Warnings (16, 1 different)"
    page.locator("details.test ul.warnings").first.screenshot(path=str(artifacts_dir() / "html_grouped_warnings.png"))


def test_the_zero_return_band_is_visible_on_the_sweep_plot(page):
    """The plot's main axis spans about ±17° (3x the 5.73° rest tolerance); the ±0.573° band would be a hairline
    there. The inset draws it at its own scale: its colour covers a visible share of the screenshot."""
    from PIL import Image

    plot = page.locator("img[src*='full_range_sweep']").first
    shot = plot.screenshot(path=str(artifacts_dir() / "html_zero_return_band.png"))
    image = np.asarray(Image.open(io.BytesIO(shot)).convert("RGB")).astype(int)
    # the band's colour at alpha 0.35 over white, as rendered and scaled in the browser
    shaded = 255 - 0.35 * (255 - ZERO_BAND)
    band = (np.abs(image - shaded).max(axis=2) < 18).mean()
    assert band > 0.01, f"the zero-return band covers {band:.2%} of the plot"
