"""Geometric facts the proposals need, from the asset model posed by the engine's body poses: an upper bound of
a joint's gravity load, its joint-space inertia estimated from masses and geometry, and the body pairs whose
colliders touch (collision candidates when a joint is blocked). Which bodies a joint moves, its axis and its
lever arm are the driven-joint tests' own definitions (physics_tests.driven.kinematics), shared with them.
Pure numpy over `AssetModel`; poses are SI (position, wxyz quaternion) as `Engine.body_poses()` gives them.
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING

import numpy as np

from ..core.geometry import quat_to_matrix
from ..physics_tests.driven.kinematics import Poses, collider_points, joint_axis_world, moved_bodies

if TYPE_CHECKING:
    from ..core.asset_model import AssetModel, JointInfo


def gravity_bound(asset: "AssetModel", joint: "JointInfo", poses: Poses, masses: dict[str, float], g: float = 9.81) -> float:
    """An upper bound of the gravity load on `joint`: every moved body's weight at its farthest reach from the axis
    (revolute, N m) or all of it (prismatic, N). The reach is its colliders' farthest point, its origin, and its centre
    of mass as the runtime built it (`BodyInfo.built_mass_properties`: a link with no collider off the axis, the ALOHA
    wrist's, still weighs at its centre of mass). Bodies the engine gives no mass count with none."""
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
        pos, quat = np.asarray(poses[body][0], float), poses[body][1]
        pts = np.vstack([collider_points(asset, body, poses[body]).reshape(-1, 3), pos[None, :]])
        built = asset.bodies[body].built_mass_properties if body in asset.bodies else None
        if built is not None:  # the runtime's centre of mass, in the body frame
            pts = np.vstack([pts, (pos + quat_to_matrix(quat) @ np.asarray(built.com, float))[None, :]])
        rel = pts - point
        radial = rel - np.outer(rel @ direction, direction)
        total += masses[body] * float(np.max(np.linalg.norm(radial, axis=1)))
    return g * total


def model_inertia(asset: "AssetModel", joint: "JointInfo", poses: Poses, masses: dict[str, float]) -> float:
    """Joint-space inertia estimated from masses and geometry, for joints the engine gives none for (a joint PhysX
    simulates outside its articulation): sum of m r^2 of the moved bodies' centres of mass about the axis plus each
    body's own inertia about its centre, both as the runtime computed them (BodyInfo.built_mass_properties; a body
    without: its colliders' centre and box); prismatic: sum of m."""
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
        props = body.built_mass_properties
        com = pos + rot @ np.asarray(props.com, float) if props is not None else (pts.mean(axis=0) if len(pts) else pos)
        rel = com - point
        total += masses[b] * float(np.linalg.norm(rel - (rel @ direction) * direction)) ** 2
        if props is not None:
            local = rot.T @ direction  # the axis in the body's frame, where the runtime states its inertia
            total += float(local @ np.asarray(props.inertia, float) @ local)
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


def every_pair(asset: "AssetModel", joint: "JointInfo") -> list[tuple[str, str]]:
    """Every (moved body, other body) pair with colliders that could collide: what `touching_pairs` looks among, at
    no pose in particular (a blocked joint whose touching pair was not seen is filtered against all of them)."""
    moved = set(moved_bodies(asset, joint))
    with_colliders = {c.body for c in asset.colliders.values() if c.body}
    joined = {frozenset((j.body0, j.body1)) for j in asset.joints.values() if j.body0 and j.body1 and not j.collision_enabled}
    filtered = {frozenset(p) for p in asset.filtered_pairs}
    return [(a, b) for a in sorted(moved & with_colliders) for b in sorted(with_colliders - moved)
            if frozenset((a, b)) not in joined and frozenset((a, b)) not in filtered]


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
