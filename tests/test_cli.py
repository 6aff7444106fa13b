"""The CLI end to end: exit codes, reports on disk, clear errors without tracebacks."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

from omni.simready.physics_validator.cli import main
from tests.fixtures.usd_assets import box_asset

pytestmark = pytest.mark.usefixtures("physx_available")


def run_cli(*args, cwd=None):
    proc = subprocess.run(
        [sys.executable, "-m", "omni.simready.physics_validator.cli", *map(str, args)],
        capture_output=True,
        text=True,
        cwd=cwd,
        timeout=300,
    )
    return proc.returncode, proc.stdout, proc.stderr


def test_list_tests_shows_names_versions_and_defaults(capsys):
    from omni.simready.physics_validator.physics_tests import default_registry

    assert main(["list-tests"]) == 0
    out = capsys.readouterr().out
    version = default_registry().get("ground_drop").version
    assert f"ground_drop {version}" in out and "FET_003_PHYSX" in out and "rest_tolerance_m=0.02 m" in out


def test_validate_writes_json_and_junit_and_exits_by_verdict(tmp_path):
    good = box_asset(tmp_path / "assets" / "good.usda")
    kinematic = box_asset(tmp_path / "assets" / "stuck.usda", kinematic=True)
    out = tmp_path / "out"
    code, stdout, stderr = run_cli("validate", tmp_path / "assets", "--tests", "ground_drop", "--out", out, "--no-video")
    assert code == 1, stderr
    assert "Traceback" not in stderr + stdout
    report = json.loads((out / "report.json").read_text())
    assert report["schema_version"] == "2.5" and report["complete"] is True
    assert report["engine"]["name"] == "physx" and report["engine"]["settings"] == {"physx.target": "isaacsim-5"}
    assert report["engine"]["components"]["ovphysx"] == "0.7.0.74035321" and report["engine"]["components"]["PhysX"] == "5.12"
    verdicts = {Path(a["path"]).name: a["tests"][0]["status"] for a in report["assets"]}
    assert verdicts == {"good.usda": "PASS", "stuck.usda": "FAIL"}
    assert all(a["sha256"] for a in report["assets"])
    first = report["assets"][0]["tests"][0]
    assert {"name", "version", "features", "status", "reason", "config", "metrics", "joints", "fix_hints",
            "artifacts"} <= set(first)
    junit = ET.parse(out / "junit.xml").getroot()
    cases = {case.get("classname").rsplit("/", 1)[-1]: case for case in junit.iter("testcase")}
    assert cases["stuck.usda"].find("failure") is not None and cases["good.usda"].find("failure") is None
    assert good.exists() and kinematic.exists()


def test_all_pass_exits_zero(tmp_path):
    box_asset(tmp_path / "good.usda")
    assert main(["validate", str(tmp_path / "good.usda"), "--tests", "ground_drop", "--out", str(tmp_path / "o"), "--no-video",
                 "--in-process", "--quiet"]) == 0


def test_skipped_verdicts_are_junit_skips(tmp_path):
    box_asset(tmp_path / "anchored.usda", anchored=True)
    code = main(["validate", str(tmp_path / "anchored.usda"), "--tests", "ground_drop", "--out", str(tmp_path / "o"),
                 "--no-video", "--in-process", "--quiet"])
    assert code == 0
    junit = ET.parse(tmp_path / "o" / "junit.xml").getroot()
    skipped = junit.find(".//testcase/skipped")
    assert skipped is not None and "world-anchored" in skipped.get("message")


@pytest.mark.parametrize(
    "args, message",
    [
        (["--tests", "grond_drop"], "unknown test 'grond_drop'"),
        (["--set", "ground_drop.rest_tolerence=0.1"], "unknown key 'ground_drop.rest_tolerence'"),
        (["--set", "ground_drop.rest_tolerance_m=-1"], "greater than 0"),
        (["--set", "ground_drop.rest_tolerance_m=2deg"], "'ground_drop.rest_tolerance_m' is in m: '2deg' is an angle"),
        (["--engine", "bullet"], "unknown engine 'bullet'"),
    ],
)
def test_usage_errors_exit_2_with_a_clear_message(tmp_path, capsys, args, message):
    box_asset(tmp_path / "a.usda")
    code = main(["validate", str(tmp_path / "a.usda"), "--out", str(tmp_path / "o"), *args])
    assert code == 2
    err = capsys.readouterr().err
    assert message in err and "Traceback" not in err


@pytest.mark.parametrize("bad, message", [
    ("missing.usda", "no such file or folder: {}"),
    ("missing_folder", "no such file or folder: {}"),
    ("notes.txt", "not a USD file: {} (expected .usd, .usda, .usdc, .usdz, or a folder of them)"),
])
def test_a_missing_or_non_usd_path_is_a_usage_error_with_one_line_and_no_report(tmp_path, bad, message):
    """README: exit 2 for usage errors. Nothing runs, nothing is written, one line says why (even beside a good file)."""
    box_asset(tmp_path / "good.usda")
    (tmp_path / "notes.txt").write_text("not an asset")
    out = tmp_path / "o"
    for command in ("validate", "fix"):
        code, stdout, stderr = run_cli(command, tmp_path / bad, tmp_path / "good.usda", "--out", out)
        assert code == 2, stderr
        assert stderr.splitlines() == ["error: " + message.format(tmp_path / bad)] and stdout == ""
        assert not out.exists()


def test_an_unreadable_usd_file_is_a_precheck_failure_and_the_others_still_run(tmp_path):
    box_asset(tmp_path / "good.usda")
    (tmp_path / "broken.usda").write_text("#usda 1.0\n( this is not usd")
    out = tmp_path / "o"
    code, stdout, stderr = run_cli("validate", tmp_path / "broken.usda", tmp_path / "good.usda", "--tests", "ground_drop",
                                   "--out", out, "--no-video")
    assert code == 1
    assert "Traceback" not in stderr + stdout
    report = json.loads((out / "report.json").read_text())
    by_name = {Path(a["path"]).name: a["tests"][0] for a in report["assets"]}
    assert by_name["broken.usda"]["status"] == "PRECHECK_FAILURE"
    assert by_name["good.usda"]["status"] == "PASS"


def test_show_config_prints_effective_values(capsys):
    assert main(["show-config", "--set", "ground_drop.rest_tolerance_m=5cm"]) == 0
    out = capsys.readouterr().out
    assert "[ground_drop]" in out and "rest_tolerance_m = 0.05  # m" in out and "[run]" in out
    assert "watchdog_seconds = 120.0  # s" in out and "zero_return_tolerance_rad = 0.01  # rad" in out
    assert "tolerance_fraction = 0.05  # fraction" in out


def test_show_config_is_toml_and_an_old_setting_name_gives_a_notice(capsys):
    import tomllib

    assert main(["show-config", "--set", "ground_drop.rest_tolerance=0.03"]) == 0
    captured = capsys.readouterr()
    assert tomllib.loads(captured.out)["ground_drop"]["rest_tolerance_m"] == 0.03  # the unit comments are TOML comments
    assert captured.err.splitlines() == ["notice: --set ground_drop.rest_tolerance=0.03: 'ground_drop.rest_tolerance' is now "
                                         "ground_drop.rest_tolerance_m (the same value, in m); the old name is still read"]


def test_unwritable_json_report_is_not_a_green_run(tmp_path, capsys):
    box_asset(tmp_path / "good.usda")
    blocker = tmp_path / "file"
    blocker.write_text("a file, not a folder")
    code = main(["validate", str(tmp_path / "good.usda"), "--tests", "ground_drop", "--out", str(tmp_path / "o"),
                 "--json", str(blocker / "report.json"), "--no-video", "--in-process", "--quiet"])
    assert code == 2
    assert "cannot write the JSON report" in capsys.readouterr().err


@pytest.mark.parametrize("planted, args, says", [
    ("html/media", (), "HTML report not written under"),
    ("results", ("--format", "simready", "--no-html"), "cannot write the SimReady results under"),
])
def test_a_report_that_could_not_be_written_after_the_run_exits_3(tmp_path, capsys, planted, args, says):
    """A file of someone's where the tool makes a folder (found only when the report is written, after the run): the
    box PASSes, the error names the report, and the run exits 3 (an ERROR-class exit: it exited 0 on the verdicts);
    the JSON and JUnit reports are still written and the planted file is kept. The twin without the file exits 0."""
    box_asset(tmp_path / "good.usda")
    for twin in (True, False):
        out = tmp_path / ("twin" if twin else "o")
        if not twin:
            (out / planted).parent.mkdir(parents=True, exist_ok=True)
            (out / planted).write_text("someone's file\n")
        code = main(["validate", str(tmp_path / "good.usda"), "--tests", "ground_drop", "--out", str(out), "--no-video",
                     "--in-process", "--quiet", *args])
        err = capsys.readouterr().err
        assert code == (0 if twin else 3), err
        assert (says in err and "the run exits 3 whatever its verdicts" in err) != twin
        assert (out / "report.json").is_file() and (out / "junit.xml").is_file()
    assert (tmp_path / "o" / planted).read_text() == "someone's file\n"


# -- issue 15: usage errors, CI gates, what a log shows ------------------------------------------------
def test_kit_engine_outside_kit_is_a_usage_error(tmp_path, capsys):
    box_asset(tmp_path / "a.usda")
    for args in (["--engine", "kit"], ["--compare", "physx,kit"]):
        code = main(["validate", str(tmp_path / "a.usda"), "--out", str(tmp_path / "o"), *args])
        err = capsys.readouterr().err
        assert code == 2, err
        assert "the kit engine runs inside Isaac Sim; see docs/kit-extension.md" in err
        assert "carb" not in err and "Traceback" not in err
    assert not (tmp_path / "o" / "report.json").exists()  # nothing ran


def test_a_drive_less_robot_says_why_it_skips_in_a_pipe(tmp_path, shared_assets):
    """The UR5 as converted (no drive): the console, not a terminal, says per test why it skipped, the first hint
    once and the fix command that adds drives; the asset row says nothing was tested (real physx run)."""
    ur5 = shared_assets / "erd_ur5" / "ur5.usda"
    code, stdout, stderr = run_cli("validate", ur5, "--tests", "ground_drop,full_range_sweep,effort_limit",
                                   "--out", tmp_path / "o", "--no-video", "--no-html")
    assert code == 0, stderr
    joints = ", ".join(("shoulder_pan_joint", "shoulder_lift_joint", "elbow_joint", "wrist_1_joint", "wrist_2_joint",
                        "wrist_3_joint"))
    lines = stdout.splitlines()
    counts = "3 tests on 1 asset: SKIP: 2  NOT_APPLICABLE: 1"
    assert lines[1:lines.index(counts) + 1] == [  # the summary (the runtime read-back follows it)
        "SKIP (0 tested, 2 SKIP, 1 NOT_APPLICABLE) erd_ur5/ur5.usda",
        "    ground_drop NOT_APPLICABLE: world-anchored: fixed joint /ur5/Physics/world_joint holds the asset to the world, "
        "so it cannot fall by design",
        f"    full_range_sweep SKIP: no driven joint with both limits to sweep: 6 passive ({joints})",
        f"        hint: 6 joints have no drive ({joints}): add a UsdPhysics.DriveAPI to each (a USD snippet per joint is in "
        "the report), or run `simready-physics fix --add-drives` on the asset to measure, propose and prove first drives.",
        f"        try: simready-physics fix {ur5} --add-drives",
        f"    effort_limit SKIP: no driven joint to load: 6 passive ({joints})",
        counts,
    ]
    assert stderr.splitlines()[1] == "[1/1] SKIP (0 tested, 2 SKIP, 1 NOT_APPLICABLE)  erd_ur5/ur5.usda"
    report = json.loads((tmp_path / "o" / "report.json").read_text())
    snippet = report["assets"][0]["tests"][1]["fix_hints"][1]  # paste-ready: a layer over the asset gives each joint a drive
    layer = tmp_path / "drives.usda"
    meta = f'subLayers = [@{ur5}@]\n    defaultPrim = "ur5"\n    metersPerUnit = 1\n    kilogramsPerUnit = 1\n    upAxis = "Z"'
    layer.write_text(snippet.replace("#usda 1.0", f"#usda 1.0\n(\n    {meta}\n)", 1))  # the asset's stage metadata, as a root
    from omni.simready.physics_validator.core.usd import read_asset

    driven = read_asset(layer).joints
    assert all(driven[f"/ur5/Physics/{j}"].drive.active for j in joints.split(", "))
    assert driven["/ur5/Physics/shoulder_lift_joint"].drive.max_force == 150.0  # the rated effort (urdf:limit:effort)


def test_empty_folder_is_a_usage_error(tmp_path, capsys):
    (tmp_path / "empty").mkdir()
    (tmp_path / "empty" / "readme.txt").write_text("no assets here")
    code = main(["validate", str(tmp_path / "empty"), "--out", str(tmp_path / "o")])
    err = capsys.readouterr().err
    assert code == 2
    assert f"no USD files found in {tmp_path / 'empty'}" in err and "PRECHECK_FAILURE" not in err


def test_fail_on_skip_turns_a_skip_into_exit_1(tmp_path, capsys):
    from tests.fixtures.arms import build_arm

    arm = build_arm(tmp_path / "novel.usda", joints=2, velocity_limit_deg=None)  # velocity_limit: SKIP
    argv = ["validate", str(arm), "--tests", "velocity_limit", "--out", str(tmp_path / "o"), "--no-video", "--no-html",
            "--in-process"]
    assert main(argv) == 0
    capsys.readouterr()
    assert main([*argv, "--fail-on-skip"]) == 1
    captured = capsys.readouterr()
    assert "--fail-on-skip: 1 test SKIP (nothing validated)" in captured.err
    row = next(line for line in captured.out.splitlines() if "novel.usda" in line)
    assert row.startswith("SKIP (0 tested, 1 SKIP)") and row.endswith("failing: velocity_limit")  # never 'PASS ... failing'
    assert "    velocity_limit SKIP: " in captured.out


def test_missing_video_extra_is_said_once_with_the_install_command(tmp_path, capsys, monkeypatch):
    """Simulates an install without the [video] extra (pyvista not importable): one notice, no per-test warnings."""
    import importlib.util

    real_find_spec = importlib.util.find_spec
    monkeypatch.setattr(importlib.util, "find_spec", lambda name, *a: None if name == "pyvista" else real_find_spec(name, *a))
    box_asset(tmp_path / "assets" / "one.usda")
    box_asset(tmp_path / "assets" / "two.usda")
    out = tmp_path / "o"
    code = main(["validate", str(tmp_path / "assets"), "--tests", "ground_drop", "--out", str(out), "--in-process",
                 "--media", "all"])  # the default (3D replays) draws no video and names no extra
    err = capsys.readouterr().err
    assert code == 0, err
    notices = [line for line in err.splitlines() if "video" in line.lower() and str(tmp_path) not in line]
    assert len(notices) == 1, err
    assert "the [video] extra is not installed (missing pyvista)" in notices[0]
    assert "pip install " in notices[0] and "[video]" in notices[0]
    report = json.loads((out / "report.json").read_text())
    assert all(not t["warnings"] and "video" not in t["artifacts"] for a in report["assets"] for t in a["tests"])
    assert list(out.rglob("index.html"))  # the HTML report is still written


def test_piped_run_prints_one_line_per_asset(tmp_path):
    """Not a terminal: the summary is one line per asset plus the failing rows' reasons; progress one line per asset."""
    for name in ("a", "b", "c"):
        box_asset(tmp_path / "assets" / f"{name}.usda")
    box_asset(tmp_path / "assets" / "stuck.usda", kinematic=True)  # a real FAIL
    code, stdout, stderr = run_cli("validate", tmp_path / "assets", "--tests", "ground_drop", "--out", tmp_path / "o",
                                   "--no-video")
    assert code == 1, stderr
    lines = stdout.splitlines()
    assert len(lines) == 4 + 2 + 2, stdout  # assets + the failing test's reason and hint + title and totals
    assert lines[0].endswith(": 4 assets") and lines[-1] == "4 tests on 4 assets: PASS: 3  FAIL: 1"
    stuck = next(line for line in lines if "assets/stuck.usda" in line)
    assert stuck.startswith("FAIL (1 tested)") and stuck.endswith("failing: ground_drop")
    assert lines[lines.index(stuck) + 1].startswith("    ground_drop FAIL: ")
    assert lines[lines.index(stuck) + 2].startswith("        hint: ")  # ground_drop's failure is not the drives': no fix
    err = stderr.splitlines()
    assert len(err) == 1 + 4 + 1 + 3, stderr  # "4 assets, ..." + one per asset + total + JSON/JUnit/HTML paths
    assert "\x1b" not in stdout + stderr


