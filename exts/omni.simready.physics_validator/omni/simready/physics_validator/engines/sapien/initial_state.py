"""The scene at t = 0: a pinned base, the authored initial velocities, the drop placement.

These run after every body and joint exists: pinning needs to know which bodies are joint children,
placement needs the bounds of the finished scene.
"""

from __future__ import annotations

import numpy as np
from sapien import physx

from .bounds import BodyBounds
from .builder import SceneBuilder
from .poses import np_pose, pose


def apply_pin_base(b: SceneBuilder, maximal_joints) -> None:
    """pin_base: free bodies that are no joint's child become kinematic (articulation roots were fixed
    while building)."""
    if not b.spec.pin_base:
        return
    children = set()
    for joint in maximal_joints:
        b0, b1 = b.body_or_world(joint.body0), b.body_or_world(joint.body1)
        if b0 is not None and b1 is not None:
            children.add(b1)
    for path, component in b.built.bodies.items():
        if component in b.built.movable and path not in children:
            component.set_kinematic(True)


def apply_initial_velocities(b: SceneBuilder) -> None:
    for path, component in b.built.bodies.items():
        body = b.asset.bodies[path]
        v, w = np.asarray(body.linear_velocity, float), np.asarray(body.angular_velocity, float)
        if not (np.any(v) or np.any(w)):
            continue
        if isinstance(component, physx.PhysxRigidDynamicComponent) and not component.kinematic:
            component.set_linear_velocity(v.astype(np.float32))
            component.set_angular_velocity(w.astype(np.float32))
        elif isinstance(component, physx.PhysxArticulationLinkComponent) and component.is_root:
            art = component.articulation
            art.set_root_linear_velocity(v.astype(np.float32))
            art.set_root_angular_velocity(w.astype(np.float32))
        else:
            b.warn(f"{path}: initial velocity on a non-root articulation link or static body is ignored")


def place_bottom(b: SceneBuilder, bounds: BodyBounds, height: float | None, xy=None) -> None:
    """Move everything so the rigid bodies' lowest point is at `height` (None: as authored) and the centre of their
    bounds at `xy` (None: as authored); static scenery moves along, as the asset prim would in Kit."""
    lo, hi = bounds.aabb()
    if bounds.empty:
        return
    shift = np.array([0.0, 0.0, 0.0 if height is None else float(height) - float(lo[2])])
    if xy is not None:
        shift[:2] = np.asarray(xy, float) - (np.asarray(lo[:2], float) + np.asarray(hi[:2], float)) / 2
    built = b.built
    for art in built.articulations:
        p, q = np_pose(art.get_root_pose())
        art.set_root_pose(pose(p + shift, q))
    for component in built.movable:
        p, q = np_pose(component.entity.pose)
        component.entity.set_pose(pose(p + shift, q))
    for static in built.statics:
        p, q = np_pose(static.entity.pose)
        static.entity.set_pose(pose(p + shift, q))
    for drive in built.world_drives:
        p, q = np_pose(drive.get_pose_in_parent())
        drive.set_pose_in_parent(pose(p + shift, q))
