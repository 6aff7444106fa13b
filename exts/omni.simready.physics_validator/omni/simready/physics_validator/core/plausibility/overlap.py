"""Class 5 of docs/plausibility.md: two bodies whose colliders the runtime lets touch overlap at the rest pose.

The shapes are the runtime's (colliding shapes only: no trigger, no disabled collider) at the poses it built. A pair is
judged unless something keeps it from colliding: one body, a joint between them (PhysX never collides an articulation
link with its parent; a maximal joint unless physics:collisionEnabled), one articulation with self-collisions off, a
FilteredPairsAPI or collision groups that filter each other. Each shape is convex as PhysX collides it (primitives,
convex hulls, at most HULL_POINTS hull vertices as PhysX's cooking keeps 64); a concave approximation
(convexDecomposition, meshSimplification, sdf, a triangle mesh on a static body) is listed as not checked. The depth is
exact for convex shapes: the origin's distance to the surface of their Minkowski difference (scipy's qhull).
"""

from __future__ import annotations

import itertools
from typing import TYPE_CHECKING

import numpy as np

from ..geometry import compose, quat_to_matrix
from .codes import PlausibilityCode as Code
from .findings import finding

if TYPE_CHECKING:
    from ..asset_model import AssetModel, ColliderInfo
    from ..results import PlausibilityFinding

OVERLAP_DEPTH = 0.005  # m: deeper than 5 mm at rest (the Panda's hand in its link 5: 41 mm); CAD-tight fits stay under
HULL_POINTS = 64  # vertices a convex shape keeps (PhysX's convex cooking limit)
ROUND_POINTS = 48  # points on a sphere (and per cap of a capsule, per rim of a cylinder)
CONVEX_MESHES = ("convexHull", "none", "boundingCube", "boundingSphere")  # "none" on a moving body: PhysX takes the hull


def overlap_findings(asset: "AssetModel", poses: dict, moving: dict[str, str], jointed: set[frozenset[str]],
                     self_collisions: dict[str, bool], not_checked: list[str]) -> tuple[list["PlausibilityFinding"], int]:
    """(findings, collider pairs judged). `poses`: each body's world pose as the runtime built it (the USD reading's
    where it has none); `self_collisions`: articulation root prim -> enabledSelfCollisions as authored."""
    from scipy.spatial import ConvexHull  # noqa: F401 - fail early: the caller reports the check as not run

    shapes: dict[str, list[tuple["ColliderInfo", np.ndarray]]] = {}
    for collider in asset.colliders.values():
        body = asset.bodies.get(collider.body or "")
        if body is None or not body.enabled or not collider.collides:
            continue
        points = world_points(collider, asset, poses.get(body.path))
        if points is None:
            not_checked.append(f"{collider.path}: a {collider.approximation} approximation is concave as PhysX "
                               "collides it (not checked for overlap)")
            continue
        shapes.setdefault(body.path, []).append((collider, points))
    deepest: dict[frozenset[str], tuple[float, str, str]] = {}
    judged = 0
    for a, b in itertools.combinations(sorted(shapes), 2):
        if not _collide(asset, a, b, jointed, self_collisions):
            continue
        if asset.bodies[a].kinematic and asset.bodies[b].kinematic:
            continue
        for (ca, pa), (cb, pb) in itertools.product(shapes[a], shapes[b]):
            if _filtered(asset, ca, cb):
                continue
            judged += 1
            if np.any(pa.max(0) < pb.min(0)) or np.any(pb.max(0) < pa.min(0)):
                continue
            depth = penetration(pa, pb)
            if depth > deepest.get(frozenset((a, b)), (0.0, "", ""))[0]:
                deepest[frozenset((a, b))] = (depth, ca.path, cb.path)
    out = []
    for pair, (depth, shape_a, shape_b) in sorted(deepest.items(), key=lambda item: -item[1][0]):
        if depth <= OVERLAP_DEPTH:
            continue
        a, b = sorted(pair)
        joints = list(dict.fromkeys(moving[x] for x in (a, b) if x in moving))
        out.append(finding(Code.REST_OVERLAP, body=a, other_body=b, joints=joints,
                           measured={"depth": depth}, limits={"depth": OVERLAP_DEPTH}, units={"depth": "m"},
                           message=f"{_name(a)} and {_name(b)} overlap {depth * 1000:.3g} mm at the rest pose (colliders "
                                   f"{_short(shape_a)} and {_short(shape_b)}; allowed {OVERLAP_DEPTH * 1000:g} mm), and the "
                                   "runtime collides them with each other"))
    return out, judged


def penetration(a: np.ndarray, b: np.ndarray) -> float:
    """How deep two convex point sets' hulls overlap (m; 0 when apart): the origin's distance to the surface of
    hull(A - B)."""
    from scipy.spatial import ConvexHull

    difference = (a[:, None, :] - b[None, :, :]).reshape(-1, 3)
    try:
        hull = ConvexHull(difference)
    except Exception:  # noqa: BLE001 - flat or degenerate (qhull's QhullError): nothing to overlap in
        return 0.0
    offsets = hull.equations[:, 3]  # n.x + d <= 0 inside, |n| = 1
    return float(-offsets.max()) if np.all(offsets < 0) else 0.0


