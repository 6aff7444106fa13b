"""Hostile input, round four (issue 42): links planted in the folders the tool makes under OUT, files standing where
its folders go, signals during `fix`, and the user's home path in saved reports.

Every link here points at a folder or file under the case folder but outside OUT and the input (`elsewhere/`,
`victim.txt`): the corpus's judge fails a case that changes anything there ("written outside OUT"), and each case's
own check says the link was replaced by the tool's real folder (core.out_writer) or the file left as it was.
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import time
from pathlib import Path

from pxr import UsdPhysics

from omni.simready.physics_validator.core.status import Status

from ..fixtures.driven_arms import horizontal_arm
from . import builders as b
from .corpus import CLI, PHYSICS, Case, Outcome, _run_in_process, case_env

USAGE = frozenset()
ELSEWHERE = "elsewhere"  # under the case folder, outside OUT and the input: a planted link's target
INTERRUPTED = frozenset({Status.PASS, Status.FAIL, Status.WARN})  # the verdicts as authored, kept when fix stops


def _good(folder: Path) -> list[Path]:
    return [b.good_box(folder / "good.usda")]


def _weak_arm(folder: Path) -> list[Path]:
    """A one-joint arm whose 0.1 N·m drive cannot hold its link: full_range_sweep and effort_limit FAIL, fix tunes it."""
    return [horizontal_arm(folder / "weak.usda", max_force=0.1)]


# -- what is planted ---------------------------------------------------------------------------------------
def _links_at(*where):
    """A `prepare` planting a folder link at each OUT-relative path in `where` (a callable gets (out, inputs))."""
    def plant(workdir: Path, out_dir: Path, inputs: list[Path]) -> None:
        target = workdir / ELSEWHERE
        target.mkdir(exist_ok=True)
        (target / "keep.txt").write_text("someone else's\n")
        for rel in where:
            path = out_dir / (rel(out_dir, inputs) if callable(rel) else rel)
            path.parent.mkdir(parents=True, exist_ok=True)
            path.symlink_to(target, target_is_directory=True)

    return plant


def _every_cache_shard(out_dir: Path, inputs: list[Path]) -> list[str]:
    return [f".cache/results/{i:02x}" for i in range(256)]


def _links_at_every_shard(workdir: Path, out_dir: Path, inputs: list[Path]) -> None:
    _links_at(*_every_cache_shard(out_dir, inputs))(workdir, out_dir, inputs)


def _results_runtime(out_dir: Path, inputs: list[Path]) -> str:
    from omni.simready.physics_validator.reports.simready_results import asset_key, content_root

    return f"results/{asset_key(str(inputs[0]), content_root([str(inputs[0])]))}/.simready/runtime"


def _asset_folder(out_dir: Path, inputs: list[Path]) -> str:
    from omni.simready.physics_validator.run.inputs import artifact_dir

    return artifact_dir(out_dir, inputs[0]).name


def _fix_work_folder(out_dir: Path, inputs: list[Path]) -> str:
    from omni.simready.physics_validator.fix.pipeline import _slug

    return f".fix/{_slug(str(inputs[0]))}"


def _file_at(rel: str):
    def plant(workdir: Path, out_dir: Path, inputs: list[Path]) -> None:
        out_dir.mkdir(parents=True, exist_ok=True)
        (out_dir / rel).write_text("someone's file, where the tool makes a folder\n")

    return plant


def _victim_lock(workdir: Path, out_dir: Path, inputs: list[Path]) -> None:
    from omni.simready.physics_validator.run.output_paths import LOCK_NAME

    (workdir / "victim.txt").write_text("not the tool's to open\n")
    out_dir.mkdir(parents=True, exist_ok=True)
    (out_dir / LOCK_NAME).symlink_to(workdir / "victim.txt")


def _fix_layer_links_to_asset(workdir: Path, out_dir: Path, inputs: list[Path]) -> None:
    out_dir.mkdir(parents=True, exist_ok=True)
    (out_dir / "good.fix.usda").symlink_to(inputs[0])


# -- drivers ------------------------------------------------------------------------------------------------
def _fix_box(case: Case, argv: list[str], outcome: Outcome, workdir: Path) -> None:
    """`fix` on the good box, in this process: nothing to fix, but OUT/.fix/before (its cache, its report) is written."""
    out = argv[argv.index("--out") + 1]
    outcome.extra["command"] = "fix"
    _run_in_process(["fix", str(workdir / "input" / "good.usda"), "--tests", "ground_drop", "--out", out, "--in-process",
                     "--quiet"], outcome)


def _fix_interrupted(phase: str):
    """`fix` of the weak arm as a subprocess; SIGTERM to it 1 s after it says `phase` (its progress line)."""
    def drive(case: Case, argv: list[str], outcome: Outcome, workdir: Path) -> None:
        out = argv[argv.index("--out") + 1]
        outcome.extra["command"] = "fix"
        command = CLI + ["fix", str(workdir / "input" / "weak.usda"), "--tests", "full_range_sweep,effort_limit", "--out",
                         out, "--rounds", "2", "-j", "1", "--raise-max-force"]
        proc = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=case_env(workdir),
                                start_new_session=True)
        lines, sent = [], None
        assert proc.stderr is not None
        for line in proc.stderr:
            lines.append(line)
            if phase in line:
                time.sleep(1.0)
                os.kill(proc.pid, signal.SIGTERM)
                sent = time.monotonic()
                break
        try:
            stdout, rest = proc.communicate(timeout=300)
        except subprocess.TimeoutExpired:
            outcome.timed_out = True
            os.killpg(proc.pid, signal.SIGKILL)
            stdout, rest = proc.communicate()
        outcome.exit_code, outcome.stdout, outcome.stderr = proc.returncode, stdout, "".join(lines) + rest
        outcome.extra["stopped after"] = time.monotonic() - sent if sent is not None else None
        outcome.note = (f"SIGTERM 1 s after '{phase}': exit {proc.returncode} {outcome.extra['stopped after']:.0f} s later"
                        if sent is not None else f"'{phase}' never printed")

    return drive


def _home_path(case: Case, argv: list[str], outcome: Outcome, workdir: Path) -> None:
    """`validate ~/assets/good.usda` (an absolute path in HOME) from another current folder, HTML on."""
    home = workdir / "input" / "home"
    cwd = workdir / "cwd"
    cwd.mkdir(exist_ok=True)
    out = argv[argv.index("--out") + 1]
    env = {**case_env(workdir), "HOME": str(home)}
    proc = subprocess.run(CLI + ["validate", str(home / "assets" / "good.usda"), "--tests", "ground_drop", "--out", out,
                                 "--no-video", "--watchdog", "60", "--in-process"], cwd=cwd, env=env, capture_output=True,
                          text=True, timeout=300)
    outcome.exit_code, outcome.stdout, outcome.stderr = proc.returncode, proc.stdout, proc.stderr
    # the runtime's own cache in HOME (omni.client's ~/.cache/ov), not the asset: the real HOME gets it on every run
    outcome.edited |= {str(p.relative_to(workdir / "input")) for p in (home / ".cache").rglob("*")}


def _forged_cache_behind_a_link(case: Case, argv: list[str], outcome: Outcome, workdir: Path) -> None:
    """Validate the kinematic box (FAIL); copy its cache elsewhere with every verdict turned PASS, put a link at
    OUT/.cache to that copy, validate again with --changed-only: the forged PASS must not be read."""
    import shutil

    first = Outcome(case)
    _run_in_process(argv + ["--in-process"], first)
    out_dir = Path(argv[argv.index("--out") + 1])
    forged = workdir / "input" / "forged_cache"  # made by the case on purpose (judged unchanged by its own check)
    shutil.copytree(out_dir / ".cache", forged)
    for entry in forged.rglob("*.json"):
        data = json.loads(entry.read_text())
        data["result"].update(status="PASS", reason="", code="")
        entry.write_text(json.dumps(data))
    shutil.rmtree(out_dir / ".cache")
    (out_dir / ".cache").symlink_to(forged, target_is_directory=True)
    outcome.extra["forged"] = snapshot_of(forged)
    outcome.edited |= {str(p.relative_to(workdir / "input")) for p in forged.rglob("*")}
    _run_in_process(argv + ["--in-process", "--changed-only"], outcome)


def snapshot_of(folder: Path) -> dict[str, bytes]:
    return {str(p.relative_to(folder)): p.read_bytes() for p in sorted(folder.rglob("*")) if p.is_file()}


def _forgery_not_read(outcome: Outcome) -> list[str]:
    forged = Path(outcome.workdir) / "input" / "forged_cache"
    problems = [] if snapshot_of(forged) == outcome.extra.get("forged") else ["the forged cache was changed"]
    return problems + (["OUT/.cache is still a link"] if (Path(outcome.workdir) / "out" / ".cache").is_symlink() else [])


def _kinematic_box(folder: Path) -> list[Path]:
    s = b.Stage(folder / "kinematic.usda")
    body = s.box_body(f"{s.root}/Body")
    UsdPhysics.RigidBodyAPI(body.GetPrim()).CreateKinematicEnabledAttr(True)
    return [s.save()]


def _in_home(folder: Path) -> list[Path]:
    return [b.good_box(folder / "home" / "assets" / "good.usda")]


# -- checks -------------------------------------------------------------------------------------------------
def _real_folders(*where):
    """Each planted path is now a real folder of the tool's (the link replaced), and elsewhere/ holds only keep.txt."""
    def check(outcome: Outcome) -> list[str]:
        workdir = Path(outcome.workdir)
        out_dir = workdir / "out"
        inputs = [workdir / "input" / n for n in ("good.usda", "weak.usda") if (workdir / "input" / n).exists()]
        problems = []
        for rel in where:
            path = out_dir / (rel(out_dir, inputs) if callable(rel) else rel)
            if path.is_symlink():
                problems.append(f"{path.relative_to(out_dir)} is still a link")
        held = sorted(p.name for p in (workdir / ELSEWHERE).iterdir())
        return problems + ([f"elsewhere/ now holds {held}"] if held != ["keep.txt"] else [])

    return check


