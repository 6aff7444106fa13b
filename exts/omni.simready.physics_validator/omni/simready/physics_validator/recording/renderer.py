"""Offscreen CPU renderer (pyvista/VTK, Mesa EGL or OSMesa; no display, no GPU needed).

One `SceneRenderer` per recorded test: the bodies are uploaded once and only their actor
matrices change per frame, which keeps a 640x360 frame in the tens of milliseconds on a CPU.
The scene is the spec's "blue room": a floor with a grid and two blue back walls, sized to the
asset; the camera looks from a fixed direction at the asset's bounds centre and backs off to
keep the whole bounding box in frame (it grows at once and shrinks slowly, so it does not pump).
"""

from __future__ import annotations

import math
import os

import numpy as np

from ..core.geometry import quat_to_matrix
from .render_geometry import BodyGeometry

ROOM_FLOOR = (0.58, 0.68, 0.86)
ROOM_WALL = (0.22, 0.40, 0.72)
ROOM_GRID = (0.40, 0.50, 0.72)
BACKGROUND_TOP = (0.10, 0.20, 0.42)
BACKGROUND_BOTTOM = (0.30, 0.45, 0.70)
VERDICT_COLORS = {
    "PASS": (0.13, 0.60, 0.25),
    "FAIL": (0.80, 0.15, 0.15),
    "ERROR": (0.55, 0.10, 0.45),
    "WARN": (0.85, 0.55, 0.05),
}
# Software rendering costs ~0.4 ms per 1000 triangles at 640x360 on this class of CPU: larger
# assets are decimated to this budget (the video is a review aid, not a measurement).
MAX_TRIANGLES = 50_000
CAMERA_DIRECTION = np.array([1.0, -1.35, 0.55])  # from the target towards the camera
VIEW_ANGLE_DEG = 30.0
FRAMING = 1.9  # camera distance / distance at which the bounding sphere just fills the view


class RenderUnavailable(RuntimeError):
    """Offscreen rendering cannot work here (pyvista/vtk missing or no OpenGL context)."""


def _import_pyvista():
    # Without a display, go straight to EGL (Mesa llvmpipe) instead of failing an X connection first.
    if not os.environ.get("DISPLAY"):
        os.environ.setdefault("VTK_DEFAULT_OPENGL_WINDOW", "vtkEGLRenderWindow")
    try:
        import pyvista as pv
    except Exception as exc:  # noqa: BLE001
        raise RenderUnavailable(f"pyvista/vtk not importable ({exc}); install the [video] extra") from exc
    pv.OFF_SCREEN = True
    try:  # decimation and degenerate asset meshes make VTK print harmless warnings per frame
        from vtkmodules.vtkCommonCore import vtkLogger, vtkObject

        vtkObject.GlobalWarningDisplayOff()
        vtkLogger.SetStderrVerbosity(vtkLogger.VERBOSITY_ERROR)
    except Exception:  # noqa: BLE001
        pass
    return pv


