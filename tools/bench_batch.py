"""Batch throughput benchmark: assets per minute with 1 and N local workers, and the Ray executor's overhead.

    python tools/bench_batch.py [--corpus /work/shared/assets] [--tests ground_drop] [--jobs 2] [--repeat 2] [--no-ray]
                                [--engine physx] [--worker-start reuse,spawn] [--copies 3] [--rss-assets 84]

Each configuration is one real `simready-physics validate` run (--no-video --no-html --quiet, fresh
output folder, so no cache hits) timed end to end. `--worker-start` runs the local configurations once
per worker process model (SIMREADY_WORKER_START: `reuse` keeps spawned workers across assets, `spawn`
starts one per asset); `--copies K` validates K copies of the corpus per run, so the fixed costs of a
run (start-up, hashing, the reports) weigh less. Ray runs a private single-node instance; where possible it runs inside a
loopback-only network namespace (unshare -n) so it opens no external port. Its overhead is split into
a fixed part (start-up, measured on a one-asset run against the local executor) and a per-asset part.
Also prints per-worker peak RSS from the reports; `--rss-assets N` validates at least N assets (copies
of the corpus) with one reused worker and prints how its per-asset peak RSS evolves (no growth wanted).
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

DEFAULT_CORPUS = Path(__file__).resolve().parents[1].parent / "shared" / "assets"


def loopback_prefix() -> tuple[str, ...]:
    if not (shutil.which("unshare") and shutil.which("ip")):
        return ()
    prefix = ("unshare", "--net", "--", "sh", "-c", 'ip link set lo up && exec "$@"', "sh")
    ok = subprocess.run([*prefix, "true"], capture_output=True).returncode == 0
    return prefix if ok else ()


REPEAT = 1
ENGINE: list[str] = []  # ["--engine", NAME] when chosen


def run(paths: list[str], tests: str, jobs: int, executor: str, out: Path, prefix: tuple[str, ...] = (),
        worker_start: str | None = None) -> tuple[float, dict]:
    """Best of REPEAT runs (each into an empty folder, so no cache hits): the least disturbed by other load."""
    cmd = [*prefix, sys.executable, "-m", "omni.simready.physics_validator.cli", "validate", *paths, "--tests", tests,
           "--no-video", "--no-html", "--quiet", "--jobs", str(jobs), "--executor", executor, "--out", str(out), *ENGINE]
    env = dict(os.environ)
    if worker_start:
        env["SIMREADY_WORKER_START"] = worker_start
    best = float("inf")
    for _ in range(REPEAT):
        shutil.rmtree(out, ignore_errors=True)
        started = time.monotonic()
        proc = subprocess.run(cmd, capture_output=True, text=True, env=env)
        best = min(best, time.monotonic() - started)
        report_path = out / "report.json"
        if not report_path.exists():
            raise SystemExit(f"run failed ({' '.join(cmd)}):\n{proc.stderr[-2000:]}")
    return best, json.loads(report_path.read_text())


def load_average() -> str:
    try:
        return " ".join(f"{x:.1f}" for x in os.getloadavg())
    except OSError:
        return "?"


def summary(label: str, seconds: float, report: dict) -> dict:
    n = len(report["assets"])
    peaks = [a["peak_rss_mb"] for a in report["assets"] if a.get("peak_rss_mb")]
    row = {"label": label, "assets": n, "seconds": seconds, "per_minute": 60.0 * n / seconds}
    rss = f"peak RSS/worker median {statistics.median(peaks):.0f} MiB, max {max(peaks):.0f} MiB" if peaks else "no RSS"
    print(f"{label:<28} {n:3d} assets  {seconds:7.1f} s  {row['per_minute']:6.1f} assets/min  {rss}", flush=True)
    return row


def verdicts(report: dict) -> list:
    return [(a["path"], [(t["name"], t["status"]) for t in a["tests"]]) for a in report["assets"]]


def rss_growth(corpus: Path, tests: str, at_least: int, tmp: Path) -> None:
    """One --jobs 1 run over >= `at_least` assets (copies of the corpus): does a reused worker's peak grow?"""
    from omni.simready.physics_validator.core.usd import find_usd_files

    per_copy = len(find_usd_files(corpus))
    copies = max(1, -(-at_least // max(1, per_copy)))
    library = tmp / "rss_library"
    for n in range(copies):
        shutil.copytree(corpus, library / f"copy{n}")
    assets = [str(p) for p in find_usd_files(library)]
    seconds, report = run(assets, tests, 1, "local", tmp / "rss", worker_start="reuse")
    peaks = [a.get("peak_rss_mb") or 0.0 for a in report["assets"]]
    if len(peaks) < 2 * per_copy:
        print("rss: too few assets")
        return
    # The same file early and late in one worker's life: any growth shows as a positive difference. The
    # second copy is the early one when there are three or more (in the first, an engine's runtime may
    # load only with the first asset that simulates).
    early = 1 if copies >= 3 else 0
    first, last = peaks[early * per_copy:(early + 1) * per_copy], peaks[-per_copy:]
    diffs = [b - a for a, b in zip(first, last)]
    medians = [statistics.median(peaks[n * per_copy:(n + 1) * per_copy]) for n in range(copies)]
    print(f"rss, 1 reused worker, {len(peaks)} assets ({copies} copies of the corpus) in {seconds:.1f} s: per-asset peak "
          f"median {statistics.median(peaks):.0f} MiB, max {max(peaks):.0f} MiB; median per copy "
          f"{', '.join(f'{m:.0f}' for m in medians)} MiB; same asset in the last copy vs copy {early + 1}: "
          f"median {statistics.median(diffs):+.1f} MiB, min {min(diffs):+.1f}, max {max(diffs):+.1f}")
    print(f"rss: peaks in order: {' '.join(f'{p:.0f}' for p in peaks)}")
    rows = [[(t["name"], t["status"], t["reason"], t["metrics"]) for t in a["tests"]] for a in report["assets"]]
    same = all(row == rows[i % per_copy] for i, row in enumerate(rows))
    print(f"rss: every copy got the verdicts and metrics of the first copy: {same}")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--corpus", type=Path, default=DEFAULT_CORPUS)
    parser.add_argument("--tests", default="ground_drop", help="comma-separated tests (default ground_drop)")
    parser.add_argument("--jobs", type=int, default=2, help="parallel workers to compare with 1 (default 2)")
    parser.add_argument("--no-ray", action="store_true")
    parser.add_argument("--repeat", type=int, default=2, help="runs per configuration; the fastest counts (default 2)")
    parser.add_argument("--engine", help="engine to validate with (default: the CLI's default engine)")
    parser.add_argument("--worker-start", default="", help="comma-separated SIMREADY_WORKER_START values to compare "
                        "(reuse, spawn); default: the default model only")
    parser.add_argument("--copies", type=int, default=1, help="validate this many copies of the corpus (distinct paths) "
                        "in each throughput run, so fixed start-up costs weigh less (default 1)")
    parser.add_argument("--rss-assets", type=int, default=0, help="also watch a reused worker's peak RSS over this many assets")
    args = parser.parse_args()
    global REPEAT, ENGINE
    REPEAT = max(1, args.repeat)
    ENGINE = ["--engine", args.engine] if args.engine else []
    modes = [m.strip() for m in args.worker_start.split(",") if m.strip()] or [None]
    from omni.simready.physics_validator.core.usd import find_usd_files

    assets = [str(p) for p in find_usd_files(args.corpus)]
    engine = args.engine or "default engine"
    copies = f" x {args.copies} copies" if args.copies > 1 else ""
    print(f"corpus {args.corpus}: {len(assets)} assets{copies}, tests {args.tests}, {engine}, best of {REPEAT}; "
          f"load average {load_average()}", flush=True)
    with tempfile.TemporaryDirectory(prefix="bench_batch_") as tmp:
        tmp = Path(tmp)
        if args.copies > 1:
            for n in range(args.copies):
                shutil.copytree(args.corpus, tmp / "copies" / f"copy{n}")
            assets = [str(p) for p in find_usd_files(tmp / "copies")]
        rows = {}
        for mode in modes:
            tag = f" [{mode}]" if mode else ""
            t1, r1 = run(assets, args.tests, 1, "local", tmp / "local1", worker_start=mode)
            one = summary(f"local, 1 worker{tag}", t1, r1)
            tn, rn = run(assets, args.tests, args.jobs, "local", tmp / "localN", worker_start=mode)
            many = summary(f"local, {args.jobs} workers{tag}", tn, rn)
            print(f"speed-up {args.jobs} workers / 1 worker{tag}: {many['per_minute'] / one['per_minute']:.2f}x"
                  f"  (same verdicts: {verdicts(rn) == verdicts(r1)})")
            rows[mode] = (one, many, verdicts(r1), tn, rn)
        if len(modes) > 1:
            base = modes[-1]
            for mode in modes[:-1]:
                print(f"{mode} / {base}: {rows[mode][0]['per_minute'] / rows[base][0]['per_minute']:.2f}x at 1 worker, "
                      f"{rows[mode][1]['per_minute'] / rows[base][1]['per_minute']:.2f}x at {args.jobs} "
                      f"(same verdicts: {rows[mode][2] == rows[base][2]})")
        if args.rss_assets:
            rss_growth(args.corpus, args.tests, args.rss_assets, tmp)
        if args.no_ray:
            return 0
        try:
            import ray  # noqa: F401
        except ImportError:
            print("ray not installed: pip install '.[ray]' to measure the Ray executor")
            return 0
        prefix = loopback_prefix()
        print(f"ray runs {'inside a loopback-only network namespace' if prefix else 'WITHOUT network isolation'}")
        _, many, _, tn, rn = rows[modes[0]]  # Ray is compared with the first worker model's local N-worker run
        tr, rr = run(assets, args.tests, args.jobs, "ray", tmp / "ray", prefix, worker_start=modes[0])
        ray_row = summary(f"ray, {args.jobs} CPUs (local)", tr, rr)
        ts_local, _ = run(assets[:1], args.tests, 1, "local", tmp / "local_single", worker_start=modes[0])
        ts_ray, _ = run(assets[:1], args.tests, 1, "ray", tmp / "ray_single", prefix, worker_start=modes[0])
        fixed = ts_ray - ts_local
        per_asset_total = (tr - tn) / len(assets)
        per_asset_marginal = (tr - tn - fixed) / len(assets)
        print(f"ray / local throughput at {args.jobs} workers: {ray_row['per_minute'] / many['per_minute']:.2f}x"
              f"  (same verdicts: {verdicts(rr) == verdicts(rn)})")
        print(f"ray fixed start-up overhead: {fixed:.1f} s (one-asset run, ray {ts_ray:.1f} s vs local {ts_local:.1f} s)")
        print(f"ray overhead per asset: {per_asset_total:.2f} s including start-up, {per_asset_marginal:.2f} s marginal"
              f" ({per_asset_marginal / (tn / len(assets)):.2f}x of a local asset's wall share)")
        print(f"load average at the end: {load_average()} (on {os.cpu_count()} cores; other load skews every number)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
