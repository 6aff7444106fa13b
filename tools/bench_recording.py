"""Benchmark: what recording (video + USD replay + timeline) costs per test, next to the run without it.

For each case the same test runs twice on the physx engine: once bare, once with
`start_recording(...)` attached at 640x360 (the default) and the video drawn in the same process at close, as an
in-process run does (a batch run draws it in its worker pool instead: tools/bench_video.py). Prints wall times,
the recording's extra wall time per simulated second (goal: < 1 s), frames, ms per frame (of the drawing in close),
the setup and the close (replay, video, poster) costs.
Run: python tools/bench_recording.py [--width 640 --height 360]
"""

from __future__ import annotations

import argparse
import sys
import tempfile
import time
import warnings
from pathlib import Path

warnings.filterwarnings("ignore")
ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))  # the repository root: tests.fixtures

from tests.fixtures.arms import build_arm  # noqa: E402
from omni.simready.physics_validator.physics_tests import default_registry  # noqa: E402
from omni.simready.physics_validator.core.session import TestSession  # noqa: E402
from omni.simready.physics_validator.core.usd import read_asset  # noqa: E402
from omni.simready.physics_validator.engines import create_engine  # noqa: E402
from omni.simready.physics_validator.recording import rendering_available, start_recording  # noqa: E402
from tests.fixtures.usd_assets import SHARED_ASSETS, box_asset  # noqa: E402

GOAL_SECONDS_PER_SIM_SECOND = 1.0


def run(test_name: str, asset_path: Path, out_dir: Path | None, width: int, height: int):
    test = default_registry().get(test_name)()
    config = test.Config()
    session = TestSession(test, read_asset(asset_path), config, create_engine("physx"))
    started = time.perf_counter()
    recording = None
    if out_dir is not None:
        recording = start_recording(session.ctx, str(asset_path), test.name, out_dir, config.capture_fps, width, height)
    setup = time.perf_counter() - started
    result = session.run_to_end()
    closing = time.perf_counter()
    artifacts = recording.close(result) if recording is not None else {}
    close = time.perf_counter() - closing
    wall = time.perf_counter() - started
    frames = len(recording.frames) if recording is not None else 0
    return result, wall, setup, close, frames, close, artifacts  # the video is drawn in close(), after the test


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--width", type=int, default=640)
    parser.add_argument("--height", type=int, default=360)
    args = parser.parse_args()
    tmp = Path(tempfile.mkdtemp(prefix="bench-recording-"))
    cases = [
        ("ground_drop", box_asset(tmp / "box.usda", size=0.1), "box (12 triangles)"),
        ("ground_drop", SHARED_ASSETS / "pb_mug" / "floating_base.usda", "pb_mug"),
        ("ground_drop", SHARED_ASSETS / "newton_ex_humanoid" / "humanoid.usda", "humanoid (16 bodies)"),
        ("ground_drop", SHARED_ASSETS / "erd_panda" / "floating_base.usda", "erd_panda (135k tris -> 20k)"),
        ("full_range_sweep", build_arm(tmp / "arm.usda", joints=3), "3-joint arm, 8 fps capture"),
    ]
    header = (f"{'case':<32} {'test':<17} {'sim s':>6} {'bare s':>7} {'video s':>8} {'extra/sim s':>11} "
              f"{'frames':>6} {'ms/frame':>8} {'setup s':>7} {'close s':>7}")
    print(f"recording at {args.width}x{args.height}; goal: extra wall time < {GOAL_SECONDS_PER_SIM_SECOND:g} s "
          "per simulated second")
    started = time.perf_counter()
    ok, why = rendering_available()
    if not ok:
        print(f"rendering unavailable: {why}")
        return 1
    print(f"once per process (worker): import VTK + first GL context {time.perf_counter() - started:.2f} s")
    print(header)
    print("-" * len(header))
    worst = 0.0
    for test_name, path, label in cases:
        if not Path(path).exists():
            print(f"{label:<32} missing asset {path}")
            continue
        bare = run(test_name, path, None, args.width, args.height)
        rec = run(test_name, path, tmp / label.split()[0], args.width, args.height)
        result, wall, setup, close, frames, render, artifacts = rec
        sim = max(result.simulated_seconds, 1e-9)
        extra = (wall - bare[1]) / sim
        worst = max(worst, extra)
        print(f"{label:<32} {test_name:<17} {sim:6.2f} {bare[1]:7.2f} {wall:8.2f} {extra:11.2f} "
              f"{frames:6d} {1000 * render / max(frames, 1):8.1f} {setup:7.2f} {close:7.2f}"
              + ("" if "video" in artifacts else "  (no video!)"))
    verdict = "meets" if worst < GOAL_SECONDS_PER_SIM_SECOND else "MISSES"
    print(f"worst extra wall time per simulated second: {worst:.2f} s ({verdict} the < "
          f"{GOAL_SECONDS_PER_SIM_SECOND:g} s goal)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