class SceneRenderer:
    def __init__(self, bodies: dict[str, BodyGeometry], width: int = 640, height: int = 360, room: bool = True,
                 max_triangles: int = MAX_TRIANGLES):
        pv = _import_pyvista()
        self.pv = pv
        self.width, self.height = int(width), int(height)
        try:
            # No multisampling: 4x MSAA costs ~5x per frame on Mesa's llvmpipe for little visible gain.
            self.plotter = pv.Plotter(off_screen=True, window_size=(self.width, self.height), lighting="three lights")
            self.plotter.render_window.SetMultiSamples(0)
        except Exception as exc:  # noqa: BLE001
            raise RenderUnavailable(f"cannot create an offscreen render window: {exc}") from exc
        self.plotter.set_background(BACKGROUND_BOTTOM, top=BACKGROUND_TOP)
        self.actors = {}
        total = sum(len(b.triangles) for b in bodies.values())
        reduction = 1.0 - max_triangles / total if total > max_triangles else 0.0
        for path, body in bodies.items():
            faces = np.hstack([np.full((len(body.triangles), 1), 3, np.int64), body.triangles]).ravel()
            mesh = pv.PolyData(np.asarray(body.points, float), faces)
            mesh.point_data["rgb"] = np.clip(body.colors, 0, 1)
            if reduction > 0 and len(body.triangles) > 500:
                mesh = mesh.decimate(reduction, scalars=True)
            mesh.point_data["rgb"] = (np.clip(mesh.point_data["rgb"], 0, 1) * 255).astype(np.uint8)
            actor = self.plotter.add_mesh(mesh, scalars="rgb", rgb=True, smooth_shading=False, show_scalar_bar=False)
            self.actors[path] = actor
        self._room_actors: list = []
        self.room = room
        self._texts = {}
        self._camera_distance: float | None = None
        self._add_text("title", (10, self.height - 24), 15, bold=True)
        self._add_text("time", (10, self.height - 44), 13)
        self._add_text("label", (10, self.height - 64), 13)
        self._add_text("verdict", (10, 12), 18, bold=True)
        self._add_text("reason", (10, 40), 12)

    # -- scene --------------------------------------------------------------------------------------
    def build_room(self, floor_z: float, center_xy, size: float) -> None:
        """A floor with a grid and two blue walls behind the asset (seen from CAMERA_DIRECTION)."""
        pv = self.pv
        for actor in self._room_actors:
            self.plotter.remove_actor(actor)
        self._room_actors = []
        if not self.room:
            return
        cx, cy = float(center_xy[0]), float(center_xy[1])
        half = size / 2.0
        floor = pv.Plane(center=(cx, cy, floor_z), direction=(0, 0, 1), i_size=size, j_size=size)
        grid = pv.Plane(center=(cx, cy, floor_z + 1e-4 * size), direction=(0, 0, 1), i_size=size, j_size=size,
                        i_resolution=20, j_resolution=20)
        wall_h = size * 0.6
        back_x = pv.Plane(center=(cx - half, cy, floor_z + wall_h / 2), direction=(1, 0, 0), i_size=wall_h, j_size=size)
        back_y = pv.Plane(center=(cx, cy + half, floor_z + wall_h / 2), direction=(0, -1, 0), i_size=wall_h, j_size=size)
        self._room_actors.append(self.plotter.add_mesh(floor, color=ROOM_FLOOR, ambient=0.3))
        self._room_actors.append(self.plotter.add_mesh(grid, color=ROOM_GRID, style="wireframe", line_width=1))
        self._room_actors.append(self.plotter.add_mesh(back_x, color=ROOM_WALL, ambient=0.25))
        self._room_actors.append(self.plotter.add_mesh(back_y, color=ROOM_WALL, ambient=0.2))

    # -- frames -------------------------------------------------------------------------------------
    def render(self, poses: dict, bounds: tuple[np.ndarray, np.ndarray] | None, title: str = "", time_text: str = "",
               label: str = "", verdict: str | None = None, reason: str = "") -> np.ndarray:
        """Pose the bodies, aim the camera at `bounds`, return an (H, W, 3) uint8 image."""
        for path, actor in self.actors.items():
            pose = poses.get(path)
            if pose is None:
                continue
            pos, quat = pose
            pos = np.asarray(pos, float)
            if not np.all(np.isfinite(pos)) or not np.all(np.isfinite(quat)):
                actor.SetVisibility(False)
                continue
            actor.SetVisibility(True)
            matrix = np.eye(4)
            matrix[:3, :3] = quat_to_matrix(quat)
            matrix[:3, 3] = pos
            actor.user_matrix = matrix
        if bounds is not None:
            self._aim(np.asarray(bounds[0], float), np.asarray(bounds[1], float))
        self._set_text("title", title)
        self._set_text("time", time_text)
        self._set_text("label", label)
        self._set_text("verdict", f" {verdict} " if verdict else "")
        self._set_text("reason", reason[:110] if verdict else "")
        if verdict:
            color = VERDICT_COLORS.get(verdict, (0.35, 0.35, 0.35))
            prop = self._texts["verdict"].GetTextProperty()
            prop.SetBackgroundColor(color)
            prop.SetBackgroundOpacity(0.95)
        self.plotter.render_window.Render()
        return self.grab()

    def grab(self) -> np.ndarray:
        from vtkmodules.util.numpy_support import vtk_to_numpy
        from vtkmodules.vtkCommonCore import vtkUnsignedCharArray

        window = self.plotter.render_window
        buffer = vtkUnsignedCharArray()
        window.GetPixelData(0, 0, self.width - 1, self.height - 1, 0, buffer, 0)
        image = vtk_to_numpy(buffer).reshape(self.height, self.width, 3)
        return np.ascontiguousarray(image[::-1])

    def close(self) -> None:
        try:
            self.plotter.close()
        except Exception:  # noqa: BLE001
            pass

    # -- internals ----------------------------------------------------------------------------------
    def _aim(self, lo: np.ndarray, hi: np.ndarray) -> None:
        if not (np.all(np.isfinite(lo)) and np.all(np.isfinite(hi))):
            return
        center = (lo + hi) / 2.0
        radius = max(float(np.linalg.norm(hi - lo)) / 2.0, 0.02)
        target = radius / math.sin(math.radians(VIEW_ANGLE_DEG) / 2.0) * FRAMING
        if self._camera_distance is None or target > self._camera_distance:
            self._camera_distance = target
        else:
            self._camera_distance += 0.05 * (target - self._camera_distance)
        direction = CAMERA_DIRECTION / np.linalg.norm(CAMERA_DIRECTION)
        camera = self.plotter.camera
        camera.focal_point = tuple(center)
        camera.position = tuple(center + direction * self._camera_distance)
        camera.up = (0.0, 0.0, 1.0)
        camera.view_angle = VIEW_ANGLE_DEG
        self.plotter.renderer.ResetCameraClippingRange()

    def _add_text(self, key: str, position, size: int, bold: bool = False) -> None:
        from vtkmodules.vtkRenderingCore import vtkTextActor

        actor = vtkTextActor()
        actor.SetInput("")
        prop = actor.GetTextProperty()
        prop.SetFontSize(size)
        prop.SetBold(bold)
        prop.SetColor(1.0, 1.0, 1.0)
        prop.SetShadow(True)
        actor.SetDisplayPosition(int(position[0]), int(position[1]))
        self.plotter.renderer.AddViewProp(actor)
        self._texts[key] = actor

    def _set_text(self, key: str, text: str) -> None:
        actor = self._texts[key]
        if actor.GetInput() != text:
            actor.SetInput(text)
