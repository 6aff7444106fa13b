"""A test's replay and video, made from its recording after the test: off the physics' critical path.

`render_video(VideoJob)` reads what the test's Recording wrote (the timeline: per-frame bounds, label chapters, the
joint under test and the forces; the poses file: every body's pose per frame), writes the USD replay layer
(replay.py) and draws the frames as the runner used to while the test ran: the asset's render geometry posed in the
blue room (the floor only where the test's scene has a ground), the joint under test highlighted with its anchor
marked, the forces as arrows from their points, the caption (test, time, phase, load) and the verdict strip at the
end (also the poster). It adds the camera of every frame and the card's boxes to the timeline (tests check pictures
against the physics there).

A frame in which nothing moved by a quarter of a pixel since the last rendered one (a joint holding a waypoint, an
asset at rest) reuses that image under a new caption (`SceneRenderer.render(reuse_px=...)`). A batch run calls this
in its worker pool as a job (run.local) while other assets or tests simulate; `progress` is called once a frame (the
pool's watchdog counts it as progress). Render geometry is kept for the last asset drawn in this process, so the
videos of one asset load it once. A failure is a problem string for the result's warnings, never an exception.
"""

from __future__ import annotations

import json
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable

import numpy as np

from ..core import out_writer

FINAL_CARD_SECONDS = 1.5
MIN_CARD_SECONDS, CARD_SHARE = 0.5, 0.25  # a short video's card: at least 0.5 s, at most a quarter of it
POSES_SUFFIX = ".poses.npz"  # the recording's poses file beside its timeline (recorder.Recording)
REUSE_PX = 0.25  # a frame whose content moved less than this (pixels) reuses the last rendered image
CAPTION_RGB = (255, 255, 255)
TIME_RGB = (208, 216, 230)
_GEOMETRY: dict = {}  # (asset path, file stamp, bodies) -> render geometry: the last asset drawn in this process


@dataclass
class VideoJob:
    """What drawing one test's video needs: plain data, so it crosses to a worker process as it is."""

    asset_path: str
    timeline_path: str  # the recording's timeline (its `poses` entry names the poses file beside it)
    verdict: str
    reason: str
    width: int = 640
    height: int = 360

    @classmethod
    def of(cls, asset_path: str, timeline_path: str, result, width: int, height: int) -> "VideoJob":
        status = result.status.value if hasattr(result.status, "value") else str(result.status)
        return cls(str(asset_path), str(timeline_path), status, result.reason or "", int(width), int(height))

    @property
    def stem(self) -> str:
        name = Path(self.timeline_path).name
        return name[: -len(".timeline.json")] if name.endswith(".timeline.json") else Path(self.timeline_path).stem


@dataclass
class VideoOutcome:
    artifacts: dict[str, str] = field(default_factory=dict)  # replay, video, poster
    problems: list[str] = field(default_factory=list)  # for the result's warnings
    timeline: dict | None = None  # the timeline as rewritten (camera per frame, the card's boxes)
    seconds: float = 0.0
    frames_drawn: int = 0
    frames_reused: int = 0


def render_video(job: VideoJob, progress: Callable[[], None] | None = None) -> VideoOutcome:
    """Write the USD replay layer, then draw and encode the video and its poster; never raises."""
    started = time.perf_counter()
    outcome = VideoOutcome()
    try:
        _draw(job, outcome, progress)
    except Exception as exc:  # noqa: BLE001 - no video is a warning, never a verdict
        outcome.problems.append(f"video: not written: {type(exc).__name__}: {exc}")
    outcome.seconds = round(time.perf_counter() - started, 3)
    return outcome


def _draw(job: VideoJob, outcome: VideoOutcome, progress: Callable[[], None] | None) -> None:
    timeline_path = Path(job.timeline_path)
    timeline = json.loads(timeline_path.read_text(encoding="utf-8"))
    frames = timeline.get("frames") or []
    if not frames:
        return
    folder = timeline_path.parent
    with np.load(folder / str(timeline.get("poses") or f"{job.stem}{POSES_SUFFIX}")) as data:
        paths, poses, rest = [str(p) for p in data["paths"]], np.array(data["poses"]), np.array(data["rest"])
    _replay(job, timeline, paths, poses, outcome)
    _video(job, outcome, progress, timeline, paths, poses, rest)


