"""Joints outside an articulation: maximal D6 constraints (PhysxDriveComponent), and joint frames.

omni.physx simulates such joints as D6 joints; SAPIEN 3.0.3's D6 cannot lock or limit swing, so a
stiff acceleration drive holds swing instead (SWING_LOCK_STIFFNESS). Joint frames put the joint axis
on X, PhysX's joint axis; articulation joints use the same frames.
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np
from sapien import physx

from ...core.asset_model import JointInfo
from ...core.geometry import compose, quat_from_axis_angle, quat_mul
from .builder import SceneBuilder
from .dofs import Dof, command
from .poses import IDENTITY, pose
from .shapes import X_TO_AXIS

PX_MAX_F32 = 3.4028234663852886e38
SWING_LOCK_STIFFNESS = 1.0e6  # 1e7 went unstable in float32 (measured); 1e6 holds swing to ~0.03 deg


def side_frame(b: SceneBuilder, path: str | None, local) -> tuple[np.ndarray, np.ndarray]:
    """A joint frame relative to the engine body on that side; world frame when that side is not a
    simulated dynamic body (world, a disabled body, a static collider prim)."""
    if path is not None and b.body_or_world(path) is None:
        if path in b.asset.bodies:
            owner = b.asset.bodies[path].world_pose
        else:
            owner = b.asset.colliders[path].world_pose
        return compose(owner.pos, owner.quat, local.pos, local.quat)
    return np.asarray(local.pos, float), np.asarray(local.quat, float)


def joint_frames(b: SceneBuilder, joint: JointInfo, sign: float):
    """(parent frame, child frame) with X along the joint axis."""
    rot = X_TO_AXIS.get(joint.axis, IDENTITY) if joint.type in ("revolute", "prismatic") else IDENTITY
    p0 = compose(*side_frame(b, joint.body0, joint.local_pose0), np.zeros(3), rot)
    p1 = compose(*side_frame(b, joint.body1, joint.local_pose1), np.zeros(3), rot)
    return (p0, p1) if sign > 0 else (p1, p0)


def drive_args(info):
    """(stiffness, damping, force limit, mode) of a USD drive for SAPIEN's drive setters."""
    mode = "acceleration" if info.type == "acceleration" else "force"
    return float(info.stiffness), float(info.damping), float(min(info.max_force, PX_MAX_F32)), mode


def add_maximal_joint(b: SceneBuilder, joint: JointInfo) -> None:
    c0: Any = b.built.bodies.get(b.body_or_world(joint.body0))  # SAPIEN components (or None: the world)
    c1: Any = b.built.bodies.get(b.body_or_world(joint.body1))
    dynamic = lambda c: isinstance(c, physx.PhysxRigidBodyComponent)  # noqa: E731
    if dynamic(c1):
        child, parent, sign = c1, c0, 1.0
    elif dynamic(c0):
        child, parent, sign = c0, c1, -1.0
    else:
        b.warn(f"{joint.path}: joint between two static bodies (or the world) has no effect; skipped")
        return
    if joint.type == "distance":
        b.warn(f"{joint.path}: distance joints are not mapped by this engine; skipped")
        return
    drive = physx.PhysxDriveComponent(child)
    child.entity.add_component(drive)
    drive.set_parent(parent)
    parent_frame, child_frame = joint_frames(b, joint, sign)
    # a static parent keeps its frame in the parent's (static) body frame
    drive.set_pose_in_parent(pose(*parent_frame))
    drive.set_pose_in_child(pose(*child_frame))
    if parent is None:
        b.built.world_drives.append(drive)
    _configure_d6(b, drive, joint, sign)
    if joint.collision_enabled:
        b.warn(f"{joint.path}: collisionEnabled = true is not honoured (SAPIEN joints always disable collision between the two "
               f"bodies)")
    if joint.is_dof:
        if joint.velocity_limit is not None:
            b.warn(f"{joint.path}: velocity limit not enforced on a maximal (non-articulation) joint, as in omni.physx")
        b.built.dofs.append(Dof(joint.path, joint.type, sign, drive=drive, parent=parent, child=child))