def world_points(collider: "ColliderInfo", asset: "AssetModel", body_pose=None) -> np.ndarray | None:
    """The collider's convex shape as points in the world at the rest pose (`body_pose`: its body's as built; None:
    as read), or None when PhysX collides it as a concave shape."""
    local = _local_points(collider, asset)
    if local is None:
        return None
    pos, quat = collider.world_pose.pos, collider.world_pose.quat
    if body_pose is not None:  # the runtime's pose of the body, the collider's offset in it
        pos, quat = compose(np.asarray(body_pose[0], float), np.asarray(body_pose[1], float),
                            np.asarray(collider.local_pose.pos, float), np.asarray(collider.local_pose.quat, float))
    return local @ quat_to_matrix(quat).T + np.asarray(pos, float)


def _local_points(collider: "ColliderInfo", asset: "AssetModel") -> np.ndarray | None:
    shape, radius = collider.shape, float(collider.radius or 0.0)
    half = float(collider.half_height or 0.0)
    axis = "XYZ".index(collider.axis) if collider.axis in ("X", "Y", "Z") else 2
    if shape == "box" and collider.half_extents is not None:
        return np.array(list(itertools.product((-1, 1), repeat=3)), float) * np.asarray(collider.half_extents, float)
    if shape == "sphere":
        return _sphere() * radius
    if shape in ("capsule", "cylinder", "cone"):
        cap = _sphere() * radius if shape == "capsule" else _rim() * radius
        ends = (half, -half) if shape != "cone" else (-half,)
        pieces = [cap + [0.0, 0.0, end] for end in ends] + ([np.array([[0.0, 0.0, half]])] if shape == "cone" else [])
        return _reorient(np.vstack(pieces), axis)
    if shape == "mesh" and collider.mesh_points is not None and len(collider.mesh_points) >= 4:
        body = asset.bodies.get(collider.body or "")
        moving = body is not None and not body.kinematic
        if collider.approximation not in CONVEX_MESHES or (collider.approximation == "none" and not moving):
            return None
        return _hull_vertices(np.asarray(collider.mesh_points, float))
    return None


def _hull_vertices(points: np.ndarray) -> np.ndarray:
    """The hull's vertices, at most HULL_POINTS of them (farthest-point picks: PhysX's cooked hull keeps 64)."""
    from scipy.spatial import ConvexHull

    try:
        vertices = points[ConvexHull(points).vertices]
    except Exception:  # noqa: BLE001 - flat: its points are its hull
        vertices = points
    if len(vertices) <= HULL_POINTS:
        return vertices
    chosen = [int(np.argmax(np.linalg.norm(vertices - vertices.mean(0), axis=1)))]
    distance = np.linalg.norm(vertices - vertices[chosen[0]], axis=1)
    while len(chosen) < HULL_POINTS:
        chosen.append(int(np.argmax(distance)))
        distance = np.minimum(distance, np.linalg.norm(vertices - vertices[chosen[-1]], axis=1))
    return vertices[chosen]


def _sphere() -> np.ndarray:
    """ROUND_POINTS points spread over the unit sphere (a Fibonacci lattice)."""
    k = np.arange(ROUND_POINTS) + 0.5
    polar = np.arccos(1 - 2 * k / ROUND_POINTS)
    azimuth = np.pi * (1 + 5 ** 0.5) * k
    return np.stack([np.cos(azimuth) * np.sin(polar), np.sin(azimuth) * np.sin(polar), np.cos(polar)], axis=1)


def _rim() -> np.ndarray:
    """A unit circle in the XY plane (the shape's axis along Z until _reorient)."""
    angle = np.linspace(0, 2 * np.pi, ROUND_POINTS, endpoint=False)
    return np.stack([np.cos(angle), np.sin(angle), np.zeros_like(angle)], axis=1)


def _reorient(points: np.ndarray, axis: int) -> np.ndarray:
    """Points built along Z, turned so that Z becomes the shape's axis."""
    return points[:, [2, 0, 1]] if axis == 0 else points[:, [1, 2, 0]] if axis == 1 else points


def _collide(asset: "AssetModel", a: str, b: str, jointed: set[frozenset[str]], self_collisions: dict[str, bool]) -> bool:
    if frozenset((a, b)) in jointed:
        return False
    art_a, art_b = asset.bodies[a].articulation, asset.bodies[b].articulation
    return not (art_a is not None and art_a == art_b and not self_collisions.get(art_a, True))


def _filtered(asset: "AssetModel", ca: "ColliderInfo", cb: "ColliderInfo") -> bool:
    """A FilteredPairsAPI between the two (on the colliders, their bodies or prims above), or groups that filter."""
    def under(path: str, prim: str) -> bool:
        return path == prim or path.startswith(prim.rstrip("/") + "/")

    for x, y in asset.filtered_pairs:
        if (under(ca.path, x) and under(cb.path, y)) or (under(ca.path, y) and under(cb.path, x)):
            return True
    filters = {frozenset(p) for p in asset.collision_group_filters}
    return any(frozenset((g, h)) in filters for g in ca.collision_groups for h in cb.collision_groups)


def _name(path: str) -> str:
    return path.rsplit("/", 1)[-1]


def _short(path: str) -> str:
    """A collider named with its parent ('link1/collider'): collider prims are often all named alike."""
    return "/".join(path.rsplit("/", 2)[-2:])