def _cache_written(outcome: Outcome) -> list[str]:
    entries = list((Path(outcome.workdir) / "out" / ".cache" / "results").glob("*/*.json"))
    return [] if entries else ["no cache entry under OUT/.cache/results (the cache was not exercised)"]


def _results_written(outcome: Outcome) -> list[str]:
    found = list((Path(outcome.workdir) / "out" / "results").rglob("result.json"))
    return [] if found else ["no result.json under OUT/results"]


def _file_kept(rel: str, said: str = ""):
    def check(outcome: Outcome) -> list[str]:
        path = Path(outcome.workdir) / "out" / rel
        problems = [] if path.is_file() and path.read_text().startswith("someone's file") else [f"OUT/{rel} was changed"]
        if said and said not in outcome.stderr:
            problems.append(f"stderr does not say {said!r}")
        return problems

    return check


def _lock_not_followed(outcome: Outcome) -> list[str]:
    from omni.simready.physics_validator.run.output_paths import LOCK_NAME

    lock = Path(outcome.workdir) / "out" / LOCK_NAME
    return [] if lock.is_file() and not lock.is_symlink() else ["the lock file is still a link (or missing)"]


def _stopped_cleanly(outcome: Outcome) -> list[str]:
    """An interrupted fix: its report incomplete, no layer accepted or written, OUT free for the next run."""
    from omni.simready.physics_validator.run.output_paths import lock, release_all

    out_dir = Path(outcome.workdir) / "out"
    report = outcome.report or {}
    problems = [] if report.get("complete") is False else ["the report is not marked incomplete"]
    statuses = [a.get("fix", {}).get("status") for a in report.get("assets", [])]
    if statuses != ["interrupted"]:
        problems.append(f"fix status {statuses}, expected ['interrupted']")
    layers = sorted(p.name for p in out_dir.glob("*.fix*.usda"))
    if layers:
        problems.append(f"layers written though the fix was stopped: {layers}")
    try:
        held = lock(out_dir)
    finally:
        release_all()
    if held:
        problems.append(f"OUT still locked: {held}")
    if (outcome.extra.get("stopped after") or 0) > 60:
        problems.append(f"stopped {outcome.extra['stopped after']:.0f} s after SIGTERM")
    return problems


