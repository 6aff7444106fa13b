"""Benchmark (issues 36, 44): a library of small props at the engine's pace, and where a small asset's seconds go.

    python tools/bench_library.py [--parts pace,profile,mixed] [--count 1000] [--rounds 2] [--work DIR] [--json FILE]

- pace: `simready-physics validate PROPS --tests ground_drop --jobs 2` against the same with `--jobs 1`, HTML on and
  recording on (the defaults: every test's 3D replay), whole processes, paired (tools/paired_runs.py: A B A B, the
  ratio per pair, medians, the load before each run). PROPS: `--count` small props copied from the shared assets and
  the corpus with variations (tools/make_props.py, written into WORK/props-COUNT once).
- mixed: the same pair on a mixed folder of boxes and arms (WORK/mixed, written once): a layer over each asset the
  shared assets hold (robots, their floating bases, props) and each robot tools/convert_robots.sh converted into
  `--robots` (the xArm 7, the KUKA KR 210, the Kinova Gen3, ...), and `--mixed-props` of the props; ground_drop.
- profile: where one small asset's seconds go, per phase, in CPU milliseconds per asset: the worker's side measured
  around the functions the run calls (`run.asset_run.run_asset` on `--profile-assets` of the props in this process,
  as a worker runs them: the content hash taken while reading, videos left to the pool, plots by the media policy),
  the parent's side (planning, receiving a result, the cache, the reports) on the results, and the fixed costs of a
  run (the command's start-up, a worker's warm-up) apart. Exclusive times: a phase inside another is subtracted.
"""

from __future__ import annotations

import argparse
import json
import os
import pickle
import shutil
import subprocess
import sys
import tempfile
import time
from collections import defaultdict
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tools"))  # paired_runs, make_props

from paired_runs import load, paired, summary  # noqa: E402


def props(work: Path, count: int) -> Path:
    folder = work / f"props-{count}"
    if not (folder.is_dir() and len(list(folder.glob("*.usda"))) >= count):
        subprocess.run([sys.executable, str(ROOT / "tools" / "make_props.py"), str(folder), "--count", str(count)],
                       check=True, stderr=subprocess.DEVNULL)
    return folder


def pace_part(folder: Path, rounds: int, work: Path) -> dict:
    count = len(list(folder.glob("*.usda")))
    print(f"\npace: {count} props, ground_drop, HTML and recording on (the defaults: 3D replays, no video), "
          f"--jobs 2 vs --jobs 1; {rounds} pairs", flush=True)
    args = [str(folder), "--tests", "ground_drop", "--quiet"]
    pairs = paired([*args, "--jobs", "1"], [*args, "--jobs", "2"], rounds, work / "pace", "jobs1", "jobs2")
    figures = summary(pairs, "jobs1", "jobs2")
    report = json.loads((pairs[-1][1].out / "report.json").read_text())
    statuses: dict[str, int] = defaultdict(int)
    for asset in report["assets"]:
        for test in asset["tests"]:
            statuses[test["status"]] += 1
    figures.update(assets=count, verdicts=dict(statuses))
    print(f"  median of {len(pairs)}: --jobs 2 {figures['jobs2']['wall']:.1f} s wall ({figures['jobs2']['cpu']:.1f} s CPU), "
          f"--jobs 1 {figures['jobs1']['wall']:.1f} s: speed-up {figures['ratio_wall']:.2f}x wall "
          f"({figures['ratio_cpu']:.2f}x CPU); load {figures['load'][0]:.1f}-{figures['load'][1]:.1f}; verdicts "
          f"{dict(statuses)}")
    return figures


def mixed_folder(work: Path, props_folder: Path, robots: Path, shared: Path, count: int) -> Path:
    """WORK/mixed: a layer over every asset of `shared` and `robots` (the converted robots) and over `count` props."""
    from make_props import write_copy

    from omni.simready.physics_validator.core.usd import find_usd_files

    folder = work / "mixed"
    if folder.is_dir() and any(folder.glob("*.usda")):
        return folder
    folder.mkdir(parents=True, exist_ok=True)
    sources = [p for root in (shared, robots) if root.is_dir() for p in find_usd_files(root)
               if "_build" not in p.parts and "Payload" not in p.parts]
    for index, source in enumerate(sources):
        write_copy(source, folder / f"{index:03d}_{source.stem.replace(' ', '_')}.usda", 0.0, 1.0)
    props = sorted(props_folder.glob("*.usda"))[:count]
    for prop in props:  # already layers of their own over a source
        shutil.copyfile(prop, folder / f"p_{prop.name}")
    print(f"mixed: {len(sources) + len(props)} assets in {folder} ({len(props)} of them props)")
    return folder


