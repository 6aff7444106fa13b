"""Kinematic and geometric facts the proposals need, from the asset model posed by the engine's body poses:
which bodies a joint moves, its axis in the world, the farthest collider point from that axis (the lever arm of
effort_limit's load), and the body pairs whose colliders touch (collision candidates when a joint is blocked).
Pure numpy over `AssetModel`; poses are SI (position, wxyz quaternion) as `Engine.body_poses()` gives them.
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING

import numpy as np

from ..core.geometry import AXIS_INDEX, box_corners, collider_local_extent, compose, quat_to_matrix

if TYPE_CHECKING:
    from ..core.asset_model import AssetModel, JointInfo

Poses = dict[str, tuple[np.ndarray, np.ndarray]]


def base_body(asset: "AssetModel", joint: "JointInfo") -> str | None:
    """The base of the articulation the joint belongs to (what the tests pin)."""
    for info in asset.articulations:
        if joint.path in info.joints or joint.body0 in info.bodies or joint.body1 in info.bodies:
            return info.base_body
    return None


def moved_bodies(asset: "AssetModel", joint: "JointInfo") -> list[str]:
    """Bodies that move when `joint` moves with the base held: the side of the joint away from the base."""
    neighbours: dict[str, set[str]] = {}
    for other in asset.joints.values():
        if other is joint or not other.enabled or not (other.body0 and other.body1):
            continue
        neighbours.setdefault(other.body0, set()).add(other.body1)
        neighbours.setdefault(other.body1, set()).add(other.body0)

    def side(start: str | None, stop: str | None) -> set[str]:
        if start is None:
            return set()
        seen, stack = {start}, [start]
        while stack:
            for nxt in neighbours.get(stack.pop(), ()):
                if nxt not in seen and nxt != stop:
                    seen.add(nxt)
                    stack.append(nxt)
        return seen

    if joint.body0 is None or joint.body1 is None:  # a joint to the world moves everything on its body's side
        return sorted(b for b in side(joint.body0 or joint.body1, None) if b in asset.bodies)
    base = base_body(asset, joint)
    child_side = side(joint.body1, joint.body0)
    if base is not None and base in child_side:  # authored child -> parent: body0 is the moving side
        child_side = side(joint.body0, joint.body1)
    return sorted(b for b in child_side if b in asset.bodies)


def joint_axis_world(asset: "AssetModel", joint: "JointInfo", poses: Poses) -> tuple[np.ndarray, np.ndarray] | None:
    """(point on the axis, unit direction) in the SI world for the posed bodies, or None when unknown."""
    for body, local in ((joint.body1, joint.local_pose1), (joint.body0, joint.local_pose0)):
        if body is not None and body in poses:
            pos, quat = poses[body]
            p, q = compose(pos, quat, local.pos, local.quat)
            return np.asarray(p, float), quat_to_matrix(q)[:, AXIS_INDEX.get(joint.axis, 0)]
    if joint.body0 is None and joint.body1 is None:
        return None
    return np.asarray(joint.local_pose0.pos, float), quat_to_matrix(joint.local_pose0.quat)[:, AXIS_INDEX.get(joint.axis, 0)]


def collider_points(asset: "AssetModel", body: str, pose) -> np.ndarray:
    """World corners of the local AABBs of a body's colliders at `pose` (conservative for meshes)."""
    out = []
    pos, quat = pose
    rot = quat_to_matrix(quat)
    for path in asset.bodies[body].colliders if body in asset.bodies else ():
        collider = asset.colliders.get(path)
        extent = collider_local_extent(collider) if collider is not None else None
        if extent is None:
            continue
        local = box_corners(*extent) @ quat_to_matrix(collider.local_pose.quat).T + np.asarray(collider.local_pose.pos, float)
        out.append(local @ rot.T + np.asarray(pos, float))
    return np.vstack(out) if out else np.zeros((0, 3))


def lever_arm(asset: "AssetModel", joint: "JointInfo", poses: Poses) -> float:
    """Largest distance from the joint's axis of a collider point on the bodies it moves (m): a force of F at any
    of them exerts at most F x this about the axis. Prismatic joints: 1 (the force acts along the axis itself)."""
    if not joint.is_angular:
        return 1.0
    axis = joint_axis_world(asset, joint, poses)
    if axis is None:
        return 0.0
    point, direction = axis
    best = 0.0
    for body in moved_bodies(asset, joint):
        if body not in poses:
            continue
        rel = collider_points(asset, body, poses[body]) - point
        if len(rel):
            radial = rel - np.outer(rel @ direction, direction)
            best = max(best, float(np.max(np.linalg.norm(radial, axis=1))))
    return best


