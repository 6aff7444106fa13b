"""Benchmark: ground_drop on the bundled objects, validator wall time next to bare SAPIEN stepping.

For each object the same scene is built twice by the physx engine: once run through the full
validator path (TestSession: precheck, bounds every step, rest window, metrics), once stepped bare
(`scene.step()` only) for the same number of steps. Prints the ratio per asset (goal < 1.5x) and a
10 s drop of a box (goal < 0.5 s wall, no video). Run: python tools/bench_ground_drop.py
"""

from __future__ import annotations

import sys
import tempfile
import time
import warnings
from pathlib import Path

warnings.filterwarnings("ignore")
ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))  # the repository root: tests.fixtures

from omni.simready.physics_validator.core.session import TestSession  # noqa: E402
from omni.simready.physics_validator.core.usd import read_asset  # noqa: E402
from omni.simready.physics_validator.engines import create_engine  # noqa: E402
from omni.simready.physics_validator.physics_tests.ground.ground_drop import GroundDropTest  # noqa: E402
from tests.fixtures.usd_assets import SHARED_ASSETS, box_asset  # noqa: E402

OBJECTS = ["pb_mug", "pb_duck_vhacd", "pb_lego", "pb_jenga", "pb_soccerball", "pb_cube_small", "pb_traybox", "pb_table"]


def best_of(fn, repeats: int = 3) -> float:
    times = []
    for _ in range(repeats):
        start = time.perf_counter()
        fn()
        times.append(time.perf_counter() - start)
    return min(times)


def measure(path: Path, config=None):
    test = GroundDropTest()
    config = config or test.Config()
    asset = read_asset(path)
    holder = {}

    def validator_run():
        engine = create_engine("physx")
        holder["result"] = TestSession(test, asset, config, engine).run_to_end()
        holder["steps"] = int(round(holder["result"].simulated_seconds * config.physics_fps))

    validated = best_of(validator_run)
    steps = holder["steps"]

    def bare_run():
        engine = create_engine("physx")
        engine.load(asset, test.scene(asset, config))
        scene = engine.native_scene  # the SAPIEN scene the validator steps
        for _ in range(steps):
            scene.step()

    bare = best_of(bare_run)
    return holder["result"], steps, validated, bare


def main() -> None:
    print(f"{'asset':16s} {'verdict':8s} {'steps':>6s} {'validator s':>12s} {'bare s':>8s} {'ratio':>6s}")
    ratios = []
    for name in OBJECTS:
        path = SHARED_ASSETS / name / "floating_base.usda"
        result, steps, validated, bare = measure(path)
        ratio = validated / bare if bare > 0 else float("nan")
        ratios.append(ratio)
        print(f"{name:16s} {result.status.value:8s} {steps:6d} {validated:12.4f} {bare:8.4f} {ratio:6.2f}")
    print(f"median overhead ratio: {sorted(ratios)[len(ratios) // 2]:.2f} (goal < 1.5)")

    with tempfile.TemporaryDirectory() as tmp:
        box = box_asset(Path(tmp) / "box.usda", kinematic=True)  # never rests: runs the full 10 s cap
        result, steps, validated, bare = measure(box)
        print(
            f"10 s box drop (kinematic, full cap): {steps} steps, validator {validated:.3f} s wall "
            f"(goal < 0.5 s), bare {bare:.3f} s, ratio {validated / bare:.2f}"
        )


if __name__ == "__main__":
    main()
