"""The console summary: one line per asset in a log or pipe, a table on a terminal, PASS* for a PASS with warnings.

Every test that did not PASS prints its reason and first hint in both shapes, with the `fix` command to try when
the test's fix rules say `fix` addresses it (decided from codes); asset rows say what was tested; counts are of
tests. Non-terminal output is asserted line by line.
"""

from __future__ import annotations

import io
import re

from rich.console import Console

from omni.simready.physics_validator.core.quantities import listed
from omni.simready.physics_validator.core.results import AssetResult, ExcludedJoint, JointRow, RunReport, TestResult
from omni.simready.physics_validator.core.status import Status
from omni.simready.physics_validator.physics_tests import default_registry
from omni.simready.physics_validator.reports.console import asset_label, print_summary, short_name

TESTS = ("ground_drop", "velocity_limit", "full_range_sweep", "drive_gain_validation", "effort_limit")
REGISTRY = default_registry()


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
            tests = [TestResult(name=name, status=Status.PRECHECK_FAILURE,
                                reason="unloadable asset: empty file") for name in TESTS]
        if i == 12:
            tests[4] = TestResult(name="effort_limit", status=Status.PASS, reason="held",
                                  warnings=[f"joint{j}: drive too weak" for j in range(8)])
        if i == 20:
            tests[1] = TestResult(name="velocity_limit", status=Status.SKIP, reason="no driven joint has a velocity limit")
        assets.append(AssetResult(path=f"{folder}/robot_{i:02d}.usda", tests=tests))
    return RunReport(tool_version="0.1.0", engine="physx", assets=assets)


def drive_less_robot(path: str = "robots/ur5/ur5.usda") -> AssetResult:
    """A robot imported without drives: ground_drop not applicable, the four driven-joint tests SKIP (every joint
    passive), each with the hint its code gives."""
    excluded = [ExcludedJoint(joint=j, path=f"/ur5/Physics/{j}", code="PASSIVE", why="passive") for j in ("shoulder", "elbow")]
    hint = "2 joints have no drive (shoulder, elbow): add a UsdPhysics.DriveAPI to each"
    tests = [TestResult(name="ground_drop", status=Status.NOT_APPLICABLE, code="WORLD_ANCHORED", reason="world-anchored")]
    for name, what in zip(TESTS[1:], ("to test", "with both limits to sweep", "to step", "to load")):
        tests.append(TestResult(name=name, status=Status.SKIP, code="NOTHING_TO_TEST",
                                reason=f"no driven joint {what}: 2 passive",
                                fix_hints=[hint, "#usda 1.0 ..."], excluded_joints=excluded))
    return AssetResult(path=path, tests=tests)


def failing_arm(path: str = "robots/arm.usda") -> AssetResult:
    """A FAIL fix can tune (a joint row that did not return), a FAIL it cannot (ground_drop), a PASS, a WARN."""
    row = JointRow(joint="elbow", status=Status.FAIL, code="NOT_RETURNED", reason="did not return")
    tests = [
        TestResult(name="ground_drop", status=Status.FAIL, code="NEVER_TOUCHED", reason="never touched the floor",
                   fix_hints=["Apply UsdPhysics.RigidBodyAPI"]),
        TestResult(name="velocity_limit", status=Status.PASS, code="OK", reason="capped"),
        TestResult(name="full_range_sweep", status=Status.FAIL, code="JOINTS_FAILED", reason="1 of 3 joints failed the sweep",
                   joints=[row], fix_hints=["The joint ends off its home position by a static offset"]),
        TestResult(name="drive_gain_validation", status=Status.WARN, code="JOINTS_FAILED", reason="1 of 3 joints rings",
                   joints=[JointRow(joint="elbow", status=Status.WARN, code="OSCILLATION", reason="rings")],
                   fix_hints=["Oscillation: the drive rings."]),
        TestResult(name="effort_limit", status=Status.PASS, code="OK", reason="held"),
    ]
    return AssetResult(path=path, tests=tests)


def printed(report: RunReport, terminal: bool, width: int = 80, **kw) -> list[str]:
    out = io.StringIO()
    print_summary(report, Console(file=out, force_terminal=terminal, width=width), **kw)
    return out.getvalue().splitlines()


def test_a_drive_less_robot_says_why_every_test_skipped_and_what_to_try_in_a_pipe():
    """Not a terminal: the SKIP reasons, the first hint once (shared by all four) and the --add-drives command."""
    report = RunReport(tool_version="0.1.0", engine="physx", assets=[drive_less_robot()])
    assert printed(report, terminal=False, registry=REGISTRY) == [
        "simready-physics 0.1.0 on physx: 1 asset",
        "SKIP (0 tested, 4 SKIP, 1 NOT_APPLICABLE) ur5/ur5.usda",
        "    ground_drop NOT_APPLICABLE: world-anchored",
        "    velocity_limit SKIP: no driven joint to test: 2 passive",
        "        hint: 2 joints have no drive (shoulder, elbow): add a UsdPhysics.DriveAPI to each",
        "        try: simready-physics fix robots/ur5/ur5.usda --add-drives",
        "    full_range_sweep SKIP: no driven joint with both limits to sweep: 2 passive",
        "    drive_gain_validation SKIP: no driven joint to step: 2 passive",
        "    effort_limit SKIP: no driven joint to load: 2 passive",
        "5 tests on 1 asset: SKIP: 4  NOT_APPLICABLE: 1",
    ]


