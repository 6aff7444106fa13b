"""Collider -> PhysX collision shapes for SAPIEN, with the omni.physx approximations.

One ColliderInfo can become several shapes (a convex decomposition). Each planned shape carries
its pose in the collider frame, the SAPIEN shape, and the mass properties of the geometry PhysX
will actually simulate (a sampled cone, a hull of a mesh), so mass and collision agree.
PhysX capsules, cylinders and planes lie along +X: they are rotated onto the USD axis here.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import cast

import numpy as np

from ...core.asset_model import ColliderInfo
from ...core.geometry import quat_from_axis_angle
from ...core import inertial as mass_lib
from ...core.usd_mass import connected_parts, convex_hull, mesh_triangles

# rotation that maps PhysX's +X onto the USD axis
X_TO_AXIS = {
    "X": np.array([1.0, 0.0, 0.0, 0.0]),
    "Y": quat_from_axis_angle([0, 0, 1], math.pi / 2),
    "Z": quat_from_axis_angle([0, 1, 0], -math.pi / 2),
}
CONE_SEGMENTS = 32
_MIN_HALF_THICKNESS = 1e-4  # m, for degenerate (flat) meshes


@dataclass
class PlannedShape:
    """A PhysX shape to create, in the collider frame."""

    kind: str  # box, sphere, capsule, cylinder, convex, triangle_mesh, plane
    pos: np.ndarray
    quat: np.ndarray
    half_extents: np.ndarray | None = None
    radius: float = 0.0
    half_length: float = 0.0
    vertices: np.ndarray | None = None
    triangles: np.ndarray | None = None
    unit_mass: mass_lib.MassProperties | None = None  # at density 1, in the collider frame


def _axis(collider: ColliderInfo) -> str:
    return collider.axis if collider.axis in X_TO_AXIS else "Z"


def _convex_shape(points: np.ndarray) -> PlannedShape | None:
    hull = convex_hull(points)
    if hull is None:
        return None
    verts, tris = hull
    unit = mass_lib.convex_properties(verts, tris, 1.0)
    if unit is None:
        return None
    return PlannedShape("convex", np.zeros(3), np.array([1.0, 0, 0, 0]), vertices=verts, triangles=tris, unit_mass=unit)


def _box_from_points(points: np.ndarray) -> PlannedShape:
    lo, hi = points.min(axis=0), points.max(axis=0)
    he = np.maximum((hi - lo) / 2.0, _MIN_HALF_THICKNESS)
    return PlannedShape(
        "box", (lo + hi) / 2.0, np.array([1.0, 0, 0, 0]), half_extents=he, unit_mass=mass_lib.box_properties(he, 1.0)
    )


def _sphere_from_points(points: np.ndarray) -> PlannedShape:
    lo, hi = points.min(axis=0), points.max(axis=0)
    centre = (lo + hi) / 2.0
    radius = max(float(np.linalg.norm(points - centre, axis=1).max()), _MIN_HALF_THICKNESS)
    return PlannedShape("sphere", centre, np.array([1.0, 0, 0, 0]), radius=radius,
                        unit_mass=mass_lib.sphere_properties(radius, 1.0))


def plan_shapes(collider: ColliderInfo, dynamic: bool, warn) -> list[PlannedShape]:
    """The PhysX shapes for one collider (empty if it cannot be simulated; `warn` says why)."""
    shape = collider.shape
    ident = np.array([1.0, 0.0, 0.0, 0.0])
    zero = np.zeros(3)
    if shape == "box":
        he = np.maximum(np.abs(np.asarray(collider.half_extents, float)), _MIN_HALF_THICKNESS)
        return [PlannedShape("box", zero, ident, half_extents=he, unit_mass=mass_lib.box_properties(he, 1.0))]
    if shape == "sphere":
        r = abs(float(cast(float, collider.radius)))  # a sphere collider always has its radius
        return [PlannedShape("sphere", zero, ident, radius=r, unit_mass=mass_lib.sphere_properties(r, 1.0))]
    if shape in ("capsule", "cylinder"):
        r, hh, axis = abs(float(cast(float, collider.radius))), abs(float(collider.half_height or 0.0)), _axis(collider)
        props = (mass_lib.capsule_properties if shape == "capsule" else mass_lib.cylinder_properties)(r, hh, axis, 1.0)
        if shape == "capsule" and hh <= 0:
            return [PlannedShape("sphere", zero, ident, radius=r, unit_mass=mass_lib.sphere_properties(r, 1.0))]
        return [PlannedShape(shape, zero, X_TO_AXIS[axis].copy(), radius=r, half_length=hh, unit_mass=props)]
    if shape == "cone":
        r, hh, axis = abs(float(cast(float, collider.radius))), abs(float(collider.half_height or 0.0)), _axis(collider)
        ang = np.linspace(0.0, 2 * math.pi, CONE_SEGMENTS, endpoint=False)
        ring = np.stack([np.full_like(ang, -hh), r * np.cos(ang), r * np.sin(ang)], axis=1)  # along +X
        pts_x = np.vstack([ring, [[hh, 0.0, 0.0]]])  # USD cone: apex at +height/2 on the axis
        order = {"X": [0, 1, 2], "Y": [2, 0, 1], "Z": [1, 2, 0]}[axis]
        pts = pts_x[:, order]
        planned = _convex_shape(pts)
        return [planned] if planned else []
    if shape == "plane":
        if dynamic:
            warn(f"{collider.path}: plane collider on a dynamic body is not supported by PhysX; skipped")
            return []
        return [PlannedShape("plane", zero, X_TO_AXIS[_axis(collider)].copy())]
    if shape == "mesh":
        return _plan_mesh(collider, dynamic, warn)
    warn(f"{collider.path}: unsupported collider shape '{shape}'; skipped")
    return []


def _plan_mesh(collider: ColliderInfo, dynamic: bool, warn) -> list[PlannedShape]:
    points = np.asarray(collider.mesh_points if collider.mesh_points is not None else np.zeros((0, 3)), float)
    if len(points) == 0:
        warn(f"{collider.path}: mesh collider without points; skipped")
        return []
    approx = collider.approximation or "none"
    if approx == "boundingCube":
        return [_box_from_points(points)]
    if approx == "boundingSphere":
        return [_sphere_from_points(points)]
    if approx == "convexDecomposition":
        parts = connected_parts(points, mesh_triangles(collider))
        warn(
            f"{collider.path}: convexDecomposition approximated by one convex hull per connected mesh part "
            f"({len(parts)} part(s)); no decomposition library is used"
        )
        pieces = [p for p in (_convex_shape(part) for part in parts) if p is not None]
        return pieces or [_box_from_points(points)]
    if approx in ("none", "meshSimplification") and not dynamic:
        tris = mesh_triangles(collider)
        if len(tris):
            return [PlannedShape("triangle_mesh", np.zeros(3), np.array([1.0, 0, 0, 0]), vertices=points, triangles=tris)]
    if approx not in ("convexHull", "none", "meshSimplification"):
        warn(f"{collider.path}: approximation '{approx}' is not available in this engine; using a convex hull")
    elif approx != "convexHull":
        warn(f"{collider.path}: triangle mesh on a dynamic body is not supported by PhysX; using its convex hull (as omni.physx "
             f"does)")
    planned = _convex_shape(points)
    if planned is None:
        warn(f"{collider.path}: mesh is flat or degenerate; using its bounding box")
        return [_box_from_points(points)]
    return [planned]


def build_sapien_shape(planned: PlannedShape, material):
    """Create the SAPIEN collision shape for a planned shape (local pose set by the caller)."""
    from sapien import physx

    one = np.ones(3, dtype=np.float32)
    if planned.kind == "box":
        return physx.PhysxCollisionShapeBox(np.asarray(planned.half_extents, np.float32), material)
    if planned.kind == "sphere":
        return physx.PhysxCollisionShapeSphere(float(planned.radius), material)
    if planned.kind == "capsule":
        return physx.PhysxCollisionShapeCapsule(float(planned.radius), float(planned.half_length), material)
    if planned.kind == "cylinder":
        return physx.PhysxCollisionShapeCylinder(float(planned.radius), float(planned.half_length), material)
    if planned.kind == "convex":
        return physx.PhysxCollisionShapeConvexMesh(np.asarray(planned.vertices, np.float32), one, material)
    if planned.kind == "triangle_mesh":
        return physx.PhysxCollisionShapeTriangleMesh(
            np.asarray(planned.vertices, np.float32), np.asarray(planned.triangles, np.uint32), one, material
        )
    if planned.kind == "plane":
        return physx.PhysxCollisionShapePlane(material)
    raise ValueError(planned.kind)
