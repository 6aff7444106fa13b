"""The state one scene build shares, and the rigid bodies every part of the build adds through it.

`SceneBuilder` carries the asset, the scene spec, the SAPIEN scene and the warning sink, and records
what was created in `Built` (for reads, resets and placement). It adds ground, static and free
bodies with their shapes, materials and mass; articulations.py and joints.py add the rest through it.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np
import sapien
from sapien import physx

from ...core.asset_model import AssetModel, BodyInfo, ColliderInfo, MaterialInfo
from ...core.engine import EngineError
from ...core.geometry import compose, inverse
from ...core.scene import SceneSpec
from ...core.usd_mass import body_mass
from .filters import ALL_BITS, GROUND_GROUP_BIT
from .poses import IDENTITY, pose
from .shapes import X_TO_AXIS, build_sapien_shape, plan_shapes


@dataclass
class Built:
    """Bookkeeping of what was created, for reads, resets and placement."""

    bodies: dict = field(default_factory=dict)  # body path -> rigid component
    movable: list = field(default_factory=list)  # dynamic/kinematic components not in articulations
    statics: list = field(default_factory=list)  # asset static components with bounded shapes
    articulations: list = field(default_factory=list)
    world_drives: list = field(default_factory=list)  # D6 joints whose parent is the world
    shapes: dict = field(default_factory=dict)  # collider path -> [sapien shapes]
    dofs: list = field(default_factory=list)  # dofs.Dof, in asset order once the build is done
    masses: dict = field(default_factory=dict)  # body path -> effective mass (kg) given to PhysX


class SceneBuilder:
    """One build of one asset into one SAPIEN scene."""

    def __init__(self, asset: AssetModel, spec: SceneSpec, scene: "sapien.Scene", warn) -> None:
        self.asset, self.spec, self.scene, self.warn = asset, spec, scene, warn
        self.built = Built()
        self._materials: dict = {}

    def body_or_world(self, path: str | None) -> str | None:
        """The path when it is an enabled (simulated) body of the asset, else None (the world)."""
        return path if path in self.asset.bodies and self.asset.bodies[path].enabled else None

    def check_references(self) -> None:
        asset = self.asset
        static_frames = {c.path for c in asset.colliders.values() if c.body is None}
        for joint in asset.joints.values():
            for side in (joint.body0, joint.body1):
                if side is not None and side not in asset.bodies and side not in static_frames:
                    raise EngineError(f"joint {joint.path} refers to {side}, which is not a rigid body of the asset")

    def colliders_by_body(self) -> dict[str, list[ColliderInfo]]:
        out: dict[str, list[ColliderInfo]] = {}
        for collider in self.asset.colliders.values():
            # Disabled colliders are kept (they give mass and bounds, as in omni.physx) but collide with nothing.
            if collider.body is not None and collider.body in self.asset.bodies:
                out.setdefault(collider.body, []).append(collider)
        return out

    def material(self, info: MaterialInfo | None):
        """One PhysX material per distinct (static friction, dynamic friction, restitution)."""
        info = info or MaterialInfo()
        for mode in (info.friction_combine, info.restitution_combine):
            if mode not in (None, "average"):
                self.warn(f"{info.path or 'material'}: combine mode '{mode}' is not exposed by SAPIEN; PhysX average is used")
        key = (float(info.static_friction), float(info.dynamic_friction), float(info.restitution))
        if key not in self._materials:
            self._materials[key] = physx.PhysxMaterial(*key)
        return self._materials[key]

    def add_ground(self, ground) -> None:
        entity = sapien.Entity()
        entity.name = "ground"
        static = physx.PhysxRigidStaticComponent()
        shape = physx.PhysxCollisionShapePlane(
            physx.PhysxMaterial(float(ground.static_friction), float(ground.dynamic_friction), float(ground.restitution))
        )
        shape.set_collision_groups([GROUND_GROUP_BIT, ALL_BITS, 0, 0])
        static.attach(shape)
        entity.add_component(static)
        entity.set_pose(pose([0.0, 0.0, float(ground.height)], X_TO_AXIS["Z"]))
        self.scene.add_entity(entity)

    def add_ramp(self, ramp) -> None:
        """The static ramp box (core.ramp.RampSpec) with its material."""
        entity = sapien.Entity()
        entity.name = "validator_ramp"
        static = physx.PhysxRigidStaticComponent()
        material = physx.PhysxMaterial(float(ramp.static_friction), float(ramp.dynamic_friction), float(ramp.restitution))
        shape = physx.PhysxCollisionShapeBox([float(v) for v in ramp.box_half_extents], material)
        shape.set_collision_groups([GROUND_GROUP_BIT, ALL_BITS, 0, 0])
        static.attach(shape)
        entity.add_component(static)
        entity.set_pose(pose(ramp.box_center, ramp.box_quat))
        self.scene.add_entity(entity)

    def attach_shapes(self, component, colliders: list[ColliderInfo], frame_pos, frame_quat, dynamic: bool):
        """Attach the colliders' shapes; returns the unit-density mass parts (body frame) with densities."""
        parts = []
        for collider in colliders:
            if frame_pos is None:  # colliders already in this component's frame
                c_pos, c_quat = collider.local_pose.pos, collider.local_pose.quat
            else:
                c_pos, c_quat = compose(*inverse(frame_pos, frame_quat), collider.world_pose.pos, collider.world_pose.quat)
            material = self.material(collider.material)
            created = []
            for planned in plan_shapes(collider, dynamic, self.warn):
                try:
                    shape = build_sapien_shape(planned, material)
                except Exception as exc:
                    raise EngineError(f"{collider.path}: PhysX could not create the {planned.kind} shape: {exc}") from exc
                s_pos, s_quat = compose(c_pos, c_quat, planned.pos, planned.quat)
                shape.set_local_pose(pose(s_pos, s_quat))
                component.attach(shape)
                created.append((shape, planned.kind))
                if planned.unit_mass is not None and not collider.trigger:  # a trigger gives no mass (omni.physx)
                    parts.append((collider, planned.unit_mass.transformed(s_pos, s_quat)))
            self.built.shapes[collider.path] = created
        return parts

    def set_mass(self, component, body: BodyInfo, parts) -> None:
        """Give PhysX the mass we computed (UsdPhysics rules, core/usd_mass.py), so the effective mass is known."""
        props, diag, axes = body_mass(body, parts, self.warn)
        component.set_mass(float(props.mass))
        component.set_cmass_local_pose(pose(props.com, axes))
        component.set_inertia(np.asarray(diag, np.float32))
        self.built.masses[body.path] = float(props.mass)

    def add_static(self, body: BodyInfo | None, colliders: list[ColliderInfo]) -> None:
        """Colliders without a body (body None), or a disabled body: static geometry."""
        entity = sapien.Entity()
        static = physx.PhysxRigidStaticComponent()
        if body is None:
            entity.name = "static"
            self.attach_shapes(static, colliders, np.zeros(3), IDENTITY, dynamic=False)
        else:
            entity.name = body.path
            self.attach_shapes(static, colliders, None, None, dynamic=False)
            entity.set_pose(pose(body.world_pose.pos, body.world_pose.quat))
            self.built.bodies[body.path] = static
            self.warn(f"{body.path}: rigid body disabled (physics:rigidBodyEnabled = false); simulated as static")
        entity.add_component(static)
        self.scene.add_entity(entity)
        self.built.statics.append(static)

    def add_rigid(self, body: BodyInfo, colliders: list[ColliderInfo]) -> None:
        """A free (dynamic or kinematic) body outside any articulation."""
        entity = sapien.Entity()
        entity.name = body.path
        component = physx.PhysxRigidDynamicComponent()
        parts = self.attach_shapes(component, colliders, None, None, dynamic=True)
        self.set_mass(component, body, parts)
        entity.add_component(component)
        entity.set_pose(pose(body.world_pose.pos, body.world_pose.quat))
        self.scene.add_entity(entity)
        component.set_solver_position_iterations(int(self.spec.solver_position_iterations))
        component.set_solver_velocity_iterations(int(self.spec.solver_velocity_iterations))
        if body.kinematic:
            component.set_kinematic(True)
        self.built.bodies[body.path] = component
        self.built.movable.append(component)
