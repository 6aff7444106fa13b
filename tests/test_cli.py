"""The CLI end to end: exit codes, reports on disk, clear errors without tracebacks."""

from __future__ import annotations

import json
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
    assert main(["list-tests"]) == 0
    out = capsys.readouterr().out
    assert "ground_drop" in out and "3.0.0" in out and "FET003_BASE_PHYSX" in out and "rest_tolerance=0.02" in out


def test_validate_writes_json_and_junit_and_exits_by_verdict(tmp_path):
    good = box_asset(tmp_path / "assets" / "good.usda")
    kinematic = box_asset(tmp_path / "assets" / "stuck.usda", kinematic=True)
    out = tmp_path / "out"
    code, stdout, stderr = run_cli("validate", tmp_path / "assets", "--tests", "ground_drop", "--out", out, "--no-video")
    assert code == 1, stderr
    assert "Traceback" not in stderr + stdout
    report = json.loads((out / "report.json").read_text())
    assert report["schema_version"] == "1.0" and report["complete"] is True
    verdicts = {Path(a["path"]).name: a["tests"][0]["status"] for a in report["assets"]}
    assert verdicts == {"good.usda": "PASS", "stuck.usda": "FAIL"}
    assert all(a["sha256"] for a in report["assets"])
    first = report["assets"][0]["tests"][0]
    assert {"name", "version", "features", "status", "reason", "config", "metrics", "joints", "fix_hints", "artifacts"} <= set(first)
    junit = ET.parse(out / "junit.xml").getroot()
    cases = {case.get("classname").rsplit("/", 1)[-1]: case for case in junit.iter("testcase")}
    assert cases["stuck.usda"].find("failure") is not None and cases["good.usda"].find("failure") is None
    assert good.exists() and kinematic.exists()


def test_all_pass_exits_zero(tmp_path):
    box_asset(tmp_path / "good.usda")
    assert main(["validate", str(tmp_path / "good.usda"), "--tests", "ground_drop", "--out", str(tmp_path / "o"), "--no-video", "--in-process", "--quiet"]) == 0


def test_skipped_verdicts_are_junit_skips(tmp_path):
    box_asset(tmp_path / "anchored.usda", anchored=True)
    code = main(["validate", str(tmp_path / "anchored.usda"), "--tests", "ground_drop", "--out", str(tmp_path / "o"), "--no-video", "--in-process", "--quiet"])
    assert code == 0
    junit = ET.parse(tmp_path / "o" / "junit.xml").getroot()
    skipped = junit.find(".//testcase/skipped")
    assert skipped is not None and "world-anchored" in skipped.get("message")


@pytest.mark.parametrize(
    "args, message",
    [
        (["--tests", "grond_drop"], "unknown test 'grond_drop'"),
        (["--set", "ground_drop.rest_tolerence=0.1"], "unknown key 'ground_drop.rest_tolerence'"),
        (["--set", "ground_drop.rest_tolerance=-1"], "greater than 0"),
        (["--engine", "bullet"], "unknown engine 'bullet'"),
    ],
)
def test_usage_errors_exit_2_with_a_clear_message(tmp_path, capsys, args, message):
    box_asset(tmp_path / "a.usda")
    code = main(["validate", str(tmp_path / "a.usda"), "--out", str(tmp_path / "o"), *args])
    assert code == 2
    err = capsys.readouterr().err
    assert message in err and "Traceback" not in err


def test_missing_file_is_a_precheck_failure_and_the_others_still_run(tmp_path):
    box_asset(tmp_path / "good.usda")
    out = tmp_path / "o"
    code, stdout, stderr = run_cli("validate", tmp_path / "missing.usda", tmp_path / "good.usda", "--tests", "ground_drop", "--out", out, "--no-video")
    assert code == 1
    assert "Traceback" not in stderr + stdout
    report = json.loads((out / "report.json").read_text())
    by_name = {Path(a["path"]).name: a["tests"][0] for a in report["assets"]}
    assert by_name["missing.usda"]["status"] == "PRECHECK_FAILURE"
    assert "file not found" in by_name["missing.usda"]["reason"]
    assert by_name["good.usda"]["status"] == "PASS"


def test_show_config_prints_effective_values(capsys):
    assert main(["show-config", "--set", "ground_drop.rest_tolerance=0.05"]) == 0
    out = capsys.readouterr().out
    assert "[ground_drop]" in out and "rest_tolerance = 0.05" in out and "[run]" in out


def test_unwritable_json_report_is_not_a_green_run(tmp_path, capsys):
    box_asset(tmp_path / "good.usda")
    blocker = tmp_path / "file"
    blocker.write_text("a file, not a folder")
    code = main(["validate", str(tmp_path / "good.usda"), "--tests", "ground_drop", "--out", str(tmp_path / "o"),
                 "--json", str(blocker / "report.json"), "--no-video", "--in-process", "--quiet"])
    assert code == 2
    assert "cannot write the JSON report" in capsys.readouterr().err
