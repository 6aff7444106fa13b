"""The bad-input corpus: every case, its expected outcome, and one way to run and judge it.

A case builds its inputs with pxr (builders.py), runs the real `simready-physics validate` (in
this process where isolation is not what is tested, as a subprocess where it is), then judges
the outcome: verdicts and reasons, exit code, reports on disk and parseable, no traceback, and
every input file byte-identical with the same mtime afterwards. The pytest corpus test and
tools/robustness_table.py (which writes docs/robustness.md) both run the cases through here.
"""

from __future__ import annotations

import contextlib
import hashlib
import io
import json
import os
import re
import shutil
import signal
import subprocess
import sys
import time
import xml.etree.ElementTree as ET
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable

from omni.simready.physics_validator.run.worker import WORKER_GRACE_SECONDS
from omni.simready.physics_validator.core.status import Status

from . import builders as b
from .fault_plugins import plugin_env

PHYSICS = frozenset({Status.PASS, Status.FAIL, Status.WARN})  # a real physics verdict
PRECHECK = frozenset({Status.PRECHECK_FAILURE})
ERROR = frozenset({Status.ERROR})
WATCHDOG = 3.0  # seconds: short, so hang cases finish quickly
# Default test settings: a headless drop of these small assets takes well under a second, so the
# table shows the verdicts a user gets. Only the video and HTML are off (not what is tested here).
FAST: tuple[str, ...] = ()
CLI = [sys.executable, "-m", "omni.simready.physics_validator.cli"]
# omni.client's per-user lock file (hub-<user>.lock), shared by every process of the user by design: not the run's to remove.
HUB_LOCK = re.compile(r"^hub-.*\.lock$")


@dataclass(frozen=True)
class Case:
    id: str
    what: str  # the input, in words (for the table)
    build: Callable[[Path], list[Path]]
    expect: frozenset  # allowed verdicts for every test result (empty: no run at all)
    exit_codes: tuple[int, ...]
    reason: str = ""  # text every non-physics reason must contain
    tests: tuple[str, ...] = ("ground_drop",)
    mode: str = "inprocess"  # inprocess | subprocess | sigint
    args: tuple[str, ...] = ()
    per_asset: dict = field(default_factory=dict)  # file name -> allowed verdicts, overrides `expect`
    check: Callable | None = None  # extra judgement: (outcome) -> list of problems
    out: Callable[[Path], Path] | None = None  # where the report goes (default: <case>/out)
    stderr: str = ""  # text stderr must contain
    video: bool = False  # record videos (the corpus default is --no-video)
    html: bool = False  # write the HTML report (the corpus default is --no-html)
    prepare: Callable[[Path, Path, list[Path]], None] | None = None  # (workdir, out_dir, inputs): plant things first
    driver: Callable[["Case", list[str], "Outcome", Path], None] | None = None  # mode "custom": runs the CLI itself


@dataclass
class Outcome:
    case: Case
    exit_code: int | None = None
    results: list[tuple[str, str, Status, str]] = field(default_factory=list)  # (asset, test, verdict, reason)
    report: dict | None = None
    stdout: str = ""
    stderr: str = ""
    seconds: float = 0.0
    modified: list[str] = field(default_factory=list)
    crashed: str = ""  # the validator itself failed (exception escaped, report unreadable)
    timed_out: bool = False
    problems: list[str] = field(default_factory=list)
    workdir: str = ""
    temp_left: list[str] = field(default_factory=list)  # what a subprocess run left in its private temp folder
    outside: list[str] = field(default_factory=list)  # files written or changed outside OUT (and outside the input)
    edited: set[str] = field(default_factory=set)  # input files a custom driver changed on purpose (a dependency edit)
    extra: dict = field(default_factory=dict)  # what a custom driver saw besides the main run (a second writer's exit)
    note: str = ""  # how the case ran, for the table when there is no other message (which full-disk substitute)

    @property
    def ok(self) -> bool:
        return not self.problems

    def message(self) -> str:
        """One line for the table: the distinct reasons, or the CLI's error line."""
        text = self._message()
        return text.replace(self.workdir + os.sep, "") if self.workdir else text

    def _message(self) -> str:
        if self.report is not None and self.report.get("complete") is False:
            return f"interrupted: complete=false, {len(self.report['not_run'])} test runs listed in not_run"
        reasons = []
        for _, _, status, reason in self.results:
            if reason and reason not in reasons and status not in (Status.PASS,):
                reasons.append(reason)
        if reasons:
            return reasons[0] + (f" (+{len(reasons) - 1} other reasons)" if len(reasons) > 1 else "")
        for line in self.stderr.splitlines():
            if line.startswith("error:"):
                return line
        return self.note


