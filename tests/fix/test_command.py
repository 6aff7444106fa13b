"""`simready-physics fix` on the command line: exit codes, the files it writes, and clear messages (no traceback)
for bad input."""

from __future__ import annotations

import json

import pytest

from omni.simready.physics_validator.cli import main
from tests.fixtures.driven_arms import horizontal_arm, tiny_range_revolute

pytestmark = pytest.mark.usefixtures("physx_available")


def run(capsys, *args):
    code = main(["fix", *map(str, args)])
    out = capsys.readouterr()
    text = out.out + out.err
    assert "Traceback" not in text
    return code, text


def test_an_accepted_fix_exits_by_the_verdicts_with_the_layer_and_writes_its_files(tmp_path, capsys):
    asset = horizontal_arm(tmp_path / "weak.usda", max_force=0.1)
    out = tmp_path / "out"
    code, text = run(capsys, asset, "--tests", "full_range_sweep,effort_limit", "--out", out, "--in-process",
                     "--frequency", "4", "--damping-ratio", "0.9", "--force-margin", "2", "--rounds", "2", "-j", "1",
                     "--raise-max-force")  # its 0.1 N·m is no real actuator's rating: raising it is asked for
    assert code == 0, text  # FAIL as authored, PASS with the accepted layer
    assert (out / "weak.fix.usda").is_file() and (out / "weak.fixed.usda").is_file()
    report = json.loads((out / "report.json").read_text())
    fix = report["assets"][0]["fix"]
    assert fix["status"] == "accepted" and fix["fixed"] == 2 and fix["broken"] == 0
    assert fix["targets"]["natural_frequency_hz"] == 4.0 and fix["targets"]["damping_ratio"] == 0.9
    assert fix["targets"]["force_margin"] == 2.0 and fix["targets"]["max_rounds"] == 2
    assert [t["before"] for t in fix["tests"]] == ["FAIL", "FAIL"] and [t["after"] for t in fix["tests"]] == ["PASS", "PASS"]
    assert "FAIL→PASS" in text and "weak.fix.usda" in text
    assert (out / "html" / "index.html").is_file()


def test_measured_in_worker_processes_the_fix_is_the_same_layer(tmp_path, capsys):
    """Without --in-process the validations and the probe run in the run layer's worker processes: the same
    proposal, proved by the same verdicts, byte for byte the same layer as in this process."""
    asset = horizontal_arm(tmp_path / "weak.usda", max_force=0.1)
    common = ["--tests", "full_range_sweep,effort_limit", "--rounds", "2", "-j", "1", "--quiet", "--raise-max-force"]
    layers = []
    for mode, extra in (("workers", []), ("here", ["--in-process"])):
        code, text = run(capsys, asset, "--out", tmp_path / mode, *common, *extra)
        assert code == 0, text
        layers.append((tmp_path / mode / "weak.fix.usda").read_text())
    assert layers[0] == layers[1]
    assert "maxForce" in layers[0]


def test_a_failure_drives_cannot_fix_exits_1_and_says_why(tmp_path, capsys):
    asset = tiny_range_revolute(tmp_path / "tiny.usda", range_deg=0.5)
    code, text = run(capsys, asset, "--tests", "full_range_sweep", "--out", tmp_path / "out", "--in-process")
    assert code == 1
    assert "not_fixable" in text and "limit_unit" in text and "radians" in text
    assert not list((tmp_path / "out").glob("*.fix.usda"))


@pytest.mark.parametrize("args, message", [
    (["--tests", "no_such_test"], "unknown test 'no_such_test'"),
    (["--frequency", "0"], "--frequency must be > 0"),
    (["--damping-ratio", "-1"], "--damping-ratio must be > 0"),
    (["--force-margin", "0.5"], "--force-margin must be > 1"),
    (["--rounds", "0"], "--rounds must be > 1"),
    (["-j", "0"], "--jobs must be at least 1"),
    (["--engine", "kit"], "fix runs on a headless engine"),
    (["--set", "full_range_sweep.no_such_key=1"], "no_such_key"),
])
def test_usage_errors_exit_2_with_a_clear_message(tmp_path, capsys, args, message):
    asset = horizontal_arm(tmp_path / "arm.usda")
    code, text = run(capsys, asset, "--out", tmp_path / "out", *args)
    assert code == 2, text
    assert message in text


def test_missing_and_unreadable_files_are_said_plainly(tmp_path, capsys):
    (tmp_path / "broken.usda").write_text("this is not USD\n")
    code, text = run(capsys, tmp_path / "missing.usda", tmp_path / "broken.usda", "--tests", "full_range_sweep",
                     "--out", tmp_path / "out", "--in-process")
    assert code == 2 and text.strip() == f"error: no such file or folder: {tmp_path / 'missing.usda'}"  # as validate
    assert not (tmp_path / "out").exists()
    code, text = run(capsys, tmp_path / "broken.usda", "--tests", "full_range_sweep", "--out", tmp_path / "out", "--in-process")
    assert code == 1  # PRECHECK_FAILURE, as validate
    assert "the asset cannot be read" in text and "not a valid usda layer" in text


def test_a_weak_drive_keeps_its_authored_max_force_and_says_what_it_needs(tmp_path, capsys):
    """Without --raise-max-force the authored maxForce (0.1 N·m) is the rating: no layer raises it, and the need is
    said against it."""
    asset = horizontal_arm(tmp_path / "weak.usda", max_force=0.1)
    code, text = run(capsys, asset, "--tests", "effort_limit", "--out", tmp_path / "out", "--in-process", "--rounds", "1")
    assert code == 1, text
    rated = [line for line in text.splitlines() if line.startswith("    beyond the actuator's rating: joint: needs ")]
    assert len(rated) == 1 and "rated 0.1 N·m (drive:angular:physics:maxForce): kept at the rating" in rated[0], text
    assert "maxForce" not in "".join(p.read_text() for p in (tmp_path / "out").glob("*.fix.usda"))


def test_a_report_that_could_not_be_written_exits_3(tmp_path, capsys):
    """A file of someone's at OUT/html (where fix makes the HTML report's folder): the box has nothing to fix (exit 0 in
    its twin), the HTML report is not written, the error says so and fix exits 3 (it exited 0 on a warning); the JSON
    report is written and the planted file kept."""
    from tests.fixtures.usd_assets import box_asset

    asset = box_asset(tmp_path / "good.usda")
    for twin in (True, False):
        out = tmp_path / ("twin" if twin else "out")
        if not twin:
            out.mkdir()
            (out / "html").write_text("someone's file\n")
        code, text = run(capsys, asset, "--tests", "ground_drop", "--out", out, "--in-process", "--quiet")
        assert code == (0 if twin else 3), text
        assert ("HTML report not written" in text and "fix exits 3 whatever its verdicts" in text) != twin
        assert (out / "report.json").is_file()
    assert (tmp_path / "out" / "html").read_text() == "someone's file\n"
