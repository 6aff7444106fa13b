"""Which bodies a driven joint moves and where its axis lies in the world: pure numpy over `AssetModel`, shared by
the driven-joint tests and `fix` so that both mean the same by "the bodies a joint moves" and "its lever arm".

A joint's moving side is the one away from its articulation's base, whichever body slot the author put it in
(a joint authored child -> parent moves its body0). Poses are SI (position, wxyz quaternion) as
`Engine.body_poses()` gives them.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

from ...core.geometry import AXIS_INDEX, box_corners, collider_local_extent, compose, quat_to_matrix

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