def _video(job: VideoJob, outcome: VideoOutcome, progress: Callable[[], None] | None, timeline: dict, paths: list[str],
           poses: np.ndarray, rest: np.ndarray) -> None:
    from .encoder import VideoEncoder
    from .overlay import Overlay
    from .renderer import FORCE_COLOR, SceneRenderer, arrow_length

    timeline_path = Path(job.timeline_path)
    frames = timeline["frames"]
    folder = timeline_path.parent
    renderer = SceneRenderer(_geometry(job.asset_path, paths, rest), job.width, job.height)
    encoder = None
    try:
        overlay = Overlay(job.width, job.height)
        fps = float(timeline["fps"])
        lo0, hi0 = _bounds(frames[0])
        diag = float(np.linalg.norm(hi0 - lo0)) if np.all(np.isfinite(hi0 - lo0)) else 1.0
        center = (lo0 + hi0) / 2.0 if np.all(np.isfinite(lo0 + hi0)) else np.zeros(3)
        floor = bool(timeline.get("floor", True))
        renderer.build_room(float(timeline.get("floor_height", 0.0)) if floor else float(center[2]), center[:2],
                            max(8.0 * diag, 3.0), floor=floor)
        size = diag if np.isfinite(diag) and diag > 0 else 1.0
        force_rgb = (int(round(255 * FORCE_COLOR[0])), int(round(255 * FORCE_COLOR[1])), int(round(255 * FORCE_COLOR[2])))
        title = str(timeline.get("title") or timeline.get("test") or "")
        labels = _labels(timeline, len(frames))
        encoder = VideoEncoder(folder / f"{job.stem}.mp4", fps, job.width, job.height)
        last_pose: dict = {}
        last_view = (lo0, hi0)
        for index, frame in enumerate(frames):
            pose = {path: (poses[index, j, :3], poses[index, j, 3:]) for j, path in enumerate(paths)
                    if np.all(np.isfinite(poses[index, j]))}
            lo, hi = _bounds(frame)
            forces = [(np.array(_nan(f["point"]), float), np.array(_nan(f["force"]), float)) for f in frame.get("forces", [])]
            view = (lo, hi)
            for point, force in forces:  # keep the arrows in frame too
                norm = float(np.linalg.norm(force))
                if norm > 0 and np.all(np.isfinite(point)):
                    tip = point + force / norm * arrow_length(size)
                    view = (np.fmin(view[0], np.fmin(point, tip)), np.fmax(view[1], np.fmax(point, tip)))
            marker = np.array(_nan(frame["marker"]), float) if frame.get("marker") else None
            image = renderer.render(pose, view, highlight=frame.get("highlight"), marker=marker, forces=forces,
                                    size=size, reuse_px=REUSE_PX)
            lines = [(title, CAPTION_RGB), (f"t = {frame['sim_time']:.3f} s", TIME_RGB), (labels[index], CAPTION_RGB)]
            if forces:
                lines.append((f"load {max(float(np.linalg.norm(f)) for _, f in forces):.3g} N (arrow)", force_rgb))
            encoder.append(overlay.caption(image, lines, fresh=1))  # only the time changes from frame to frame
            frame["camera"] = renderer.camera_state()
            last_pose, last_view = pose, (lo, hi)
            if progress is not None:
                progress()
        # the last frames and the poster: the asset's final pose shrunk above the verdict strip
        image = renderer.render(last_pose, last_view, size=size)
        card, asset_box, card_box, card_lines = overlay.strip_card(
            image, job.verdict, job.reason, f"{title}  ·  t = {frames[-1]['sim_time']:.3f} s")
        card_frames = _card_frames(len(frames), fps)
        for _ in range(card_frames):
            encoder.append(card)
        encoder.close()
        encoder = None
        outcome.artifacts["video"] = str(folder / f"{job.stem}.mp4")
        if _save_jpeg(card, folder / f"{job.stem}.poster.jpg"):
            outcome.artifacts["poster"] = str(folder / f"{job.stem}.poster.jpg")
        timeline.update(final_card_frames=card_frames, final_card_box=list(card_box), final_asset_box=list(asset_box),
                        final_card_lines=card_lines, size=[job.width, job.height])
        outcome.frames_drawn, outcome.frames_reused = renderer.frames_drawn, renderer.frames_reused
        try:
            out_writer.write_text(timeline_path, json.dumps(timeline, separators=(",", ":")), durable=False)
            outcome.timeline = timeline
        except OSError as exc:
            outcome.problems.append(f"timeline: not written: {exc.strerror or exc}")
    except BaseException as exc:
        if encoder is not None:
            encoder.abort(exc)  # no truncated video left
        raise
    finally:
        renderer.close()


