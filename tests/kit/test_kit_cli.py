"""The extension started as a user starts it: Kit's own command line (`isaacsim <app>` of the isaacsim 6.2 wheel), no
test harness in the process, nothing on PYTHONPATH, only `--ext-folder` and `--enable` as docs/kit-extension.md tells
a user. The doubles' folders stand in for Isaac Sim's extension folders (with the real omni.physics 110.4.4 and
Isaac Sim's run loop, omni.kit.loop-isaac), and Kit loads them from those folders alone.

Read from Kit's log file: the extension's own startup line, and not one [Error] line in the whole run. Negative
control: the same start with a dependency no folder has stops in Kit's solver (exit code 55), with no startup line.
"""

from __future__ import annotations

import re
import shutil
from pathlib import Path

import pytest

from tests.kit.harness import EXT_FOLDER, EXT_ROOT, FAKE_KIT, LOG_LINE, SITE, KitRun, run_kit_cli

EXT = "omni.simready.physics_validator"
FRAMES = 120  # --/app/quitAfter: Kit frames before it quits (the doubles' per-frame hooks run in each)
STARTUP = re.compile(r"\[Info\] \[omni\.simready\.physics_validator(?:\.[\w.]+)?\] (?P<line>"
                     + re.escape(EXT) + r"-[\d.]+ started: .*)$", re.M)


def isaac_sim_stand_ins() -> list[str]:
    """What stands in for Isaac Sim's own extension folders: the doubles, the real engine-neutral omni.physics 110.4.4
    (it loads without USD libraries) and Isaac Sim's run loop from the isaacsim wheel."""
    (physics_layer,) = sorted((SITE / "isaacsim" / "extscache").glob("omni.physics-110.4.4+*"))
    return ["--ext-folder", str(FAKE_KIT / "exts"), "--ext-folder", str(FAKE_KIT / "physics_exts"),
            "--ext-path", str(physics_layer), "--ext-folder", str(SITE / "isaacsim" / "exts"),
            "--enable", "omni.kit.loop-isaac"]


def start_as_a_user(folder: Path, ext_folder: Path = EXT_FOLDER) -> tuple[KitRun, str]:
    """`isaacsim omni.app.empty.kit ... --ext-folder <repo>/exts --enable omni.simready.physics_validator`; the run and
    Kit's log file (the path Kit prints first)."""
    args = ["omni.app.empty.kit", "--no-window", "--allow-root", "--/app/extensions/registryEnabled=0",
            *isaac_sim_stand_ins(), "--ext-folder", str(ext_folder), "--enable", EXT, f"--/app/quitAfter={FRAMES}"]
    run = run_kit_cli(args, folder)
    found = re.search(r"Logging to file: (\S+)", run.stdout)
    log = Path(found.group(1)).read_text(encoding="utf-8", errors="replace") if found else ""
    return run, log


def errors(text: str) -> list[str]:
    return [line for line in text.splitlines() if (m := LOG_LINE.search(line)) and m["level"] in ("Error", "Fatal")]


@pytest.fixture(scope="module")
def started(kit_venv, tmp_path_factory):
    return start_as_a_user(tmp_path_factory.mktemp("as_a_user"))


def test_started_from_the_command_line_the_extension_logs_its_startup_line(started):
    run, log = started
    assert run.returncode == 0, run.stdout[-3000:]
    (line,) = [m["line"] for m in STARTUP.finditer(log)]
    assert "validates with PhysX (omni.physx), Isaac Sim's active physics engine: PhysX (omni.physics: active " \
           "simulation PhysX)" in line, line
    assert re.search(r"targets Isaac Sim 6\.x \(Kit 110\.x\), kept for Isaac Sim 5\.1 \(Kit 107\.3\), running on "
                     r"Kit 110\.4\.\d", line), line
    assert f"[ext: {EXT}-" in run.stdout  # Kit's own line for the start


def test_started_from_the_command_line_kit_logs_no_error_in_the_whole_run(started):
    run, log = started
    assert errors(run.stdout) == [] and errors(log) == [], (errors(run.stdout) + errors(log))[:5]
    for double in ("simready.kit_doubles", "omni.usd", "omni.timeline", "omni.physx", "omni.physics.stageupdate"):
        assert f"[ext: {double}-" in run.stdout, double  # each double started, from its folder alone


def test_negative_control_a_bogus_dependency_stops_kit_with_no_startup_line(kit_venv, tmp_path):
    folder = tmp_path / "exts" / EXT
    folder.mkdir(parents=True)
    for part in EXT_ROOT.iterdir():  # the extension as it is, but its manifest
        if part.name != "config":
            (folder / part.name).symlink_to(part)
    (folder / "config").mkdir()
    manifest = (EXT_ROOT / "config" / "extension.toml").read_text(encoding="utf-8")
    assert "[dependencies]\n" in manifest
    (folder / "config" / "extension.toml").write_text(
        manifest.replace("[dependencies]\n", '[dependencies]\n"omni.no_such_extension" = {}\n', 1), encoding="utf-8")
    run, log = start_as_a_user(tmp_path / "kit", ext_folder=tmp_path / "exts")
    assert run.returncode == 55, run.stdout[-3000:]
    assert "dependency solver failure" in run.stdout and "omni.no_such_extension" in run.stdout
    assert not STARTUP.search(log)
    shutil.rmtree(tmp_path / "exts")