# -- running -----------------------------------------------------------------------------------------
def snapshot(folder: Path, skip: tuple[Path, ...] = ()) -> dict[str, tuple[str, int, int]]:
    """relative path -> (sha256, size, mtime_ns) for every regular file under `folder` (all layers of every asset),
    streamed (a 2 GB payload is hashed, never held); a link is recorded as its target text; folders in `skip` and
    FIFOs are left out (reading a FIFO would block)."""
    out = {}
    folder = Path(folder)
    for path in sorted(folder.rglob("*")):
        if any(path == s or s in path.parents for s in skip):
            continue
        if path.is_symlink():
            out[str(path.relative_to(folder))] = ("link:" + os.readlink(path), 0, 0)
        elif path.is_file():
            stat = path.stat()
            digest = hashlib.sha256()
            with open(path, "rb") as handle:
                for chunk in iter(lambda: handle.read(1 << 22), b""):
                    digest.update(chunk)
            out[str(path.relative_to(folder))] = (digest.hexdigest(), stat.st_size, stat.st_mtime_ns)
    return out


def changed_files(before: dict, after: dict) -> list[str]:
    return sorted(name for name in set(before) | set(after) if before.get(name) != after.get(name))


def run_case(case: Case, workdir: Path) -> Outcome:
    """Build the case's inputs in `workdir`, validate them, and judge the outcome."""
    workdir = Path(workdir)
    inputs_dir = workdir / "input"
    inputs_dir.mkdir(parents=True, exist_ok=True)
    inputs = case.build(inputs_dir)
    out_dir = case.out(workdir) if case.out else workdir / "out"
    (workdir / "tmp").mkdir(exist_ok=True)  # a subprocess run's TMPDIR: what it leaves there is judged
    if case.prepare is not None:
        case.prepare(workdir, out_dir, inputs)
    before = snapshot(inputs_dir)
    around = (inputs_dir, out_dir, workdir / "tmp", workdir / "plugins")
    outside_before = snapshot(workdir, skip=around)
    argv = ["validate", *map(str, inputs), "--tests", ",".join(case.tests), "--out", str(out_dir)]
    argv += ([] if case.video else ["--no-video"]) + ([] if case.html else ["--no-html"])
    args = [a.format(workdir=workdir, input=inputs_dir, out=out_dir) for a in case.args]
    argv += ["--watchdog", str(WATCHDOG if case.mode != "inprocess" else 60), *FAST, *args]
    outcome = Outcome(case, workdir=str(workdir))
    started = time.monotonic()
    if case.mode == "inprocess":
        _run_in_process(argv + ["--in-process"], outcome)
    elif case.mode == "subprocess":
        _run_subprocess(argv, outcome, workdir)
    elif case.mode == "sigint":
        _run_interrupted(argv, outcome, workdir)
    elif case.mode == "custom" and case.driver is not None:
        case.driver(case, argv, outcome, workdir)
    else:
        raise ValueError(case.mode)
    outcome.seconds = time.monotonic() - started
    outcome.modified = [f for f in changed_files(before, snapshot(inputs_dir)) if f not in outcome.edited]
    outcome.outside = changed_files(outside_before, snapshot(workdir, skip=around))
    outcome.temp_left = sorted(p.name for p in (workdir / "tmp").iterdir() if not HUB_LOCK.match(p.name))
    _read_reports(out_dir, outcome)
    outcome.problems = judge(outcome)
    return outcome


