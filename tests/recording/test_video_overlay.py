"""What the video shows an asset author, checked on decoded frames of real runs: the verdict card lies inside
the frame and above the player's control bar with its reason wrapped at word boundaries; the caption sits on
a dark backdrop; during effort_limit the force arrow is drawn at the load's application point and the
loaded joint is highlighted; the camera frames the asset."""

from __future__ import annotations

import numpy as np
import pytest

from tests.fixtures.arms import build_arm
from tests.fixtures.recording import artifacts_dir, decode_video, project, record_test, require_rendering
from tests.fixtures.usd_assets import box_asset

pytestmark = pytest.mark.usefixtures("physx_available")

CONTROL_BAR = 0.15  # bottom fraction of the frame covered by a browser's video controls


def magenta(frame: np.ndarray) -> np.ndarray:
    """Pixels of the force arrow (recording.renderer.FORCE_COLOR, shaded and through H.264)."""
    rgb = frame.astype(int)
    r, g, b = rgb[..., 0], rgb[..., 1], rgb[..., 2]
    return (r > 140) & (b > 110) & (r - g > 90) & (b - g > 60)


def chartreuse(frame: np.ndarray) -> np.ndarray:
    """Pixels of the highlighted joint and body (recording.renderer.HIGHLIGHT_COLOR)."""
    rgb = frame.astype(int)
    r, g, b = rgb[..., 0], rgb[..., 1], rgb[..., 2]
    return (g > 140) & (g - b > 100) & (r > 70) & (g > r)


@pytest.fixture(scope="module")
def failing_drop(tmp_path_factory):
    """A box without collision falls through the floor (FAIL); recorded small, so the reason must wrap."""
    require_rendering()
    root = tmp_path_factory.mktemp("card")
    asset = box_asset(root / "ghost_box_with_a_rather_long_file_name.usda", collision_enabled=False)
    return record_test("ground_drop", asset, root / "out", width=320, height=180)


@pytest.fixture(scope="module")
def loaded_arm(tmp_path_factory):
    """effort_limit on a two-joint arm: a 10 N load on each joint's child body, from 12 directions."""
    require_rendering()
    root = tmp_path_factory.mktemp("effort")
    arm = build_arm(root / "arm.usda", joints=2)
    return record_test("effort_limit", arm, root / "out", test_duration_seconds=1.0)


def test_verdict_card_lies_inside_the_frame_above_the_control_bar(failing_drop):
    timeline = failing_drop.timeline
    result = failing_drop.result
    assert result.status.value == "FAIL", result.reason
    _, frames = decode_video(failing_drop.artifacts["video"])
    height, width = frames[0].shape[:2]
    assert (width, height) == (320, 180)
    card, before = frames[-1].astype(int), frames[timeline["frame_count"] - 1].astype(int)
    # The card is what the last frame adds below the caption: find it in the pixels, not only in the timeline.
    changed = np.abs(card - before).max(axis=2) > 60
    changed[: int(0.30 * height)] = False  # the caption (top left) loses its label line on the card
    rows, cols = np.nonzero(changed)
    assert rows.size > 500
    top, bottom, left, right = rows.min(), rows.max(), cols.min(), cols.max()
    x0, y0, x1, y1 = timeline["final_card_box"]
    assert 0 < x0 and x1 < width and 0 < y0 and y1 <= (1 - CONTROL_BAR) * height
    assert bottom <= (1 - CONTROL_BAR) * height, "the card reaches into the player's control bar"
    assert left > 0 and right < width - 1, "the card touches the frame's edge"
    assert x0 - 2 <= left and right <= x1 + 2 and bottom <= y1 + 2 and top >= min(y0, int(0.30 * height)) - 2
    # The badge in the verdict colour (red for FAIL) inside the card.
    red = (card[..., 0] > 150) & (card[..., 1] < 90) & (card[..., 2] < 90)
    assert red[y0:y1, x0:x1].sum() > 40
    # The reason is wrapped on word boundaries: the lines put back together are the reason, word for word.
    lines = timeline["final_card_lines"]
    assert len(lines) >= 2
    words = " ".join(lines).replace(" …", "").split()
    assert words == result.reason.split()[: len(words)]
    from PIL import Image

    Image.fromarray(frames[-1]).save(artifacts_dir() / "video_verdict_card_320x180.png")


