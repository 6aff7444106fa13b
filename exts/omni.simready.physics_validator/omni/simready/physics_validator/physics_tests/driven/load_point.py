"""Where effort_limit applies its load, and how far a joint may give way: geometry on the asset model posed by the
engine. Shared with `fix`, which sizes drives against the same lever arm.

The load goes to the joint's moving side, whichever body slot the joint names it in (a joint authored child ->
parent moves its body0; loading the base would test nothing). A revolute joint is loaded at the point of its collision
surface farthest from its axis (a disc's rim, a sphere's surface, a mesh's vertex: never the corner of a round
shape's bounding box, 0.283 m off the axis of a 0.2 m disc), so every direction with a component across that lever
arm exerts a torque about the axis:
first among the bodies that move rigidly with the joint (its child and whatever is welded to it: a tool on a roll
joint whose own link has no collider), else among every body the joint moves. A revolute joint with no collider
point off its axis cannot be torqued by any load: it is not judged (the caller's SKIP row), never passed. A
prismatic joint's generalised force does not depend on the point: it is loaded at its child's centre of mass
(authored, else the centre of its colliders' box, else the body origin).
"""

from __future__ import annotations

import math
from functools import cached_property
from dataclasses import dataclass
from typing import TYPE_CHECKING

import numpy as np

from ...core.geometry import quat_to_matrix, vec3
from .kinematics import Poses, collider_points, farthest_point, moved_bodies, moving_body, rigid_group

if TYPE_CHECKING:
    from ...core.asset_model import AssetModel, JointInfo

MIN_LEVER_ARM = 1e-3  # m: a load point nearer the axis than this exerts no torque worth judging


@dataclass(frozen=True)
class LoadPoint:
    body: str
    local: np.ndarray  # in the body frame, m
    lever_arm: float  # distance of the point from the joint axis at the held pose, m (0 for prismatic joints)
    how: str  # "the child's collider point farthest from the joint axis", "centre of mass", ...

    def world(self, pose) -> np.ndarray:
        """The point in the world for a body pose (position, quaternion wxyz; normalised here). In plain floats: a
        load follows its point every step."""
        pos, quat = pose
        w, x, y, z = _floats(quat)
        n = math.sqrt(w * w + x * x + y * y + z * z)
        if not math.isfinite(n) or n < 1e-12:
            w, x, y, z, n = 1.0, 0.0, 0.0, 0.0, 1.0
        w, x, y, z = w / n, x / n, y / n, z / n
        a, b, c = self._local
        px, py, pz = _floats(pos)
        return np.array([
            px + (1 - 2 * (y * y + z * z)) * a + 2 * (x * y - z * w) * b + 2 * (x * z + y * w) * c,
            py + 2 * (x * y + z * w) * a + (1 - 2 * (x * x + z * z)) * b + 2 * (y * z - x * w) * c,
            pz + 2 * (x * z - y * w) * a + 2 * (y * z + x * w) * b + (1 - 2 * (x * x + y * y)) * c,
        ])

    @cached_property
    def _local(self) -> tuple[float, float, float]:
        return vec3(self.local)

    @property
    def torques(self) -> bool:
        """Whether a load here can turn (or push) the joint at all."""
        return self.lever_arm >= MIN_LEVER_ARM or math.isnan(self.lever_arm)


def _floats(values) -> list[float]:
    """Plain floats of an engine's array (one tolist, the values float() gives each) or of any sequence."""
    return values.tolist() if isinstance(values, np.ndarray) and values.ndim == 1 else [float(v) for v in values]


def load_point(asset: "AssetModel", joint: "JointInfo", poses: Poses) -> LoadPoint | None:
    """The point effort_limit pushes for `joint` at `poses` (the held pose), or None without a moving body."""
    child = moving_body(asset, joint)
    if child is None or child not in poses:
        return None
    if joint.type != "revolute":
        return _centre_of_mass(asset, child)
    for bodies, how in ((rigid_group(asset, child, joint), "the collider point of the moving link (and what is "
                                                           "welded to it) farthest from the joint axis"),
                        (moved_bodies(asset, joint), "the collider point of the bodies it moves farthest from the "
                                                     "joint axis (nothing on its own link lies off the axis)")):
        found = farthest_point(asset, joint, bodies, poses)
        if found is not None and found[2] >= MIN_LEVER_ARM:
            body, world, lever = found
            pos, quat = poses[body]
            return LoadPoint(body, quat_to_matrix(quat).T @ (world - np.asarray(pos, float)), lever, how)
    return LoadPoint(child, np.zeros(3), 0.0, "no collider point off the joint axis")


def _centre_of_mass(asset: "AssetModel", body_path: str) -> LoadPoint:
    body = asset.bodies[body_path]
    identity = (np.zeros(3), np.array([1.0, 0.0, 0.0, 0.0]))
    points = collider_points(asset, body_path, identity)  # in the body frame
    if body.built_mass_properties is not None:
        point, how = np.asarray(body.built_mass_properties.com, float), "the child's centre of mass (as the runtime computed it)"
    elif len(points):
        point, how = (points.min(axis=0) + points.max(axis=0)) / 2.0, "the centre of the child's colliders"
    else:
        point, how = np.zeros(3), "the child body's origin"
    return LoadPoint(body_path, point, math.nan, how)


def lever_arm(asset: "AssetModel", joint: "JointInfo", poses: Poses) -> float:
    """The load's lever arm about `joint` at `poses` (m): a force F there exerts at most F x this about the axis.
    Prismatic joints: 1 (the force acts along the axis itself, F x 1 is the force). 0 when nothing can be loaded."""
    if not joint.is_angular:
        return 1.0
    point = load_point(asset, joint, poses)
    return 0.0 if point is None else point.lever_arm


def deflection_tolerance(joint: "JointInfo | None", fraction: float, max_revolute_range: float,
                         max_prismatic_range: float) -> float:
    """How far a driven joint may give way from its held pose: `fraction` of its range, the range counted at most
    `max_revolute_range` (rad) or `max_prismatic_range` (m), so a joint that visibly gives way fails whatever its
    range (a +-360° joint may not turn 72°); unlimited joints count the largest range."""
    if joint is None:
        return math.inf
    largest = max_revolute_range if joint.is_angular else max_prismatic_range
    limits = joint.limits
    span = (limits[1] - limits[0]) if limits is not None else largest
    return fraction * min(span, largest)


FULL_TURN = 2.0 * math.pi


def joint_deflection(q: np.ndarray, pose: np.ndarray, wrap: np.ndarray) -> np.ndarray:
    """|q - pose| per DOF; angles of unlimited revolute joints (`wrap`) are compared modulo a full turn."""
    d = np.abs(np.asarray(q, float) - np.asarray(pose, float))
    return np.where(wrap, np.minimum(d % FULL_TURN, FULL_TURN - d % FULL_TURN), d)