def _run_in_process(argv: list[str], outcome: Outcome) -> None:
    from omni.simready.physics_validator.cli import main

    stdout, stderr = io.StringIO(), io.StringIO()
    try:
        with contextlib.redirect_stdout(stdout), contextlib.redirect_stderr(stderr):
            outcome.exit_code = main(argv)
    except BaseException as exc:  # noqa: BLE001 - an escaped exception is exactly what we count
        outcome.crashed = f"{type(exc).__name__}: {exc}"
    outcome.stdout, outcome.stderr = stdout.getvalue(), stderr.getvalue()


def _subprocess_prefix() -> list[str]:
    """As root, drop the capability that ignores file permissions so a read-only folder is read-only."""
    if os.geteuid() == 0 and shutil.which("setpriv"):
        return ["setpriv", "--bounding-set=-dac_override,-dac_read_search", "--inh-caps=-dac_override,-dac_read_search"]
    return []


def _timeout(outcome: Outcome) -> float:
    return 240.0 + (WATCHDOG + WORKER_GRACE_SECONDS) * 2


def case_env(workdir: Path) -> dict[str, str]:
    """A CLI subprocess's environment: the fault plugins, and a temp folder of its own (judged empty afterwards)."""
    env = plugin_env(workdir / "plugins")
    env["TMPDIR"] = str(workdir / "tmp")
    return env


def _run_subprocess(argv: list[str], outcome: Outcome, workdir: Path) -> None:
    env = case_env(workdir)
    try:
        proc = subprocess.run(
            _subprocess_prefix() + CLI + argv, capture_output=True, text=True, env=env, timeout=_timeout(outcome)
        )
    except subprocess.TimeoutExpired as exc:
        outcome.timed_out = True
        outcome.stderr = (exc.stderr or b"").decode() if isinstance(exc.stderr, bytes) else (exc.stderr or "")
        return
    outcome.exit_code, outcome.stdout, outcome.stderr = proc.returncode, proc.stdout, proc.stderr


def _run_interrupted(argv: list[str], outcome: Outcome, workdir: Path,
                     signals: tuple[tuple[int, bool], ...] = ((signal.SIGINT, True),)) -> None:
    """Ctrl-C as a terminal sends it: SIGINT to the whole process group, once the first test has a verdict.
    `signals`: what is sent then, in order, 0.2 s apart: (signal, to the whole group or to the CLI process only)."""
    env = case_env(workdir)
    # A terminal's process takes Ctrl-C; a pytest worker that ran a worker process's main in-process ignores SIGINT
    # (run/worker_main.py), and a child would inherit that: give the CLI the default disposition, as a shell does.
    proc = subprocess.Popen(CLI + argv, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env,
                            start_new_session=True, preexec_fn=_default_signals)
    lines = []
    deadline = time.monotonic() + _timeout(outcome)
    try:
        for line in proc.stderr:  # progress (--progress tests): one line per finished test
            lines.append(line)
            if ":: ground_drop" in line or line.strip().startswith("ground_drop:"):
                time.sleep(2.0)  # now inside the slow test of the first asset
                for index, (signum, group) in enumerate(signals):
                    time.sleep(0.2 if index else 0.0)
                    (os.killpg if group else os.kill)(proc.pid, signum)
                break
            if time.monotonic() > deadline:
                break
        stdout, rest = proc.communicate(timeout=120)
        outcome.exit_code = proc.returncode
        outcome.stdout, outcome.stderr = stdout, "".join(lines) + rest
    except subprocess.TimeoutExpired:
        outcome.timed_out = True
        os.killpg(proc.pid, signal.SIGKILL)
        proc.communicate()


def _default_signals() -> None:
    for signum in (signal.SIGINT, signal.SIGTERM):
        signal.signal(signum, signal.SIG_DFL)


def interrupted_by(*signals: tuple[int, bool]):
    """A custom driver: the Ctrl-C run of `_run_interrupted`, with these signals instead."""
    def drive(case: Case, argv: list[str], outcome: Outcome, workdir: Path) -> None:
        _run_interrupted(argv, outcome, workdir, signals)

    return drive