def test_fail_lines_carry_their_hint_and_the_fix_command_only_where_fix_acts():
    """ground_drop's failure is not the drives' (no fix line); the sweep's and the WARN's rows are (one line each)."""
    report = RunReport(tool_version="0.1.0", engine="physx", assets=[failing_arm()])
    assert printed(report, terminal=False, registry=REGISTRY) == [
        "simready-physics 0.1.0 on physx: 1 asset",
        "FAIL (5 tested)  robots/arm.usda  failing: ground_drop, full_range_sweep",
        "    ground_drop FAIL: never touched the floor",
        "        hint: Apply UsdPhysics.RigidBodyAPI",
        "    full_range_sweep FAIL: 1 of 3 joints failed the sweep",
        "        hint: The joint ends off its home position by a static offset",
        "        try: simready-physics fix robots/arm.usda --tests full_range_sweep",
        "    drive_gain_validation WARN: 1 of 3 joints rings",
        "        hint: Oscillation: the drive rings.",
        "        try: simready-physics fix robots/arm.usda --tests drive_gain_validation",
        "5 tests on 1 asset: PASS: 2  FAIL: 2  WARN: 1",
    ]


def test_a_row_fix_cannot_act_on_gets_no_fix_command():
    """velocity_limit's overspeed is the cap's and the actuator's: no `fix` line (its rules say velocity_cap_exceeded)."""
    row = JointRow(joint="j", status=Status.FAIL, code="OVERSPEED", reason="too fast")
    result = TestResult(name="velocity_limit", status=Status.FAIL, code="JOINTS_FAILED", reason="1 of 1 too fast", joints=[row])
    report = RunReport(assets=[AssetResult(path="a/r.usda", tests=[result])])
    assert not any("try:" in line for line in printed(report, terminal=False, registry=REGISTRY))


def test_not_a_terminal_prints_one_line_per_asset_and_every_non_passing_reason():
    report = library()
    lines = printed(report, terminal=False)
    # under each asset its non-passing tests, identical reasons once: 23 plain assets x 1 not-applicable line, two
    # robots x (not applicable + two FAIL), the broken file's five prechecks once, robot_12's not-applicable line,
    # robot_20's SKIP and not-applicable lines
    assert len(lines) == len(report.assets) + 23 + 2 * 3 + 1 + 1 + 2 + 2  # + title and totals
    assert lines[0] == "simready-physics 0.1.0 on physx: 28 assets"
    assert lines[-1] == ("140 tests on 28 assets: PASS: 28  FAIL: 4  SKIP: 1  NOT_APPLICABLE: 102  PRECHECK_FAILURE: 5  "
                         "(PASS*: 1 with warnings)")
    for asset in report.assets:  # the short name whole on its line: never split mid-word at 80 columns
        assert sum(short_name(asset.path) in line for line in lines) == 1
    robot = next(line for line in lines if "robot_03.usda" in line)
    assert robot.startswith("FAIL (3 tested, 2 NOT_APPLICABLE) ") and robot.endswith("failing: full_range_sweep, effort_limit")
    block = lines[lines.index(robot) + 1:lines.index(robot) + 4]
    assert block == ["    velocity_limit, drive_gain_validation NOT_APPLICABLE: no revolute or prismatic joint",
                     "    full_range_sweep FAIL: 2 of 8 joints failed the sweep [x]", "    effort_limit FAIL: 1 joint broke "
                                                                                      "under load"]
    broken = lines.index(next(line for line in lines if "robot_09.usda" in line))
    assert lines[broken].startswith("PRECHECK_FAILURE (0 tested, 5 PRECHECK_FAILURE)")
    assert lines[broken + 1] == f"    {', '.join(TESTS)} PRECHECK_FAILURE: unloadable asset: empty file"
    assert "\x1b" not in "\n".join(lines)


def test_asset_rows_say_what_was_tested():
    assert asset_label(drive_less_robot())[0] == "SKIP (0 tested, 4 SKIP, 1 NOT_APPLICABLE)"
    one = AssetResult(path="a.usda", tests=[TestResult(name="ground_drop", status=Status.PASS)] +
                      [TestResult(name=n, status=Status.SKIP) for n in TESTS[1:]])
    assert asset_label(one) == ("INCOMPLETE (1 tested, 4 SKIP)", None)  # what passed does not cover what applies
    applies = AssetResult(path="a.usda", tests=[TestResult(name="ground_drop", status=Status.PASS)] +
                          [TestResult(name=n, status=Status.NOT_APPLICABLE) for n in TESTS[1:]])
    assert asset_label(applies) == ("PASS (1 tested, 4 NOT_APPLICABLE)", Status.PASS)  # N/A does not concern it


