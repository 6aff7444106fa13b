"""Recording: a TestContext observer that keeps what a test's video shows, frame by frame, without drawing it.

Every `physics_fps // capture_fps` steps (the reference suite's capture interval), and at each change of ctx.label
(a load shorter than the interval still shows), it keeps the engine's body poses and bounds, the label, the joint
under test (its child body and anchor) and the forces the test applied this step (ctx.applied_forces, with their
application points). A change of ctx.label starts a chapter. Capturing is cheap (tens of microseconds a frame):
the test runs at the engine's pace.

`close(result)` writes the recording: the poses (`<test>.poses.npz`, a few milliseconds), the timeline (chapters,
per-frame bounds, joint, forces; the floor of the test's scene; the frame at which the test had decided) and, with
`replay=True`, the 3D replay the report's viewer plays (`<test>.replay.glb`, replay_glb.py: no frame drawn, tens of
milliseconds). With `render=True` it then makes the USD replay layer and the video from them here (video_job.py); a
batch run instead hands that to its worker pool (`video_job.render_video` as a job), off the physics' critical path,
for the tests the media policy draws (core.media). A failure inside recording is a warning on the result, never a
changed verdict.
"""

from __future__ import annotations

import io
import json
import re
from pathlib import Path
from typing import TYPE_CHECKING

import numpy as np

from ..core import out_writer
from ..core.file_names import bounded
from ..core.geometry import quat_to_matrix
from .video_job import POSES_SUFFIX, VideoJob, render_video

if TYPE_CHECKING:
    from ..core.context import TestContext
    from ..core.results import TestResult

JOINT_LABEL = re.compile(r"^joint (?P<name>[^:]+):")


def safe_file_stem(name: str) -> str:
    return bounded(re.sub(r"[^A-Za-z0-9._-]+", "_", name).strip("_") or "test")


BOUNDS_STRIDE = 4  # without a video to frame: the exact bounds every 4th frame (and at each chapter), not every one


