"""Console progress of a run: one line per finished test in a log, a live bar on a terminal."""

from __future__ import annotations

import io

from rich.console import Console

from omni.simready.physics_validator.reports.progress import BatchProgress
from omni.simready.physics_validator.core.results import AssetResult, TestResult
from omni.simready.physics_validator.core.status import Status


def drive(progress: BatchProgress) -> None:
    results = [
        TestResult(name="ground_drop", status=Status.PASS, reason="at rest 2.02 s after first contact", wall_seconds=1.5),
        TestResult(name="velocity_limit", status=Status.FAIL, reason="joint2 peak 3.1 rad/s > 2.2 rad/s " + "x" * 200),
    ]
    progress.batch_started(2, "2 local workers")
    for result in results:
        progress.test_finished("/assets/robots/arm.usda", result)
    progress.asset_finished(AssetResult(path="/assets/robots/arm.usda", tests=results))
    crashed = TestResult(name="ground_drop", status=Status.ERROR, reason="engine crashed")
    progress.test_finished("/assets/objects/mug.usda", crashed)
    progress.asset_finished(AssetResult(path="/assets/objects/mug.usda", tests=[crashed]))
    progress.close()


def test_not_a_terminal_prints_one_line_per_asset_and_a_total():
    out = io.StringIO()
    drive(BatchProgress(Console(file=out, force_terminal=False, width=80)))
    lines = out.getvalue().splitlines()
    assert lines[0].startswith("2 assets, 2 local workers")
    asset_lines = lines[1:-1]
    assert len(asset_lines) == 2  # one per asset, not one per test
    assert asset_lines[0].startswith("[1/2] FAIL") and "robots/arm.usda  failing: velocity_limit" in asset_lines[0]
    assert asset_lines[1].startswith("[2/2] ERROR") and "objects/mug.usda  failing: ground_drop" in asset_lines[1]
    assert "2/2 assets, 2 failed" in lines[-1]
    assert "\x1b" not in out.getvalue()  # no live display or colour codes in a log


def test_one_asset_is_singular():
    out = io.StringIO()
    progress = BatchProgress(Console(file=out, force_terminal=False, width=80))
    progress.batch_started(1, "1 local worker")
    progress.asset_finished(AssetResult(path="/a/mug.usda", tests=[TestResult(name="ground_drop", status=Status.PASS)]))
    progress.close()
    text = out.getvalue()
    assert "1 asset," in text and "1/1 asset," in text and "assets" not in text


def test_a_pass_with_warnings_is_marked_in_the_progress_lines():
    out = io.StringIO()
    progress = BatchProgress(Console(file=out, force_terminal=False, width=80), per_test_lines=True)
    warned = TestResult(name="effort_limit", status=Status.PASS, warnings=["j1: drive too weak"] * 8)
    progress.test_finished("/a/robot.usda", warned)
    assert out.getvalue().startswith("PASS* ")


def test_terminal_shows_a_live_bar_and_closes_it():
    out = io.StringIO()
    progress = BatchProgress(Console(file=out, force_terminal=True, width=120))
    assert progress.live
    drive(progress)
    text = out.getvalue()
    assert "ground_drop" in text and "velocity_limit" in text
    assert not progress.showing  # the live bar was stopped
