"""Which bodies a driven joint moves and where its axis lies in the world: pure numpy over `AssetModel`, shared by
the driven-joint tests and `fix` so that both mean the same by "the bodies a joint moves" and "its lever arm".

A joint's moving side is the one away from its articulation's base, whichever body slot the author put it in
(a joint authored child -> parent moves its body0). Poses are SI (position, wxyz quaternion) as
`Engine.body_poses()` gives them.
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING

import numpy as np

from ...core.geometry import AXIS_INDEX, collider_points, collider_surface, compose, quat_to_matrix

if TYPE_CHECKING:
    from ...core.asset_model import AssetModel, JointInfo

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


def moving_body(asset: "AssetModel", joint: "JointInfo") -> str | None:
    """The joint's own body on its moving side (body1 as usually authored; body0 for a joint authored child ->
    parent), or None when neither is a rigid body that moves."""
    moved = set(moved_bodies(asset, joint))
    for body in (joint.body1, joint.body0):
        if body is not None and body in moved:
            return body
    return None


def rigid_group(asset: "AssetModel", body: str, joint: "JointInfo") -> list[str]:
    """`body` and every body welded to it (fixed joints, transitively), not crossing `joint`: what moves rigidly
    with it."""
    welded: dict[str, set[str]] = {}
    for other in asset.joints.values():
        if other is joint or other.type != "fixed" or not other.enabled or not (other.body0 and other.body1):
            continue
        welded.setdefault(other.body0, set()).add(other.body1)
        welded.setdefault(other.body1, set()).add(other.body0)
    seen, stack = {body}, [body]
    while stack:
        for nxt in welded.get(stack.pop(), ()):
            if nxt not in seen:
                seen.add(nxt)
                stack.append(nxt)
    return sorted(b for b in seen if b in asset.bodies)


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


def farthest_point(asset: "AssetModel", joint: "JointInfo", bodies: list[str], poses: Poses):
    """(body, world point, distance from the joint's axis) of the point of the collision surface of `bodies` farthest
    from the axis at `poses` (core.geometry.collider_surface: a disc's rim, not the corner of its bounding box; the
    colliders that make the bodies' bounds), or None when none of them has a posed collider."""
    axis = joint_axis_world(asset, joint, poses)
    if axis is None:
        return None
    point, direction = axis
    best = None
    for body in bodies:
        if body not in poses:
            continue
        pos, quat = poses[body]
        rot = quat_to_matrix(quat)
        for collider in asset.bounding_colliders(body):
            surface = collider_surface(collider)
            if surface is None:
                continue
            local, radius = surface
            local = local @ quat_to_matrix(collider.local_pose.quat).T + np.asarray(collider.local_pose.pos, float)
            pts = local @ rot.T + np.asarray(pos, float)
            rel = pts - point
            across = rel - np.outer(rel @ direction, direction)
            # rounded to 0.1 um: equally far points (a symmetric link) tie on the same one whatever float noise says
            radial = np.round(np.linalg.norm(across, axis=1) + radius, 7)
            k = int(np.argmax(radial))
            if best is None or radial[k] > best[2]:
                best = (body, pts[k] + radius * _unit_across(across[k], direction), float(radial[k]))
    return best


def _unit_across(across: np.ndarray, direction: np.ndarray) -> np.ndarray:
    """The unit vector from the axis toward a point (`across`: its part across the axis); any one across the axis when
    the point lies on it."""
    norm = float(np.linalg.norm(across))
    if norm > 1e-12:
        return across / norm
    other = np.cross(direction, np.eye(3)[int(np.argmin(np.abs(direction)))])
    return other / float(np.linalg.norm(other))


def reach_allowance(asset: "AssetModel") -> float:
    """How far (m) any point of the asset can move from where it starts, with the articulation bases pinned and
    every joint intact: a body turning about a joint moves each of its points by at most twice its extent, and the
    bodies beyond it carry that along, so the bound is twice the sum of the moving bodies' extents (the box diagonal
    of each body's collider corners and joint anchors, in its own frame) plus the travel of every prismatic joint.
    inf when a prismatic joint has no limits. A flat or thin start pose cannot fool it, unlike a volume ratio."""
    bases = {info.base_body for info in asset.articulations if info.base_body}
    anchors: dict[str, list] = {}
    travel = 0.0
    for joint in asset.joints.values():
        if not joint.enabled:
            continue
        if joint.type == "prismatic" and not joint.is_locked:
            limits = joint.limits
            if limits is None:
                return math.inf
            travel += limits[1] - limits[0]
        for body, pose in ((joint.body0, joint.local_pose0), (joint.body1, joint.local_pose1)):
            if body is not None and body in asset.bodies:
                anchors.setdefault(body, []).append(np.asarray(pose.pos, float))
    identity = (np.zeros(3), np.array([1.0, 0.0, 0.0, 0.0]))
    extents = 0.0
    for body, points in anchors.items():
        if body in bases or asset.bodies[body].kinematic:
            continue
        corners = collider_points(asset, body, identity)
        cloud = np.vstack([corners, np.array(points)]) if len(corners) else np.array(points)
        extents += float(np.linalg.norm(cloud.max(axis=0) - cloud.min(axis=0)))
    return 2.0 * extents + travel