def mixed_part(folder: Path, rounds: int, work: Path) -> dict:
    count = len(list(folder.glob("*.usda")))
    print(f"\nmixed: {count} assets (boxes and arms), ground_drop, HTML on, --jobs 2 vs --jobs 1; {rounds} pairs", flush=True)
    args = [str(folder), "--tests", "ground_drop", "--quiet"]
    pairs = paired([*args, "--jobs", "1"], [*args, "--jobs", "2"], rounds, work / "mixed-runs", "jobs1", "jobs2")
    figures = summary(pairs, "jobs1", "jobs2")
    figures["assets"] = count
    print(f"  median of {len(pairs)}: --jobs 2 {figures['jobs2']['wall']:.1f} s wall, --jobs 1 {figures['jobs1']['wall']:.1f} s: "
          f"speed-up {figures['ratio_wall']:.2f}x wall ({figures['ratio_cpu']:.2f}x CPU); load {figures['load'][0]:.1f}-"
          f"{figures['load'][1]:.1f}")
    return figures


# -- profile ----------------------------------------------------------------------------------------------------
class Clock:
    """Exclusive CPU time per phase (time.process_time: the steadier figure when other work shares the cores): while
    a timed function runs inside another, the outer one is paused."""

    def __init__(self):
        self.seconds: dict[str, float] = defaultdict(float)
        self.calls: dict[str, int] = defaultdict(int)
        self.stack: list[list] = []

    def wrap(self, owner, name: str, phase: str) -> None:
        original = getattr(owner, name)
        clock = self

        def timed(*args, **kwargs):
            now = time.process_time()
            if clock.stack:
                outer = clock.stack[-1]
                clock.seconds[outer[0]] += now - outer[1]
            clock.stack.append([phase, now])
            try:
                return original(*args, **kwargs)
            finally:
                end = time.process_time()
                clock.seconds[phase] += end - clock.stack.pop()[1]
                clock.calls[phase] += 1
                if clock.stack:
                    clock.stack[-1][1] = end

        setattr(owner, name, timed)


WORKER_PHASES = [
    # (module, owner attribute or "", function, phase)
    ("omni.simready.physics_validator.run.asset_run", "", "run_asset", "worker: around the tests (hooks, results)"),
    ("omni.simready.physics_validator.run.asset_run", "", "dependency_scan", "content hash: the layer walk"),
    ("omni.simready.physics_validator.run.asset_run", "", "content_hash_of", "content hash: hashing the files"),
    ("omni.simready.physics_validator.run.asset_run", "", "load_asset", "read the asset (pxr, AssetModel)"),
    ("omni.simready.physics_validator.core.session", "TestSession", "start", "precheck and scene"),
    ("omni.simready.physics_validator.engines.base", "EngineBase", "load", "engine load: the rest"),
    ("omni.simready.physics_validator.engines.physx.engine", "OvPhysxEngine", "_exact_lift_correction",
     "engine load: exact lift (collider hulls)"),
    ("omni.simready.physics_validator.engines.physx.engine", "", "author_wrapper", "engine load: the wrapper layer"),
    ("omni.simready.physics_validator.engines.physx.engine", "OvPhysxEngine", "_attach",
     "engine load: ovphysx population and attach"),
    ("omni.simready.physics_validator.engines.physx.engine", "OvPhysxEngine", "_discover",
     "engine load: bindings and DOF discovery"),
    ("omni.simready.physics_validator.core.session", "TestSession", "advance", "the test's own logic"),
    ("omni.simready.physics_validator.engines.base", "EngineBase", "step", "physics steps"),
    ("omni.simready.physics_validator.engines.physx.engine", "OvPhysxEngine", "bounds", "bounds reads"),
    ("omni.simready.physics_validator.recording.recorder", "Recording", "__call__", "recording: poses kept per frame"),
    ("omni.simready.physics_validator.recording.recorder", "Recording", "close", "recording: poses, timeline"),
    ("omni.simready.physics_validator.recording.recorder", "Recording", "_replay_glb", "recording: the 3D replay"),
    ("omni.simready.physics_validator.recording.replay_geometry", "", "replay_geometry",
     "recording: the 3D replay's geometry (read, decimated)"),
    ("omni.simready.physics_validator.run.asset_run", "", "read_back", "runtime readback"),
    ("omni.simready.physics_validator.engines.base", "EngineBase", "close", "engine close"),
    ("omni.simready.physics_validator.run.asset_run", "", "write_atomic", "series.json"),
    ("omni.simready.physics_validator.reports.pages", "PlotsAhead", "__call__", "plots (media policy)"),
    ("omni.simready.physics_validator.run.worker_main", "", "release_memory", "worker: between assets (gc, trim)"),
    ("omni.simready.physics_validator.run.worker_main", "", "retire_reason", "worker: between assets (layers, RSS)"),
]