def test_progress_tests_prints_a_line_per_finished_test_in_a_log(tmp_path):
    box_asset(tmp_path / "a.usda")
    code, _, stderr = run_cli("validate", tmp_path / "a.usda", "--tests", "ground_drop", "--out", tmp_path / "o", "--no-video",
                              "--no-html", "--progress", "tests")
    assert code == 0, stderr
    assert [line for line in stderr.splitlines() if " :: " in line][0].startswith("PASS ")
    assert not any(line.startswith("[1/1]") for line in stderr.splitlines())


def test_list_tests_fits_the_terminal_and_shows_factory_defaults():
    import os

    proc = subprocess.run([sys.executable, "-m", "omni.simready.physics_validator.cli", "list-tests"], capture_output=True,
                          text=True, timeout=120, env={**os.environ, "COLUMNS": "60"})
    assert proc.returncode == 0, proc.stderr
    assert "PydanticUndefined" not in proc.stdout and "joints=[]" in proc.stdout
    assert max(len(line) for line in proc.stdout.splitlines()) <= 60
    assert "rest_tolerance_m=0.02 m" in proc.stdout.replace("\n    ", " ")


def test_help_and_docs_list_the_same_engines_and_every_flag():
    from omni.simready.physics_validator.cli import build_parser
    from omni.simready.physics_validator.engines import engine_names

    parser = build_parser()
    validate = next(a for a in parser._subparsers._group_actions if a.dest == "command").choices["validate"]  # noqa: SLF001
    help_text = " ".join(validate.format_help().split())
    docs = (Path(__file__).resolve().parents[1] / "docs" / "cli.md").read_text()
    for name in engine_names():
        assert f"{name}" in help_text and f"`{name}`" in docs, name
    assert "[-j N]" in validate.format_usage()
    flags = {opt for action in validate._actions for opt in action.option_strings if opt.startswith("--")} - {"--help"}  # noqa: SLF001
    missing = sorted(flag for flag in flags if f"`{flag}" not in docs)
    assert not missing, f"docs/cli.md does not describe {missing}"
    assert "--fail-on-skip" in docs and "| 2 |" in docs
    fix = next(a for a in parser._subparsers._group_actions if a.dest == "command").choices["fix"]  # noqa: SLF001
    section = docs.split("## `fix`", 1)[1].split("\n## ", 1)[0]
    fix_flags = {opt for action in fix._actions for opt in action.option_strings if opt.startswith("--")} - {"--help"}  # noqa: SLF001
    missing = sorted(flag for flag in fix_flags if f"`{flag}" not in section)
    assert not missing, f"docs/cli.md's fix section does not describe {missing}"


