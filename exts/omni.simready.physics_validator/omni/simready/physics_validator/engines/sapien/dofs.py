"""How each USD one-DOF joint is read and commanded in SAPIEN.

A DOF is either an articulation joint (reduced coordinates: read from the articulation's qpos/qvel,
commanded through its drive) or a maximal D6 joint (read from the two bodies' relative pose and
velocities, commanded through the D6 drive target). `sign` is -1 where the engine's parent/child are
USD's body1/body0, so every value leaves in the USD joint's convention.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np
from sapien import physx

from ...core.geometry import compose, quat_from_axis_angle, rotate
from .poses import IDENTITY, np_pose, pose, twist_angle


@dataclass
class Dof:
    """How one USD DOF joint is read and commanded in the engine."""

    path: str
    kind: str  # revolute / prismatic
    sign: float = 1.0  # -1 when the engine's parent/child are USD's body1/body0
    art_index: int = -1  # articulation joint: which articulation, which qpos entry
    q_index: int = -1
    art_joint: Any = None
    drive: Any = None  # maximal joint: the PhysxDriveComponent
    parent: Any = None  # maximal joint bodies (parent None = world)
    child: Any = None


def command(dof: Dof, value: float) -> None:
    """Set one DOF's drive target (USD convention); a joint the engine does not simulate ignores it."""
    value *= dof.sign
    if dof.art_joint is not None:
        dof.art_joint.set_drive_target(value)
    elif dof.drive is not None:
        if dof.kind == "revolute":
            dof.drive.set_drive_target(pose(np.zeros(3), quat_from_axis_angle([1, 0, 0], value)))
        else:
            dof.drive.set_drive_target(pose([value, 0.0, 0.0], IDENTITY))


def command_velocity(dof: Dof, value: float) -> None:
    """Set one DOF's drive velocity target (USD convention, rad/s or m/s); a joint the engine does not simulate
    ignores it."""
    value *= dof.sign
    if dof.art_joint is not None:
        dof.art_joint.set_drive_velocity_target(value)
    elif dof.drive is not None:
        # PhysX's D6 drive velocity runs opposite to the sense of its position target (measured on a maximal hinge:
        # +2 rad/s commanded turned it at -2 rad/s), so the velocity is negated here
        along, zero = np.array([-value, 0.0, 0.0], np.float32), np.zeros(3, np.float32)
        if dof.kind == "revolute":
            dof.drive.set_drive_velocity_target(zero, along)  # (linear, angular), twist axis x of the drive frame
        else:
            dof.drive.set_drive_velocity_target(along, zero)


def velocity_target(dof: Dof) -> float:
    """One DOF's drive velocity target as SAPIEN holds it (USD convention); NaN when the engine does not simulate it."""
    if dof.art_joint is not None:
        return dof.sign * float(np.ravel(dof.art_joint.get_drive_velocity_target())[0])
    if dof.drive is not None:
        linear, angular = dof.drive.get_drive_velocity_target()
        return -dof.sign * float((angular if dof.kind == "revolute" else linear)[0])
    return float("nan")


class DofReader:
    """Joint positions or velocities of every DOF in one array, with one qpos/qvel call per articulation
    (a single articulation already in DOF order is read with no scatter at all). Joints the engine
    does not simulate read NaN."""

    def __init__(self, dofs: list[Dof], articulations: list) -> None:
        self.size = len(dofs)
        self.maximal = [(i, dof) for i, dof in enumerate(dofs) if dof.drive is not None]
        self.plan = []  # per articulation: (articulation, output indices, qpos indices, signs)
        for art_index, art in enumerate(articulations):
            rows = [(i, d.q_index, d.sign) for i, d in enumerate(dofs) if d.art_index == art_index]
            if rows:
                out_i, q_i, signs = (np.array(c) for c in zip(*rows))
                self.plan.append((art, out_i, q_i, signs.astype(float)))
        self.single = None
        if len(self.plan) == 1 and not self.maximal:
            art, out_i, q_i, signs = self.plan[0]
            n = len(dofs)
            if len(out_i) == n == art.dof and (out_i == np.arange(n)).all() and (q_i == np.arange(n)).all():
                self.single = (art, signs)

    def read(self, velocity: bool) -> np.ndarray:
        if self.single is not None:  # one articulation in DOF order: one read, no scatter
            art, signs = self.single
            return (art.get_qvel() if velocity else art.get_qpos()) * signs
        out = np.full(self.size, np.nan)
        for art, out_index, q_index, sign in self.plan:
            values = art.get_qvel() if velocity else art.get_qpos()
            out[out_index] = sign * values[q_index]
        for i, dof in self.maximal:
            out[i] = dof.sign * (maximal_velocity(dof) if velocity else maximal_position(dof))
        return out


def maximal_position(dof: Dof) -> float:
    rel = dof.drive.get_relative_pose()
    return twist_angle(rel.q) if dof.kind == "revolute" else float(rel.p[0])


def maximal_velocity(dof: Dof) -> float:
    """Relative velocity of the child's and parent's points at the joint frame, along the joint axis."""
    frame_p, frame_q = np_pose(dof.drive.get_pose_in_parent())
    if dof.parent is not None:
        frame_p, frame_q = compose(*np_pose(dof.parent.entity.pose), frame_p, frame_q)
    axis = rotate(frame_q, [1.0, 0.0, 0.0])

    def point_velocity(body):
        if body is None or not isinstance(body, physx.PhysxRigidBodyComponent):
            return np.zeros(3), np.zeros(3)
        w = np.asarray(body.get_angular_velocity(), float)
        com_p, _ = compose(*np_pose(body.entity.pose), *np_pose(body.get_cmass_local_pose()))
        return np.asarray(body.get_linear_velocity(), float) + np.cross(w, frame_p - com_p), w

    v_c, w_c = point_velocity(dof.child)
    v_p, w_p = point_velocity(dof.parent)
    return float(np.dot(w_c - w_p, axis)) if dof.kind == "revolute" else float(np.dot(v_c - v_p, axis))
