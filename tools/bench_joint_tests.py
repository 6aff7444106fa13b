"""Benchmark: the four driven-joint tests on a 6-DOF arm, wall time vs simulated time vs bare stepping.

For each test: wall seconds of the whole TestSession (load + test logic + engine steps), the simulated
seconds it covered, the real-time factor (simulated / wall; goal >= 100x without video), and the
overhead against bare engine stepping that replays the same per-step commands (targets, forces) on
the same scene with no test logic (goal < 1.5x). The recording wrapper's own cost counts as test time.

Usage: python tools/bench_joint_tests.py [--repeat 3] [--asset ARM.usda]
"""

from __future__ import annotations

import argparse
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

from omni.simready.physics_validator.physics_tests import default_registry
from omni.simready.physics_validator.core.session import TestSession
from omni.simready.physics_validator.core.usd import read_asset
from omni.simready.physics_validator.engines import create_engine

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
        self._pending.append(("force", (body, np.array(force, float))))
        self._engine.apply_force(body, force, point)

    def step(self):
        self.steps.append(self._pending)
        self._pending = []
        self._engine.step()


def bare_stepping(asset, scene, steps: list) -> float:
    """Wall seconds for load + replaying the same per-step commands with nothing else (no test logic)."""
    engine = create_engine("physx")
    t0 = time.perf_counter()
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
    return time.perf_counter() - t0


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--repeat", type=int, default=3, help="best of N runs")
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
    print(f"asset: {path}  ({len(asset.dof_joints)} DOF)")
    print(f"{'test':24s} {'status':6s} {'sim s':>7s} {'wall s':>7s} {'x real':>8s} {'bare s':>7s} {'overhead':>8s}")
    totals = np.zeros(3)
    for name in JOINT_TESTS:
        test_cls = registry.get(name)
        test = test_cls()
        config = test_cls.Config()
        best_wall, result = np.inf, None
        for _ in range(args.repeat):
            engine = RecordingEngine(create_engine("physx"))
            t0 = time.perf_counter()
            result = TestSession(test, asset, config, engine).run_to_end()
            best_wall = min(best_wall, time.perf_counter() - t0)
        scene = test.scene(asset, config)
        bare = min(bare_stepping(asset, scene, engine.steps) for _ in range(args.repeat))
        totals += (result.simulated_seconds, best_wall, bare)
        print(f"{name:24s} {result.status.value:6s} {result.simulated_seconds:7.2f} {best_wall:7.3f} "
              f"{result.simulated_seconds / best_wall:7.0f}x {bare:7.3f} {best_wall / bare:7.2f}x")
    sim, wall, bare = totals
    print(f"{'all four':24s} {'':6s} {sim:7.2f} {wall:7.3f} {sim / wall:7.0f}x {bare:7.3f} {wall / bare:7.2f}x")
    print("goals: >= 100x real time, overhead < 1.5x of bare stepping")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
