"""Hostile input and faults (issue 33): attacks on what the CLI reads, writes, prints and survives.

Each attack is a `corpus.Case`, judged like every other case (verdicts, exit code, reports, no traceback, input and
everything outside OUT untouched, the run's temp folder left clean) plus its own check. Real FIFOs, real symlinks,
real signals; the full disk is a small tmpfs when this process may mount one (root), else a file-size limit
(RLIMIT_FSIZE: writes past it fail with EFBIG), and the case's message says which ran.
"""

from __future__ import annotations

import os
import resource
import shutil
import signal
import subprocess
import time
from pathlib import Path

from pxr import Sdf, UsdPhysics

from omni.simready.physics_validator.core.results import TestResult
from omni.simready.physics_validator.core.status import Status, verdict_label
from omni.simready.physics_validator.run.output_paths import LOCK_NAME

from . import builders as b
from .corpus import (CLI, PHYSICS, PRECHECK, Case, Outcome, _partial_report, _run_in_process, _three_assets, case_env,
                     interrupted_by)

USAGE = frozenset()  # no run at all: a usage error before anything is validated
# The full disk: a test's recording and the reports fit, its poster and video do not (a box's ground_drop: ~104 KB of
# recording, reports and cache with the glTF replay, a 28 KB poster, an 82 KB video). Without a tmpfs, RLIMIT_FSIZE
# limits each file: the largest file but the video (series.json, ~40 KB) fits, the video does not.
DISK_BYTES = 128 * 1024
FILE_BYTES = 64 * 1024
VIDEO_WATCHDOG = ("--watchdog", "60")  # encoding the video's last frames sends no heartbeat: 3 s is too short for it
VIDEO_ALL = (*VIDEO_WATCHDOG, "--media", "all")  # every artifact a test can have: a passing test's video and replay too


# -- inputs --------------------------------------------------------------------------------------------
def _good(folder: Path) -> list[Path]:
    return [b.good_box(folder / "good.usda")]


def _fifo_asset(folder: Path) -> list[Path]:
    folder.mkdir(parents=True, exist_ok=True)
    os.mkfifo(folder / "pipe.usda")
    return [folder / "pipe.usda"]


def _fifo_sublayer(folder: Path) -> list[Path]:
    path = b.good_box(folder / "fifo_sublayer.usda")
    os.mkfifo(folder / "pipe.usda")
    layer = Sdf.Layer.FindOrOpen(str(path))
    layer.subLayerPaths.append("./pipe.usda")
    layer.Save()
    return [path]


def _device_attributes(folder: Path) -> list[Path]:
    """Asset-valued attributes naming /dev/zero and a FIFO (a texture slot): nothing composes them, nothing may block."""
    s = b.Stage(folder / "dev_zero.usda")
    body = s.box_body(f"{s.root}/Body")
    os.mkfifo(folder / "pipe.png")
    body.GetPrim().CreateAttribute("texture:zero", Sdf.ValueTypeNames.Asset).Set(Sdf.AssetPath("/dev/zero"))
    body.GetPrim().CreateAttribute("texture:pipe", Sdf.ValueTypeNames.Asset).Set(Sdf.AssetPath("./pipe.png"))
    return [s.save()]


def _with_sublayer(folder: Path) -> list[Path]:
    """good.usda whose body lives in a sublayer, physics.usda."""
    return [_layered(folder, "good.usda", "physics.usda")]


def _layered(folder: Path, root_name: str, sub_name: str) -> Path:
    sub = b.good_box(folder / sub_name)
    layer = Sdf.Layer.CreateNew(str(folder / root_name))
    layer.subLayerPaths.append(f"./{sub_name}")
    layer.defaultPrim = "Asset"
    layer.pseudoRoot.SetInfo("upAxis", "Z")
    layer.pseudoRoot.SetInfo("metersPerUnit", 1.0)
    layer.Save()
    assert sub.exists()
    return folder / root_name


def _bracket_dependency(folder: Path) -> list[Path]:
    return [_layered(folder, "asset.usda", "physics[v2].usda")]


HOSTILE_NAME = "bad\x01name\x1b[31mRED\nFORGED PASS.usda"