def _read_reports(out_dir: Path, outcome: Outcome) -> None:
    json_path, junit_path = out_dir / "report.json", out_dir / "junit.xml"
    if not json_path.exists():
        return
    try:
        outcome.report = json.loads(json_path.read_text(encoding="utf-8"))
        if outcome.extra.get("command") != "fix":  # fix writes JSON and HTML only
            ET.parse(junit_path)
    except Exception as exc:  # noqa: BLE001
        outcome.crashed = outcome.crashed or f"unreadable report: {type(exc).__name__}: {exc}"
        return
    for asset in outcome.report["assets"]:
        for test in asset["tests"]:
            outcome.results.append((Path(asset["path"]).name, test["name"], Status(test["status"]), test["reason"]))


# -- judging -----------------------------------------------------------------------------------------
def judge(outcome: Outcome) -> list[str]:
    case, problems = outcome.case, []
    if outcome.crashed:
        problems.append(f"validator crashed: {outcome.crashed}")
    if outcome.timed_out:
        problems.append("the run did not end (hang past the watchdog)")
    if "Traceback" in outcome.stdout + outcome.stderr:
        problems.append("a Python traceback reached the user")
    if outcome.modified:
        problems.append(f"input files modified: {outcome.modified}")
    if outcome.outside:
        problems.append(f"written outside OUT: {outcome.outside}")
    if outcome.temp_left:
        problems.append(f"left in the temp folder: {outcome.temp_left}")
    if outcome.exit_code not in case.exit_codes:
        problems.append(f"exit code {outcome.exit_code}, expected one of {case.exit_codes}")
    if case.stderr and case.stderr not in outcome.stderr:
        problems.append(f"stderr lacks {case.stderr!r}")
    if case.expect or case.per_asset:
        if outcome.report is None:
            problems.append("no report written")
        elif not outcome.results:
            problems.append("report has no results")
    for asset, test, status, reason in outcome.results:
        allowed = case.per_asset.get(asset, case.expect)
        if status not in allowed:
            problems.append(f"{asset}/{test}: {status.value}, expected {sorted(s.value for s in allowed)} ({reason})")
        if status not in PHYSICS and not reason:
            problems.append(f"{asset}/{test}: {status.value} without a reason")
        if "\n" in reason:
            problems.append(f"{asset}/{test}: reason is not one line")
        if case.reason and status not in PHYSICS and case.reason not in reason:
            problems.append(f"{asset}/{test}: reason {reason!r} lacks {case.reason!r}")
    if case.check is not None and not problems:
        problems += case.check(outcome)
    return problems


def _same_verdicts_for_twins(outcome: Outcome) -> list[str]:
    verdicts = {asset: status for asset, _, status, _ in outcome.results}
    if len(verdicts) != 2 or len(set(verdicts.values())) != 1:
        return [f"unit twins disagree: {verdicts}"]
    metrics = [{k: v for k, v in a["tests"][0]["metrics"].items() if isinstance(v,
                                                                                (int, float))} for a in outcome.report["assets"]]
    problems = []
    for key in sorted(set(metrics[0]) & set(metrics[1])):
        x, y = metrics[0][key], metrics[1][key]
        if abs(x - y) > 0.02 + 0.05 * max(abs(x), abs(y)):
            problems.append(f"unit twins differ in {key}: {x} vs {y}")
    return problems


def _two_distinct_assets(outcome: Outcome) -> list[str]:
    paths = [a["path"] for a in outcome.report["assets"]]
    if len(set(paths)) != 2:
        return [f"expected two distinct assets in the report, got {paths}"]
    series = [t["artifacts"].get("series", "") for a in outcome.report["assets"] for t in a["tests"]]
    if len(set(series)) != len(series):
        return [f"artifacts of the two same-named assets collide: {series}"]
    return []


