"""Benchmark: PhysX engine overhead vs bare SAPIEN stepping (box drop, 3-joint arm, bounds() cost).

Run: python tools/bench_physx_engine.py   (prints wall seconds per simulated second)
"""

from __future__ import annotations

import sys
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # the repository root: tests.fixtures

from tests.fixtures.hand_models import arm_model, box_model  # noqa: E402
from omni.simready.physics_validator.core.scene import GroundSpec, SceneSpec  # noqa: E402
from omni.simready.physics_validator.engines.sapien import SapienPhysxEngine  # noqa: E402

SECONDS = 5.0


def per_sim_second(fn, engine) -> float:
    steps = int(SECONDS / engine.dt)
    engine.reset()
    start = time.perf_counter()
    for _ in range(steps):
        fn()
    return (time.perf_counter() - start) / SECONDS


def main() -> None:
    for label, model, ground in (("box drop", box_model(), GroundSpec()), ("3-joint arm", arm_model(), None)):
        engine = SapienPhysxEngine()
        engine.load(model, SceneSpec(ground=ground))
        scene = engine.native_scene
        bare = per_sim_second(scene.step, engine)

        def validator_step(engine=engine):  # bound now: the loop moves on to the next engine
            engine.step()
            engine.bounds()
            engine.joint_positions()
            engine.joint_velocities()

        full = per_sim_second(validator_step, engine)
        calls = 20000
        start = time.perf_counter()
        for _ in range(calls):
            engine.bounds()
        bounds_us = (time.perf_counter() - start) / calls * 1e6
        print(f"{label:12s} bare SAPIEN {bare:.4f} s/sim-s | engine step+bounds+joints {full:.4f} s/sim-s "
              f"(x{full / bare:.2f}) | bounds() {bounds_us:.1f} us")
        np.testing.assert_array_less(-1.0, engine.bounds()[0])


if __name__ == "__main__":
    main()
