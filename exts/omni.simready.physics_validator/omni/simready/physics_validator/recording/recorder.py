"""Recording: a TestContext observer that renders, encodes and keeps the poses for the replay.

Every `physics_fps // capture_fps` steps (the reference suite's capture interval) it reads the
engine's body poses and bounds, renders one frame with the overlay (test, time, ctx.label), and
streams it to the encoder. A change of ctx.label starts a chapter. When the label names a joint
("joint <name>: ..."), that joint's child body is tinted and its anchor marked; the forces the test
applied this step (ctx.applied_forces) are drawn as arrows from their application points; a change of ctx.label
captures a frame too, so a load shorter than the capture interval still shows. A floor is drawn only when the test's
scene has a ground (ctx.scene). `close(result)` appends the final frames (the asset's last pose shrunk above a
verdict strip that never covers it; also the poster), finishes the mp4, writes the USD replay and a timeline JSON
(chapters + per-frame bounds), and returns the artifact paths. A failure inside recording is a
warning on the result, never a changed verdict.
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import TYPE_CHECKING

import numpy as np

from ..core.atomic_write import replacing, write_atomic
from ..core.file_names import bounded
from ..core.geometry import quat_to_matrix
from .encoder import VideoEncoder
from .overlay import Overlay
from .renderer import FORCE_COLOR, SceneRenderer, arrow_length

if TYPE_CHECKING:
    from ..core.context import TestContext
    from ..core.results import TestResult

FINAL_CARD_SECONDS = 1.5
MIN_CARD_SECONDS, CARD_SHARE = 0.5, 0.25  # a short video's card: at least 0.5 s, at most a quarter of it
JOINT_LABEL = re.compile(r"^joint (?P<name>[^:]+):")
CAPTION_RGB = (255, 255, 255)
TIME_RGB = (208, 216, 230)
FORCE_RGB = (int(round(255 * FORCE_COLOR[0])), int(round(255 * FORCE_COLOR[1])), int(round(255 * FORCE_COLOR[2])))


def safe_file_stem(name: str) -> str:
    return bounded(re.sub(r"[^A-Za-z0-9._-]+", "_", name).strip("_") or "test")


class Recording:
    def __init__(self, ctx: "TestContext", asset_path: str, test_name: str, out_dir: Path, capture_fps: float,
                 renderer: SceneRenderer):
        self.ctx = ctx
        self.asset_path = str(asset_path)
        self.test_name = test_name
        self.out_dir = Path(out_dir)
        physics_fps = float(getattr(ctx.config, "physics_fps", 0.0) or (1.0 / ctx.dt))
        self.interval = max(1, int(physics_fps // max(capture_fps, 1e-9)))
        self.fps = physics_fps / self.interval
        self.renderer = renderer
        self.overlay = Overlay(renderer.width, renderer.height)
        asset_model = getattr(ctx, "asset", None)
        self._joints: dict = {}  # joint name -> JointInfo
        for joint in (getattr(asset_model, "joints", None) or {}).values():
            self._joints.setdefault(joint.name, joint)
        self._bodies = getattr(asset_model, "bodies", None) or {}
        self._size = 1.0
        self.card_box: tuple[int, int, int, int] | None = None
        self.card_lines: list[str] = []
        stem = safe_file_stem(test_name)
        self.video_path = self.out_dir / f"{stem}.mp4"
        self.replay_path = self.out_dir / f"{stem}.replay.usda"
        self.timeline_path = self.out_dir / f"{stem}.timeline.json"
        self.poster_path = self.out_dir / f"{stem}.poster.jpg"
        asset = Path(asset_path)
        self.title = f"{test_name}  ·  {asset.parent.name}/{asset.name}" if asset.parent.name else f"{test_name}  ·  {asset.name}"
        self.poses: list[dict[str, tuple[np.ndarray, np.ndarray]]] = []
        self.frames: list[dict] = []
        self.chapters: list[dict] = []
        self.problems: list[str] = []
        self.encoder: VideoEncoder | None = None
        self.stopped = False
        self.closed = False
        self.render_seconds = 0.0
        self._steps_seen = 0
        self._last_label: str | None = None
        self._last_bounds: tuple[np.ndarray, np.ndarray] | None = None
        self._room_built = False
        self.floor = True  # whether the room has a floor (the test's scene has a ground)
        self.asset_box: tuple[int, int, int, int] | None = None  # where the final frames show the asset (pixels)

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
        import time

        started = time.perf_counter()
        poses = {p: (np.array(pos, float), np.array(quat, float)) for p, (pos, quat) in ctx.body_poses().items()}
        lo, hi = (np.array(v, float) for v in ctx.bounds())
        label = ctx.label or ""
        if label != self._last_label:
            self.chapters.append({"label": label or self.test_name, "video_time": round(len(self.frames) / self.fps, 4),
                                  "sim_time": round(float(ctx.time), 6), "frame": len(self.frames)})
            self._last_label = label
        if not self._room_built:
            self._build_room(ctx, lo, hi)
        joint = self._joint_of(label)
        body, anchor = self._joint_scene(joint, poses)
        forces = self._forces(ctx, poses)
        view = (lo, hi)
        for _, force, point in forces:  # keep the arrows in frame too
            norm = float(np.linalg.norm(force))
            if norm > 0 and np.all(np.isfinite(point)):
                tip = point + force / norm * arrow_length(self._size)
                view = (np.fmin(view[0], np.fmin(point, tip)), np.fmax(view[1], np.fmax(point, tip)))
        image = self.renderer.render(poses, view, highlight=body, marker=anchor,
                                     forces=[(p, f) for _, f, p in forces], size=self._size)
        lines = [(self.title, CAPTION_RGB), (f"t = {ctx.time:.3f} s", TIME_RGB), (label, CAPTION_RGB)]
        if forces:
            magnitude = max(float(np.linalg.norm(f)) for _, f, _ in forces)
            lines.append((f"load {magnitude:.3g} N (arrow)", FORCE_RGB))
        image = self.overlay.caption(image, lines)
        if self.encoder is None:
            self.encoder = VideoEncoder(self.video_path, self.fps, self.renderer.width, self.renderer.height)
        self.encoder.append(image)
        self.poses.append(poses)
        frame = {"sim_time": round(float(ctx.time), 6), "bounds_min": _finite(lo), "bounds_max": _finite(hi),
                 "camera": self.renderer.camera_state()}
        if joint is not None:
            frame["joint"] = joint.name
        if forces:
            frame["forces"] = [{"body": b, "force": _finite(f), "point": _finite(p)} for b, f, p in forces]
        self.frames.append(frame)
        self._last_bounds = (lo, hi)
        self.render_seconds += time.perf_counter() - started

    def _build_room(self, ctx: "TestContext", lo: np.ndarray, hi: np.ndarray) -> None:
        diag = float(np.linalg.norm(hi - lo)) if np.all(np.isfinite(hi - lo)) else 1.0
        center = (lo + hi) / 2.0 if np.all(np.isfinite(lo + hi)) else np.zeros(3)
        self.floor = ctx.scene is None or ctx.scene.ground is not None  # a scene without ground gets no floor drawn
        floor_z = self._floor_height(ctx, lo) if self.floor else float(center[2])
        self.renderer.build_room(floor_z, center[:2], max(8.0 * diag, 3.0), floor=self.floor)
        self._size = diag if np.isfinite(diag) and diag > 0 else 1.0
        self._room_built = True

    def _joint_of(self, label: str):
        match = JOINT_LABEL.match(label)
        return self._joints.get(match.group("name").strip()) if match else None

    def _joint_scene(self, joint, poses) -> tuple[str | None, np.ndarray | None]:
        """(the body the joint moves, the joint's anchor in the world) for the joint under test."""
        if joint is None:
            return None, None
        for body, local in ((joint.body1, joint.local_pose1), (joint.body0, joint.local_pose0)):
            pose = poses.get(body) if body else None
            if pose is not None:
                return body, _transform(pose, local.pos)
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

    def _floor_height(self, ctx: "TestContext", lo: np.ndarray) -> float:
        """The ground of the scene the test asked for (SceneSpec.ground) when it has one, else under the asset."""
        ground = ctx.scene.ground if ctx.scene is not None else None
        if ground is not None:
            return float(ground.height)
        return float(lo[2]) if np.isfinite(lo[2]) else 0.0

    # -- finish -------------------------------------------------------------------------------------
    def close(self, result: "TestResult") -> dict[str, str]:
        """Finish the video (with a verdict card), write the replay and the timeline; artifact paths."""
        if self.closed:
            return {}
        self.closed = True
        artifacts: dict[str, str] = {}
        try:
            if self.frames and self.encoder is not None:
                card = self._final_card(result)
                self.encoder.close()
                artifacts["video"] = str(self.video_path)
                if _save_jpeg(card, self.poster_path):
                    artifacts["poster"] = str(self.poster_path)
        except Exception as exc:  # noqa: BLE001
            if self.encoder is not None:
                self.encoder.abort(exc)  # no truncated video left
            self._problem(f"video: not written: {type(exc).__name__}: {exc}")
        finally:
            self.renderer.close()
        if self.poses:
            try:
                from .replay import write_replay

                write_replay(self.replay_path, self.asset_path, self.poses, self.fps,
                             comment=f"{self.test_name} replay, {result.status.value}: {result.reason}")
                artifacts["replay"] = str(self.replay_path)
            except Exception as exc:  # noqa: BLE001
                self._problem(f"replay: not written: {type(exc).__name__}: {exc}")
        if self.frames:
            timeline = {
                "test": self.test_name,
                "fps": self.fps,
                "capture_interval_steps": self.interval,
                "frame_count": len(self.frames),
                "final_card_frames": self._card_frames() if "video" in artifacts else 0,
                "final_card_box": list(self.card_box) if self.card_box and "video" in artifacts else None,
                "final_asset_box": list(self.asset_box) if self.asset_box and "video" in artifacts else None,
                "floor": self.floor,
                "final_card_lines": self.card_lines,
                "size": [self.renderer.width, self.renderer.height],
                "chapters": self.chapters,
                "frames": self.frames,
            }
            try:
                write_atomic(self.timeline_path, json.dumps(timeline, indent=1))
                artifacts["timeline"] = str(self.timeline_path)
            except OSError as exc:
                self._problem(f"timeline: not written: {exc.strerror or exc}")
        for problem in self.problems:
            if problem not in result.warnings:
                result.warnings.append(problem)
        return artifacts

    def _card_frames(self) -> int:
        """The card's length: 1.5 s, but never more than a quarter of the video (at least 0.5 s)."""
        seconds = min(FINAL_CARD_SECONDS, max(MIN_CARD_SECONDS, CARD_SHARE * len(self.frames) / self.fps))
        return max(1, int(round(seconds * self.fps)))

    def _final_card(self, result: "TestResult") -> np.ndarray:
        """The last frames and the poster: the asset's final pose, shrunk into the frame above a verdict strip that
        never covers it, the strip above the player's control bar."""
        verdict = result.status.value if hasattr(result.status, "value") else str(result.status)
        last_time = self.frames[-1]["sim_time"]
        image = self.renderer.render(self.poses[-1], self._last_bounds, size=self._size)
        image, self.asset_box, self.card_box, self.card_lines = self.overlay.strip_card(
            image, verdict, result.reason or "", f"{self.title}  ·  t = {last_time:.3f} s")
        assert self.encoder is not None  # opened with the first frame
        for _ in range(self._card_frames()):
            self.encoder.append(image)
        return image

    def _problem(self, message: str) -> None:
        self.problems.append(message)
        try:
            self.ctx.warn(message)
        except Exception:  # noqa: BLE001
            pass


def _save_jpeg(image: np.ndarray, path: Path) -> bool:
    """The verdict card as the video's poster image (Pillow, when installed), written by replace."""
    try:
        from PIL import Image
    except ImportError:
        return False
    with replacing(path) as tmp:
        Image.fromarray(image).save(tmp, format="JPEG", quality=85)
    return True


def _transform(pose, local) -> np.ndarray:
    pos, quat = pose
    return np.asarray(pos, float) + quat_to_matrix(quat) @ np.asarray(local, float)


def _finite(values: np.ndarray) -> list:
    """JSON has no NaN/Inf: an exploded frame keeps null there."""
    return [float(v) if np.isfinite(v) else None for v in values]
