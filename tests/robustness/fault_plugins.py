"""Test plugins that misbehave on purpose: a step that never returns, a worker that dies, a test that never ends.

They reach spawned worker processes the way a third-party plugin does: through the entry-point
group, from a tiny dist-info folder put on PYTHONPATH (`install_entry_points`). Nothing in the
product knows about them.
"""

from __future__ import annotations

import os
import signal
import time
from pathlib import Path
from typing import Iterator

from omni.simready.physics_validator.core.plugin import ENTRY_POINT_GROUP, PhysicsTest
from omni.simready.physics_validator.core.scene import GroundSpec, SceneSpec
from omni.simready.physics_validator.core.status import Status

STEPS_BEFORE_FAULT = 20


class _FaultTest(PhysicsTest):
    version = "0.0.1"
    features = ("ROBUSTNESS_FAULT",)

    def scene(self, asset, config) -> SceneSpec:
        return SceneSpec(physics_fps=config.physics_fps, ground=GroundSpec(height=0.0))


class HangingStepTest(_FaultTest):
    """Simulates a native hang: after a few steps the step never returns (no yield, no exception)."""

    name = "fault_hang_in_step"
    summary = "blocks forever inside a step"

    def run(self, ctx) -> Iterator[None]:
        for _ in range(STEPS_BEFORE_FAULT):
            yield
        while True:  # the cooperative watchdog cannot see this: only the parent process can stop it
            time.sleep(0.5)


class KilledWorkerTest(_FaultTest):
    """Simulates a native crash: the process dies with SIGKILL in the middle of the test."""

    name = "fault_worker_killed"
    summary = "kills its own process mid-test"

    def run(self, ctx) -> Iterator[None]:
        for _ in range(STEPS_BEFORE_FAULT):
            yield
        os.kill(os.getpid(), signal.SIGKILL)
        yield


class EndlessTest(_FaultTest):
    """Keeps stepping and never decides: the session's cooperative watchdog must end it."""

    name = "fault_never_finishes"
    summary = "steps forever"

    def run(self, ctx) -> Iterator[None]:
        while True:
            yield


class SlowTest(_FaultTest):
    """Sleeps between steps for a long time, so a run can be interrupted while it is inside this test."""

    name = "fault_slow"
    summary = "sleeps 0.1 s per step for 10 s"

    def run(self, ctx) -> Iterator[None]:
        for _ in range(100):
            time.sleep(0.1)
            yield
        ctx.finish(Status.PASS, "stepped slowly to the end")


FAULT_TESTS = (HangingStepTest, KilledWorkerTest, EndlessTest, SlowTest)


def install_entry_points(folder: Path) -> Path:
    """Write a dist-info that declares the fault tests as entry points; put `folder` on PYTHONPATH."""
    dist = Path(folder) / "simready_fault_plugins-0.0.1.dist-info"
    dist.mkdir(parents=True, exist_ok=True)
    (dist / "METADATA").write_text("Metadata-Version: 2.1\nName: simready-fault-plugins\nVersion: 0.0.1\n")
    lines = [f"[{ENTRY_POINT_GROUP}]"]
    lines += [f"{cls.name} = {__name__}:{cls.__name__}" for cls in FAULT_TESTS]
    (dist / "entry_points.txt").write_text("\n".join(lines) + "\n")
    return Path(folder)


def plugin_env(folder: Path) -> dict[str, str]:
    """Environment for a CLI subprocess that sees the fault plugins (entry points + this package)."""
    tests_dir = Path(__file__).resolve().parents[2]  # the repository root, so tests.robustness.fault_plugins imports
    install_entry_points(folder)
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join(p for p in (str(folder), str(tests_dir), env.get("PYTHONPATH", "")) if p)
    return env
