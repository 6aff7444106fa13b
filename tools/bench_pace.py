"""Benchmark (issue 27): is the validator at the engine's pace, and does a library's report scale with the workers?

    python tools/bench_pace.py [--parts sweep,joints,report,simtime] [--rounds 3] [--arm7 USD] [--folder DIR]
                               [--baseline CHECKOUT]

Every figure is a ratio of two things measured in this same call, interleaved (A B A B ...), so the load other
processes put on a shared machine moves both sides. Times are wall seconds and CPU seconds (this process's,
`time.process_time`; for whole runs the children's, RUSAGE_CHILDREN): with other work on the same cores the CPU
seconds are the steadier figure, the wall seconds what a user waits. Medians over the rounds; the load average is
printed before and after. Never put these numbers in tests.

- sweep: full_range_sweep on a 7-DOF arm with mesh colliders (default: the KUKA iiwa of /work/shared/assets with
  drives, /work/verdicts/overlays/pb_kuka_iiwa_driven.usda) through the validator (a TestSession in this process:
  precheck, load, test logic, steps, close) against a bare ovphysx loop over the same wrapper scene that replays
  the targets the validator wrote, steps the same simulated seconds and reads q, qd and every body pose every step
  (tools/bench_physx.py: `bare` through the public TensorBinding.read, `bare*` through the one-ctypes-call path the
  engine uses): x real time (simulated / wall) and validator / bare.
- joints: the four driven-joint tests on the 3-joint fixture arm, summed over the four, the same way.
- report: `simready-physics validate FOLDER --tests ground_drop --no-video` (HTML on) as whole processes with
  --jobs 1 and --jobs 2, and both again with --no-html: the speed-up jobs 1 / jobs 2 of each.
- simtime: each test's simulated seconds on both arms (and ground_drop on a box) against a checkout of the code
  before (`--baseline`, run in a subprocess): the physics time early ends saved, and whether each verdict stayed.
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))  # tests.fixtures
sys.path.insert(0, str(ROOT / "tools"))  # bench_physx

JOINT_TESTS = ["velocity_limit", "full_range_sweep", "drive_gain_validation", "effort_limit"]
KUKA = Path("/work/verdicts/overlays/pb_kuka_iiwa_driven.usda")


def load() -> str:
    one, five, _ = os.getloadavg()
    return f"{one:.1f}/{five:.1f}"


def median(values) -> float:
    return statistics.median(values) if values else float("nan")


# -- validator vs bare ovphysx, in this process ---------------------------------------------------------------
def timed(fn):
    wall, cpu = time.perf_counter(), time.process_time()
    value = fn()
    return time.perf_counter() - wall, time.process_time() - cpu, value


def pace(asset, tests: list[str], rounds: int) -> dict:
    """Per test: the validator's and the bare loops' (wall, cpu) per round, interleaved, and the simulated seconds."""
    from bench_physx import bare_run, record_tape, validator_run

    rows = {}
    for test in tests:
        validator_run("physx", test, asset)  # warm: the runtime, the test's imports
        tape = record_tape(test, asset)
        row = rows[test] = {"sim": len(tape.steps) / 240.0, "physx": [], "bare": [], "bare*": [], "status": ""}
        for _ in range(rounds):
            wall, cpu, (_, result) = timed(lambda test=test: validator_run("physx", test, asset))
            row["physx"].append((wall, cpu))
            row["status"] = result.status.value
            row["sim_result"] = result.simulated_seconds
            for key, native in (("bare", False), ("bare*", True)):
                wall, cpu, _ = timed(lambda tape=tape, native=native: bare_run(asset, tape, native=native))
                row[key].append((wall, cpu))
    return rows


def print_pace(title: str, rows: dict) -> dict:
    print(f"\n{title}")
    print(f"{'test':24s} {'sim s':>6s} {'physx wall':>10s} {'x real':>7s} {'cpu':>7s} {'bare* wall':>10s} {'x real':>7s} "
          f"{'phx/bare':>9s} {'phx/bare*':>10s} {'cpu: phx/bare*':>14s}  verdict")
    totals = {k: [0.0, 0.0] for k in ("physx", "bare", "bare*")}
    sim = 0.0
    for test, row in rows.items():
        med = {k: (median([w for w, _ in row[k]]), median([c for _, c in row[k]])) for k in ("physx", "bare", "bare*")}
        for k in totals:
            totals[k][0] += med[k][0]
            totals[k][1] += med[k][1]
        sim += row["sim"]
        print(f"{test:24s} {row['sim']:6.2f} {med['physx'][0]:10.3f} {row['sim'] / med['physx'][0]:6.1f}x "
              f"{med['physx'][1]:7.3f} {med['bare*'][0]:10.3f} {row['sim'] / med['bare*'][0]:6.1f}x "
              f"{med['physx'][0] / med['bare'][0]:8.2f}x {med['physx'][0] / med['bare*'][0]:9.2f}x "
              f"{med['physx'][1] / med['bare*'][1]:13.2f}x  {row['status']}")
    if len(rows) > 1:
        print(f"{'all':24s} {sim:6.2f} {totals['physx'][0]:10.3f} {sim / totals['physx'][0]:6.1f}x "
              f"{totals['physx'][1]:7.3f} {totals['bare*'][0]:10.3f} {sim / totals['bare*'][0]:6.1f}x "
              f"{totals['physx'][0] / totals['bare'][0]:8.2f}x {totals['physx'][0] / totals['bare*'][0]:9.2f}x "
              f"{totals['physx'][1] / totals['bare*'][1]:13.2f}x")
    return totals


# -- whole runs of a folder ------------------------------------------------------------------------------------
def cli_run(folder: Path, jobs: int, html: bool, out: Path) -> tuple[float, float]:
    shutil.rmtree(out, ignore_errors=True)
    cmd = [sys.executable, "-m", "omni.simready.physics_validator.cli", "validate", str(folder), "--tests", "ground_drop",
           "--no-video", "--quiet", "--jobs", str(jobs), "--out", str(out)] + ([] if html else ["--no-html"])
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    subprocess.run(cmd, capture_output=True, text=True)
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if not (out / "report.json").is_file():
        raise SystemExit(f"no report from {' '.join(cmd)}")
    return wall, (after.ru_utime + after.ru_stime) - (before.ru_utime + before.ru_stime)


def report_part(folder: Path, rounds: int) -> None:
    tmp = Path(tempfile.mkdtemp(prefix="bench_pace_"))
    assets = sum(1 for _ in _assets(folder))
    runs: dict[tuple[bool, int], list] = {(h, j): [] for h in (True, False) for j in (1, 2)}
    for _ in range(rounds):
        for html in (True, False):
            for jobs in (1, 2):
                runs[html, jobs].append(cli_run(folder, jobs, html, tmp / f"out-{jobs}-{html}"))
    print(f"\nreport: {folder} ({assets} assets), ground_drop, no video, whole processes, median of {rounds}")
    for html in (True, False):
        one, two = (median([w for w, _ in runs[html, j]]) for j in (1, 2))
        cpu1, cpu2 = (median([c for _, c in runs[html, j]]) for j in (1, 2))
        label = "HTML on " if html else "--no-html"
        print(f"  {label}  --jobs 1 {one:6.1f} s   --jobs 2 {two:6.1f} s   speed-up {one / two:4.2f}x"
              f"   (CPU s of the runs: {cpu1:.1f} / {cpu2:.1f})")
    shutil.rmtree(tmp, ignore_errors=True)


def _assets(folder: Path):
    from omni.simready.physics_validator.core.usd import find_usd_files

    return find_usd_files(folder)


# -- simulated seconds against the code before -----------------------------------------------------------------
SIMTIME_SCRIPT = r"""
import json, sys
from omni.simready.physics_validator.core.session import TestSession
from omni.simready.physics_validator.core.usd import read_asset
from omni.simready.physics_validator.engines import create_engine
from omni.simready.physics_validator.physics_tests import default_registry
out = {}
for path, tests in json.loads(sys.argv[1]):
    asset = read_asset(path)
    for name in tests:
        cls = default_registry().get(name)
        engine = create_engine("physx")
        r = TestSession(cls(), asset, cls.Config(), engine).run_to_end()
        engine.close()
        rows = [[j.joint, j.status.value, j.code] for j in r.joints]
        out[f"{path}::{name}"] = [r.status.value, r.code, r.simulated_seconds, rows]
