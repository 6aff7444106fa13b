"""What a test adds to the scene besides the ground and the pin, planned in the stage's frame and units and authored
into an engine's own layer (engines.validation_layer): a static ramp (core.ramp.RampSpec) and the drives a test
puts on joints for its run (core.scene.DriveOverride). Pure pxr, no Kit; the asset's layers are never edited."""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import TYPE_CHECKING

from ..core.geometry import quat4, vec3
from ..core.units import StageFrame

if TYPE_CHECKING:
    from ..core.asset_model import AssetModel
    from ..core.scene import SceneSpec

VALIDATION_ROOT = "/PhysicsValidator"


@dataclass
class RampPlan:
    """The static ramp box (core.ramp.RampSpec) in the stage's frame and units."""

    path: str
    center_stage: tuple[float, float, float]
    quat_stage: tuple[float, float, float, float]  # w, x, y, z
    half_extents_stage: tuple[float, float, float]
    static_friction: float
    dynamic_friction: float
    restitution: float


@dataclass
class DrivePlan:
    """A drive the test puts on a joint for its run (core.scene.DriveOverride), in USD units: per degree and degrees
    for a revolute joint, stage units for a prismatic one."""

    joint: str
    instance: str  # angular / linear
    stiffness: float
    damping: float
    max_force: float  # inf: not authored (unlimited)
    target_position: float
    target_velocity: float


def plan_ramp(ramp, frame: StageFrame) -> RampPlan:
    """The ramp box in stage axes and units (a Y-up stage gets it rotated into its frame)."""
    return RampPlan(
        path=f"{VALIDATION_ROOT}/Ramp",
        center_stage=vec3(frame.point_from_si(ramp.box_center)),
        quat_stage=quat4(frame.quat_from_si(ramp.box_quat)),
        half_extents_stage=vec3(frame.length_from_si(float(v)) for v in ramp.box_half_extents),
        static_friction=ramp.static_friction, dynamic_friction=ramp.dynamic_friction, restitution=ramp.restitution,
    )


def plan_drives(asset: "AssetModel", scene: "SceneSpec", frame: StageFrame) -> list[DrivePlan]:
    """The scene's drive overrides in USD units (gains per degree for revolute joints)."""
    out = []
    for path, drive in scene.drive_overrides.items():
        joint = asset.joints.get(path)
        if joint is None or not joint.is_dof:
            continue
        angular = joint.is_angular
        coordinate = frame.joint_coordinate_scale(angular)  # USD coordinate -> SI
        effort = frame.joint_effort_scale(angular)
        out.append(DrivePlan(
            joint=path, instance="angular" if angular else "linear",
            stiffness=drive.stiffness * coordinate / effort, damping=drive.damping * coordinate / effort,
            max_force=drive.max_force / effort if math.isfinite(drive.max_force) else math.inf,
            target_position=drive.target_position / coordinate, target_velocity=drive.target_velocity / coordinate,
        ))
    return out


def author_ramp(stage, ramp: RampPlan) -> None:
    """A static box collider (no rigid body) with its physics material: the ramp's top face is the inclined plane."""
    from pxr import Gf, UsdGeom, UsdPhysics, UsdShade

    UsdGeom.Scope.Define(stage, VALIDATION_ROOT)
    cube = UsdGeom.Cube.Define(stage, ramp.path)
    cube.CreateSizeAttr().Set(2.0)
    cube.ClearXformOpOrder()
    cube.AddTranslateOp().Set(Gf.Vec3d(*ramp.center_stage))
    w, x, y, z = ramp.quat_stage
    cube.AddOrientOp(UsdGeom.XformOp.PrecisionDouble).Set(Gf.Quatd(w, x, y, z))
    cube.AddScaleOp().Set(Gf.Vec3f(*ramp.half_extents_stage))
    cube.CreateDisplayColorAttr().Set([Gf.Vec3f(0.25, 0.45, 0.8)])
    UsdPhysics.CollisionAPI.Apply(cube.GetPrim())
    material = UsdShade.Material.Define(stage, f"{ramp.path}Material")
    physics_material = UsdPhysics.MaterialAPI.Apply(material.GetPrim())
    physics_material.CreateStaticFrictionAttr().Set(float(ramp.static_friction))
    physics_material.CreateDynamicFrictionAttr().Set(float(ramp.dynamic_friction))
    physics_material.CreateRestitutionAttr().Set(float(ramp.restitution))
    UsdShade.MaterialBindingAPI.Apply(cube.GetPrim()).Bind(material, UsdShade.Tokens.weakerThanDescendants, "physics")


def author_drive(stage, drive: DrivePlan) -> None:
    """The test's drive on a joint, in this layer: DriveAPI:<instance> with its gains and targets (the asset's own
    drive, if any, is overridden here only)."""
    from pxr import Sdf

    prim = stage.GetPrimAtPath(drive.joint)
    if not prim.IsValid():
        return
    prim.AddAppliedSchema(f"PhysicsDriveAPI:{drive.instance}")
    ns = f"drive:{drive.instance}:physics"
    _set(prim, f"{ns}:type", Sdf.ValueTypeNames.Token, "force")
    _set(prim, f"{ns}:stiffness", Sdf.ValueTypeNames.Float, float(drive.stiffness))
    _set(prim, f"{ns}:damping", Sdf.ValueTypeNames.Float, float(drive.damping))
    _set(prim, f"{ns}:maxForce", Sdf.ValueTypeNames.Float, float(drive.max_force))
    _set(prim, f"{ns}:targetPosition", Sdf.ValueTypeNames.Float, float(drive.target_position))
    _set(prim, f"{ns}:targetVelocity", Sdf.ValueTypeNames.Float, float(drive.target_velocity))


def _set(prim, name: str, type_name, value) -> None:
    attr = prim.GetAttribute(name) or prim.CreateAttribute(name, type_name)
    attr.Set(value)
