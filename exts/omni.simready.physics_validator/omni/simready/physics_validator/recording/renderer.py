"""Offscreen CPU renderer (pyvista/VTK, Mesa EGL or OSMesa; no display, no GPU needed).

One `SceneRenderer` per recorded test: the bodies are uploaded once and only their actor
matrices change per frame, which keeps a 640x360 frame in the tens of milliseconds on a CPU.
The scene is the spec's "blue room": a floor with a grid and two blue back walls, sized to the
asset; the camera looks from a fixed direction at the asset's bounds centre and backs off to
keep the whole bounding box in frame (it grows at once and shrinks slowly, so it does not pump).
What a test acts on is drawn on a front layer that the asset never hides: the joint under test (a
marker at its anchor, its child body tinted) and the forces applied this step (arrows from their
application points). Text is drawn over the image afterwards (overlay.py).
"""

from __future__ import annotations

import math
import os
from typing import Any

import numpy as np

from ..core.geometry import quat_to_matrix
from .render_geometry import BodyGeometry

# The room is drawn unlit, in the colours the lit room showed from the fixed camera direction (measured: floor
# (167, 195, 247), the left wall (71, 130, 234), the right one (42, 76, 137)): lighting its three large planes was
# 4.3 of a frame's 8 ms on Mesa's llvmpipe at 640x360, the gradient background 1.4 ms more.
ROOM_FLOOR = (0.655, 0.765, 0.969)
ROOM_WALL_LEFT = (0.278, 0.510, 0.918)  # facing the camera's left (the plane normal to +X)
ROOM_WALL_RIGHT = (0.165, 0.298, 0.537)  # the plane normal to -Y, in shadow
ROOM_GRID = (0.30, 0.38, 0.56)
BACKGROUND = (0.20, 0.32, 0.56)
HIGHLIGHT_COLOR = (0.72, 1.0, 0.0)  # chartreuse: the body moved or loaded by the joint under test, and its joint marker
FORCE_COLOR = (1.0, 0.08, 0.85)  # force arrows (magenta: no asset palette colour, not the room's blue)
ARROW_LENGTH = 0.35  # force arrows, as a fraction of the asset's size (all loads drawn alike: the caption gives N)
# Software rendering costs ~0.13 ms (CPU) per 1000 triangles at 640x360 on this class of CPU (a 7-DOF arm of 41 000
# triangles: 9.7 ms a frame, 7.1 ms decimated to 20 000, the same picture at this size): larger assets are decimated
# to this budget (the video is a review aid, not a measurement).
MAX_TRIANGLES = 20_000
CAMERA_DIRECTION = np.array([1.0, -1.35, 0.55])  # from the target towards the camera
VIEW_ANGLE_DEG = 30.0  # vertical field of view
FILL = 0.72  # the bounding box's projection spans at most this fraction of the frame's width and height
MIN_HALF_EXTENT = 0.03  # m: a tiny asset is framed as if it were 6 cm across
NARROWING = 0.08  # per frame: how fast the camera closes in when the asset gets smaller
NARROWING_DEADBAND = 0.05  # it closes in only while the fitting distance is 5 % closer: it stops, never creeps on


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
        self.plotter.set_background(BACKGROUND)
        self.actors = {}
        self.radii: dict[str, float] = {}  # per body: the farthest vertex from its origin (m), for frame reuse
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
            points = np.asarray(body.points, float)
            self.radii[path] = float(np.linalg.norm(points, axis=1).max()) if len(points) else 0.0
        self._room_actors: list = []
        self.room = room
        self._camera_distance: float | None = None
        self._front = self._front_layer()
        self._highlighted: str | None = None
        self._marker: Any = None  # a VTK actor
        self._arrows: list = []
        self._drawn: dict | None = None  # what the last rendered image showed (frame reuse)
        self._image: np.ndarray | None = None
        self.frames_drawn = 0
        self.frames_reused = 0

    # -- scene --------------------------------------------------------------------------------------
    def build_room(self, floor_z: float, center_xy, size: float, floor: bool = True) -> None:
        """Two blue walls behind the asset (seen from CAMERA_DIRECTION) and, when the test's scene has a ground, a
        floor with a grid at `floor_z`. Without one (the driven-joint tests pin the base and have no ground) no floor
        is drawn: the walls are centred on `floor_z` (then the asset's height) so nothing suggests one."""
        pv = self.pv
        for actor in self._room_actors:
            self.plotter.remove_actor(actor)
        self._room_actors = []
        if not self.room:
            return
        cx, cy = float(center_xy[0]), float(center_xy[1])
        half = size / 2.0
        wall_h = size * 0.6 if floor else 3.0 * size  # no floor: walls reaching far below, no edge to read as one
        wall_z = floor_z + wall_h / 2 if floor else floor_z
        back_x = pv.Plane(center=(cx - half, cy, wall_z), direction=(1, 0, 0), i_size=wall_h, j_size=size)
        back_y = pv.Plane(center=(cx, cy + half, wall_z), direction=(0, -1, 0), i_size=wall_h, j_size=size)
        if floor:
            plane = pv.Plane(center=(cx, cy, floor_z), direction=(0, 0, 1), i_size=size, j_size=size)
            grid = pv.Plane(center=(cx, cy, floor_z + 1e-4 * size), direction=(0, 0, 1), i_size=size, j_size=size,
                            i_resolution=20, j_resolution=20)
            self._room_actors.append(self.plotter.add_mesh(plane, color=ROOM_FLOOR, lighting=False))
            self._room_actors.append(self.plotter.add_mesh(grid, color=ROOM_GRID, style="wireframe", line_width=1,
                                                           lighting=False))
        self._room_actors.append(self.plotter.add_mesh(back_x, color=ROOM_WALL_LEFT, lighting=False))
        self._room_actors.append(self.plotter.add_mesh(back_y, color=ROOM_WALL_RIGHT, lighting=False))
        self._drawn = None

    # -- frames -------------------------------------------------------------------------------------
    def render(self, poses: dict, bounds: tuple[np.ndarray, np.ndarray] | None, highlight: str | None = None,
               marker: np.ndarray | None = None, forces=(), size: float = 1.0, reuse_px: float = 0.0) -> np.ndarray:
        """Pose the bodies, aim the camera at `bounds`, return an (H, W, 3) uint8 image.

        `highlight`: body path tinted as the part under test; `marker`: world point of the joint under
        test; `forces`: [(world point, world force direction)] drawn as arrows; `size`: the asset's
        size (m), which scales the marker and the arrows. `reuse_px` > 0: when nothing moved by that many pixels
        since the last rendered image (every vertex, bounded by each body's translation plus its radius times its
        rotation angle; the camera), with the same highlight, marker and arrows, that image is returned again.
        """
        if bounds is not None:
            self._aim(np.asarray(bounds[0], float), np.asarray(bounds[1], float))
        shown = self._shown(poses, highlight, marker, forces, size)
        if reuse_px > 0 and self._image is not None and self._drawn is not None and self._still(shown, reuse_px):
            self.frames_reused += 1
            return self._image
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
        self._set_highlight(highlight)
        self._set_marker(marker, size)
        self._set_arrows(forces, size)
        self._front.SetActiveCamera(self.plotter.renderer.GetActiveCamera())
        self.plotter.render_window.Render()
        self._image = self.grab()
        self._drawn = shown
        self.frames_drawn += 1
        return self._image

    def _shown(self, poses: dict, highlight, marker, forces, size: float) -> dict:
        """What an image shows: the body poses, the camera, and the marker and arrow tips as points that move."""
        camera = self.plotter.renderer.GetActiveCamera()
        points = [np.asarray(marker, float)] if marker is not None else []
        for point, force in forces:
            point, force = np.asarray(point, float), np.asarray(force, float)
            norm = float(np.linalg.norm(force))
            points += [point, point + (force / norm if norm > 0 else force) * arrow_length(size)]
        return {"poses": {p: (np.asarray(pos, float), np.asarray(q, float)) for p, (pos, q) in poses.items()},
                "eye": np.array(camera.GetPosition()), "focus": np.array(camera.GetFocalPoint()),
                "points": np.array(points, float).reshape(-1, 3),
                "key": (highlight, marker is None, len(forces), round(float(size), 9))}

    def _still(self, shown: dict, limit_px: float) -> bool:
        """Whether nothing in `shown` moves by `limit_px` pixels from what the last rendered image showed: the camera
        (its eye and focal point) plus what moved most (a body: translation + radius x rotation angle; the marker, an
        arrow's ends), both seen from the nearest an asset vertex can be to the eye."""
        last = self._drawn
        assert last is not None
        if shown["key"] != last["key"] or set(shown["poses"]) != set(last["poses"]):
            return False
        camera = self.plotter.renderer.GetActiveCamera()
        distance = float(np.linalg.norm(shown["focus"] - shown["eye"]))
        near = max(distance - 2.0 * max(self.radii.values(), default=0.0), 0.1 * distance, 1e-6)
        px_per_m = (self.height / 2.0) / math.tan(math.radians(camera.GetViewAngle()) / 2.0) / near
        moved = 0.0
        for path, (pos, quat) in shown["poses"].items():
            before_pos, before_quat = last["poses"][path]
            finite = bool(np.all(np.isfinite(np.r_[pos, quat])))
            finite_before = bool(np.all(np.isfinite(np.r_[before_pos, before_quat])))
            if finite != finite_before:
                return False
            if not finite:
                continue
            norms = max(float(np.linalg.norm(quat) * np.linalg.norm(before_quat)), 1e-12)
            angle = 2.0 * math.acos(min(1.0, abs(float(np.dot(quat, before_quat))) / norms))
            moved = max(moved, float(np.linalg.norm(pos - before_pos)) + self.radii.get(path, 0.0) * angle)
        if len(shown["points"]):
            moved = max(moved, float(np.linalg.norm(shown["points"] - last["points"], axis=1).max()))
        camera_moved = float(np.linalg.norm(shown["eye"] - last["eye"]) + np.linalg.norm(shown["focus"] - last["focus"]))
        return (moved + camera_moved) * px_per_m < limit_px

    def camera_state(self) -> dict:
        """The camera as JSON numbers (position, focal point, view up, vertical view angle in degrees)."""
        camera = self.plotter.renderer.GetActiveCamera()
        return {"position": [round(float(v), 6) for v in camera.GetPosition()],
                "focal_point": [round(float(v), 6) for v in camera.GetFocalPoint()],
                "view_up": [round(float(v), 6) for v in camera.GetViewUp()],
                "view_angle": float(camera.GetViewAngle())}

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
        half = np.maximum((hi - lo) / 2.0, MIN_HALF_EXTENT)
        direction = CAMERA_DIRECTION / np.linalg.norm(CAMERA_DIRECTION)
        target = fit_distance(half, direction, VIEW_ANGLE_DEG, self.width / self.height, FILL)
        if self._camera_distance is None or target > self._camera_distance:
            self._camera_distance = target
        elif target < self._camera_distance * (1.0 - NARROWING_DEADBAND):
            self._camera_distance += NARROWING * (target - self._camera_distance)
        camera = self.plotter.camera
        camera.focal_point = tuple(center)
        camera.position = tuple(center + direction * self._camera_distance)
        camera.up = (0.0, 0.0, 1.0)
        camera.view_angle = VIEW_ANGLE_DEG
        self.plotter.renderer.ResetCameraClippingRange()

    def _front_layer(self):
        """A second renderer on layer 1 sharing the camera: what it draws is never hidden by the asset."""
        from vtkmodules.vtkRenderingCore import vtkRenderer

        front = vtkRenderer()
        front.SetLayer(1)
        front.InteractiveOff()
        window = self.plotter.render_window
        window.SetNumberOfLayers(2)
        window.AddRenderer(front)
        front.SetActiveCamera(self.plotter.renderer.GetActiveCamera())
        return front

    def _front_actor(self, mesh, color):
        from vtkmodules.vtkRenderingCore import vtkActor, vtkPolyDataMapper

        mapper = vtkPolyDataMapper()
        mapper.SetInputData(mesh)
        mapper.ScalarVisibilityOff()
        actor = vtkActor()
        actor.SetMapper(mapper)
        prop = actor.GetProperty()
        prop.SetColor(*color)
        prop.SetAmbient(0.55)
        prop.SetDiffuse(0.55)
        prop.SetSpecular(0.0)
        actor.SetVisibility(False)
        self._front.AddActor(actor)
        return actor

    def _set_highlight(self, body: str | None) -> None:
        if body == self._highlighted:
            return
        previous = self.actors.get(self._highlighted) if self._highlighted else None
        if previous is not None:
            previous.mapper.SetScalarVisibility(True)
        actor = self.actors.get(body) if body else None
        if actor is not None:
            actor.mapper.SetScalarVisibility(False)
            actor.prop.color = HIGHLIGHT_COLOR
        self._highlighted = body

    def _set_marker(self, point, size: float) -> None:
        if point is None or not np.all(np.isfinite(point)):
            if self._marker is not None:
                self._marker.SetVisibility(False)
            return
        if self._marker is None:
            self._marker = self._front_actor(self.pv.Sphere(radius=1.0, theta_resolution=16, phi_resolution=12), HIGHLIGHT_COLOR)
        radius = 0.035 * max(size, 0.05)
        self._marker.SetScale(radius, radius, radius)
        self._marker.SetPosition(*np.asarray(point, float))
        self._marker.SetVisibility(True)

    def _set_arrows(self, forces, size: float) -> None:
        forces = [(np.asarray(p, float), np.asarray(f, float)) for p, f in forces]
        forces = [(p, f) for p, f in forces if np.all(np.isfinite(p)) and np.all(np.isfinite(f)) and np.linalg.norm(f) > 0]
        while len(self._arrows) < len(forces):
            arrow = self.pv.Arrow(start=(0, 0, 0), direction=(1, 0, 0), scale=1.0, tip_length=0.3, tip_radius=0.09,
                                  shaft_radius=0.035)
            self._arrows.append(self._front_actor(arrow, FORCE_COLOR))
        length = arrow_length(size)
        for actor, (point, force) in zip(self._arrows, forces):
            matrix = np.eye(4)
            matrix[:3, :3] = _rotation_from_x(force / np.linalg.norm(force)) * length
            matrix[:3, 3] = point
            _set_matrix(actor, matrix)
            actor.SetVisibility(True)
        for actor in self._arrows[len(forces):]:
            actor.SetVisibility(False)