print(json.dumps(out))
"""


def simtime_part(plan: list[tuple[str, list[str]]], baseline: Path | None) -> None:
    here = ROOT / "exts" / "omni.simready.physics_validator"
    sides = {"now": here} | ({"before": Path(baseline) / "exts" / "omni.simready.physics_validator"} if baseline else {})
    results = {}
    for side, source in sides.items():
        env = dict(os.environ, PYTHONPATH=str(source))
        proc = subprocess.run([sys.executable, "-c", SIMTIME_SCRIPT, json.dumps(plan)], capture_output=True, text=True, env=env)
        if proc.returncode:
            raise SystemExit(f"simtime ({side}) failed: {proc.stderr[-2000:]}")
        results[side] = json.loads(proc.stdout.strip().splitlines()[-1])
    print("\nsimulated seconds per test" + (" against the code before (--baseline)" if baseline else ""))
    tail = f" {'before s':>8s} {'now/before':>10s}  verdicts" if baseline else "  verdict"
    print(f"{'asset :: test':58s} {'now s':>7s}" + tail)
    total = {"now": 0.0, "before": 0.0}
    for key, now in results["now"].items():
        name = f"{Path(key.split('::')[0]).name} :: {key.split('::')[1]}"
        total["now"] += now[2]
        line = f"{name:58s} {now[2]:7.2f}"
        if baseline:
            before = results["before"].get(key)
            total["before"] += before[2]
            same = "same" if before[:2] == now[:2] and before[3] == now[3] else f"CHANGED {before[:2]} -> {now[:2]}"
            line += f" {before[2]:8.2f} {now[2] / before[2] if before[2] else float('nan'):9.2f}x  {now[0]} ({same})"
        else:
            line += f"  {now[0]}"
        print(line)
    if baseline:
        print(f"{'all':58s} {total['now']:7.2f} {total['before']:8.2f} {total['now'] / total['before']:9.2f}x")


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--parts", default="sweep,joints,report,simtime")
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--arm7", default=str(KUKA), help="7-DOF arm with mesh colliders and drives")
    parser.add_argument("--folder", default="", help="a folder of 50+ small assets (the report part)")
    parser.add_argument("--baseline", default="", help="a checkout of the code before (the simtime part)")
    args = parser.parse_args(argv)
    parts = [p.strip() for p in args.parts.split(",") if p.strip()]

    from omni.simready.physics_validator.core.usd import read_asset
    from tests.fixtures.arms import build_arm
    from tests.fixtures.usd_assets import box_asset

    tmp = Path(tempfile.mkdtemp(prefix="bench_pace_"))
    arm3 = build_arm(tmp / "arm3.usda", joints=3)
    print(f"load average {load()} (1/5 min) at the start, {os.cpu_count()} CPUs; median of {args.rounds} interleaved rounds")
    if "sweep" in parts:
        if Path(args.arm7).is_file():
            print_pace(f"full_range_sweep on {args.arm7}", pace(read_asset(args.arm7), ["full_range_sweep"], args.rounds))
        else:
            print(f"sweep: {args.arm7} not found (--arm7)")
    if "joints" in parts:
        print_pace("the four driven-joint tests on the 3-joint fixture arm", pace(read_asset(arm3), JOINT_TESTS, args.rounds))
    if "report" in parts:
        if args.folder:
            report_part(Path(args.folder), args.rounds)
        else:
            print("report: no --folder given (50+ small assets)")
    if "simtime" in parts:
        plan = [(str(arm3), JOINT_TESTS), (str(box_asset(tmp / "box.usda")), ["ground_drop"])]
        if Path(args.arm7).is_file():
            plan.insert(1, (args.arm7, JOINT_TESTS))
        simtime_part(plan, Path(args.baseline) if args.baseline else None)
    print(f"\nload average {load()} at the end")
    shutil.rmtree(tmp, ignore_errors=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