def _good_asset_still_reported(outcome: Outcome) -> list[str]:
    verdicts = {asset: status for asset, _, status, _ in outcome.results}
    if verdicts.get("good.usda") != Status.PASS or len(verdicts) != 3:
        return [f"the good asset's verdict was lost or wrong: {verdicts}"]
    return []


def _batch_goes_on(outcome: Outcome) -> list[str]:
    """After the fault in the first test, the next test of the asset and the next asset still run."""
    rows = [(asset, test, status) for asset, test, status, _ in outcome.results]
    ground = [r for r in rows if r[1] == "ground_drop"]
    faults = [r for r in rows if r[1].startswith("fault_")]
    if len(ground) != 2 or any(r[2] != Status.PASS for r in ground):
        return [f"the batch did not go on after the fault: {rows}"]
    if len(faults) != 2 or any(r[2] != Status.ERROR for r in faults):
        return [f"each faulty test must end as ERROR: {rows}"]
    return []


def _hang_within_watchdog(outcome: Outcome) -> list[str]:
    problems = _batch_goes_on(outcome)
    limit = WATCHDOG + WORKER_GRACE_SECONDS
    if not any(r[3].startswith("hang") and f"watchdog {WATCHDOG:g} s" in r[3] for r in outcome.results):
        problems.append("no 'hang ... watchdog' reason")
    if outcome.seconds > 2 * limit + 120:
        problems.append(f"run took {outcome.seconds:.0f} s with a {limit:.0f} s hang limit per hung test")
    return problems


def _partial_report(outcome: Outcome) -> list[str]:
    """Every (asset, test) is either in the report or in not_run, never both; the interrupted asset keeps its verdicts."""
    report = outcome.report
    if report["complete"] is not False:
        return ["interrupted run not marked complete=false"]
    ran = {(Path(a["path"]).name, t["name"]) for a in report["assets"] for t in a["tests"]}
    not_run = {(Path(item.rsplit("::", 1)[0]).name, item.rsplit("::", 1)[1]) for item in report["not_run"]}
    everything = {(asset, test) for asset in ("a.usda", "b.usda", "c.usda") for test in outcome.case.tests}
    problems = []
    if ran | not_run != everything:
        problems.append(f"neither run nor listed as not run: {sorted(everything - ran - not_run)}")
    if ran & not_run:
        problems.append(f"listed both as run and not run: {sorted(ran & not_run)}")
    cut = [a for a in report["assets"] if a["error"].startswith("interrupted") and a["tests"]]
    if not cut:
        problems.append("the verdicts of the asset that was running when Ctrl-C came were lost")
    if not not_run:
        problems.append("nothing listed in not_run")
    return problems


def _three_assets(folder: Path) -> list[Path]:
    return [b.good_box(folder / "a.usda"), b.good_box(folder / "b.usda"), b.good_box(folder / "c.usda")]


def _two_assets(folder: Path) -> list[Path]:
    return [b.good_box(folder / "first.usda"), b.good_box(folder / "second.usda")]


def _read_only_folder(workdir: Path) -> Path:
    folder = workdir / "read_only"
    folder.mkdir(exist_ok=True)
    folder.chmod(0o555)
    return folder / "report"


def _good(folder: Path) -> list[Path]:
    return [b.good_box(folder / "good.usda")]


