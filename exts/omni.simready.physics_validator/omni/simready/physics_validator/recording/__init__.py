"""Per-test recording: the poses and a timeline of chapters and, made from them, the 3D replay (glTF), a USD replay
layer and an H.264 video.

Interface used by the runner (stable):

    rec = start_recording(ctx, asset_path, test_name, out_dir, capture_fps, width, height)
    # -> Recording | None. Registers an observer on ctx (ctx.add_observer) that keeps, every
    #    physics_fps // capture_fps steps, ctx.engine.body_poses(), ctx.bounds(), ctx.label, the joint under
    #    test and the applied forces (no drawing while the test runs). None (plus a ctx.warn) when the asset
    #    has no file to draw it from; the test still runs and its verdict is unchanged.
    ... session.run_to_end() ...
    artifacts = rec.close(result)               # render=False: the timeline, the poses and the 3D replay only
    # -> {"video": "<out_dir>/<test>.mp4", "replay": "<out_dir>/<test>.replay.usda",
    #     "replay_glb": "<out_dir>/<test>.replay.glb", "replay_glb_js": its base64 twin for the HTML report,
    #     "timeline": "<out_dir>/<test>.timeline.json", "poster": "<out_dir>/<test>.poster.jpg"};
    #    keys are present only when written. The poster is the verdict card (a still for reports).
    #    The timeline also holds, per frame, the camera, the joint under test and the forces drawn,
    #    and the card's box and lines, so tests can check the pictures against the physics.
    render_video(VideoJob.of(asset_path, timeline, result, width, height))   # the video of a closed recording

Video: offscreen CPU rendering (pyvista/VTK on Mesa EGL), the asset's render geometry posed by
the engine, in a blue room with a floor, camera framing the asset; the joint under test (named by
ctx.label) highlighted and the forces of ctx.applied_forces drawn as arrows; a caption on a dark
backdrop (test, time, ctx.label, load) and a final card with the verdict and the wrapped reason,
kept above the player's control bar (overlay.py). Replay: a .usda layer referencing the
asset, body transforms time-sampled at the capture rate (stage units and up axis). Timeline:
chapters (ctx.label changes, with video and sim times) and per-frame engine bounds. 3D replay (replay_glb.py): the
render geometry and the kept poses as glTF 2.0 with one animation, drawn by the browser (reports/viewer); it needs
no rendering. The video needs the `[video]` extra (pyvista, vtk, imageio-ffmpeg, pillow). See docs/reports.md.
"""

from __future__ import annotations

import importlib.util
from pathlib import Path
from typing import TYPE_CHECKING

from ..core import out_writer
from .recorder import Recording
from .video_job import VideoJob, VideoOutcome, render_video

if TYPE_CHECKING:
    from ..core.context import TestContext

__all__ = ["Recording", "VideoJob", "VideoOutcome", "render_video", "start_recording", "rendering_available",
           "video_modules_missing"]

VIDEO_MODULES = ("pyvista", "vtkmodules", "imageio_ffmpeg", "PIL")


def video_modules_missing() -> list[str]:
    """The modules of the [video] extra that are not installed here (a video needs them all; a replay none)."""
    return [name for name in VIDEO_MODULES if importlib.util.find_spec(name) is None]


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
    for_video: bool = True,
) -> Recording | None:
    """Attach a recorder to `ctx`; None (with a warning on the result) when the asset cannot be drawn from its file.
    Nothing is drawn while the test runs, so a test pays only for keeping its poses; the 3D replay needs numpy, pxr
    and fast-simplification only, a video the [video] extra (`video_modules_missing`). `for_video`: keep what a video
    frames on in every frame (the exact bounds, the joint's anchor; recorder.Recording), not only what the replay
    needs."""
    if not Path(asset_path).is_file():
        ctx.warn(f"video: not recorded (FileNotFoundError: {asset_path} is not a file to draw the asset from)")
        return None
    out_dir = Path(out_dir)
    out_writer.folder(out_dir)
    recording = Recording(ctx, str(asset_path), test_name, out_dir, capture_fps, width, height, for_video)
    ctx.add_observer(recording)
    # A video shows the motion after the verdict too (ground_drop's 0.5 s tail, ground_stability's): steps simulated
    # for people only. The 3D replay ends where the test decided: a small prop's drop is 15 % shorter without them.
    ctx.watched = for_video
    return recording