def _no_home_path(outcome: Outcome) -> list[str]:
    out_dir = Path(outcome.workdir) / "out"
    files = [out_dir / "report.json", out_dir / "junit.xml", out_dir / "html" / "index.html"]
    problems = [f"{p.name} missing" for p in files if not p.is_file()]
    problems += [f"{p.relative_to(out_dir)} names {outcome.workdir}" for p in files
                 if p.is_file() and outcome.workdir in p.read_text(encoding="utf-8")]
    path = json.loads((out_dir / "report.json").read_text())["assets"][0]["path"] if not problems else ""
    return problems or ([] if path == "~/assets/good.usda" else [f"the asset is named {path!r}, not ~/assets/good.usda"])


def _all(*checks):
    return lambda outcome: [problem for check in checks for problem in check(outcome)]


FIX_PHASE_MEASURE = "measuring and proposing"
FIX_PHASE_RERUN = "with the proposed layer"

OUT_ATTACKS: list[Case] = [
    # links where the tool makes folders (issue 42 item 1 and deeper)
    Case("link_at_out_cache", "a link at OUT/.cache to a folder outside OUT", _good, PHYSICS, (0, 1),
         prepare=_links_at(".cache"), check=_all(_real_folders(".cache"), _cache_written)),
    Case("link_at_out_cache_results", "a link at OUT/.cache/results (depth 2)", _good, PHYSICS, (0, 1),
         prepare=_links_at(".cache/results"), check=_all(_real_folders(".cache/results"), _cache_written)),
    Case("links_at_every_cache_shard", "a link at each of the 256 OUT/.cache/results/<xx> shards (depth 3)", _good,
         PHYSICS, (0, 1), prepare=_links_at_every_shard, check=_all(_real_folders(), _cache_written)),
    Case("link_at_out_results", "a link at OUT/results with --format simready", _good, PHYSICS, (0, 1),
         args=("--format", "simready"), prepare=_links_at("results"), check=_all(_real_folders("results"), _results_written)),
    Case("link_deep_in_results", "a link at OUT/results/<asset>/.simready/runtime (depth 4), --format simready", _good,
         PHYSICS, (0, 1), args=("--format", "simready"), prepare=_links_at(_results_runtime),
         check=_all(_real_folders(_results_runtime), _results_written)),
    Case("link_at_out_html", "a link at OUT/html (the HTML report and its media)", _good, PHYSICS, (0, 1), html=True,
         args=("--media", "all"), prepare=_links_at("html"), check=_real_folders("html")),
    Case("link_at_out_html_media", "a link at OUT/html/media, plots drawn (--media all)", _good, PHYSICS, (0, 1), html=True,
         args=("--media", "all"), prepare=_links_at("html/media"), check=_real_folders("html/media")),
    Case("link_at_asset_folder", "a link at OUT/<asset> (series, replay, timeline)", _good, PHYSICS, (0, 1),
         prepare=_links_at(_asset_folder), check=_real_folders(_asset_folder)),
    Case("link_at_out_fix", "fix with a link at OUT/.fix", _good, PHYSICS, (0,), mode="custom", driver=_fix_box,
         prepare=_links_at(".fix"), check=_real_folders(".fix")),
    Case("link_at_fix_before", "fix with a link at OUT/.fix/before (its validation's cache and report)", _good, PHYSICS,
         (0,), mode="custom", driver=_fix_box, prepare=_links_at(".fix/before"), check=_real_folders(".fix/before")),
    Case("forged_cache_behind_a_link", "--changed-only with a link at OUT/.cache to a copy of the cache whose FAIL "
         "was turned PASS", _kinematic_box, frozenset({Status.FAIL}), (1,), mode="custom", driver=_forged_cache_behind_a_link,
         check=_forgery_not_read),
    # files and links where the tool's own files go
    Case("fix_layer_name_links_to_asset", "fix --out holding good.fix.usda, a link to the input asset", _good, USAGE, (2,),
         mode="custom", driver=_fix_box, prepare=_fix_layer_links_to_asset, stderr="was not written by fix"),
    Case("lock_file_is_a_link", "OUT/.simready-physics.lock is a link to a file outside OUT", _good, PHYSICS, (0, 1),
         prepare=_victim_lock, check=_lock_not_followed),
    Case("file_where_cache_goes", "a file of someone's at OUT/.cache (where the cache folder goes)", _good, PHYSICS, (0, 1),
         prepare=_file_at(".cache"), check=_file_kept(".cache")),
    Case("file_where_results_go", "a file at OUT/results with --format simready", _good, PHYSICS, (3,),
         args=("--format", "simready"), prepare=_file_at("results"),
         check=_file_kept("results", "is not a folder")),
    Case("file_where_records_go", "a file at OUT/validation (the validation records' folder) with --format simready",
         _good, PHYSICS, (3,), args=("--format", "simready"), prepare=_file_at("validation"),
         check=_file_kept("validation", "cannot write the SimReady validation records")),
    # signals during fix (issue 42 item 4)
    Case("sigterm_during_fix_rerun", "SIGTERM 1 s into fix's round-1 re-run, a link at OUT/.fix/<asset> (its probe and "
         "round layers)", _weak_arm, INTERRUPTED, (3,), mode="custom", tests=("full_range_sweep", "effort_limit"),
         driver=_fix_interrupted(FIX_PHASE_RERUN), prepare=_links_at(_fix_work_folder),
         check=_all(_stopped_cleanly, _real_folders(_fix_work_folder))),
    Case("sigterm_during_fix_measure", "SIGTERM 1 s into fix's round-1 measurement (its probe workers)", _weak_arm,
         INTERRUPTED, (3,), mode="custom", tests=("full_range_sweep", "effort_limit"),
         driver=_fix_interrupted(FIX_PHASE_MEASURE), check=_stopped_cleanly),
    # the user's home path in saved reports (issue 42 item 6)
    Case("home_path_in_reports", "validate ~/assets/good.usda from another folder: JSON, JUnit and HTML", _in_home,
         PHYSICS, (0, 1), mode="custom", html=True, driver=_home_path, check=_no_home_path),
]
