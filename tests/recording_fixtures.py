"""Helpers for the recording, replay and HTML-report tests: record real ground_drop runs."""

from __future__ import annotations

import json
import os
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import pytest

from omni.simready.physics_validator.core.results import TestResult
from omni.simready.physics_validator.core.session import TestSession
from omni.simready.physics_validator.core.usd import read_asset
from omni.simready.physics_validator.engines import create_engine
from omni.simready.physics_validator.physics_tests.ground_drop import GroundDropTest

REPO = Path(__file__).resolve().parents[1]
CHROMIUM = Path("/usr/bin/chromium")
CHROMIUM_FLAGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]


def artifacts_dir() -> Path:
    """Where tests leave files for people to look at (screenshots): $TEST_ARTIFACTS_DIR or ./tmp/artifacts."""
    path = Path(os.environ.get("TEST_ARTIFACTS_DIR", REPO / "tmp" / "artifacts"))
    path.mkdir(parents=True, exist_ok=True)
    return path


def require_rendering() -> None:
    from omni.simready.physics_validator.recording import rendering_available

    ok, why = rendering_available()
    if not ok:
        pytest.skip(f"offscreen rendering unavailable here ({why}); run tools/install_test_browser.sh")


@dataclass
class Recorded:
    result: TestResult
    artifacts: dict[str, str]
    timeline: dict
    asset: Path
    recording: object  # the Recording (its captured poses back the replay checks)


def record_ground_drop(asset_path: Path, out_dir: Path, width: int = 640, height: int = 360, **config) -> Recorded:
    """Run ground_drop on the real engine with a recording attached, as the runner does."""
    from omni.simready.physics_validator.recording import start_recording

    test = GroundDropTest()
    cfg = test.Config(**config)
    session = TestSession(test, read_asset(asset_path), cfg, create_engine("physx"))
    recording = start_recording(session.ctx, str(asset_path), test.name, out_dir, cfg.capture_fps, width, height)
    assert recording is not None, session.result.warnings
    result = session.run_to_end()
    artifacts = recording.close(result)
    result.artifacts.update(artifacts)
    timeline = json.loads(Path(artifacts["timeline"]).read_text()) if "timeline" in artifacts else {}
    return Recorded(result, artifacts, timeline, Path(asset_path), recording)


def decode_video(path: str | Path) -> tuple[dict, list[np.ndarray]]:
    import imageio_ffmpeg

    reader = imageio_ffmpeg.read_frames(str(path))
    meta = next(reader)
    width, height = meta["size"]
    frames = [np.frombuffer(f, np.uint8).reshape(height, width, 3) for f in reader]
    return meta, frames
