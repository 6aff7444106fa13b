"""The console summary: one line per asset in a log or pipe, a table on a terminal, PASS* for a PASS with warnings."""

from __future__ import annotations

import io
import re

from rich.console import Console

from omni.simready.physics_validator.core.results import AssetResult, RunReport, TestResult
from omni.simready.physics_validator.core.status import Status
from omni.simready.physics_validator.reports.console import print_summary, short_name

TESTS = ("ground_drop", "velocity_limit", "full_range_sweep", "drive_gain_validation", "effort_limit")


def library(count: int = 28) -> RunReport:
    """A library like the shared corpus: mostly passing or not applicable, two failing robots, one broken file,
    one robot whose effort_limit passes with 8 warnings."""
    assets = []
    for i in range(count):
        folder = f"/work/shared/assets/some_rather_long_vendor_folder_{i:02d}"
        tests = [TestResult(name=name, status=Status.NOT_APPLICABLE, reason="no revolute or prismatic joint") for name in TESTS]
        tests[0] = TestResult(name="ground_drop", status=Status.PASS, reason="at rest 2.02 s after first contact")
        if i in (3, 17):  # a failing robot: two failing rows
            tests[2] = TestResult(name="full_range_sweep", status=Status.FAIL, reason="2 of 8 joints failed the sweep [x]")
            tests[4] = TestResult(name="effort_limit", status=Status.FAIL, reason="1 joint broke under load")
        if i == 9:  # a broken file: five identical precheck reasons read once
            tests = [TestResult(name=name, status=Status.PRECHECK_FAILURE, reason="unloadable asset: empty file") for name in TESTS]
        if i == 12:
            tests[4] = TestResult(name="effort_limit", status=Status.PASS, reason="held",
                                  warnings=[f"joint{j}: drive too weak" for j in range(8)])
        if i == 20:
            tests[1] = TestResult(name="velocity_limit", status=Status.SKIP, reason="no driven joint has a velocity limit")
        assets.append(AssetResult(path=f"{folder}/robot_{i:02d}.usda", tests=tests))
    return RunReport(tool_version="0.1.0", engine="physx", assets=assets)


def printed(report: RunReport, terminal: bool, width: int = 80, **kw) -> list[str]:
    out = io.StringIO()
    print_summary(report, Console(file=out, force_terminal=terminal, width=width), **kw)
    return out.getvalue().splitlines()


def test_not_a_terminal_prints_one_line_per_asset_and_the_failing_reasons():
    report = library()
    lines = printed(report, terminal=False)
    failing_rows = 2 + 2 + 1  # two robots x two failing tests, one broken file (its five identical reasons once)
    assert len(lines) == len(report.assets) + failing_rows + 2  # + title and totals
    assert lines[0] == "simready-physics 0.1.0 on physx: 28 assets"
    assert lines[-1].startswith("28 assets: PASS: ")
    for asset in report.assets:  # the short name whole on its line: never split mid-word at 80 columns
        assert sum(short_name(asset.path) in line for line in lines) == 1
    robot = next(line for line in lines if "robot_03.usda" in line)
    assert robot.startswith("FAIL ") and robot.endswith("failing: full_range_sweep, effort_limit")
    reasons = lines[lines.index(robot) + 1:lines.index(robot) + 3]
    assert reasons == ["    full_range_sweep FAIL: 2 of 8 joints failed the sweep [x]", "    effort_limit FAIL: 1 joint broke under load"]
    broken = lines.index(next(line for line in lines if "robot_09.usda" in line))
    assert lines[broken].startswith("PRECHECK_FAILURE")
    assert lines[broken + 1] == f"    {', '.join(TESTS)} PRECHECK_FAILURE: unloadable asset: empty file"
    assert "\x1b" not in "\n".join(lines)


def test_a_pass_with_warnings_reads_pass_star():
    lines = printed(library(), terminal=False)
    marked = next(line for line in lines if "robot_12.usda" in line)
    assert marked.startswith("PASS* ") and marked.endswith("effort_limit: PASS with 8 warnings")
    assert "(PASS*: 1 with warnings)" in lines[-1]
    clean = next(line for line in lines if "robot_00.usda" in line)
    assert clean.startswith("PASS ") and "warning" not in clean


def test_fail_on_skip_lists_the_skipped_rows_as_failing():
    report = library()
    assert not any("failing" in line for line in printed(report, terminal=False) if "robot_20.usda" in line)
    lines = printed(report, terminal=False, fail_on_skip=True)
    skipped = lines.index(next(line for line in lines if "robot_20.usda" in line))
    assert lines[skipped].endswith("failing: velocity_limit")
    assert lines[skipped + 1] == "    velocity_limit SKIP: no driven joint has a velocity limit"


def test_terminal_gets_the_table_with_the_same_short_names_and_marker():
    report = library(3)
    report.assets[1].tests[4] = TestResult(name="effort_limit", status=Status.PASS, warnings=["w"] * 8)
    text = re.sub(r"\x1b\[[0-9;]*m", "", "\n".join(printed(report, terminal=True, width=160)))
    assert "┃ asset" in text and "some_rather_long_vendor_folder_01/robot_01.usda" in text
    assert "PASS*" in text and "PASS with 8 warnings" in text
    assert "/work/shared" not in text  # short names, as in the progress lines


def test_one_asset_is_singular():
    report = RunReport(assets=[AssetResult(path="/a/mug.usda", tests=[TestResult(name="ground_drop", status=Status.PASS)])])
    lines = printed(report, terminal=False)
    assert lines[0].endswith(": 1 asset") and lines[-1].startswith("1 asset: PASS: 1")


def test_short_name_is_folder_and_file():
    assert short_name("/work/shared/assets/pb_mug/floating_base.usda") == "pb_mug/floating_base.usda"
    assert short_name("crate.usda") == "crate.usda"
