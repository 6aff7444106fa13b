"""UsdPhysics's mass rules over the asset model: what a body's mass, centre of mass and inertia are as the USD reading
states them (`usd_mass_properties`), and the solids PhysX cooks of a mesh collider (`convex_hull`, `connected_parts`).
The sapien engine gives PhysX exactly these masses (its shapes are these solids); for every engine,
core.built_model.from_asset states them where the engine cannot read what its runtime computed.

The rules (UsdPhysics MassAPI, as omni.physx applies them; measured on ovphysx 0.7, docs/architecture.md): a body mass
> 0 wins and scales its shapes' distribution; otherwise each collider gives its own mass, or density x volume with the
density from the collider, the body, the collider's material, then 1000 kg/m^3. A trigger (PhysxTriggerAPI) gives no
mass, a collider with collisionEnabled = false does (a 6 x 6 x 10 cm box with a 10 cm disabled cube: 1.36 kg, with a
trigger cube instead: 0.36 kg). An authored centre of mass, diagonal inertia and principal axes are kept. A mesh
collider on a dynamic body is its convex hull (PhysX cooks one, of at most 64 vertices: the KUKA iiwa's link_0 without
an authored mass reads 6.134 kg on ovphysx, its full hull 6.239 kg here, its non-convex surface 5.479 kg), a hull per
connected part for convexDecomposition, its bounding box or sphere for those approximations.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Callable

import numpy as np

from .inertial import (
    MassProperties, box_properties, capsule_properties, combine, cone_properties, convex_properties, cylinder_properties,
    principal_frame, shift_inertia, sphere_properties,
)

if TYPE_CHECKING:
    from .asset_model import AssetModel, BodyInfo, ColliderInfo

DEFAULT_DENSITY = 1000.0  # kg/m^3, the UsdPhysics / omni.physx default
# A body with neither mass nor collider: omni.physx gives it 1 kg with "small sphere approximated inertia", read back
# from ovphysx as 0.004 kg m^2 on a metre stage (a 0.1 m sphere); unit inertia made a massless hand 250x heavier to
# turn on sapien (robosuite iiwa joint_7 overshoot 89 % vs 17 %).
DEFAULT_INERTIA = 0.004  # kg m^2
_IDENTITY = np.array([1.0, 0.0, 0.0, 0.0])


def usd_mass_properties(asset: "AssetModel") -> dict[str, MassProperties]:
    """Every enabled body's mass properties (body frame) as the USD reading states them."""
    parts: dict[str, list] = {}
    for collider in asset.colliders.values():
        if collider.body in asset.bodies and not collider.trigger:
            parts.setdefault(collider.body, []).extend(
                (collider, unit.transformed(collider.local_pose.pos, collider.local_pose.quat))
                for unit in unit_parts(collider))
    out = {}
    for body in asset.bodies.values():
        if body.enabled:
            props, diag, axes = body_mass(body, parts.get(body.path, []), lambda _text: None)
            out[body.path] = MassProperties(props.mass, props.com, _tensor(diag, axes))
    return out


def unit_parts(collider: "ColliderInfo") -> list[MassProperties]:
    """One collider's solid at density 1 kg/m^3, in its own frame (empty: a plane, or nothing to measure)."""
    shape, axis = collider.shape, collider.axis if collider.axis in ("X", "Y", "Z") else "Z"
    radius, half_height = abs(float(collider.radius or 0.0)), abs(float(collider.half_height or 0.0))
    if shape == "box" and collider.half_extents is not None:
        return [box_properties(np.abs(np.asarray(collider.half_extents, float)), 1.0)]
    if shape == "sphere" and radius > 0:
        return [sphere_properties(radius, 1.0)]
    if shape == "capsule" and radius > 0:
        return [capsule_properties(radius, half_height, axis, 1.0)]
    if shape == "cylinder" and radius > 0:
        return [cylinder_properties(radius, half_height, axis, 1.0)]
    if shape == "cone" and radius > 0:
        return [cone_properties(radius, half_height, axis, 1.0)]
    if shape == "mesh" and collider.mesh_points is not None and len(collider.mesh_points):
        return [_mesh_properties(collider)]
    return []


def _mesh_properties(collider: "ColliderInfo") -> MassProperties:
    """The solid PhysX cooks of a mesh collider on a dynamic body: its bounding box or sphere where the approximation
    says so, a hull per connected part for convexDecomposition (PhysX's own decomposition differs on a concave part),
    else its convex hull; a flat or degenerate mesh: its box."""
    points = np.asarray(collider.mesh_points, float)
    lo, hi = points.min(axis=0), points.max(axis=0)
    centre = (lo + hi) / 2.0
    if collider.approximation == "boundingSphere":
        return sphere_properties(max(float(np.linalg.norm(points - centre, axis=1).max()), 1e-4), 1.0) \
            .transformed(centre, _IDENTITY)
    if collider.approximation != "boundingCube":
        pieces = connected_parts(points, mesh_triangles(collider)) if collider.approximation == "convexDecomposition" \
            else [points]
        hulls = [convex_hull(piece) for piece in pieces]
        solid = combine([p for h in hulls if h is not None and (p := convex_properties(h[0], h[1], 1.0)) is not None])
        if solid is not None:
            return solid
    return box_properties(np.maximum((hi - lo) / 2.0, 1e-4), 1.0).transformed(centre, _IDENTITY)


