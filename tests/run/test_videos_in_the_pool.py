"""Videos at a fraction of the run (issue 36), on the real engine: a test only records while it runs (its poses,
timeline and 3D replay); the USD replay and the video of each test the media policy draws (FAIL, WARN, ERROR, PASS
with warnings with `--media failing`) are made afterwards, by the worker pool while other work simulates, or right
after the test in-process; `--media all` draws every test; by default (issue 44) no video is drawn. The result, the
report and the results cache carry the video either way, and a
frame that shows what the last one showed is reused without changing the picture."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

from omni.simready.physics_validator import validate
from omni.simready.physics_validator.core.cache import ResultCache
from omni.simready.physics_validator.core.config import ValidationConfig
from omni.simready.physics_validator.physics_tests import default_registry
from tests.fixtures.batch import load_report, run_cli
from tests.fixtures.recording import decode_video, record_ground_drop, require_rendering
from tests.fixtures.usd_assets import box_asset

pytestmark = pytest.mark.usefixtures("physx_available")
DRAWN = {"video", "poster", "replay", "timeline"}


@pytest.fixture(scope="module")
def boxes(tmp_path_factory):
    require_rendering()
    root = tmp_path_factory.mktemp("boxes")
    return [box_asset(root / "good_box.usda"), box_asset(root / "ghost_box.usda", collision_enabled=False)]


def artifacts_by_asset(report) -> dict[str, set[str]]:
    return {Path(a.path).stem: set(a.tests[0].artifacts) for a in report.assets}


def config(media: str, isolate: bool = True) -> ValidationConfig:
    cfg = ValidationConfig.defaults(default_registry())
    cfg.run.media, cfg.run.isolate = media, isolate
    return cfg


def test_the_pool_draws_the_failing_test_and_the_passing_one_keeps_its_recording(boxes, tmp_path):
    report = validate([str(b) for b in boxes], ["ground_drop"], config("failing"), "physx", tmp_path, jobs=2)
    assert {Path(a.path).stem: a.tests[0].status.value for a in report.assets} == {"good_box": "PASS", "ghost_box": "FAIL"}
    artifacts = artifacts_by_asset(report)
    assert DRAWN <= artifacts["ghost_box"], artifacts
    assert "timeline" in artifacts["good_box"] and not {"video", "replay", "poster"} & artifacts["good_box"], artifacts
    ghost = next(a for a in report.assets if "ghost" in a.path).tests[0]
    assert not [w for w in ghost.warnings if w.startswith(("video", "replay"))], ghost.warnings
    meta, frames = decode_video(ghost.artifacts["video"])
    timeline = json.loads(Path(ghost.artifacts["timeline"]).read_text())
    assert len(frames) == timeline["frame_count"] + timeline["final_card_frames"] and "camera" in timeline["frames"][0]
    # the results cache holds the verdict with its video (written again once the video was drawn)
    cached = [json.loads(p.read_text())["result"] for p in (tmp_path / ".cache" / "results").glob("*/*.json")]
    assert {"video", "replay"} <= set(next(r for r in cached if r["status"] == "FAIL")["artifacts"])
    assert len(ResultCache(tmp_path)) == 2


def test_media_all_draws_every_test_and_in_process_runs_draw_after_each_test(boxes, tmp_path):
    report = validate([str(b) for b in boxes], ["ground_drop"], config("all", isolate=False), "physx", tmp_path)
    artifacts = artifacts_by_asset(report)
    assert DRAWN <= artifacts["good_box"] and DRAWN <= artifacts["ghost_box"], artifacts


def test_the_command_line_draws_by_the_policy_and_says_how_to_get_the_rest(boxes, tmp_path):
    """By default every recorded test gets its 3D replay, no video and no USD replay layer; the failing one its plots;
    `--media failing` adds its video and USD replay (`--media all`: the test above)."""
    proc = run_cli("validate", *boxes, "--tests", "ground_drop", "--out", tmp_path)
    assert proc.returncode == 1, proc.stderr
    tests = {Path(a["path"]).stem: a["tests"][0] for a in load_report(tmp_path)["assets"]}
    assert all({"replay_glb", "replay_glb_js"} <= set(t["artifacts"]) and not {"video", "replay"} & set(t["artifacts"])
               for t in tests.values())
    page = (tmp_path / "html" / "index.html").read_text()
    assert page.count('class="replay3d"') == 2 and "<video" not in page and "--media all" in page  # how to get the plots
    failing = run_cli("validate", *boxes, "--tests", "ground_drop", "--media", "failing", "--out", tmp_path / "failing")
    assert failing.returncode == 1, failing.stderr
    tests = {Path(a["path"]).stem: a["tests"][0] for a in load_report(tmp_path / "failing")["assets"]}
    assert {"video", "replay"} <= set(tests["ghost_box"]["artifacts"]) and "video" not in tests["good_box"]["artifacts"]


def test_a_reused_frame_shows_what_a_drawn_one_would(tmp_path, monkeypatch):
    """A box at rest for most of its drop: most frames reuse the last image; drawn afresh they look the same."""
    from omni.simready.physics_validator.recording import video_job

    require_rendering()
    run = record_ground_drop(box_asset(tmp_path / "box.usda"), tmp_path / "out", width=320, height=180,
                             simulate_after_result_seconds=2.0)
    job = video_job.VideoJob.of(str(run.asset), run.artifacts["timeline"], run.result, 320, 180)
    reused = video_job.render_video(job)
    _, with_reuse = decode_video(reused.artifacts["video"])
    monkeypatch.setattr(video_job, "REUSE_PX", 0.0)
    drawn = video_job.render_video(job)
    _, without = decode_video(drawn.artifacts["video"])
    assert reused.frames_reused > 0.3 * len(with_reuse) and drawn.frames_reused == 0
    assert len(with_reuse) == len(without)
    difference = max(float(np.abs(a.astype(int) - b.astype(int)).mean()) for a, b in zip(with_reuse, without))
    assert difference < 1.5, difference  # mean per-pixel difference, 0-255: H.264 noise, not a moved picture