def _control_characters(folder: Path) -> list[Path]:
    return [b.good_box(folder / "odd\x1b]0;pwned\x07dir" / HOSTILE_NAME)]


def _self_payload(folder: Path) -> list[Path]:
    s = b.Stage(folder / "self_payload.usda")
    s.box_body(f"{s.root}/Body")
    s.stage.DefinePrim(f"{s.root}/Loop").GetPayloads().AddPayload("./self_payload.usda", "/Asset")
    return [s.save()]


def _sublayer_cycle(folder: Path) -> list[Path]:
    path = b.good_box(folder / "cycle_a.usda")
    first = Sdf.Layer.FindOrOpen(str(path))
    first.subLayerPaths.append("./cycle_b.usda")
    first.Save()
    second = Sdf.Layer.CreateNew(str(folder / "cycle_b.usda"))
    second.subLayerPaths.append("./cycle_a.usda")
    second.Save()
    return [path]


def _corrupt_big_payload(folder: Path) -> list[Path]:
    """A 2 GiB payload with a crate header and nothing else (sparse: it costs no disk)."""
    folder.mkdir(parents=True, exist_ok=True)
    with open(folder / "heavy.usdc", "wb") as handle:
        handle.write(b"PXR-USDC" + b"\0" * 100)
        handle.truncate(2 << 30)
    s = b.Stage(folder / "corrupt_payload.usda")
    s.box_body(f"{s.root}/Body")
    s.stage.DefinePrim(f"{s.root}/Heavy").GetPayloads().AddPayload("./heavy.usdc")
    return [s.save()]


def _non_usd_reference(folder: Path) -> list[Path]:
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "notes.txt").write_text("not a layer\n")
    s = b.Stage(folder / "text_reference.usda")
    s.box_body(f"{s.root}/Body")
    s.stage.DefinePrim(f"{s.root}/Doc").GetReferences().AddReference("./notes.txt")
    return [s.save()]