def test_caption_has_a_dark_backdrop_on_the_light_floor(failing_drop):
    _, frames = decode_video(failing_drop.artifacts["video"])
    frame = frames[failing_drop.timeline["frame_count"] - 1].astype(int)
    panel = frame[4:30, 4:120]  # behind the caption's first lines
    background = (panel.max(axis=2) < 110).mean()
    assert background > 0.6, f"only {background:.0%} of the caption area is dark"
    bright_text = (panel.min(axis=2) > 200).mean()
    assert bright_text > 0.02  # the text itself, light on the backdrop


def test_effort_limit_frame_shows_the_force_arrow_at_the_application_point(loaded_arm):
    result, timeline = loaded_arm.result, loaded_arm.timeline
    assert result.status.value in ("PASS", "FAIL"), result.reason
    width, height = timeline["size"]
    loaded = [(i, f) for i, f in enumerate(timeline["frames"]) if f.get("forces")]
    assert len(loaded) > 10
    _, frames = decode_video(loaded_arm.artifacts["video"])
    hits = 0
    checked = loaded[2::max(1, len(loaded) // 8)]
    for index, frame_meta in checked:
        force = frame_meta["forces"][0]
        x, y = project(force["point"], frame_meta["camera"], width, height)
        assert 0 <= x < width and 0 <= y < height, "the application point is outside the frame"
        image = frames[index]
        r = 20
        near = magenta(image)[max(0, int(y) - r): int(y) + r, max(0, int(x) - r): int(x) + r]
        far = magenta(image).sum() - near.sum()
        if near.sum() > 15:
            hits += 1
        assert frame_meta.get("joint"), "the loaded joint is not named in the timeline"
        assert chartreuse(image).sum() > 30, "the loaded joint is not highlighted"
        assert far < 5 * near.sum() + 400  # the arrow starts at the point, it is not drawn elsewhere
    assert hits >= len(checked) - 1, f"arrow colour near the application point in {hits} of {len(checked)} frames"
    from PIL import Image

    Image.fromarray(frames[checked[len(checked) // 2][0]]).save(artifacts_dir() / "video_effort_limit_arrow.png")


def test_no_force_no_arrow(failing_drop):
    _, frames = decode_video(failing_drop.artifacts["video"])
    assert all(magenta(f).sum() < 5 for f in frames[:: max(1, len(frames) // 10)])
    assert not any(f.get("forces") for f in failing_drop.timeline["frames"])


def test_camera_frames_the_asset(loaded_arm):
    """The asset's bounds span a good part of the frame: not a speck in a large room."""
    width, height = loaded_arm.timeline["size"]
    frame_meta = loaded_arm.timeline["frames"][len(loaded_arm.timeline["frames"]) // 2]
    lo, hi = np.array(frame_meta["bounds_min"]), np.array(frame_meta["bounds_max"])
    corners = [[x, y, z] for x in (lo[0], hi[0]) for y in (lo[1], hi[1]) for z in (lo[2], hi[2])]
    pixels = np.array([project(c, frame_meta["camera"], width, height) for c in corners])
    span_x = (pixels[:, 0].max() - pixels[:, 0].min()) / width
    span_y = (pixels[:, 1].max() - pixels[:, 1].min()) / height
    assert max(span_x, span_y) > 0.45, f"the asset spans {span_x:.0%} x {span_y:.0%} of the frame"
    assert pixels[:, 0].min() > -0.05 * width and pixels[:, 0].max() < 1.05 * width