def test_show_config_help_describes_its_flags(capsys):
    with pytest.raises(SystemExit):
        main(["show-config", "--help"])
    out = " ".join(capsys.readouterr().out.split())
    assert "TOML file of overrides" in out and "override one setting" in out


def test_an_unavailable_engine_names_its_extra(tmp_path, capsys, monkeypatch):
    """Error text is not rich markup: '[sapien]' in an install hint reaches the user."""
    from omni.simready.physics_validator import cli
    from omni.simready.physics_validator.engines import EngineUnavailable

    def unavailable(name):
        raise EngineUnavailable(f"engine '{name}' is not available: sapien is not installed (pip install -e .[sapien])")

    monkeypatch.setattr("omni.simready.physics_validator.engines.engine_class", unavailable)
    box_asset(tmp_path / "a.usda")
    assert cli.main(["validate", str(tmp_path / "a.usda"), "--engine", "sapien", "--out", str(tmp_path / "o")]) == 2
    assert "pip install -e .[sapien]" in capsys.readouterr().err


def test_a_folder_run_never_validates_its_own_report_folder(tmp_path):
    """`validate . --out report` twice: the second run must not pick up the first run's replay layers."""
    library = tmp_path / "library"
    box_asset(library / "box.usda")
    out = library / "report"
    args = ["validate", str(library), "--tests", "ground_drop", "--out", str(out), "--in-process", "--quiet"]
    assert main(args) == 0
    assert main(args) == 0
    report = json.loads((out / "report.json").read_text())
    assert [Path(a["path"]).name for a in report["assets"]] == ["box.usda"]