def _lock_swing(drive) -> None:
    drive.set_drive_property_swing(SWING_LOCK_STIFFNESS, 2.0 * math.sqrt(SWING_LOCK_STIFFNESS), PX_MAX_F32, "acceleration")


def _configure_d6(b: SceneBuilder, drive, joint: JointInfo, sign: float) -> None:
    kind = joint.type
    lock_linear = {"revolute": "xyz", "prismatic": "yz", "fixed": "xyz", "spherical": "xyz"}.get(kind, "")
    setters = {"x": drive.set_limit_x, "y": drive.set_limit_y, "z": drive.set_limit_z}
    for axis in lock_linear:
        setters[axis](0.0, 0.0)
    if kind in ("revolute", "prismatic"):
        limits = joint.limits  # None: unlimited
        lo_hi = None if limits is None else limits if sign > 0 else (-limits[1], -limits[0])
        if kind == "prismatic":
            drive.set_limit_twist(0.0, 0.0)
            if lo_hi is not None:
                drive.set_limit_x(float(lo_hi[0]), float(lo_hi[1]))
        elif lo_hi is not None:
            drive.set_limit_twist(float(lo_hi[0]), float(lo_hi[1]))
        _lock_swing(drive)
        if joint.drive is not None:
            args = drive_args(joint.drive)
            (drive.set_drive_property_twist if kind == "revolute" else drive.set_drive_property_x)(*args)
            command(Dof(joint.path, kind, sign, drive=drive), float(joint.drive.target_position))
    elif kind == "fixed":
        drive.set_limit_twist(0.0, 0.0)
        _lock_swing(drive)
    elif kind == "spherical":
        if joint.d6_limits:
            b.warn(f"{joint.path}: spherical cone limit not supported by SAPIEN's D6 joint; swing left free")
    elif kind == "d6":
        _configure_generic_d6(b, drive, joint)
    else:
        b.warn(f"{joint.path}: joint type '{kind}' not mapped; left free")


def _configure_generic_d6(b: SceneBuilder, drive, joint: JointInfo) -> None:
    limits = joint.d6_limits
    for axis, setter in (("transX", drive.set_limit_x), ("transY", drive.set_limit_y), ("transZ", drive.set_limit_z)):
        lim = limits.get(axis)
        if lim is None:
            continue
        setter(0.0, 0.0) if lim.lower > lim.upper else setter(float(lim.lower), float(lim.upper))
    rot_x = limits.get("rotX")
    if rot_x is not None:
        drive.set_limit_twist(0.0, 0.0) if rot_x.lower > rot_x.upper else drive.set_limit_twist(float(rot_x.lower),
                                                                                                float(rot_x.upper))
    swing = [limits.get("rotY"), limits.get("rotZ")]
    locked = [s is not None and s.lower > s.upper for s in swing]
    if all(locked):
        _lock_swing(drive)
    elif any(s is not None for s in swing):
        b.warn(f"{joint.path}: D6 rotY/rotZ limits other than 'both locked' are not supported by SAPIEN; swing left free")
    drives = joint.d6_drives
    for axis, setter in (("transX", drive.set_drive_property_x), ("transY", drive.set_drive_property_y),
                         ("transZ", drive.set_drive_property_z), ("rotX", drive.set_drive_property_twist)):
        if axis in drives:
            setter(*drive_args(drives[axis]))
    swing_drives = [drives[a] for a in ("rotY", "rotZ") if a in drives]
    if swing_drives and not all(locked):
        drive.set_drive_property_swing(*drive_args(swing_drives[0]))
        if len(swing_drives) == 2 and drive_args(swing_drives[0]) != drive_args(swing_drives[1]):
            b.warn(f"{joint.path}: different rotY/rotZ drives; PhysX swing drive uses the rotY values for both")
    pos = [float(drives[a].target_position) if a in drives else 0.0 for a in ("transX", "transY", "transZ")]
    quat = IDENTITY.copy()
    for axis, vec in (("rotZ", [0, 0, 1]), ("rotY", [0, 1, 0]), ("rotX", [1, 0, 0])):
        if axis in drives:
            quat = quat_mul(quat, quat_from_axis_angle(vec, float(drives[axis].target_position)))
    drive.set_drive_target(pose(pos, quat))
