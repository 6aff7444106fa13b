"""Render geometry of an asset, one triangle soup per rigid body, in that body's frame (SI, Z-up).

Read with pxr from the asset file (the asset model holds collision geometry only). The engine
reports body poses in the SI Z-up world, so each visible gprim under a body is converted once:
stage world -> SI world (`core.units.StageFrame`, the same conversion the asset model is read with)
-> body frame. Nested rigid bodies own their own subtree. A body with no visible render geometry
falls back to its collision prims (often purpose=guide) so it never disappears from the video.
The stage is opened read-only in memory; nothing is ever written to the asset.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from ..core.geometry import quat_to_matrix
from ..core.units import StageFrame

# Triangle budget for the whole asset: software rendering slows down beyond this; larger meshes
# are decimated (the video is a review aid, not a measurement).
MAX_TRIANGLES = 150_000

PALETTE = [
    (0.93, 0.55, 0.20),
    (0.85, 0.85, 0.82),
    (0.35, 0.70, 0.45),
    (0.90, 0.75, 0.25),
    (0.70, 0.45, 0.80),
    (0.40, 0.75, 0.85),
    (0.85, 0.40, 0.40),
]


@dataclass
class BodyGeometry:
    """Triangles of one rigid body in its own frame (metres), with one RGB colour per vertex."""

    path: str
    points: np.ndarray  # (N, 3) float
    triangles: np.ndarray  # (M, 3) int
    colors: np.ndarray  # (N, 3) float in [0, 1]
    source_prims: list[str] = field(default_factory=list)


def gf_to_numpy(matrix) -> np.ndarray:
    """Gf (row-vector convention) matrix -> numpy 4x4 acting on column vectors."""
    return np.array(matrix, dtype=float).T


def body_frames_from_stage(stage, body_paths) -> dict[str, tuple[np.ndarray, np.ndarray]]:
    """Body path -> (pos, 3x3 rotation) in the SI world, scale removed (the rigid body frame)."""
    from pxr import Gf, Usd, UsdGeom

    frame = StageFrame.of_stage(stage)
    cache = UsdGeom.XformCache(Usd.TimeCode.Default())
    out = {}
    for path in body_paths:
        prim = stage.GetPrimAtPath(path)
        if not prim:
            continue
        world = cache.GetLocalToWorldTransform(prim)
        transform = Gf.Transform(world)
        rot = gf_to_numpy(Gf.Matrix4d().SetRotate(transform.GetRotation()))[:3, :3]
        pos = np.array(transform.GetTranslation(), dtype=float)
        out[path] = (frame.point_to_si(pos), frame.to_si_rotation @ rot)
    return out


def load_render_geometry(asset_path: str, body_frames: dict[str, tuple[np.ndarray, np.ndarray]] | None = None,
                         body_paths=None) -> dict[str, BodyGeometry]:
    """Body path -> BodyGeometry for every rigid body of the asset.

    `body_frames` (path -> (pos, quat wxyz) in the SI world) should come from the asset model, so
    the geometry sits in exactly the frame the engine reports; bodies missing there use the
    frame computed from the stage.
    """
    from pxr import Usd, UsdGeom, UsdPhysics

    stage = Usd.Stage.Open(asset_path, load=Usd.Stage.LoadAll)
    if stage is None:
        raise RuntimeError(f"cannot open {asset_path}")
    if body_paths is None:
        body_paths = [
            str(p.GetPath())
            for p in Usd.PrimRange(stage.GetPseudoRoot(), Usd.TraverseInstanceProxies())
            if p.HasAPI(UsdPhysics.RigidBodyAPI)
        ]
    body_paths = list(body_paths)
    stage_frames = body_frames_from_stage(stage, body_paths)
    frames: dict[str, tuple[np.ndarray, np.ndarray]] = {}
    for path in body_paths:
        if body_frames and path in body_frames:
            pos, quat = body_frames[path]
            frames[path] = (np.asarray(pos, float), quat_to_matrix(quat))
        elif path in stage_frames:
            frames[path] = stage_frames[path]

    to_si = StageFrame.of_stage(stage).to_si_matrix()
    body_set = set(body_paths)
    out: dict[str, BodyGeometry] = {}
    cache = UsdGeom.XformCache(Usd.TimeCode.Default())
    for index, path in enumerate(body_paths):
        if path not in frames:
            continue
        prim = stage.GetPrimAtPath(path)
        visual, collision = _gprims_of_body(prim, body_set)
        chosen = visual or collision
        pieces = [_tessellate(g) for g in chosen]
        pieces = [p for p in pieces if p is not None]
        if not pieces:
            continue
        pos, rot = frames[path]
        inv_rot = rot.T
        pts_all, tris_all, cols_all, offset = [], [], [], 0
        for gprim, (points, tris, color) in zip(chosen, pieces):
            world = gf_to_numpy(cache.GetLocalToWorldTransform(gprim))
            homo = np.c_[points, np.ones(len(points))]
            si = (to_si @ world @ homo.T).T[:, :3]
            local = (si - pos) @ inv_rot.T
            rgb = np.asarray(color if color is not None else PALETTE[index % len(PALETTE)], float)
            pts_all.append(local)
            tris_all.append(tris + offset)
            cols_all.append(np.tile(rgb, (len(local), 1)))
            offset += len(local)
        out[path] = BodyGeometry(
            path=path,
            points=np.vstack(pts_all),
            triangles=np.vstack(tris_all).astype(np.int64),
            colors=np.vstack(cols_all),
            source_prims=[str(g.GetPath()) for g in chosen],
        )
    return out


def total_triangles(geometry: dict[str, BodyGeometry]) -> int:
    return sum(len(g.triangles) for g in geometry.values())


# -- internals ------------------------------------------------------------------------------------

def _gprims_of_body(body_prim, body_set) -> tuple[list, list]:
    """(visible render gprims, collision gprims) under a body, not descending into nested bodies."""
    from pxr import Usd, UsdGeom, UsdPhysics

    visual, collision = [], []
    it = iter(Usd.PrimRange(body_prim, Usd.TraverseInstanceProxies()))
    for prim in it:
        if prim != body_prim and str(prim.GetPath()) in body_set:
            it.PruneChildren()
            continue
        if not prim.IsA(UsdGeom.Gprim):
            continue
        imageable = UsdGeom.Imageable(prim)
        is_collider = prim.HasAPI(UsdPhysics.CollisionAPI)
        if is_collider:
            collision.append(prim)
        purpose = imageable.ComputePurpose()
        if purpose in (UsdGeom.Tokens.default_, UsdGeom.Tokens.render) and (
            imageable.ComputeVisibility() != UsdGeom.Tokens.invisible
        ):
            visual.append(prim)
    return visual, collision


def _display_color(prim):
    from pxr import UsdGeom, UsdShade

    try:
        primvar = UsdGeom.PrimvarsAPI(prim).GetPrimvar("displayColor")
        if primvar and primvar.HasAuthoredValue():
            value = primvar.Get()
            if value is not None and len(value) >= 1:
                return tuple(float(c) for c in value[0])
        material, _ = UsdShade.MaterialBindingAPI(prim).ComputeBoundMaterial()
        if material:
            shader = material.ComputeSurfaceSource()[0]
            if shader:
                diffuse = shader.GetInput("diffuseColor")
                if diffuse and not diffuse.HasConnectedSource():
                    value = diffuse.Get()
                    if value is not None:
                        return tuple(float(c) for c in value)
    except Exception:  # noqa: BLE001 - a colour is never worth failing a video over
        return None
    return None


def _tessellate(prim):
    """(points (N,3), triangles (M,3), colour or None) in the gprim's local frame, or None."""
    from pxr import UsdGeom

    color = _display_color(prim)
    type_name = prim.GetTypeName()
    try:
        if type_name == "Mesh":
            mesh = UsdGeom.Mesh(prim)
            points = np.asarray(mesh.GetPointsAttr().Get() or [], dtype=float).reshape(-1, 3)
            counts = np.asarray(mesh.GetFaceVertexCountsAttr().Get() or [], dtype=np.int64)
            indices = np.asarray(mesh.GetFaceVertexIndicesAttr().Get() or [], dtype=np.int64)
            if len(points) == 0 or len(counts) == 0:
                return None
            return points, _fan_triangulate(counts, indices), color
        if type_name == "Cube":
            size = UsdGeom.Cube(prim).GetSizeAttr().Get() or 2.0
            return (*_box(size / 2.0), color)
        if type_name == "Sphere":
            radius = UsdGeom.Sphere(prim).GetRadiusAttr().Get() or 1.0
            return (*_capsule(radius, 0.0, "Z"), color)
        if type_name == "Capsule":
            cap = UsdGeom.Capsule(prim)
            return (*_capsule(cap.GetRadiusAttr().Get() or 0.5, (cap.GetHeightAttr().Get() or 1.0) / 2.0,
                              cap.GetAxisAttr().Get() or "Z"), color)
        if type_name == "Cylinder":
            cyl = UsdGeom.Cylinder(prim)
            return (*_cylinder(cyl.GetRadiusAttr().Get() or 1.0, cyl.GetRadiusAttr().Get() or 1.0,
                               (cyl.GetHeightAttr().Get() or 2.0) / 2.0, cyl.GetAxisAttr().Get() or "Z"), color)
        if type_name == "Cone":
            cone = UsdGeom.Cone(prim)
            return (*_cylinder(cone.GetRadiusAttr().Get() or 1.0, 1e-6, (cone.GetHeightAttr().Get() or 2.0) / 2.0,
                               cone.GetAxisAttr().Get() or "Z"), color)
    except Exception:  # noqa: BLE001 - malformed geometry: skip the piece, keep the video
        return None
    return None