def test_an_interrupted_run_exits_3_even_after_a_fail():
    from omni.simready.physics_validator.cli.validate import exit_code
    from omni.simready.physics_validator.core.results import AssetResult, RunReport, TestResult
    from omni.simready.physics_validator.core.status import Status

    report = RunReport(complete=False,
                       assets=[AssetResult(path="a.usda", tests=[TestResult(name="ground_drop", status=Status.FAIL)])])
    written = [("JSON", "r.json"), ("JUnit", "j.xml")]
    assert exit_code(report, written) == 3
    report.complete = True
    assert exit_code(report, written) == 1


@pytest.mark.parametrize("args", [("list-tests",), ("show-config",), ("validate", "ASSET", "--tests", "ground_drop")])
def test_a_reader_closing_the_pipe_early_is_no_error(tmp_path, args):
    """`simready-physics list-tests | head -1`: the reader took what it wanted and closed the pipe. No "error:
    BrokenPipeError", exit 0 (rich's console used to exit 1, show-config 3); a validate run still writes its reports
    and exits by its verdicts. The reader here closes before the first byte, so every write meets the closed pipe."""
    asset = box_asset(tmp_path / "box.usda")
    out = tmp_path / "out"
    argv = [str(asset) if a == "ASSET" else a for a in args]
    if args[0] == "validate":
        argv += ["--out", str(out), "--no-video"]
    read_end, write_end = os.pipe()
    os.close(read_end)
    proc = subprocess.run([sys.executable, "-m", "omni.simready.physics_validator.cli", *argv], stdout=write_end,
                          stderr=subprocess.PIPE, text=True, timeout=300)
    os.close(write_end)
    assert proc.returncode == 0, proc.stderr
    assert "BrokenPipe" not in proc.stderr and "error" not in proc.stderr.lower() and "Traceback" not in proc.stderr
    if args[0] == "validate":
        assert json.loads((out / "report.json").read_text())["assets"][0]["tests"][0]["status"] == "PASS"