def test_a_drive_less_robot_never_reads_pass():
    """The robot author's road as imported: joint_movement PASSes, the driven-joint tests SKIP for want of drives, the
    mimic test is NOT_APPLICABLE. The headline reads INCOMPLETE on the console, in the JSON and in the HTML grid,
    while the exit code stays 0 without --fail-on-skip (a SKIP is not a failure: the spec's words)."""
    from omni.simready.physics_validator.core.status import exit_code_for

    asset = AssetResult(path="arm/arm.usda", tests=[TestResult(name="joint_movement", status=Status.PASS)] +
                        [TestResult(name=n, status=Status.SKIP) for n in TESTS[1:]] +
                        [TestResult(name="mimic_joint", status=Status.NOT_APPLICABLE)])
    assert asset.verdict == "INCOMPLETE" and asset.model_dump(mode="json")["verdict"] == "INCOMPLETE"
    line = next(line for line in printed(RunReport(tool_version="0.1.0", engine="physx", assets=[asset]), terminal=False)
                if "arm/arm.usda" in line)
    assert line.startswith("INCOMPLETE (1 tested, 4 SKIP, 1 NOT_APPLICABLE) ")
    assert exit_code_for(t.status for t in asset.tests) == 0
    assert exit_code_for((t.status for t in asset.tests), fail_on_skip=True) == 1


def test_a_pass_with_warnings_reads_pass_star():
    lines = printed(library(), terminal=False)
    marked = next(line for line in lines if "robot_12.usda" in line)
    assert marked.startswith("PASS* (2 tested, 3 NOT_APPLICABLE) ") and marked.endswith("effort_limit: PASS with 8 warnings")
    assert "(PASS*: 1 with warnings)" in lines[-1]
    clean = next(line for line in lines if "robot_00.usda" in line)
    assert clean.startswith("PASS (1 tested, 4 NOT_APPLICABLE) ") and "warning" not in clean


def test_fail_on_skip_never_reads_pass_beside_a_failing_skip():
    """With --fail-on-skip an asset whose skips fail the run reads SKIP, not 'PASS ... failing: ...'."""
    report = library()
    plain = next(line for line in printed(report, terminal=False) if "robot_20.usda" in line)
    assert plain.startswith("INCOMPLETE (1 tested, 1 SKIP, 3 NOT_APPLICABLE) ") and "failing" not in plain
    lines = printed(report, terminal=False, fail_on_skip=True)
    skipped = lines.index(next(line for line in lines if "robot_20.usda" in line))
    assert lines[skipped].startswith("SKIP (1 tested, 1 SKIP, 3 NOT_APPLICABLE) ")
    assert lines[skipped].endswith("failing: velocity_limit")
    assert "    velocity_limit SKIP: no driven joint has a velocity limit" in lines[skipped + 1:skipped + 3]


def test_terminal_gets_the_table_with_reasons_hints_and_fix_commands():
    report = RunReport(tool_version="0.1.0", engine="physx", assets=[drive_less_robot(), failing_arm()])
    text = re.sub(r"\x1b\[[0-9;]*m", "", "\n".join(printed(report, terminal=True, width=200, registry=REGISTRY)))
    assert "┃ asset" in text and "ur5/ur5.usda" in text and "SKIP (0 tested, 4 SKIP, 1 NOT_APPLICABLE)" in text
    assert text.count("hint: 2 joints have no drive") == 1  # once per asset, in the table too
    assert text.count("hint: (as above)") == 3 and text.count("try: (as above)") == 3  # the other skipping rows
    assert text.count("try: simready-physics fix robots/ur5/ur5.usda --add-drives") == 1
    assert "try: simready-physics fix robots/arm.usda --tests full_range_sweep" in text
    assert "10 tests on 2 assets: PASS: 2  FAIL: 2  WARN: 1  SKIP: 4  NOT_APPLICABLE: 1" in text


def test_one_asset_is_singular_and_counts_are_of_tests():
    report = RunReport(assets=[AssetResult(path="/a/mug.usda", tests=[TestResult(name="ground_drop", status=Status.PASS)])])
    lines = printed(report, terminal=False)
    assert lines[0].endswith(": 1 asset") and lines[-1] == "1 test on 1 asset: PASS: 1"


def test_lists_are_complete_or_end_in_plus_n_more():
    assert listed(["a", "b", "c"], 3) == "a, b, c"
    assert listed([f"j{i}" for i in range(6)], 4, "; ") == "j0; j1; j2; j3; +2 more"


def test_short_name_is_folder_and_file():
    assert short_name("/work/shared/assets/pb_mug/floating_base.usda") == "pb_mug/floating_base.usda"
    assert short_name("crate.usda") == "crate.usda"
