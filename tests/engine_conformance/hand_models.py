"""AssetModel objects built by hand (no USD): engine unit tests that must not depend on the reader."""

from __future__ import annotations

import math

import numpy as np

from omni.simready.physics_validator.core.asset_model import (
    ArticulationInfo,
    AssetModel,
    BodyInfo,
    ColliderInfo,
    DriveInfo,
    JointInfo,
    MaterialInfo,
    Pose,
)


def pose(pos=(0.0, 0.0, 0.0), quat=(1.0, 0.0, 0.0, 0.0)) -> Pose:
    return Pose(np.asarray(pos, float), np.asarray(quat, float))


def add_body(model: AssetModel, path: str, pos, mass: float | None = 1.0, shape: str = "box", **shape_args) -> BodyInfo:
    """A rigid body with one collider at its origin."""
    body = BodyInfo(path=path, world_pose=pose(pos), mass=mass)
    collider = ColliderInfo(
        path=f"{path}/collider",
        shape=shape,
        body=path,
        local_pose=pose(),
        world_pose=pose(pos),
        material=MaterialInfo(path="/mat", static_friction=0.8, dynamic_friction=0.6, restitution=0.0),
        **shape_args,
    )
    body.colliders.append(collider.path)
    model.bodies[path] = body
    model.colliders[collider.path] = collider
    return body


def box_model(half=0.05, height=0.8, mass: float | None = 1.0) -> AssetModel:
    model = AssetModel(path="hand:box", default_prim="/Box")
    add_body(model, "/Box", (0.0, 0.0, height), mass=mass, half_extents=np.full(3, half))
    return model


def arm_model(velocity_limits=(None, None, None), axes=("Z", "Y", "Y"), drives=True) -> AssetModel:
    """Fixed-base 3-joint arm: base on the world, three 0.3 m links stacked along +Z."""
    model = AssetModel(path="hand:arm", default_prim="/Arm")
    add_body(model, "/Arm/base", (0, 0, 0.05), mass=2.0, half_extents=np.array([0.1, 0.1, 0.05]))
    names = ["base"]
    for i in range(3):
        z = 0.1 + 0.3 * i + 0.15
        add_body(model, f"/Arm/link{i + 1}", (0, 0, z), mass=1.0, half_extents=np.array([0.03, 0.03, 0.15]))
        names.append(f"link{i + 1}")
    model.joints["/Arm/fix"] = JointInfo(
        path="/Arm/fix", type="fixed", body0=None, body1="/Arm/base", local_pose0=pose((0, 0, 0.05)), local_pose1=pose()
    )
    gains = [(10, 0.3, 40), (20, 0.5, 60), (10, 0.2, 30)]
    for i in range(3):
        parent, child = f"/Arm/{names[i]}", f"/Arm/{names[i + 1]}"
        parent_top = 0.05 if i == 0 else 0.15
        k, d, f = gains[i]
        joint = JointInfo(
            path=f"/Arm/j{i + 1}",
            type="revolute",
            body0=parent,
            body1=child,
            local_pose0=pose((0, 0, parent_top)),
            local_pose1=pose((0, 0, -0.15)),
            axis=axes[i],
            lower=-math.radians(120),
            upper=math.radians(120),
            drive=DriveInfo(axis="angular", stiffness=k * 180 / math.pi, damping=d * 180 / math.pi, max_force=f) if drives else None,
            velocity_limit=velocity_limits[i],
            articulation="/Arm",
        )
        model.joints[joint.path] = joint
    bodies = [f"/Arm/{n}" for n in names]
    model.articulations.append(
        ArticulationInfo(root="/Arm", bodies=bodies, joints=[*model.joints], fixed_base=True, base_body="/Arm/base")
    )
    for b in bodies:
        model.bodies[b].articulation = "/Arm"
    for j in model.joints.values():
        j.articulation = "/Arm"
    return model
