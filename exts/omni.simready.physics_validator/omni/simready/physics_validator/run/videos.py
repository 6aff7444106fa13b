"""Videos at a fraction of the run: which recorded tests get one (with its USD replay layer), drawn as pool jobs.

A test's Recording keeps its poses while it runs and writes them with its timeline and its 3D replay when it ends
(recording/). Where the media policy draws videos (core.media: `--media failing` for FAIL, WARN, ERROR and a PASS
with warnings, `--media all` for every test; none by default) the video and the USD replay layer are made from those
afterwards (`recording.render_video`): in the worker pool by the local executor (`run.local`), so a free core draws
while the next test or asset simulates, or right after the test where it ran (in-process and Ray runs).
`draw_video` is the pool's job; `apply` puts its outcome on the result.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from ..core.config import ValidationConfig
from ..core.media import video_drawn
from ..core.results import TestResult

VIDEO_ARTIFACTS = ("replay", "video", "poster")


@dataclass
class VideoRequest:
    """One video to draw for the pool: the job and which asset's test it belongs to."""

    asset_index: int
    test: str
    job: object  # recording.VideoJob (plain data: it is pickled to a worker)


@dataclass
class VideoDrawn:
    """The outcome of a drawing job, as the parent applies it to the result."""

    test: str
    artifacts: dict[str, str] = field(default_factory=dict)
    problems: list[str] = field(default_factory=list)
    seconds: float = 0.0


def wanted(result: TestResult, config: ValidationConfig) -> bool:
    """A recorded test whose video (and USD replay) the run draws: recording on, a timeline written, no video yet, the
    policy draws it."""
    return (config.run.video and "timeline" in result.artifacts and "video" not in result.artifacts
            and video_drawn(result, config.run.media))


def draws_videos(config: ValidationConfig) -> bool:
    """Whether the run's media policy can draw any video (the pool then readies a renderer ahead)."""
    return config.run.video and config.run.media != "replay"


def request(asset_index: int, asset_path: str, result: TestResult, config: ValidationConfig) -> VideoRequest:
    from ..recording.video_job import VideoJob

    job = VideoJob.of(asset_path, result.artifacts["timeline"], result, config.run.video_width, config.run.video_height)
    return VideoRequest(asset_index, result.name, job)


def draw_video(job) -> VideoDrawn:
    """The pool's job (run in a worker by `worker.run_call_isolated`): one video, each frame a sign of progress."""
    from ..recording.video_job import render_video
    from .worker_main import physics_progressed

    outcome = render_video(job, progress=physics_progressed)
    return VideoDrawn(job.stem, dict(outcome.artifacts), list(outcome.problems), outcome.seconds)


def warm_renderer(_unused=None) -> bool:
    """A pool job: import the renderer and open (and close) an offscreen window in this worker, before any video."""
    from ..recording import rendering_available

    return rendering_available()[0]


def apply(result: TestResult, artifacts: dict[str, str], problems: list[str]) -> None:
    """A drawn video's artifacts and problems onto its result (problems as warnings, once each)."""
    result.artifacts.update({k: v for k, v in artifacts.items() if k in VIDEO_ARTIFACTS})
    for problem in problems:
        if problem not in result.warnings:
            result.warnings.append(problem)
