"""Benchmark: the five tests on the same assets on each engine; wall seconds per simulated second.

    python tools/bench_engines.py [--engines physx,newton] [--joints 2] [ASSET ...]

Without assets it builds a box (ground_drop) and a well-tuned arm (all five tests) with the test
fixtures' pxr builders. Runs in-process, no video, so the numbers are engine + test cost only; Newton
numbers assume a warm Warp cache (run once first to compile: the first load prints a notice).
"""

from __future__ import annotations

import argparse
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))  # the repository root: tests.fixtures

TESTS = ["ground_drop", "velocity_limit", "full_range_sweep", "drive_gain_validation", "effort_limit"]


def _default_assets(folder: Path, joints: int) -> list[Path]:
    from tests.fixtures.arms import ArmSpec, build_arm
    from tests.fixtures.usd_assets import box_asset

    return [box_asset(folder / "box.usda", size=0.1, position=(0.0, 0.0, 0.5)),
            build_arm(folder / "arm.usda", ArmSpec(joints=joints))]


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("assets", nargs="*")
    parser.add_argument("--engines", default="physx,newton")
    parser.add_argument("--joints", type=int, default=2, help="joints of the built arm (default 2)")
    args = parser.parse_args(argv)

    from omni.simready.physics_validator.core.config import ValidationConfig
    from omni.simready.physics_validator.physics_tests import default_registry
    from omni.simready.physics_validator import validate
    from omni.simready.physics_validator.engines import EngineUnavailable, engine_class

    folder = Path(tempfile.mkdtemp(prefix="bench_engines_"))
    assets = [Path(a) for a in args.assets] or _default_assets(folder, args.joints)
    config = ValidationConfig.defaults(default_registry())
    config.run.video = False
    config.run.isolate = False
    rows = []
    for engine in [e.strip() for e in args.engines.split(",") if e.strip()]:
        try:
            engine_class(engine)
        except EngineUnavailable as exc:
            print(f"{engine}: skipped ({exc})")
            continue
        for asset in assets:
            for test in TESTS:
                start = time.perf_counter()
                report = validate([asset], [test], config, engine)
                wall = time.perf_counter() - start
                result = report.assets[0].tests[0]
                sim = result.simulated_seconds
                rows.append((engine, asset.name, test, result.status.value, wall, sim, wall / sim if sim > 0 else float("nan")))
    print(f"{'engine':8} {'asset':14} {'test':22} {'verdict':17} {'wall s':>8} {'sim s':>8} {'wall/sim-s':>10}")
    for engine, asset, test, status, wall, sim, ratio in rows:
        print(f"{engine:8} {asset:14} {test:22} {status:17} {wall:8.2f} {sim:8.2f} {ratio:10.4f}")
    for engine in dict.fromkeys(r[0] for r in rows):
        wall = sum(r[4] for r in rows if r[0] == engine)
        sim = sum(r[5] for r in rows if r[0] == engine)
        print(f"{engine}: total wall {wall:.1f} s for {sim:.1f} simulated s = {wall / sim if sim else float('nan'):.4f} "
              f"wall/sim-s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
