"""Per-test recording: an H.264 video, a USD replay layer and a timeline of chapters.

Interface used by the runner (stable):

    rec = start_recording(ctx, asset_path, test_name, out_dir, capture_fps, width, height)
    # -> Recording | None. Registers an observer on ctx (ctx.add_observer) that captures a frame
    #    every physics_fps // capture_fps steps from ctx.engine.body_poses(), ctx.bounds(),
    #    ctx.label and ctx.time. None (plus a ctx.warn) when rendering is unavailable here;
    #    the test still runs and its verdict is unchanged.
    ... session.run_to_end() ...
    artifacts = rec.close(result)
    # -> {"video": "<out_dir>/<test>.mp4", "replay": "<out_dir>/<test>.replay.usda",
    #     "timeline": "<out_dir>/<test>.timeline.json", "poster": "<out_dir>/<test>.poster.jpg"};
    #    keys are present only when written. The poster is the verdict card (a still for reports).
    #    The timeline also holds, per frame, the camera, the joint under test and the forces drawn,
    #    and the card's box and lines, so tests can check the pictures against the physics.

Video: offscreen CPU rendering (pyvista/VTK on Mesa EGL), the asset's render geometry posed by
the engine, in a blue room with a floor, camera framing the asset; the joint under test (named by
ctx.label) highlighted and the forces of ctx.applied_forces drawn as arrows; a caption on a dark
backdrop (test, time, ctx.label, load) and a final card with the verdict and the wrapped reason,
kept above the player's control bar (overlay.py). Replay: a .usda layer referencing the
asset, body transforms time-sampled at the capture rate (stage units and up axis). Timeline:
chapters (ctx.label changes, with video and sim times) and per-frame engine bounds.
Needs the `[video]` extra (pyvista, vtk, imageio-ffmpeg, pillow). See docs/reports.md.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

from .recorder import Recording

if TYPE_CHECKING:
    from ..core.context import TestContext

__all__ = ["Recording", "start_recording", "rendering_available"]


def rendering_available() -> tuple[bool, str]:
    """(True, "") when an offscreen render window and the encoder can be created here."""
    try:
        import imageio_ffmpeg  # noqa: F401

        from .renderer import SceneRenderer

        SceneRenderer({}, 32, 32, room=False).close()
        return True, ""
    except Exception as exc:  # noqa: BLE001
        return False, f"{type(exc).__name__}: {exc}"


def start_recording(
    ctx: "TestContext",
    asset_path: str,
    test_name: str,
    out_dir: Path,
    capture_fps: float,
    width: int,
    height: int,
) -> Recording | None:
    """Attach a recorder to `ctx`; None (with a warning on the result) when it cannot record."""
    try:
        import imageio_ffmpeg  # noqa: F401

        from .render_geometry import load_render_geometry
        from .renderer import SceneRenderer

        asset = getattr(ctx, "asset", None)
        bodies = getattr(asset, "bodies", None) or {}
        frames = {path: (body.world_pose.pos, body.world_pose.quat) for path, body in bodies.items()}
        geometry = load_render_geometry(str(asset_path), frames or None, list(bodies) or None)
        renderer = SceneRenderer(geometry, width, height)
    except Exception as exc:  # noqa: BLE001 - no video is a warning, never a verdict
        ctx.warn(f"video: not recorded ({type(exc).__name__}: {exc})")
        return None
    out_dir = Path(out_dir)
    out_dir.mkdir(parents=True, exist_ok=True)
    recording = Recording(ctx, str(asset_path), test_name, out_dir, capture_fps, renderer)
    ctx.add_observer(recording)
    ctx.watched = True  # the video shows the motion: steps kept for people are simulated
    return recording