CASES: list[Case] = [
    Case("missing_path", "a path that does not exist", b.missing_path, frozenset(), (2,), stderr="no such file or folder:"),
    Case("not_a_usd_file", "a text file (notes.txt)", b.not_a_usd_file, frozenset(), (2,), stderr="not a USD file:"),
    Case("empty_folder", "a folder without USD files", b.empty_folder, frozenset(), (2,), stderr="no USD files found in"),
    Case("zero_byte", "a zero-byte .usda", b.zero_byte, PRECHECK, (1,), "empty file"),
    Case("truncated_usdc", "a .usdc cut in half", b.truncated_usdc, PRECHECK, (1,), "truncated"),
    Case("syntax_error", ".usda with a syntax error", b.syntax_error, PRECHECK, (1,), "line 8"),
    Case("not_usd", "random bytes named .usd", b.not_usd_content, PRECHECK, (1,), "cannot open"),
    Case("unresolved_sublayer", "a sublayer that cannot be found", b.unresolved_sublayer, PRECHECK, (1,), "UNRESOLVED_SUBLAYER"),
    Case("unresolved_reference", "a reference that cannot be found", b.unresolved_reference, PRECHECK, (1,),
         "UNRESOLVED_REFERENCE"),
    Case("unresolved_payload", "a payload that cannot be found", b.unresolved_payload, PRECHECK, (1,), "missing_heavy.usdc"),
    Case("several_roots", "no defaultPrim, two root prims", b.no_default_prim_several_roots, PHYSICS, (0, 1)),
    Case("mass_nan", "physics:mass = NaN", b.mass_value(b.NAN, "mass_nan"), PRECHECK, (1,), "MASS_NAN"),
    Case("mass_inf", "physics:mass = Inf", b.mass_value(b.INF, "mass_inf"), PRECHECK, (1,), "mass is inf"),
    Case("mass_negative", "physics:mass = -1", b.mass_value(-1.0, "mass_negative"), PRECHECK, (1,), "MASS_NEGATIVE"),
    Case("mass_zero", "physics:mass = 0 (UsdPhysics: not authored, density decides)", b.mass_value(0.0, "mass_zero"), PHYSICS,
         (0, 1)),
    Case("units_nan", "stage metersPerUnit = NaN", b.stage_metadata("metersPerUnit", b.NAN, "units_nan"), PRECHECK, (1,),
         "STAGE_UNITS_INVALID"),
    Case("kg_units_negative", "stage kilogramsPerUnit = -2", b.stage_metadata("kilogramsPerUnit", -2.0, "kg_negative"), PRECHECK,
         (1,), "STAGE_UNITS_INVALID"),
    Case("up_axis_x", "stage upAxis = X", b.stage_metadata("upAxis", "X", "up_axis_x"), PRECHECK, (1,), "STAGE_UP_AXIS_INVALID"),
    Case("transform_nan", "NaN in a translate op", b.nan_transform, PRECHECK, (1,), "TRANSFORM_NAN"),
    Case("zero_volume_mesh", "a flat mesh collider", b.zero_volume_mesh, PRECHECK, (1,), "ZERO_VOLUME_COLLIDER"),
    Case("degenerate_mesh", "a mesh collider with all points equal", b.degenerate_mesh, PRECHECK, (1,), "ZERO_VOLUME_COLLIDER"),
    Case("mesh_no_faces", "a mesh collider with points but no faces", b.mesh_without_faces, PRECHECK, (1,), "MESH_NO_FACES"),
    Case("inverted_normals", "a cube mesh wound inside out", b.inverted_normals, PHYSICS, (0, 1)),
    Case("overlapping_bodies", "two rigid bodies overlapping at start", b.overlapping_bodies, PHYSICS, (0, 1)),
    Case("extreme_mass_ratio", "1e-6 kg link on a 1e4 kg base", b.extreme_mass_ratio, PHYSICS, (0, 1)),
    Case("joint_target_missing", "joint body1 targets a missing prim", b.joint_target_missing, PRECHECK, (1,),
         "JOINT_TARGET_MISSING"),
    Case("articulation_loop", "four-bar loop, no joint excluded", b.articulation_loop, PHYSICS, (0, 1)),
    Case("bodies_500", "500 rigid bodies", b.many_bodies, PHYSICS, (0, 1)),
    Case("unit_twins", "Y-up centimetre twin of a Z-up metre asset", b.unit_twins, PHYSICS, (0, 1),
         check=_same_verdicts_for_twins),
    Case("non_ascii", "non-ASCII folder, file and prim names", b.non_ascii_names, PHYSICS, (0, 1)),
    Case("same_file_name", "two asset.usda in different folders", b.same_file_name, frozenset(), (1,),
         per_asset={"asset.usda": PHYSICS}, check=_two_distinct_assets),
    Case("good_among_bad", "a folder: good asset, syntax error, zero bytes", b.good_and_bad_batch, frozenset(), (1,),
         per_asset={"good.usda": PHYSICS, "syntax_error.usda": PRECHECK,
                    "empty.usda": PRECHECK}, check=_good_asset_still_reported),
    Case("read_only_out", "--out inside a read-only folder", _good, frozenset(), (2,), mode="subprocess",
         out=_read_only_folder, stderr="cannot write the report folder"),
    Case("hang_in_step", f"a test step that never returns (watchdog {WATCHDOG:g} s)", _two_assets, frozenset(), (3,),
         tests=("fault_hang_in_step", "ground_drop"), mode="subprocess",
         per_asset={"first.usda": ERROR | PHYSICS, "second.usda": ERROR | PHYSICS}, reason="hang", check=_hang_within_watchdog),
    Case("worker_killed", "the worker process gets SIGKILL mid-test", _two_assets, frozenset(), (3,),
         tests=("fault_worker_killed", "ground_drop"), mode="subprocess",
         per_asset={"first.usda": ERROR | PHYSICS,
                    "second.usda": ERROR | PHYSICS}, reason="worker process died", check=_batch_goes_on),
    Case("slow_not_hang", f"a slow test that keeps stepping (10 s at 0.1 s per step) is no hang (watchdog {WATCHDOG:g} s)",
         _good, frozenset({Status.PASS}), (0,), tests=("fault_slow",), mode="subprocess"),
    Case("never_finishes", "a test that steps forever (in-process watchdog)", _two_assets, frozenset(), (3,),
         tests=("fault_never_finishes", "ground_drop"), mode="subprocess", args=("--in-process", "--max-test-seconds", "3"),
         per_asset={"first.usda": ERROR | PHYSICS, "second.usda": ERROR | PHYSICS}, reason="watchdog", check=_batch_goes_on),
    Case("ctrl_c", "Ctrl-C (SIGINT to the process group) during the first asset", _three_assets, frozenset(), (3,),
         tests=("ground_drop", "fault_slow"), mode="sigint", args=("--jobs", "1", "--watchdog", "120", "--progress", "tests"),
         per_asset={"a.usda": PHYSICS}, check=_partial_report),
    Case("ctrl_c_in_process", "Ctrl-C during an --in-process run", _three_assets, frozenset(), (3,),
         tests=("ground_drop", "fault_slow"), mode="sigint",
         args=("--jobs", "1", "--watchdog", "120", "--in-process", "--progress", "tests"),
         per_asset={"a.usda": PHYSICS, "b.usda": PHYSICS, "c.usda": PHYSICS}, check=_partial_report),
]


