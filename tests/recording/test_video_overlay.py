"""What the video shows an asset author, checked on decoded frames of real runs: the verdict strip lies inside
the frame, above the player's control bar and below the asset (never over it), with its reason wrapped at word
boundaries, and the poster shows the asset; the caption sits on a dark backdrop; during effort_limit the force arrow
is drawn at the load's application point in every frame of every load segment and the loaded joint is highlighted;
a driven-joint test (no ground in its scene) draws no floor, ground_drop does; the camera frames the asset."""

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


def floor(frame: np.ndarray) -> float:
    """Share of the frame in the floor's light blue (recording.renderer.ROOM_FLOOR, lit, through H.264)."""
    rgb = frame.astype(int)
    r, g, b = rgb[..., 0], rgb[..., 1], rgb[..., 2]
    return float(((b > 200) & (r > 130) & (g > 150) & (b - r > 25) & (b - r < 100)).mean())


def test_verdict_strip_lies_below_the_asset_and_above_the_control_bar(failing_drop):
    timeline = failing_drop.timeline
    result = failing_drop.result
    assert result.status.value == "FAIL", result.reason
    _, frames = decode_video(failing_drop.artifacts["video"])
    height, width = frames[0].shape[:2]
    assert (width, height) == (320, 180)
    card = frames[-1].astype(int)
    x0, y0, x1, y1 = timeline["final_card_box"]
    ax0, ay0, ax1, ay1 = timeline["final_asset_box"]
    assert 0 < x0 and x1 < width and 0 < y0 and y1 <= (1 - CONTROL_BAR) * height, "the strip reaches into the control bar"
    assert ay1 <= y0 and ax0 >= 0 and ax1 <= width, "the strip covers the picture of the asset"
    # The strip is drawn: its backdrop is dark, and the badge in the verdict colour (red for FAIL) is inside it.
    assert (card[y0 + 3:y1 - 3, x0 + 3:x1 - 3].max(axis=2) < 110).mean() > 0.5
    red = (card[..., 0] > 150) & (card[..., 1] < 90) & (card[..., 2] < 90)
    assert red[y0:y1, x0:x1].sum() > 40 and red[:y0].sum() < 20
    # The reason is wrapped on word boundaries: the lines put back together are the reason, word for word.
    lines = timeline["final_card_lines"]
    assert len(lines) >= 2
    words = " ".join(lines).replace(" …", "").split()
    assert words == result.reason.split()[: len(words)]
    # the card is at most a quarter of a short video (at least 0.5 s), not its last 60 %
    assert timeline["final_card_frames"] <= max(0.25 * timeline["frame_count"], 0.5 * timeline["fps"]) + 1
    from PIL import Image

    Image.fromarray(frames[-1]).save(artifacts_dir() / "video_verdict_card_320x180.png")


def test_the_poster_shows_the_asset_above_the_strip(loaded_arm):
    """The poster (and the last frames) is the asset's final picture, shrunk, with the strip below it: the asset's
    bounds, projected into the shrunk picture, lie inside it and are drawn there (the arm's pixels, not backdrop)."""
    from PIL import Image

    timeline = loaded_arm.timeline
    poster = np.asarray(Image.open(loaded_arm.artifacts["poster"]).convert("RGB")).astype(int)
    width, height = timeline["size"]
    ax0, ay0, ax1, ay1 = timeline["final_asset_box"]
    last = timeline["frames"][-1]
    scale = (ay1 - ay0) / height
    lo, hi = np.array(last["bounds_min"]), np.array(last["bounds_max"])
    corners = [[x, y, z] for x in (lo[0], hi[0]) for y in (lo[1], hi[1]) for z in (lo[2], hi[2])]
    pixels = np.array([project(c, last["camera"], width, height) for c in corners]) * scale + [ax0, ay0]
    left, top = pixels.min(axis=0)
    right, bottom = pixels.max(axis=0)
    x0, y0, x1, y1 = timeline["final_card_box"]
    assert ax0 <= left and right <= ax1 and ay0 <= top and bottom <= y0, "the asset is not inside its picture above the strip"
    inside = poster[int(top):int(bottom), int(left):int(right)]
    walls = (inside[..., 2] > 120) & (inside[..., 2] - inside[..., 0] > 60)  # the blue walls behind it
    assert (~walls).mean() > 0.25, "the asset's box shows only the room"
    Image.fromarray(poster.astype(np.uint8)).save(artifacts_dir() / "video_poster_asset_and_strip.png")


def test_a_driven_joint_scene_draws_no_floor_and_ground_drop_does(loaded_arm, failing_drop):
    """The driven-joint tests pin the base with no ground (their SceneSpec says so): no floor in any frame."""
    assert loaded_arm.timeline["floor"] is False and failing_drop.timeline["floor"] is True
    _, frames = decode_video(loaded_arm.artifacts["video"])
    count = loaded_arm.timeline["frame_count"]
    assert max(floor(f) for f in frames[:count]) < 0.01
    _, dropped = decode_video(failing_drop.artifacts["video"])
    assert max(floor(f) for f in dropped[:failing_drop.timeline["frame_count"]]) > 0.1


def test_every_load_segment_shows_its_arrow_and_its_joint_throughout(loaded_arm):
    """Each of effort_limit's load segments (a chapter "joint X: force d/12") has frames, and in every one of them the
    force is recorded, the magenta arrow is drawn and the loaded joint is highlighted."""
    timeline = loaded_arm.timeline
    width, height = timeline["size"]
    _, frames = decode_video(loaded_arm.artifacts["video"])
    chapters = timeline["chapters"]
    bounds = [c["frame"] for c in chapters] + [timeline["frame_count"]]
    segments = [(c["label"], bounds[i], bounds[i + 1]) for i, c in enumerate(chapters) if ": force " in c["label"]]
    loaded_joints = {label.split(":")[0] for label, _, _ in segments}
    assert len(segments) >= 12 * len(loaded_joints) >= 12, [c["label"] for c in chapters]
    for label, first, end in segments:
        assert end > first, f"{label}: no frame in the video"
        for index in range(first, end):
            meta = timeline["frames"][index]
            assert meta.get("forces"), f"{label}: frame {index} without the load"
            assert meta.get("joint") == label.split(":")[0].split(" ", 1)[1]
            x, y = project(meta["forces"][0]["point"], meta["camera"], width, height)
            r = 20
            near = magenta(frames[index])[max(0, int(y) - r): int(y) + r, max(0, int(x) - r): int(x) + r]
            assert near.sum() > 15, f"{label}: no arrow at the load in frame {index}"
            assert chartreuse(frames[index]).sum() > 30, f"{label}: the loaded joint is not highlighted in frame {index}"


def test_caption_has_a_dark_backdrop_on_the_light_floor(failing_drop):
    _, frames = decode_video(failing_drop.artifacts["video"])
    frame = frames[0].astype(int)  # the box above the floor (it falls through later)
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