def convex_hull(points: np.ndarray):
    """(vertices, outward triangles) of the hull of `points`, or None if it is flat or degenerate."""
    from scipy.spatial import ConvexHull, QhullError

    points = np.unique(np.asarray(points, float).reshape(-1, 3), axis=0)
    if len(points) < 4:
        return None
    try:
        hull = ConvexHull(points)
    except (QhullError, ValueError):
        return None
    used = np.unique(hull.simplices)
    remap = np.full(len(points), -1)
    remap[used] = np.arange(len(used))
    verts = points[used]
    tris = remap[hull.simplices]
    # orient every triangle outward (qhull does not guarantee winding)
    centre = verts.mean(axis=0)
    a, b, c = verts[tris[:, 0]], verts[tris[:, 1]], verts[tris[:, 2]]
    inward = np.einsum("ij,ij->i", np.cross(b - a, c - a), a - centre) < 0
    tris[inward] = tris[inward][:, [0, 2, 1]]
    return verts, tris


def connected_parts(points: np.ndarray, tris: np.ndarray) -> list[np.ndarray]:
    """Vertex sets of the connected components of a triangle mesh."""
    from scipy.sparse import coo_matrix
    from scipy.sparse.csgraph import connected_components

    if len(tris) == 0:
        return [points]
    n = len(points)
    rows = np.concatenate([tris[:, 0], tris[:, 1], tris[:, 2]])
    cols = np.concatenate([tris[:, 1], tris[:, 2], tris[:, 0]])
    graph = coo_matrix((np.ones(len(rows)), (rows, cols)), shape=(n, n))
    count, labels = connected_components(graph, directed=False)
    used = np.zeros(n, bool)
    used[tris.ravel()] = True
    return [points[(labels == k) & used] for k in range(count) if np.any((labels == k) & used)]


def mesh_triangles(collider: "ColliderInfo") -> np.ndarray:
    """The mesh's faces as triangles (each polygon fanned from its first vertex)."""
    counts = np.asarray(collider.mesh_face_vertex_counts if collider.mesh_face_vertex_counts is not None else [], int)
    indices = np.asarray(collider.mesh_face_vertex_indices if collider.mesh_face_vertex_indices is not None else [], int)
    if len(counts) == 0 or np.all(counts == 3):
        return indices[: len(indices) - len(indices) % 3].reshape(-1, 3)
    starts = np.concatenate([[0], np.cumsum(counts)[:-1]])
    fans = [(s, s + k, s + k + 1) for s, n in zip(starts.tolist(), counts.tolist()) for k in range(1, n - 1)]
    return indices[np.asarray(fans, int).reshape(-1, 3)] if fans else np.zeros((0, 3), int)


def _tensor(diag: np.ndarray, axes: np.ndarray) -> np.ndarray:
    from .geometry import quat_to_matrix

    rotation = quat_to_matrix(axes)
    return rotation @ np.diag(np.asarray(diag, float)) @ rotation.T


def collider_density(collider: "ColliderInfo", body: "BodyInfo") -> float:
    """The first positive density of the collider, the body, the collider's material; else the default."""
    for value in (collider.density, body.density, collider.material.density if collider.material else None):
        if value is not None and value > 0:
            return float(value)
    return DEFAULT_DENSITY


def body_mass(body: "BodyInfo", parts, warn: Callable[[str], None]) -> tuple[MassProperties, np.ndarray, np.ndarray]:
    """(mass properties, principal diagonal inertia, principal axes wxyz) of a body from its shapes'
    unit-density parts [(collider, MassProperties in the body frame)] and what the body authors."""
    by_collider: dict[str, list] = {}
    for collider, unit in parts:
        by_collider.setdefault(collider.path, []).append((collider, unit))
    scaled = []
    for items in by_collider.values():
        collider = items[0][0]
        pieces = [unit.scaled(collider_density(collider, body)) for _, unit in items]
        if collider.mass is not None and collider.mass > 0:
            total = sum(p.mass for p in pieces)
            pieces = [p.scaled(collider.mass / total) for p in pieces] if total > 0 else pieces
        scaled.extend(pieces)
    shapes = combine(scaled)
    if body.mass is not None and body.mass > 0:
        if shapes is not None:
            props = shapes.scaled(body.mass / shapes.mass)
        else:
            props = MassProperties(float(body.mass), np.zeros(3), np.eye(3) * body.mass * 0.01)
            if body.diagonal_inertia is None:
                warn(f"{body.path}: mass without colliders or inertia; inertia set to 0.01*mass (kg m^2)")
    elif shapes is not None:
        props = shapes
    else:
        props = MassProperties(1.0, np.zeros(3), np.eye(3) * DEFAULT_INERTIA)
        warn(f"{body.path}: no mass and no collider to compute it from; 1 kg and {DEFAULT_INERTIA:g} kg m^2 used "
             "(as omni.physx: a small sphere)")
    if body.center_of_mass is not None and np.all(np.isfinite(body.center_of_mass)):
        props = shift_inertia(props, np.asarray(body.center_of_mass, float))
    if body.diagonal_inertia is not None and np.all(np.asarray(body.diagonal_inertia) > 0):
        diag = np.asarray(body.diagonal_inertia, float)
        axes = np.asarray(body.principal_axes, float) if body.principal_axes is not None else _IDENTITY
    else:
        diag, axes = principal_frame(props.inertia)
    diag = np.maximum(diag, max(float(diag.max()) * 1e-6, 1e-12))
    return props, diag, axes