def _truncated_library(folder: Path) -> list[Path]:
    """The asset's body comes from a geometry library (a .usdc) that was cut in half."""
    library = b.Stage(folder / "library_full.usdc", root="Geom")
    library.box_body("/Geom/Body")
    library.save()
    data = (folder / "library_full.usdc").read_bytes()
    (folder / "library.usdc").write_bytes(data[: len(data) // 2])
    (folder / "library_full.usdc").unlink()
    s = b.Stage(folder / "uses_library.usda")
    s.stage.DefinePrim(f"{s.root}/Body").GetReferences().AddReference("./library.usdc", "/Geom/Body")
    return [s.save()]


LONG_NAME = "a_very_long_asset_name_" * 10 + "x" * 15 + ".usda"  # 250 characters


def _long_name(folder: Path) -> list[Path]:
    assert len(LONG_NAME) == 250
    return [b.good_box(folder / LONG_NAME), b.good_box(folder / "short.usda")]


def _strings_for_numbers(folder: Path) -> list[Path]:
    (folder / "strings.toml").parent.mkdir(parents=True, exist_ok=True)
    (folder / "strings.toml").write_text('[run]\nvideo = "yes"\n[ground_drop]\nphysics_fps = "240"\n')
    return _good(folder)


# -- what is planted in OUT before the run -------------------------------------------------------------
def _artifact_folder(out_dir: Path, asset: Path) -> Path:
    from omni.simready.physics_validator.run.inputs import artifact_dir

    return artifact_dir(out_dir, asset)


def _media_folder(out_dir: Path, asset: Path) -> Path:
    from omni.simready.physics_validator.reports.pages import media_folder

    return media_folder(out_dir / "html", str(asset))


def _planted(out_dir: Path, asset: Path) -> list[Path]:
    test = _artifact_folder(out_dir, asset) / "ground_drop"
    media = _media_folder(out_dir, asset)
    return [out_dir / ".write-test", out_dir / "report.json", out_dir / "junit.xml", test / "ground_drop.mp4",
            test / "ground_drop.poster.jpg", test / "ground_drop.replay.usda", test / "ground_drop.timeline.json",
            test / "ground_drop.poses.npz",
            test / "series.json", out_dir / "html" / "index.html.tmp", out_dir / "html" / "index.html",
            media / "ground_drop-0.png", media / "ground_drop.plots.json"]


def _plant_links(workdir: Path, out_dir: Path, inputs: list[Path]) -> None:
    """A link at every path the run writes, to the input asset or to a file outside OUT."""
    outside = workdir / "outside.txt"
    outside.write_text("not the tool's to write\n")
    for index, path in enumerate(_planted(out_dir, inputs[0])):
        path.parent.mkdir(parents=True, exist_ok=True)
        path.symlink_to(inputs[0] if index % 2 else outside)


def _plant_foreign_media(workdir: Path, out_dir: Path, inputs: list[Path]) -> None:
    media = _media_folder(out_dir, inputs[0])
    for path in _foreign(out_dir, inputs[0]):
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text("someone else's\n")
    media.mkdir(parents=True, exist_ok=True)
    (media / "ground_drop-7.png").write_bytes(b"an earlier run's plot")  # the tool's own: pruned


def _foreign(out_dir: Path, asset: Path) -> list[Path]:
    media = out_dir / "html" / "media"
    return [media / "notes.txt", media / "mine" / "drawing.png", _media_folder(out_dir, asset) / "keep.txt"]


def _read_only_folder(workdir: Path, out_dir: Path, inputs: list[Path]) -> None:
    (workdir / "read_only").mkdir(exist_ok=True)
    (workdir / "read_only").chmod(0o555)


def _users_layer_in_out(workdir: Path, out_dir: Path, inputs: list[Path]) -> None:
    out_dir.mkdir(parents=True, exist_ok=True)
    (out_dir / "good.fix.usda").write_text("#usda 1.0\n# the user's own layer, not fix's\n")


def _users_layer_beside_asset(workdir: Path, out_dir: Path, inputs: list[Path]) -> None:
    (inputs[0].parent / "good.fix.usda").write_text("#usda 1.0\n# the user's own layer, not fix's\n")


# -- drivers -------------------------------------------------------------------------------------------
def _second_writer(case: Case, argv: list[str], outcome: Outcome, workdir: Path) -> None:
    """A first run on OUT; once its batch started, a second run on the same OUT. The outcome is the second run's."""
    first = subprocess.Popen(CLI + argv, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=case_env(workdir))
    lines = []
    assert first.stderr is not None
    for line in first.stderr:
        lines.append(line)
        if " asset, " in line or " assets, " in line:  # the batch started (its progress line)
            break
    time.sleep(1.0)
    second = subprocess.run(CLI + argv, capture_output=True, text=True, env=case_env(workdir), timeout=300)
    outcome.exit_code, outcome.stdout, outcome.stderr = second.returncode, second.stdout, second.stderr
    _, rest = first.communicate(timeout=300)
    outcome.extra["first run"] = (first.returncode, "".join(lines) + rest)


def _edit_dependency_between_runs(case: Case, argv: list[str], outcome: Outcome, workdir: Path) -> None:
    """Validate; make the body in the sublayer `physics[v2].usda` kinematic (it no longer falls); validate again with
    --changed-only: the cached PASS must not come back."""
    first = Outcome(case)
    _run_in_process(argv + ["--in-process"], first)
    outcome.extra["first run"] = (first.exit_code, first.stderr)
    layer = Sdf.Layer.FindOrOpen(str(workdir / "input" / "physics[v2].usda"))
    spec = layer.GetPrimAtPath("/Asset/Body")
    attr = Sdf.AttributeSpec(spec, UsdPhysics.Tokens.physicsKinematicEnabled, Sdf.ValueTypeNames.Bool)
    attr.default = True
    layer.Save()
    outcome.edited.add("physics[v2].usda")
    _run_in_process(argv + ["--in-process", "--changed-only"], outcome)


def _full_disk(case: Case, argv: list[str], outcome: Outcome, workdir: Path) -> None:
    """OUT on a full disk: a DISK_BYTES tmpfs when this process may mount one, else RLIMIT_FSIZE at FILE_BYTES (EFBIG)."""
    out_dir = Path(argv[argv.index("--out") + 1])
    disk = workdir / "disk"
    disk.mkdir()
    mounted = os.geteuid() == 0 and subprocess.run(
        ["mount", "-t", "tmpfs", "-o", f"size={DISK_BYTES}", "tmpfs", str(disk)], capture_output=True).returncode == 0
    limit = None if mounted else (lambda: resource.setrlimit(resource.RLIMIT_FSIZE, (FILE_BYTES, FILE_BYTES)))
    outcome.note = (f"OUT on a {DISK_BYTES // 1024} KiB tmpfs" if mounted
                    else f"RLIMIT_FSIZE {FILE_BYTES // 1024} KiB (no tmpfs here): writes past it fail with EFBIG")
    run_out = disk / "out" if mounted else out_dir
    argv = list(argv)
    argv[argv.index("--out") + 1] = str(run_out)
    try:
        proc = subprocess.run(CLI + argv, capture_output=True, text=True, env=case_env(workdir), timeout=300,
                              preexec_fn=limit)
        outcome.exit_code, outcome.stdout, outcome.stderr = proc.returncode, proc.stdout, proc.stderr
        if mounted:
            shutil.copytree(run_out, out_dir, symlinks=True)
            outcome.extra["report paths"] = str(run_out)
    finally:
        if mounted:
            subprocess.run(["umount", str(disk)], check=False)


def _fix_command(case: Case, argv: list[str], outcome: Outcome, workdir: Path) -> None:
    """`fix` instead of `validate`, with the case's --out."""
    paths = [a for a in argv[1: argv.index("--tests")]]
    out = argv[argv.index("--out") + 1]
    _run_in_process(["fix", *paths, "--tests", "ground_drop", "--out", out, "--in-process", "--quiet", *case.args], outcome)


# -- checks --------------------------------------------------------------------------------------------
def _not_by_the_watchdog(outcome: Outcome) -> list[str]:
    if any(r[3].startswith("hang") for r in outcome.results):
        return ["refused only by the watchdog, not before reading"]
    return [] if outcome.seconds < 60 else [f"took {outcome.seconds:.0f} s"]


def _links_replaced(outcome: Outcome) -> list[str]:
    out_dir = Path(outcome.workdir) / "out"
    asset = Path(outcome.workdir) / "input" / "good.usda"
    written = [p for p in _planted(out_dir, asset) if p.name not in (".write-test", "index.html.tmp", "ground_drop.plots.json")]
    return [f"{p.relative_to(out_dir)} is still a link or missing" for p in written if p.is_symlink() or not p.is_file()]


def _console_escaped(outcome: Outcome) -> list[str]:
    problems = []
    text = outcome.stdout + outcome.stderr
    for raw in ("\x1b", "\x07", "\x01"):
        if raw in text:
            problems.append(f"{raw!r} reached the console raw")
    if any(line.lstrip().startswith("FORGED") for line in text.splitlines()):
        problems.append("a newline in a file name forged a console line")
    if "FORGED" not in text:
        problems.append("the asset's name is not shown at all")
    return problems


def _first_run_finished(outcome: Outcome) -> list[str]:
    code, stderr = outcome.extra.get("first run", (None, ""))
    problems = [] if code == 0 else [f"the first writer exited {code}: {stderr[-300:]}"]
    if "another simready-physics run" not in outcome.stderr:
        problems.append("the second writer was not told why it was refused")
    return problems


def _first_run_passed(outcome: Outcome) -> list[str]:
    code, stderr = outcome.extra.get("first run", (None, ""))
    return [] if code == 0 else [f"the run before the edit exited {code}: {stderr[-300:]}"]


def _names_layer(*names: str):
    def check(outcome: Outcome) -> list[str]:
        reasons = " ".join(r[3] for r in outcome.results)
        missing = [n for n in names if n not in reasons]
        return [f"the reason does not name {missing}: {reasons[:300]}"] if missing else []

    return check


def _html_whole(outcome: Outcome) -> list[str]:
    index = Path(outcome.workdir) / "out" / "html" / "index.html"
    if not index.is_file():
        return ["no HTML report"]
    text = index.read_text(encoding="utf-8")
    return [] if LONG_NAME in text and "short.usda" in text else ["an asset is missing from the HTML report"]


def _one_line_error(outcome: Outcome) -> list[str]:
    lines = [line for line in outcome.stderr.splitlines() if line.strip()]
    problems = [] if len(lines) == 1 and lines[0].startswith("error:") else [f"not one error line: {lines[:4]}"]
    if (Path(outcome.workdir) / "out" / "report.json").exists():
        problems.append("a report was written: the run went ahead")
    return problems


def _complete_media_or_none(outcome: Outcome) -> list[str]:
    """No temp or empty file left; every artifact listed exists, a video decodes; a PASS is not marked PASS*."""
    import imageio_ffmpeg

    out_dir = Path(outcome.workdir) / "out"
    problems = [f"left behind: {p.relative_to(out_dir)} ({p.stat().st_size} bytes)" for p in out_dir.rglob("*")
                if p.is_file() and (p.stat().st_size == 0 or ".tmp" in p.name)]
    run_out = outcome.extra.get("report paths", str(out_dir))
    for asset in (outcome.report or {}).get("assets", []):
        for test in asset["tests"]:
            result = TestResult.model_validate(test)
            if verdict_label(result) != "PASS":
                problems.append(f"verdict {verdict_label(result)} (warnings {result.warnings})")
            for name, path in result.artifacts.items():  # saved as <OUT>/... (reports.path_privacy), or absolute
                copy = out_dir / (Path(path[len("<OUT>/"):]) if path.startswith("<OUT>/") else Path(path).relative_to(run_out))
                if not copy.is_file():
                    problems.append(f"{name} listed but not on disk")
                elif copy.suffix == ".mp4" and subprocess.run(
                        [imageio_ffmpeg.get_ffmpeg_exe(), "-v", "error", "-i", str(copy), "-f", "null", "-"],
                        capture_output=True).returncode != 0:
                    problems.append("a truncated video is listed")
    return problems


def _foreign_kept(outcome: Outcome) -> list[str]:
    out_dir = Path(outcome.workdir) / "out"
    asset = Path(outcome.workdir) / "input" / "good.usda"
    problems = [f"{p.relative_to(out_dir)} was deleted" for p in _foreign(out_dir, asset) if not p.is_file()]
    if (_media_folder(out_dir, asset) / "ground_drop-7.png").exists():
        problems.append("an earlier run's plot was kept")
    return problems


def _nothing_ran(outcome: Outcome) -> list[str]:
    out_dir = Path(outcome.workdir) / "out"
    done = [p.name for p in out_dir.iterdir()] if out_dir.is_dir() else []
    return [f"the batch ran before the refusal: {done}"] if any(n not in (".cache", LOCK_NAME) for n in done) else []


def _no_absolute_paths(*reports: str):
    def check(outcome: Outcome) -> list[str]:
        out_dir = Path(outcome.workdir) / "out"
        files = [p for pattern in reports for p in out_dir.glob(pattern)]
        if not files:
            return [f"no report matches {reports}"]
        leaks = [str(p.relative_to(out_dir)) for p in files if outcome.workdir in p.read_text(encoding="utf-8")]
        return [f"absolute paths left in {leaks}"] if leaks else []

    return check


def _all(*checks):
    return lambda outcome: [problem for check in checks for problem in check(outcome)]


SAVED = ("report.json", "junit.xml")

ATTACKS: list[Case] = [
    # 1. nothing the asset names may block the tool before a watchdog sees it
    Case("fifo_as_asset", "the path itself is a FIFO named .usda (watchdog 3 s)", _fifo_asset, PRECHECK, (1,),
         "not a regular file", mode="subprocess", check=_not_by_the_watchdog),
    Case("fifo_sublayer", "a FIFO as a sublayer (watchdog 3 s)", _fifo_sublayer, PRECHECK, (1,), "pipe.usda",
         mode="subprocess", check=_not_by_the_watchdog),
    Case("fifo_sublayer_in_process", "a FIFO as a sublayer, --in-process (no watchdog process)", _fifo_sublayer, PRECHECK,
         (1,), "pipe.usda", mode="subprocess", args=("--in-process",), check=_not_by_the_watchdog),
    Case("device_attributes", "asset attributes naming /dev/zero and a FIFO", _device_attributes, PHYSICS, (0, 1),
         mode="subprocess", check=_not_by_the_watchdog),
    # 2. every file written by replace, never through a link planted in OUT
    Case("links_planted_in_out", "symlinks at every output path (reports, video, poster, replay, timeline, series, "
         "plots, HTML, temp names) to the input asset and to a file outside OUT", _good, PHYSICS, (0, 1),
         mode="subprocess", video=True, html=True, prepare=_plant_links, check=_links_replaced, args=VIDEO_ALL),
    # 3. an output that is an input, or two outputs that are one file
    Case("json_names_input", "--json naming the input asset", _good, USAGE, (2,), args=("--json", "{input}/good.usda"),
         stderr="input", check=_nothing_ran),
    Case("junit_names_input_layer", "--junit naming a sublayer of the input asset", _with_sublayer, USAGE, (2,),
         args=("--junit", "{input}/physics.usda"), stderr="input", check=_nothing_ran),
    Case("json_and_junit_same_file", "--json F --junit F", _good, USAGE, (2,),
         args=("--json", "{workdir}/out/r.xml", "--junit", "{workdir}/out/r.xml"), stderr="same file", check=_nothing_ran),
    # 4. control characters, escape sequences and newlines in names
    Case("control_characters_in_names", "\\x01, an escape sequence, BEL and a newline in folder and file names",
         _control_characters, PHYSICS, (0, 1), mode="subprocess", args=("--progress", "tests"), check=_console_escaped),
    # 5. SIGTERM is Ctrl-C; three Ctrl-C still keep the report
    Case("sigterm", "SIGTERM to the CLI process (as `timeout` sends it) during the first asset", _three_assets, frozenset(),
         (3,), tests=("ground_drop", "fault_slow"), mode="custom", driver=interrupted_by((signal.SIGTERM, False)),
         args=("--jobs", "1", "--watchdog", "120", "--progress", "tests"), per_asset={"a.usda": PHYSICS},
         check=_partial_report),
    Case("sigterm_process_group", "SIGTERM to the whole process group (workers too)", _three_assets, frozenset(), (3,),
         tests=("ground_drop", "fault_slow"), mode="custom", driver=interrupted_by((signal.SIGTERM, True)),
         args=("--jobs", "1", "--watchdog", "120", "--progress", "tests"), per_asset={"a.usda": PHYSICS},
         check=_partial_report),
    Case("three_sigints", "Ctrl-C three times, 0.2 s apart", _three_assets, frozenset(), (3,),
         tests=("ground_drop", "fault_slow"), mode="custom",
         driver=interrupted_by((signal.SIGINT, True), (signal.SIGINT, True), (signal.SIGINT, True)),
         args=("--jobs", "1", "--watchdog", "120", "--progress", "tests"), per_asset={"a.usda": PHYSICS},
         check=_partial_report),
    # 6. one OUT, one writer
    Case("second_writer_same_out", "a second run on the OUT of a run in progress", _good, frozenset({Status.PASS}), (2,),
         tests=("fault_slow",), mode="custom", driver=_second_writer, check=_first_run_finished),
    # 7. the cache key hashes every dependency whatever its name
    Case("changed_dependency_with_bracket", "--changed-only after editing a sublayer named physics[v2].usda",
         _bracket_dependency, frozenset({Status.FAIL}), (1,), mode="custom", driver=_edit_dependency_between_runs,
         check=_first_run_passed),
    # 8. broken composition is a precheck that names the layer
    Case("payload_cycle", "a payload of the asset's own file", _self_payload, PRECHECK, (1,), "COMPOSITION_CYCLE",
         check=_names_layer("self_payload.usda")),
    Case("sublayer_cycle", "two layers that sublayer each other", _sublayer_cycle, PRECHECK, (1,), "COMPOSITION_CYCLE",
         check=_names_layer("cycle_a.usda", "cycle_b.usda")),
    Case("corrupt_2gib_payload", "a 2 GiB payload with a crate header and no content", _corrupt_big_payload, PRECHECK,
         (1,), "LAYER_UNREADABLE", check=_names_layer("heavy.usdc")),
    Case("reference_to_text_file", "a reference to a .txt file", _non_usd_reference, PRECHECK, (1,), "LAYER_UNREADABLE",
         check=_names_layer("notes.txt")),
    Case("truncated_geometry_library", "the body's geometry library (.usdc) cut in half", _truncated_library, PRECHECK,
         (1,), "LAYER_UNREADABLE", check=_names_layer("library.usdc")),
    # 9. long names
    Case("name_of_250_characters", "a 250-character file name beside a short one, HTML on", _long_name, PHYSICS, (0, 1),
         html=True, check=_html_whole),
    # 10. settings that are usage errors
    Case("seconds_1e308", "--set ground_drop.simulation_seconds=1e308", _good, USAGE, (2,),
         args=("--set", "ground_drop.simulation_seconds=1e308"), stderr="simulation_seconds", check=_one_line_error),
    Case("physics_fps_1e12", "--set ground_drop.physics_fps=1e12", _good, USAGE, (2,),
         args=("--set", "ground_drop.physics_fps=1e12"), stderr="physics_fps", check=_one_line_error),
    Case("watchdog_nan", "--watchdog nan", _good, USAGE, (2,), args=("--watchdog", "nan"), stderr="watchdog",
         check=_one_line_error),
    Case("config_is_a_folder", "--config naming a folder", _good, USAGE, (2,), args=("--config", "{input}"),
         stderr="folder", check=_one_line_error),
    Case("infinite_tolerance", "--set ground_drop.rest_tolerance_m=inf", _good, USAGE, (2,),
         args=("--set", "ground_drop.rest_tolerance_m=inf"), stderr="rest_tolerance_m", check=_one_line_error),
    Case("strings_for_flags_and_numbers", 'TOML video = "yes", physics_fps = "240"', _strings_for_numbers, USAGE, (2,),
         args=("--config", "{input}/strings.toml"), stderr="video", check=_one_line_error),
    # 11. smaller: full disk, fix --out, foreign media, temp folders, an unwritable --json
    Case("full_disk", f"OUT on a full disk ({DISK_BYTES // 1024} KiB), videos on", _good, PHYSICS, (0,), mode="custom",
         video=True, driver=_full_disk, check=_complete_media_or_none, args=VIDEO_ALL),
    Case("fix_out_is_the_asset_folder", "fix --out the asset's own folder, holding the user's good.fix.usda", _good, USAGE,
         (2,), mode="custom", driver=_fix_command, out=lambda w: w / "input", prepare=_users_layer_beside_asset,
         stderr="folder of"),
    Case("fix_out_holds_a_foreign_layer", "fix --out a folder holding a good.fix.usda fix did not write", _good, USAGE, (2,),
         mode="custom", driver=_fix_command, prepare=_users_layer_in_out, stderr="good.fix.usda"),
    Case("foreign_files_in_media", "files of someone else's in OUT/html/media and in an asset's media folder", _good,
         PHYSICS, (0, 1), html=True, prepare=_plant_foreign_media, check=_foreign_kept),
    Case("temp_folder_left_clean", "two assets in two workers: their temp folders (ovphysx cache, schema probe) removed",
         lambda f: [b.good_box(f / "one.usda"), b.good_box(f / "two.usda")], PHYSICS, (0, 1), mode="subprocess",
         args=("--jobs", "2")),
    Case("unwritable_json_location", "--json in a read-only folder", _good, USAGE, (2,), mode="subprocess",
         prepare=_read_only_folder, args=("--json", "{workdir}/read_only/report.json"),
         stderr="cannot write the JSON report", check=_nothing_ran),
    # 12. no absolute paths in saved reports
    Case("relative_to_root", "--relative-to the case folder: JSON, JUnit and HTML", _good, PHYSICS, (0, 1), html=True,
         args=("--relative-to", "{workdir}"), check=_no_absolute_paths(*SAVED, "html/index.html")),
    Case("simready_format_strips_paths", "--format simready (relative paths by default)", _good, PHYSICS, (0, 1),
         args=("--format", "simready"), check=_no_absolute_paths(*SAVED, "results/**/result.json")),
]

