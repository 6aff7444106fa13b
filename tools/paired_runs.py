"""Whole `simready-physics` processes timed in pairs, for the benchmarks (tools/bench_video.py, tools/bench_library.py).

A benchmark here compares two command lines in one call: they run in turn, A B A B ..., and each figure is the
ratio of a pair, so the load other processes put on a shared machine moves both sides of it. Wall seconds are what
a user waits; CPU seconds (user + system of the process and its workers, RUSAGE_CHILDREN) are the steadier figure
when other work shares the cores. The 1-minute load average is taken before every run and printed with it.
Never put these numbers in tests.
"""

from __future__ import annotations

import os
import resource
import shutil
import statistics
import subprocess
import sys
import time
from dataclasses import dataclass
from pathlib import Path

VALIDATE = [sys.executable, "-m", "omni.simready.physics_validator.cli", "validate"]


def load() -> float:
    """The 1-minute load average."""
    return os.getloadavg()[0]


def median(values) -> float:
    values = list(values)
    return statistics.median(values) if values else float("nan")


@dataclass
class Run:
    wall: float  # s
    cpu: float  # s: user + system of the process and everything it waited for
    load: float  # the 1-minute load average just before the run
    code: int  # the exit code
    out: Path  # its report folder


def run_validate(args: list[str], out: Path, env: dict | None = None) -> Run:
    """`simready-physics validate ARGS --out OUT` as a whole process, OUT emptied first (no cache hit)."""
    shutil.rmtree(out, ignore_errors=True)
    command = [*VALIDATE, *args, "--out", str(out)]
    before, started, load_before = resource.getrusage(resource.RUSAGE_CHILDREN), time.perf_counter(), load()
    proc = subprocess.run(command, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True,
                          env={**os.environ, **(env or {})})
    wall = time.perf_counter() - started
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if not (out / "report.json").is_file():
        raise SystemExit(f"no report from {' '.join(command)}: {proc.stderr[-2000:]}")
    return Run(wall, (after.ru_utime + after.ru_stime) - (before.ru_utime + before.ru_stime), load_before,
               proc.returncode, out)


def paired(a: list[str], b: list[str], rounds: int, folder: Path, label_a: str, label_b: str,
           env_a: dict | None = None, env_b: dict | None = None) -> list[tuple[Run, Run]]:
    """`rounds` pairs, A then B each time, printing each pair's figures and its A/B ratios as they come."""
    pairs = []
    for index in range(rounds):
        first = run_validate(a, folder / f"a{index}", env_a)
        second = run_validate(b, folder / f"b{index}", env_b)
        pairs.append((first, second))
        print(f"  pair {index + 1}: {label_a} {first.wall:6.1f} s wall {first.cpu:6.1f} s CPU (load {first.load:.1f}) | "
              f"{label_b} {second.wall:6.1f} s wall {second.cpu:6.1f} s CPU (load {second.load:.1f}) | "
              f"{label_a}/{label_b} {first.wall / second.wall:.2f}x wall, {first.cpu / second.cpu:.2f}x CPU", flush=True)
    return pairs


def summary(pairs: list[tuple[Run, Run]], label_a: str, label_b: str) -> dict:
    """The medians of the pairs: each side's wall and CPU seconds, the ratios, and the load range."""
    loads = [r.load for pair in pairs for r in pair]
    return {
        label_a: {"wall": median(a.wall for a, _ in pairs), "cpu": median(a.cpu for a, _ in pairs)},
        label_b: {"wall": median(b.wall for _, b in pairs), "cpu": median(b.cpu for _, b in pairs)},
        "ratio_wall": median(a.wall / b.wall for a, b in pairs),
        "ratio_cpu": median(a.cpu / b.cpu for a, b in pairs),
        "load": (min(loads), max(loads)),
        "pairs": len(pairs),
    }