def gravity_bound(asset: "AssetModel", joint: "JointInfo", poses: Poses, masses: dict[str, float], g: float = 9.81) -> float:
    """An upper bound of the gravity load on `joint`: every moved body's weight at its farthest reach from the axis
    (revolute, N m) or all of it (prismatic, N). Bodies the engine gives no mass count with none."""
    moved = [b for b in moved_bodies(asset, joint) if b in masses]
    if not joint.is_angular:
        return g * sum(masses[b] for b in moved)
    axis = joint_axis_world(asset, joint, poses)
    if axis is None:
        return math.inf
    point, direction = axis
    total = 0.0
    for body in moved:
        if body not in poses:
            return math.inf
        pts = collider_points(asset, body, poses[body])
        pts = np.vstack([pts, np.asarray(poses[body][0], float)[None, :]])
        rel = pts - point
        radial = rel - np.outer(rel @ direction, direction)
        total += masses[body] * float(np.max(np.linalg.norm(radial, axis=1)))
    return g * total


def model_inertia(asset: "AssetModel", joint: "JointInfo", poses: Poses, masses: dict[str, float]) -> float:
    """Joint-space inertia estimated from masses and geometry, for joints the engine gives none for (a joint PhysX
    simulates outside its articulation): sum of m r^2 of the moved bodies' centres of mass about the axis plus each
    body's own inertia about its centre (authored diagonal inertia, else its collider box's); prismatic: sum of m."""
    moved = [b for b in moved_bodies(asset, joint) if b in masses and b in poses]
    if not joint.is_angular:
        return float(sum(masses[b] for b in moved))
    axis = joint_axis_world(asset, joint, poses)
    if axis is None:
        return math.nan
    point, direction = axis
    total = 0.0
    for b in moved:
        body, (pos, quat) = asset.bodies[b], poses[b]
        rot = quat_to_matrix(quat)
        pts = collider_points(asset, b, (pos, quat))
        com_local = body.center_of_mass if body.center_of_mass is not None else None
        com = pos + rot @ np.asarray(com_local, float) if com_local is not None else (pts.mean(axis=0) if len(pts) else pos)
        rel = com - point
        total += masses[b] * float(np.linalg.norm(rel - (rel @ direction) * direction)) ** 2
        if body.diagonal_inertia is not None:
            axes = quat_to_matrix(body.principal_axes) if body.principal_axes is not None else np.eye(3)
            local = (rot @ axes).T @ direction
            total += float(np.sum(np.asarray(body.diagonal_inertia, float) * local * local))
        elif len(pts):
            spread = pts.max(axis=0) - pts.min(axis=0)
            perp = spread - np.abs(direction) * spread  # the box's size across the axis (world-aligned estimate)
            total += masses[b] * float(np.sum(perp**2)) / 12.0
    return total


def body_boxes(asset: "AssetModel", poses: Poses) -> dict[str, tuple[np.ndarray, np.ndarray]]:
    """World AABB per body of its enabled colliders at `poses`; static colliders under the key ''. """
    boxes: dict[str, tuple[np.ndarray, np.ndarray]] = {}
    for body in asset.bodies:
        if body in poses:
            pts = collider_points(asset, body, poses[body])
            if len(pts):
                boxes[body] = (pts.min(axis=0), pts.max(axis=0))
    return boxes


def touching_pairs(asset: "AssetModel", joint: "JointInfo", poses: Poses, pad: float = 0.005) -> list[tuple[str, str, float]]:
    """(moved body, other body, overlap volume) for body pairs whose collider boxes overlap (within `pad` m) at
    `poses`, one body moved by `joint` and the other not, most overlapping first. Pairs joined by a joint (PhysX
    does not collide a joint's two bodies unless asked) and pairs the asset already filters are left out."""
    moved = set(moved_bodies(asset, joint))
    boxes = body_boxes(asset, poses)
    joined = {frozenset((j.body0, j.body1)) for j in asset.joints.values() if j.body0 and j.body1 and not j.collision_enabled}
    filtered = {frozenset(p) for p in asset.filtered_pairs}
    out = []
    for a in sorted(moved & set(boxes)):
        for b in sorted(set(boxes) - moved):
            pair = frozenset((a, b))
            if pair in joined or pair in filtered:
                continue
            (alo, ahi), (blo, bhi) = boxes[a], boxes[b]
            overlap = np.minimum(ahi, bhi) - np.maximum(alo, blo) + pad
            if np.all(overlap > 0):
                out.append((a, b, float(np.prod(overlap))))
    return sorted(out, key=lambda item: -item[2])