def _fan_triangulate(counts: np.ndarray, indices: np.ndarray) -> np.ndarray:
    valid = counts >= 3
    starts = np.concatenate([[0], np.cumsum(counts)[:-1]])
    tris = []
    for k in range(1, int(counts.max(initial=0)) - 1):
        sel = valid & (counts > k + 1)
        base = starts[sel]
        tris.append(np.stack([indices[base], indices[base + k], indices[base + k + 1]], axis=1))
    return np.vstack(tris) if tris else np.zeros((0, 3), np.int64)


def _axis_matrix(axis: str) -> np.ndarray:
    """Rotation taking +Z to the given axis."""
    if axis == "X":
        return np.array([[0.0, 0.0, 1.0], [0.0, 1.0, 0.0], [-1.0, 0.0, 0.0]])
    if axis == "Y":
        return np.array([[1.0, 0.0, 0.0], [0.0, 0.0, 1.0], [0.0, -1.0, 0.0]])
    return np.eye(3)


def _box(half: float):
    corners = np.array([[x, y, z] for x in (-half, half) for y in (-half, half) for z in (-half, half)])
    quads = [(0, 1, 3, 2), (4, 6, 7, 5), (0, 4, 5, 1), (2, 3, 7, 6), (0, 2, 6, 4), (1, 5, 7, 3)]
    tris = [t for a, b, c, d in quads for t in ((a, b, c), (a, c, d))]
    return corners, np.array(tris, np.int64)