from .attacks import ATTACKS  # noqa: E402 - issue 33's attacks, built on the harness above
from .attacks_out import OUT_ATTACKS  # noqa: E402 - issue 42's: links in OUT, files where folders go, signals in fix
from .attacks_values import VALUE_ATTACKS  # noqa: E402 - issue 42's: NaN/inf/time samples, settings text

CASES += ATTACKS + OUT_ATTACKS + VALUE_ATTACKS


def case_by_id(case_id: str) -> Case:
    return next(c for c in CASES if c.id == case_id)


def figures(outcomes: list[Outcome]) -> dict[str, int]:
    """The closing-note figures: cases tried, validator crashes, hangs past the watchdog, assets modified, broken assets
    that got a PASS (a case whose expected verdicts exclude PASS)."""
    return {
        "cases": len(outcomes),
        "crashes": sum(1 for o in outcomes if o.crashed or "a Python traceback reached the user" in o.problems),
        "hangs_past_watchdog": sum(1 for o in outcomes if o.timed_out),
        "assets_modified": sum(1 for o in outcomes if o.modified),
        "written_outside_out": sum(1 for o in outcomes if o.outside),
        "temp_folders_left": sum(1 for o in outcomes if o.temp_left),
        "broken_passed": sum(1 for o in outcomes if o.case.expect and Status.PASS not in o.case.expect
                             and any(status == Status.PASS for _, _, status, _ in o.results)),
        "unexpected": sum(1 for o in outcomes if not o.ok),
    }