def _replay(job: VideoJob, timeline: dict, paths: list[str], poses: np.ndarray, outcome: VideoOutcome) -> None:
    """The USD replay layer of the recording (replay.py) beside it; a failure is a problem, the video goes on."""
    from .replay import write_replay

    frames = [{path: (poses[i, j, :3], poses[i, j, 3:]) for j, path in enumerate(paths) if np.all(np.isfinite(poses[i, j]))}
              for i in range(len(poses))]
    path = Path(job.timeline_path).parent / f"{job.stem}.replay.usda"
    try:
        write_replay(path, job.asset_path, frames, float(timeline["fps"]),
                     comment=f"{timeline.get('test', job.stem)} replay, {job.verdict}: {job.reason}")
        outcome.artifacts["replay"] = str(path)
    except Exception as exc:  # noqa: BLE001
        outcome.problems.append(f"replay: not written: {type(exc).__name__}: {exc}")


def _geometry(asset_path: str, paths: list[str], rest: np.ndarray) -> dict:
    """The render geometry of the asset's bodies placed at their frames as the asset model read them; kept for the
    last asset drawn in this process (a test's videos share it), keyed by the file's size and time."""
    from .render_geometry import load_render_geometry

    stat = Path(asset_path).stat()
    key = (str(Path(asset_path).resolve()), stat.st_mtime_ns, stat.st_size, tuple(paths), rest.tobytes())
    if key not in _GEOMETRY:
        frames = {p: (rest[j, :3], rest[j, 3:]) for j, p in enumerate(paths) if np.all(np.isfinite(rest[j]))}
        geometry = load_render_geometry(asset_path, frames or None, paths or None)
        _GEOMETRY.clear()
        _GEOMETRY[key] = geometry
    return _GEOMETRY[key]


def _labels(timeline: dict, count: int) -> list[str]:
    """The phase label of each frame, from the chapters (a chapter runs from its frame to the next one's)."""
    labels = [""] * count
    chapters = sorted((c for c in timeline.get("chapters", []) if isinstance(c, dict)), key=lambda c: c.get("frame", 0))
    for chapter, following in zip(chapters, chapters[1:] + [None]):
        start = int(chapter.get("frame", 0))
        end = int(following.get("frame", count)) if following else count
        label = str(chapter.get("caption", chapter.get("label", "")))
        for i in range(max(0, start), min(count, end)):
            labels[i] = label
    return labels


def _bounds(frame: dict) -> tuple[np.ndarray, np.ndarray]:
    return np.array(_nan(frame.get("bounds_min")), float), np.array(_nan(frame.get("bounds_max")), float)


def _nan(values) -> list[float]:
    return [np.nan if v is None else float(v) for v in (values or [np.nan] * 3)]


def _card_frames(frame_count: int, fps: float) -> int:
    """The card's length: 1.5 s, but never more than a quarter of the video (at least 0.5 s)."""
    seconds = min(FINAL_CARD_SECONDS, max(MIN_CARD_SECONDS, CARD_SHARE * frame_count / fps))
    return max(1, int(round(seconds * fps)))


def _save_jpeg(image: np.ndarray, path: Path) -> bool:
    """The verdict card as the video's poster image (Pillow, when installed), written by replace."""
    try:
        from PIL import Image
    except ImportError:
        return False
    with out_writer.replacing(path) as tmp:
        Image.fromarray(image).save(tmp, format="JPEG", quality=85)
    return True
