"""Console progress: one line per finished test when not on a terminal, a live display on one."""

from __future__ import annotations

import io

from rich.console import Console

from omni.simready.physics_validator.core.results import AssetResult, TestResult
from omni.simready.physics_validator.core.status import Status
from omni.simready.physics_validator.reports.progress import ConsoleProgress


def drive(progress: ConsoleProgress) -> None:
    results = [
        TestResult(name="ground_drop", status=Status.PASS, reason="at rest 2.02 s after first contact", wall_seconds=1.5),
        TestResult(name="velocity_limit", status=Status.FAIL, reason="joint2 peak 3.1 rad/s > 2.2 rad/s " + "x" * 200),
    ]
    progress.asset_started("/assets/robots/arm.usda", 1, 2)
    for result in results:
        progress.test_started(result.name)
        progress.test_finished(result)
    progress.asset_finished(AssetResult(path="/assets/robots/arm.usda", tests=results))
    progress.asset_started("/assets/objects/mug.usda", 2, 2)
    progress.asset_finished(AssetResult(path="/assets/objects/mug.usda", error="worker crashed"))
    progress.close()


def test_not_a_terminal_prints_exactly_one_line_per_test():
    out = io.StringIO()
    drive(ConsoleProgress(Console(file=out, force_terminal=False, width=200)))
    lines = out.getvalue().splitlines()
    test_lines = [line for line in lines if " :: " in line]
    assert len(test_lines) == 2
    assert test_lines[0].startswith("PASS") and "robots/arm.usda :: ground_drop" in test_lines[0]
    assert test_lines[1].startswith("FAIL") and "velocity_limit" in test_lines[1]
    assert len(test_lines[1]) < 200  # long reasons are cut
    assert any("asset problem" in line and "worker crashed" in line for line in lines)
    assert "\x1b" not in out.getvalue()  # no live display or colour codes in a log


def test_terminal_shows_a_live_display_and_the_same_lines():
    out = io.StringIO()
    progress = ConsoleProgress(Console(file=out, force_terminal=True, width=120))
    assert progress.live
    drive(progress)
    text = out.getvalue()
    assert "ground_drop" in text and "velocity_limit" in text
    assert "asset 1/2" in text  # the live line named the asset being validated
    assert progress._progress is None  # closed
