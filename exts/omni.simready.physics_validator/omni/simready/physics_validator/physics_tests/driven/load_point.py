"""Where effort_limit applies its load, and how far a joint may give way: pure geometry on the asset model.

A force at the child body's centre of mass exerts no torque about a joint whose axis passes through it
(wrist and roll joints), so a dead drive there would never show. The load goes instead to the point of
the child's colliders farthest from the joint axis (a corner of a collider's local bounding box),
which gives every direction with a component across that lever arm a torque about the axis. A
prismatic joint's generalised force does not depend on the point, so it is loaded at the child's
centre of mass (authored, else the centre of its colliders' box, else the body origin).
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import TYPE_CHECKING

import numpy as np

from ...core.geometry import box_corners, collider_local_extent, quat_to_matrix, rotate

if TYPE_CHECKING:
    from ...core.asset_model import AssetModel, JointInfo

AXIS_VECTORS = {"X": (1.0, 0.0, 0.0), "Y": (0.0, 1.0, 0.0), "Z": (0.0, 0.0, 1.0)}
FULL_TURN = 2.0 * math.pi


@dataclass(frozen=True)
class LoadPoint:
    body: str
    local: np.ndarray  # in the body frame, m
    lever_arm: float  # distance of the point from the joint axis, m
    how: str  # "farthest collider point from the axis", "centre of mass", ...

    def world(self, pose) -> np.ndarray:
        """The point in the world for a body pose (position, quaternion wxyz)."""
        pos, quat = pose
        return np.asarray(pos, float) + quat_to_matrix(quat) @ self.local


def _collider_points(asset: "AssetModel", body_path: str) -> np.ndarray:
    """Corners of every collider's local bounding box on the body, in the body frame."""
    points = []
    for path in asset.bodies[body_path].colliders:
        collider = asset.colliders.get(path)
        extent = None if collider is None else collider_local_extent(collider)
        if extent is None:
            continue
        rot = quat_to_matrix(collider.local_pose.quat)
        points.append(box_corners(*extent) @ rot.T + np.asarray(collider.local_pose.pos, float))
    return np.concatenate(points) if points else np.zeros((0, 3))


def load_point(asset: "AssetModel", joint: "JointInfo") -> LoadPoint | None:
    """The point of the joint's child body where effort_limit pushes, or None without a child body."""
    child_is_body1 = joint.body1 is not None
    body_path = joint.body1 or joint.body0
    if body_path is None or body_path not in asset.bodies:
        return None
    frame = joint.local_pose1 if child_is_body1 else joint.local_pose0
    anchor = np.asarray(frame.pos, float)
    axis = rotate(frame.quat, np.asarray(AXIS_VECTORS.get(joint.axis, AXIS_VECTORS["X"])))
    axis = axis / max(np.linalg.norm(axis), 1e-12)
    points = _collider_points(asset, body_path)

    def lever(p: np.ndarray) -> float:
        d = np.asarray(p, float) - anchor
        return float(np.linalg.norm(d - np.dot(d, axis) * axis))

    body = asset.bodies[body_path]
    if joint.type == "revolute" and len(points):
        arms = np.linalg.norm((points - anchor) - np.outer((points - anchor) @ axis, axis), axis=1)
        best = points[int(np.argmax(arms))]
        return LoadPoint(body_path, best, float(arms.max()), "the child's collider point farthest from the joint axis")
    if body.center_of_mass is not None and np.all(np.isfinite(body.center_of_mass)):
        point, how = np.asarray(body.center_of_mass, float), "the child's authored centre of mass"
    elif len(points):
        point, how = (points.min(axis=0) + points.max(axis=0)) / 2.0, "the centre of the child's colliders"
    else:
        point, how = np.zeros(3), "the child body's origin"
    return LoadPoint(body_path, point, lever(point), how)


def deflection_tolerance(joint: "JointInfo | None", fraction: float, unlimited_prismatic_range: float) -> float:
    """How far a driven joint may give way from its held pose: `fraction` of its range.

    Unlimited joints have no range: a revolute one is measured against a full turn, a prismatic one against
    `unlimited_prismatic_range` (m).
    """
    if joint is None:
        return math.inf
    if joint.has_limits:
        return fraction * (joint.upper - joint.lower)
    return fraction * (FULL_TURN if joint.is_angular else unlimited_prismatic_range)


def joint_deflection(q: np.ndarray, pose: np.ndarray, wrap: np.ndarray) -> np.ndarray:
    """|q - pose| per DOF; angles of unlimited revolute joints (`wrap`) are compared modulo a full turn."""
    d = np.abs(np.asarray(q, float) - np.asarray(pose, float))
    return np.where(wrap, np.minimum(d % FULL_TURN, FULL_TURN - d % FULL_TURN), d)