def profile_part(folder: Path, count: int, work: Path) -> list[dict]:
    import importlib

    from omni.simready.physics_validator.core.cache import ResultCache
    from omni.simready.physics_validator.core.config import ValidationConfig
    from omni.simready.physics_validator.core.results import RunReport, TestResult
    from omni.simready.physics_validator.engines import engine_settings
    from omni.simready.physics_validator.physics_tests import default_registry
    from omni.simready.physics_validator.reports.html import write_html_report
    from omni.simready.physics_validator.reports.json_report import write_json_report
    from omni.simready.physics_validator.reports.junit import write_junit_report
    from omni.simready.physics_validator.reports.pages import PlotsAhead
    from omni.simready.physics_validator.run import asset_run
    from omni.simready.physics_validator.run.asset_run import RunHooks, run_asset
    from omni.simready.physics_validator.run.inputs import AssetJob, artifact_dir, file_sha256

    paths = sorted(folder.glob("*.usda"))[: count + 1]
    out = work / "profile"
    config = ValidationConfig.defaults(default_registry(), engine_settings())

    def job(path: Path) -> AssetJob:
        return AssetJob(str(path), ["ground_drop"], config, "physx", str(artifact_dir(out, path)), sha256=file_sha256(path),
                        pages=PlotsAhead(out / "html", config.run.media), defer_videos=True, content_key=True)

    hooks = RunHooks(test_ended=lambda r: None, content=lambda digest: None)
    from omni.simready.physics_validator.run import worker_main

    worker_main.release_memory(keep=True)  # as a worker does after its warm-up
    run_asset(job(paths[0]), hooks)  # warm: the runtime, the imports (a worker's warm-up does these once)
    worker_main.release_memory(keep=True)  # and after its first asset
    clock = Clock()
    for module_name, owner_name, function, phase in WORKER_PHASES:
        try:
            module = importlib.import_module(module_name)
        except ImportError:  # a checkout before that module (--parts profile on older code)
            continue
        owner = getattr(module, owner_name) if owner_name else module
        if hasattr(owner, function):
            clock.wrap(owner, function, phase)
        else:  # the code moved on: the phase is counted in the one around it
            print(f"  (no {owner_name or module_name}.{function} any more: '{phase}' is counted in its caller)")
    run = asset_run.run_asset if asset_run.run_asset is not run_asset else run_asset
    results, messages = [], []
    started = time.process_time()
    for path in paths[1:]:
        sent = []

        def ended(result, sent=sent) -> None:
            sent.append(pickle.dumps(("result", result.model_dump(mode="json"), result.series)))  # what a worker sends

        results.append(run(job(path), RunHooks(test_ended=ended, content=lambda digest: None)))
        worker_main.release_memory()  # what a worker does between assets (worker_main.serve)
        worker_main.retire_reason(None)
        messages.extend(sent)
    worker_wall = time.process_time() - started
    rows = {phase: clock.seconds[phase] for _, _, _, phase in WORKER_PHASES if phase in clock.seconds}
    rows["worker: around the tests (hooks, results)"] += worker_wall - sum(clock.seconds.values())

    # the parent's side, on the same results: plan, receive, cache, progress-free reports
    parent: dict[str, float] = {}
    t = time.process_time()
    for path in paths[1:]:
        file_sha256(path)
    parent["parent: plan (hash the asset file)"] = time.process_time() - t
    t = time.process_time()
    received = [TestResult.model_validate(pickle.loads(m)[1]) for m in messages]
    parent["parent: receive a result"] = time.process_time() - t
    cache = ResultCache(out)
    t = time.process_time()
    for index, result in enumerate(received):
        cache.put(f"{index:064x}", str(paths[1 + index]), result)
    parent["parent: results cache entry"] = time.process_time() - t
    report = RunReport(tool_version="bench", assets=results)
    for label, write in (("parent: JSON report", lambda: write_json_report(report, out / "report.json")),
                         ("parent: JUnit report", lambda: write_junit_report(report, out / "junit.xml")),
                         ("parent: HTML report", lambda: write_html_report(report, out, default_registry(),
                                                                          media=config.run.media))):
        t = time.process_time()
        write()
        parent[label] = time.process_time() - t
    rows.update(parent)
    assets = len(paths) - 1
    table = [{"phase": phase, "cpu_ms_per_asset": round(1000 * seconds / assets, 2)} for phase, seconds in rows.items()]
    total = sum(r["cpu_ms_per_asset"] for r in table)
    print(f"\nprofile: {assets} props, ground_drop, in this process as a worker runs them, then the parent's part; "
          f"load {load():.1f}")
    for row in sorted(table, key=lambda r: -r["cpu_ms_per_asset"]):
        row["share"] = round(100 * row["cpu_ms_per_asset"] / total, 1)
        print(f"  {row['phase']:48s} {row['cpu_ms_per_asset']:7.2f} CPU ms  {row['share']:5.1f} %")
    print(f"  {'all (one asset, one core)':48s} {total:7.2f} CPU ms")
    table.append({"phase": "fixed: the command's start-up (imports)", "seconds": _startup()})
    print(f"  fixed, once a run: the command's start-up {table[-1]['seconds']:.2f} s")
    return table