@pytest.mark.parametrize("collider, code", [(True, 0), (False, 1)])
def test_both_streams_closed_early_keep_the_verdicts_exit_code(tmp_path, collider, code):
    """`validate ... 2>&1 | head -3`: the reader closes the pipe stdout and stderr share. The run's exit code is the
    verdicts' (a PASS run exited 1: the stderr console was rich's, which exits 1 on a broken pipe), and its reports
    are written. A box without a collider is a PRECHECK_FAILURE: exit 1 either way."""
    asset = box_asset(tmp_path / "box.usda", collider=collider)
    out = tmp_path / "out"
    read_end, write_end = os.pipe()
    os.close(read_end)
    proc = subprocess.run([sys.executable, "-m", "omni.simready.physics_validator.cli", "validate", str(asset), "--tests",
                           "ground_drop", "--out", str(out), "--no-video", "--in-process"], stdout=write_end,
                          stderr=write_end, timeout=300)
    os.close(write_end)
    assert proc.returncode == code
    status = json.loads((out / "report.json").read_text())["assets"][0]["tests"][0]["status"]
    assert status == ("PASS" if collider else "PRECHECK_FAILURE")


def test_an_old_feature_name_selects_its_new_one_with_a_notice(tmp_path):
    """`--tests FET003_BASE_PHYSX` (pre-2026.8) runs what `--tests FET_003_PHYSX` runs and says so on stderr: every test
    declaring it, ground_stability too (which a plain run leaves out)."""
    box = box_asset(tmp_path / "box.usda", size=0.1)
    done = subprocess.run([sys.executable, "-m", "omni.simready.physics_validator.cli", "validate", str(box), "--tests",
                           "FET003_BASE_PHYSX", "--out", str(tmp_path / "out"), "--no-video", "--no-html", "--in-process",
                           "--quiet"], capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr[-2000:]
    assert "notice: FET003_BASE_PHYSX is the pre-2026.8 name of the SimReady feature FET_003_PHYSX" in done.stderr
    report = json.loads((tmp_path / "out" / "report.json").read_text())
    names = {t["name"] for a in report["assets"] for t in a["tests"]}
    assert names == {"ground_drop", "slope_drop", "ground_stability"}
    assert all(t["features"][0] == "FET_003_PHYSX" for a in report["assets"] for t in a["tests"])