class Recording:
    def __init__(self, ctx: "TestContext", asset_path: str, test_name: str, out_dir: Path, capture_fps: float,
                 width: int = 640, height: int = 360, for_video: bool = True):
        self.ctx = ctx
        # A video frames every picture on the asset's exact bounds and marks the joint's anchor in each; the 3D replay
        # needs the bounds only to aim its camera and the anchor once per joint, and the exact bounds of an arm with
        # mesh colliders cost ~0.2 ms a frame (two thirds of a capture): without a video they are taken every
        # BOUNDS_STRIDE-th frame and at each chapter, and the anchor once per chapter.
        self.for_video = for_video
        self.asset_path = str(asset_path)
        self.test_name = test_name
        self.out_dir = Path(out_dir)
        self.width, self.height = int(width), int(height)
        physics_fps = float(getattr(ctx.config, "physics_fps", 0.0) or (1.0 / ctx.dt))
        self.interval = max(1, int(physics_fps // max(capture_fps, 1e-9)))
        self.fps = physics_fps / self.interval
        asset_model = getattr(ctx, "asset", None)
        self._joints: dict = {}  # joint name -> JointInfo
        for joint in (getattr(asset_model, "joints", None) or {}).values():
            self._joints.setdefault(joint.name, joint)
        self._bodies = getattr(asset_model, "bodies", None) or {}
        stem = safe_file_stem(test_name)
        self.video_path = self.out_dir / f"{stem}.mp4"
        self.replay_path = self.out_dir / f"{stem}.replay.usda"
        self.timeline_path = self.out_dir / f"{stem}.timeline.json"
        self.poster_path = self.out_dir / f"{stem}.poster.jpg"
        self.poses_path = self.out_dir / f"{stem}{POSES_SUFFIX}"
        asset = Path(asset_path)
        self.title = f"{test_name}  ·  {asset.parent.name}/{asset.name}" if asset.parent.name else f"{test_name}  ·  {asset.name}"
        self.poses: list[dict[str, tuple[np.ndarray, np.ndarray]]] = []
        self.frames: list[dict] = []
        self.chapters: list[dict] = []
        self.problems: list[str] = []
        self.stopped = False
        self.closed = False
        self._steps_seen = 0
        self._last_label: str | None = None
        self.floor: bool | None = None  # whether the test's scene has a ground (set at the first frame)
        self.floor_height = 0.0
        self.decided_frame: int | None = None  # the first frame captured once the test had its verdict
        self.timeline: dict = {}  # what close() wrote (the video job adds the camera and the card)

    # -- observer -----------------------------------------------------------------------------------
    def __call__(self, ctx: "TestContext") -> None:
        if self.stopped:
            return
        try:
            self._steps_seen += 1
            # every capture interval, and at each change of phase: a load segment shorter than the interval
            # (effort_limit's 12 directions) still shows its arrow and its joint
            if (self._steps_seen - 1) % self.interval == 0 or (ctx.label or "") != self._last_label:
                self._capture(ctx)
        except Exception as exc:  # noqa: BLE001 - recording must never change a verdict
            self.stopped = True
            self._problem(f"video: recording stopped at t={ctx.time:.3f} s: {type(exc).__name__}: {exc}")

    def _capture(self, ctx: "TestContext") -> None:
        poses = {p: (np.array(pos, float), np.array(quat, float)) for p, (pos, quat) in ctx.body_poses().items()}
        label = ctx.label or ""
        chapter = label != self._last_label
        if chapter:
            self.chapters.append({"label": label or self.test_name, "caption": label,
                                  "video_time": round(len(self.frames) / self.fps, 4),
                                  "sim_time": round(float(ctx.time), 6), "frame": len(self.frames)})
            self._last_label = label
        frame: dict = {"sim_time": round(float(ctx.time), 6)}
        if self.for_video or chapter or len(self.frames) % BOUNDS_STRIDE == 0:
            lo, hi = (np.array(v, float) for v in ctx.bounds())
            if self.floor is None:
                self.floor, self.floor_height = self._floor(ctx, lo)
            frame.update(bounds_min=_finite(lo), bounds_max=_finite(hi))
        joint = self._joint_of(label)
        if joint is not None:
            frame["joint"] = joint.name
            body, local = self._joint_body(joint, poses)
            if body is not None:
                frame["highlight"] = body
                if self.for_video or chapter:
                    frame["marker"] = _finite(_transform(poses[body], local))
        forces = self._forces(ctx, poses)
        if forces:
            frame["forces"] = [{"body": b, "force": _finite(f), "point": _finite(p)} for b, f, p in forces]
        if self.decided_frame is None and getattr(ctx, "finished", False):
            self.decided_frame = len(self.frames)
        self.poses.append(poses)
        self.frames.append(frame)

    def _floor(self, ctx: "TestContext", lo: np.ndarray) -> tuple[bool, float]:
        """(the scene has a ground, its height): the ground of the scene the test asked for (SceneSpec.ground), else
        (no scene known) a floor under the asset."""
        if ctx.scene is not None and ctx.scene.ground is None:
            return False, 0.0
        ground = ctx.scene.ground if ctx.scene is not None else None
        if ground is not None:
            return True, float(ground.height)
        return True, float(lo[2]) if np.isfinite(lo[2]) else 0.0

    def _joint_of(self, label: str):
        match = JOINT_LABEL.match(label)
        return self._joints.get(match.group("name").strip()) if match else None

    def _joint_body(self, joint, poses) -> tuple[str | None, np.ndarray | None]:
        """(the body the joint moves, the joint's anchor in that body's frame) for the joint under test."""
        for body, local in ((joint.body1, joint.local_pose1), (joint.body0, joint.local_pose0)):
            if body and body in poses:
                return body, local.pos
        return None, None

    def _forces(self, ctx: "TestContext", poses) -> list[tuple[str, np.ndarray, np.ndarray]]:
        """The forces applied this step as (body, world force, world point); no point = the centre of mass."""
        out = []
        for body, force, point in list(getattr(ctx, "applied_forces", ()) or ()):
            if point is None:
                pose = poses.get(body)
                if pose is None:
                    continue
                info = self._bodies.get(body)
                com = getattr(info, "center_of_mass", None)
                point = _transform(pose, np.zeros(3) if com is None else com)
            out.append((body, np.asarray(force, float), np.asarray(point, float)))
        return out

    # -- finish -------------------------------------------------------------------------------------
    def close(self, result: "TestResult", render: bool = True, replay: bool = True) -> dict[str, str]:
        """Write the poses and the timeline, and with `replay` the 3D replay; with `render`, make the USD replay and
        the video from them now. Artifact paths."""
        if self.closed:
            return {}
        self.closed = True
        artifacts: dict[str, str] = {}
        if self.frames:
            try:
                paths, poses, rest = self._write_poses()
                self.timeline = self._timeline()
                out_writer.write_text(self.timeline_path, json.dumps(self.timeline, separators=(",", ":")), durable=False)
                artifacts["timeline"] = str(self.timeline_path)
                if replay:
                    artifacts.update(self._replay_glb(result, paths, poses, rest))
            except OSError as exc:
                self._problem(f"timeline: not written: {exc.strerror or exc}")
        if render and "timeline" in artifacts:
            outcome = render_video(VideoJob.of(self.asset_path, str(self.timeline_path), result, self.width, self.height))
            artifacts.update(outcome.artifacts)
            self.problems.extend(outcome.problems)
            self.timeline = outcome.timeline or self.timeline
        for problem in self.problems:
            if problem not in result.warnings:
                result.warnings.append(problem)
        return artifacts

    def _replay_glb(self, result: "TestResult", paths: list[str], poses: np.ndarray, rest: np.ndarray) -> dict[str, str]:
        """The 3D replay (replay_glb.py) beside the recording; a failure is a warning, the rest goes on."""
        from ..core.status import verdict_label
        from .replay_geometry import replay_geometry
        from .replay_glb import write_replay

        status = result.status.value if hasattr(result.status, "value") else str(result.status)
        verdict = {"status": status, "label": verdict_label(result), "reason": result.reason or "",
                   "joints": {row.joint: {"status": getattr(row.status, "value", str(row.status)), "reason": row.reason}
                              for row in result.joints}}
        try:
            geometry = replay_geometry(self.asset_path, paths, rest)
            return write_replay(self.out_dir, self.poses_path.name[: -len(POSES_SUFFIX)], geometry, self.timeline, paths,
                                poses, verdict)
        except Exception as exc:  # noqa: BLE001 - no replay is a warning, never a verdict
            self._problem(f"replay: not written: {type(exc).__name__}: {exc}")
            return {}

    def _write_poses(self) -> tuple[list[str], np.ndarray, np.ndarray]:
        """Every captured pose as (frames, bodies, 7) [x y z qw qx qy qz] in the SI Z-up world (NaN: no pose), with
        each body's frame as the asset model reads it (where its render geometry is placed); also returned."""
        paths = sorted({p for frame in self.poses for p in frame})
        poses = np.full((len(self.poses), len(paths), 7), np.nan)
        for i, frame in enumerate(self.poses):
            for j, path in enumerate(paths):
                pose = frame.get(path)
                if pose is not None:
                    poses[i, j, :3], poses[i, j, 3:] = pose
        rest = np.full((len(paths), 7), np.nan)
        for j, path in enumerate(paths):
            body = self._bodies.get(path)
            if body is not None:
                rest[j, :3], rest[j, 3:] = body.world_pose.pos, body.world_pose.quat
        buffer = io.BytesIO()
        np.savez(buffer, paths=np.array(paths, dtype=str), poses=poses, rest=rest)
        out_writer.write_bytes(self.poses_path, buffer.getvalue(), durable=False)
        return paths, poses, rest

    def _timeline(self) -> dict:
        return {
            "test": self.test_name,
            "title": self.title,
            "fps": self.fps,
            "capture_interval_steps": self.interval,
            "frame_count": len(self.frames),
            "final_card_frames": 0,
            "final_card_box": None,
            "final_asset_box": None,
            "floor": bool(self.floor),
            "floor_height": self.floor_height,
            "final_card_lines": [],
            "decided_frame": self.decided_frame,
            "size": [self.width, self.height],
            "poses": self.poses_path.name,
            "chapters": self.chapters,
            "frames": self.frames,
        }

    def _problem(self, message: str) -> None:
        self.problems.append(message)
        try:
            self.ctx.warn(message)
        except Exception:  # noqa: BLE001
            pass


def _transform(pose, local) -> np.ndarray:
    pos, quat = pose
    return np.asarray(pos, float) + quat_to_matrix(quat) @ np.asarray(local, float)


def _finite(values) -> list:
    """JSON has no NaN/Inf: an exploded frame keeps null there."""
    values = np.asarray(values, float)
    if np.isfinite(values).all():
        return values.tolist()
    return [float(v) if np.isfinite(v) else None for v in values]