def _capsule(radius: float, half_height: float, axis: str, segments: int = 24, rings: int = 12):
    """A sphere (half_height 0) or a capsule along +Z, then turned to `axis`."""
    pts = []
    for i in range(rings + 1):
        phi = np.pi * i / rings
        z = radius * np.cos(phi) + (half_height if i <= rings // 2 else -half_height)
        r = radius * np.sin(phi)
        for j in range(segments):
            th = 2 * np.pi * j / segments
            pts.append((r * np.cos(th), r * np.sin(th), z))
    tris = []
    for i in range(rings):
        for j in range(segments):
            a, b = i * segments + j, i * segments + (j + 1) % segments
            c, d = a + segments, b + segments
            tris += [(a, c, b), (b, c, d)]
    return np.array(pts) @ _axis_matrix(axis).T, np.array(tris, np.int64)


def _cylinder(r_bottom: float, r_top: float, half_height: float, axis: str, segments: int = 32):
    th = 2 * np.pi * np.arange(segments) / segments
    ring = np.c_[np.cos(th), np.sin(th)]
    bottom = np.c_[ring * r_bottom, np.full(segments, -half_height)]
    top = np.c_[ring * r_top, np.full(segments, half_height)]
    pts = np.vstack([bottom, top, [[0, 0, -half_height], [0, 0, half_height]]])
    cb, ct = 2 * segments, 2 * segments + 1
    tris = []
    for j in range(segments):
        k = (j + 1) % segments
        tris += [(j, k, segments + j), (k, segments + k, segments + j), (cb, k, j), (ct, segments + j, segments + k)]
    return pts @ _axis_matrix(axis).T, np.array(tris, np.int64)