def _startup() -> float:
    started = time.perf_counter()
    subprocess.run([sys.executable, "-m", "omni.simready.physics_validator.cli", "--help"], capture_output=True)
    return round(time.perf_counter() - started, 2)


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--parts", default="pace,profile")
    parser.add_argument("--count", type=int, default=1000)
    parser.add_argument("--rounds", type=int, default=2)
    parser.add_argument("--profile-assets", type=int, default=100)
    parser.add_argument("--work", default="", help="where the props and the runs go (default: a temp folder)")
    parser.add_argument("--json", default="", help="write the figures here")
    parser.add_argument("--robots", default="/work/robots", help="converted robots for the mixed folder")
    parser.add_argument("--shared", default=str(ROOT.parent / "shared" / "assets"), help="the shared assets")
    parser.add_argument("--mixed-props", type=int, default=60, help="props in the mixed folder")
    args = parser.parse_args(argv)
    parts = [p.strip() for p in args.parts.split(",") if p.strip()]
    work = Path(args.work or tempfile.mkdtemp(prefix="bench_library_"))
    work.mkdir(parents=True, exist_ok=True)
    folder = props(work, args.count)
    print(f"load average {load():.1f} at the start, {os.cpu_count()} CPUs; props {folder}")
    figures: dict = {}
    if "profile" in parts:
        figures["profile"] = profile_part(folder, args.profile_assets, work)
    if "pace" in parts:
        figures["pace"] = pace_part(folder, args.rounds, work)
    if "mixed" in parts:
        mixed = mixed_folder(work, folder, Path(args.robots), Path(args.shared), args.mixed_props)
        figures["mixed"] = mixed_part(mixed, args.rounds, work)
    print(f"\nload average {load():.1f} at the end")
    if args.json:
        Path(args.json).write_text(json.dumps(figures, indent=1, default=str))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
