"""Recorded ground_drop video on the real engine: decodable H.264, right size and length, the asset
in frame and moving, chapters from ctx.label, the verdict card at the end."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from tests.fixtures.recording import decode_video, record_ground_drop, require_rendering
from tests.fixtures.usd_assets import box_asset

pytestmark = pytest.mark.usefixtures("physx_available")


@pytest.fixture(scope="module")
def recorded_drop(tmp_path_factory):
    require_rendering()
    root = tmp_path_factory.mktemp("video")
    asset = box_asset(root / "box.usda", size=0.1)
    return record_ground_drop(asset, root / "out", drop_rule="spec_8x")  # a fall long enough to watch (0.8 m)


def asset_mask(frame: np.ndarray) -> np.ndarray:
    """Pixels of the box: it is drawn in the first palette colour (orange); the room is blue, text white."""
    rgb = frame.astype(int)
    r, g, b = rgb[..., 0], rgb[..., 1], rgb[..., 2]
    return (r > 90) & (r - b > 60) & (r - g > 15)


def test_video_decodes_with_the_recorded_frame_count_and_size(recorded_drop):
    meta, frames = decode_video(recorded_drop.artifacts["video"])
    timeline = recorded_drop.timeline
    assert tuple(meta["size"]) == (640, 360)
    assert meta["fps"] == pytest.approx(15.0)
    assert meta["codec"].startswith("h264")
    assert timeline["capture_interval_steps"] == 16  # 240 // 15
    assert len(frames) == timeline["frame_count"] + timeline["final_card_frames"]
    # One frame per 16 physics steps over the whole simulated run, and one at each change of phase (chapter).
    simulated = recorded_drop.result.simulated_seconds
    assert timeline["frame_count"] == pytest.approx(simulated * 15 + len(timeline["chapters"]) - 1, abs=1.0)


def test_box_stays_in_frame_and_moves_between_first_and_last_frame(recorded_drop):
    _, frames = decode_video(recorded_drop.artifacts["video"])
    first, last = frames[0], frames[recorded_drop.timeline["frame_count"] - 1]
    assert asset_mask(first).sum() > 500, "box not visible in the first frame"
    assert asset_mask(last).sum() > 500, "box not visible in the last frame"
    # The camera follows the box, so the room moves past it: mean pixel change outside the overlay.
    body = (slice(80, 330), slice(0, 640))
    change = np.abs(first[body].astype(int) - last[body].astype(int)).mean()
    assert change > 8.0, f"first and last frames look the same (mean change {change:.1f})"
    # And the recorded bounds confirm the fall the pictures show.
    frames_meta = recorded_drop.timeline["frames"]
    assert frames_meta[0]["bounds_min"][2] > 0.7
    assert abs(frames_meta[-1]["bounds_min"][2]) < 0.01


def test_final_card_shows_the_verdict_colour(recorded_drop):
    _, frames = decode_video(recorded_drop.artifacts["video"])
    assert recorded_drop.result.status.value == "PASS", recorded_drop.result.reason
    x0, y0, x1, y1 = recorded_drop.timeline["final_card_box"]
    card = frames[-1].astype(int)[y0:y1, x0:x1]  # the card; its badge is green for PASS
    green = (card[..., 1] > 110) & (card[..., 1] - card[..., 0] > 50) & (card[..., 1] - card[..., 2] > 40)
    assert green.sum() > 200
    before = frames[recorded_drop.timeline["frame_count"] - 1].astype(int)[y0:y1, x0:x1]
    assert ((before[..., 1] - before[..., 0] > 50) & (before[..., 1] - before[..., 2] > 40)).sum() < 20


def test_chapters_follow_the_test_phases(recorded_drop):
    chapters = recorded_drop.timeline["chapters"]
    assert [c["label"] for c in chapters] == ["falling", "contact", "settling", "at rest"]
    times = [c["video_time"] for c in chapters]
    assert times == sorted(times) and times[0] == 0.0
    touch = recorded_drop.result.metrics["touch_time"]
    contact = chapters[1]
    assert contact["sim_time"] == pytest.approx(touch, abs=16 / 240 + 1e-9)  # next captured frame


def test_unrenderable_asset_warns_and_the_test_still_runs(tmp_path):
    from omni.simready.physics_validator.core.session import TestSession
    from omni.simready.physics_validator.core.usd import read_asset
    from omni.simready.physics_validator.engines import create_engine
    from omni.simready.physics_validator.physics_tests.ground.ground_drop import GroundDropTest
    from omni.simready.physics_validator.recording import start_recording

    asset = box_asset(tmp_path / "box.usda")
    test = GroundDropTest()
    session = TestSession(test, read_asset(asset), test.Config(), create_engine("physx"))
    recording = start_recording(session.ctx, str(tmp_path / "missing.usda"), "ground_drop", tmp_path / "out", 15, 64, 36)
    assert recording is None
    assert any(w.startswith("video: not recorded") for w in session.result.warnings)
    result = session.run_to_end()
    assert result.status.value == "PASS", result.reason
    assert not Path(tmp_path / "out" / "ground_drop.mp4").exists()