def arrow_length(size: float) -> float:
    return ARROW_LENGTH * max(size, 0.05)


def fit_distance(half: np.ndarray, direction: np.ndarray, view_angle_deg: float, aspect: float, fill: float) -> float:
    """Camera distance from the box centre at which the box (half extents `half`, axis-aligned) seen from
    `direction` spans at most `fill` of the view vertically and horizontally."""
    up = np.array([0.0, 0.0, 1.0])
    right = np.cross(-direction, up)
    right /= np.linalg.norm(right)
    true_up = np.cross(right, -direction)
    tan_v = math.tan(math.radians(view_angle_deg) / 2.0) * fill
    tan_h = tan_v * aspect
    signs = np.array([[sx, sy, sz] for sx in (-1, 1) for sy in (-1, 1) for sz in (-1, 1)], float)
    corners = signs * half
    x, y, z = corners @ right, corners @ true_up, corners @ direction
    need = np.maximum(z + np.abs(x) / tan_h, z + np.abs(y) / tan_v)
    return float(need.max())


def _rotation_from_x(direction: np.ndarray) -> np.ndarray:
    """A rotation taking +X to the unit vector `direction`."""
    x = np.array([1.0, 0.0, 0.0])
    v = np.cross(x, direction)
    c = float(np.dot(x, direction))
    if np.linalg.norm(v) < 1e-9:
        return np.eye(3) if c > 0 else np.diag([-1.0, -1.0, 1.0])
    k = np.array([[0, -v[2], v[1]], [v[2], 0, -v[0]], [-v[1], v[0], 0]])
    return np.eye(3) + k + k @ k * (1.0 / (1.0 + c))


def _set_matrix(actor, matrix: np.ndarray) -> None:
    from vtkmodules.vtkCommonMath import vtkMatrix4x4

    vtk_matrix = vtkMatrix4x4()
    for i in range(4):
        for j in range(4):
            vtk_matrix.SetElement(i, j, float(matrix[i, j]))
    actor.SetUserMatrix(vtk_matrix)
