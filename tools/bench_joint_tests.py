"""Benchmark: the four driven-joint tests on a 6-DOF arm against a bare loop of the same motion, in paired rounds.

For each test and round, interleaved (validator, bare, validator, bare ...): the whole TestSession (load, test logic,
engine steps and reads, close) against bare engine stepping that loads the same scene and replays, step by step, the
commands the test gave (targets, forces) with no test logic. Each round's ratio is validator / bare over the four
tests (wall and CPU seconds); the median of the rounds is the figure (goal: <= 1.3x, issue 44). The 1-minute load
average is printed before every round: a wall ratio under load says little, the CPU ratio more. Never put these
numbers in tests.

Usage: python tools/bench_joint_tests.py [--rounds 3] [--asset ARM.usda]
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

from omni.simready.physics_validator.core.session import TestSession
from omni.simready.physics_validator.core.usd import read_asset
from omni.simready.physics_validator.engines import create_engine
from omni.simready.physics_validator.physics_tests import default_registry

JOINT_TESTS = ("velocity_limit", "full_range_sweep", "drive_gain_validation", "effort_limit")


class RecordingEngine:
    """Wraps an engine and records, per step, the commands the test gave (targets, forces)."""

    def __init__(self, engine):
        self._engine, self.steps, self._pending = engine, [], []

    def __getattr__(self, name):
        return getattr(self._engine, name)

    def set_joint_position_targets(self, targets):
        self._pending.append(("targets", np.array(targets, float)))
        self._engine.set_joint_position_targets(targets)

    def set_joint_position_target(self, index, value):
        self._pending.append(("target", (index, float(value))))
        self._engine.set_joint_position_target(index, value)

    def apply_force(self, body, force, point=None):
        self._pending.append(("force", (body, np.array(force, float), None if point is None else np.array(point, float))))
        self._engine.apply_force(body, force, point)

    def step(self):
        self.steps.append(self._pending)
        self._pending = []
        self._engine.step()


def timed(fn):
    wall, cpu = time.perf_counter(), time.process_time()
    value = fn()
    return time.perf_counter() - wall, time.process_time() - cpu, value


def validator(test_cls, asset):
    engine = create_engine("physx")
    result = TestSession(test_cls(), asset, test_cls.Config(), engine).run_to_end()
    engine.close()
    return result


def bare(asset, scene, steps: list) -> None:
    """Load + replay the same per-step commands with nothing else (no test logic), then close."""
    engine = create_engine("physx")
    engine.load(asset, scene)
    for commands in steps:
        for kind, value in commands:
            if kind == "targets":
                engine.set_joint_position_targets(value)
            elif kind == "target":
                engine.set_joint_position_target(*value)
            else:
                engine.apply_force(*value)
        engine.step()
    engine.close()


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rounds", type=int, default=3, help="paired rounds (the median is the figure)")
    parser.add_argument("--asset", default="", help="robot USD (default: the 6-DOF fixture arm)")
    args = parser.parse_args(argv)
    if args.asset:
        path = Path(args.asset)
    else:
        sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # the repository root: tests.fixtures
        from tests.fixtures.arms import build_arm

        path = build_arm(Path(tempfile.mkdtemp()) / "arm6.usda")
    asset = read_asset(path)
    registry = default_registry()
    print(f"asset: {path}  ({len(asset.dof_joints)} DOF); {os.cpu_count()} CPUs")
    tapes = {}
    for name in JOINT_TESTS:  # warm (the runtime, each test's imports) and record each test's commands once
        test_cls = registry.get(name)
        engine = RecordingEngine(create_engine("physx"))
        result = TestSession(test_cls(), asset, test_cls.Config(), engine).run_to_end()
        tapes[name] = (test_cls, test_cls().scene(asset, test_cls.Config()), engine.steps, result)
        engine.close()
        bare(asset, tapes[name][1], tapes[name][2])
    rounds = []
    for index in range(args.rounds):
        load = os.getloadavg()[0]
        row = {"load": load, "validator": [0.0, 0.0], "bare": [0.0, 0.0], "tests": {}}
        for name, (test_cls, scene, steps, _) in tapes.items():
            wall, cpu, result = timed(lambda test_cls=test_cls: validator(test_cls, asset))
            bare_wall, bare_cpu, _ = timed(lambda scene=scene, steps=steps: bare(asset, scene, steps))
            row["validator"][0] += wall
            row["validator"][1] += cpu
            row["bare"][0] += bare_wall
            row["bare"][1] += bare_cpu
            row["tests"][name] = (wall / bare_wall, cpu / bare_cpu, result.status.value)
        ratio_wall, ratio_cpu = row["validator"][0] / row["bare"][0], row["validator"][1] / row["bare"][1]
        row["ratio"] = (ratio_wall, ratio_cpu)
        rounds.append(row)
        tests = ", ".join(f"{n} {w:.2f}x" for n, (w, _, _) in row["tests"].items())
        print(f"round {index + 1} (load {load:.1f}): validator {row['validator'][0]:.3f} s wall {row['validator'][1]:.3f} s "
              f"CPU | bare {row['bare'][0]:.3f} s wall {row['bare'][1]:.3f} s CPU | {ratio_wall:.2f}x wall, "
              f"{ratio_cpu:.2f}x CPU ({tests})", flush=True)
    simulated = sum(len(steps) for _, _, steps, _ in tapes.values()) / 240.0
    wall = statistics.median(r["ratio"][0] for r in rounds)
    cpu = statistics.median(r["ratio"][1] for r in rounds)
    print(f"median of {len(rounds)} paired rounds: validator / bare {wall:.2f}x wall, {cpu:.2f}x CPU "
          f"({simulated:.1f} simulated s; goal <= 1.3x); load {min(r['load'] for r in rounds):.1f}-"
          f"{max(r['load'] for r in rounds):.1f}; verdicts "
          + ", ".join(f"{n} {t[3].status.value}" for n, t in tapes.items()))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
