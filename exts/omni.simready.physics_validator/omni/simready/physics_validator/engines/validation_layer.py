"""The scene a test asks for, authored as USD next to the asset. Pure pxr, no Kit.

Engines that simulate the asset's own USD stage (rather than building a scene from the AssetModel)
add what the test's `SceneSpec` asks for on a layer of their own: the physics scene at the test's
rate with gravity, the ground plane with its restitution-0 material, the lift that puts the asset's
bottom at the drop height, the fixed joint that pins the base, CPU dynamics. Two steps:

- `plan_validation_layer(asset, scene, ...)` decides what to author, in stage units and the stage's
  frame (reuse the user's physics scene when there is one, else define ours);
- `author_validation_layer(stage, plan, layer)` authors it into `layer`, any layer of the stage's
  layer stack (the Kit engine: an anonymous sublayer of the live stage's session layer, see
  `engines.kit.layer`; a headless engine: e.g. the root layer of a wrapper stage that sublayers the
  asset). The asset's own layers are never edited.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Iterable

import numpy as np

from ..core.geometry import vec3
from ..core.units import StageFrame
from .pins import PinPlan, plan_held_free, plan_pins
from .scene_additions import VALIDATION_ROOT, DrivePlan, RampPlan, author_drive, author_ramp, plan_drives, plan_ramp

if TYPE_CHECKING:
    from ..core.asset_model import AssetModel
    from ..core.built_model import BuiltArticulation
    from ..core.scene import SceneSpec

LIFT_OP_SUFFIX = "physicsValidatorLift"
# The articulation-root APIs that must sit on one prim (the runtime reads PhysxArticulationAPI on the prim with the
# root API, and treats NewtonArticulationRootAPI as a root too: erd_panda stayed floating while its link kept it).
ROOT_APIS = ("PhysicsArticulationRootAPI", "NewtonArticulationRootAPI", "PhysxArticulationAPI")
ROOT_ATTR_PREFIXES = ("physxArticulation:", "newton:selfCollisionEnabled")
# physxRigidBody:cfmScale's fallback (PhysX's PxArticulationLink default; omni.physx and ovphysx use it unscaled)
CFM_SCALE_DEFAULT = 0.025


@dataclass
class GroundPlan:
    path: str
    height_stage: float  # along the up axis, stage units
    static_friction: float
    dynamic_friction: float
    restitution: float
    half_size_stage: float


@dataclass
class ValidationLayerPlan:
    """What an engine authors for one test, in stage units and the stage's frame."""

    scene_path: str
    define_scene: bool  # False: override the user's own physics scene (in our layer only)
    time_steps_per_second: int
    gravity_direction: tuple[float, float, float]
    gravity_magnitude_stage: float
    up_axis: str
    ground: GroundPlan | None = None
    ramp: RampPlan | None = None
    lift_prim: str | None = None
    lift_stage: float = 0.0  # distance along the stage up axis, stage units, in world space
    shift_stage: tuple[float, float, float] = (0.0, 0.0, 0.0)  # horizontal move of the lift prim, stage axes and units
    drives: list[DrivePlan] = field(default_factory=list)
    variant_choices: list = field(default_factory=list)  # core.usd.variants.VariantChoice, authored first
    pins: list[PinPlan] = field(default_factory=list)
    held_free: list[str] = field(default_factory=list)  # pin_base: free bodies held still (kinematic), as sapien does
    articulation_roots: list[str] = field(default_factory=list)
    articulation_links: list[str] = field(default_factory=list)  # every rigid body of an articulation
    solver_position_iterations: int = 16
    solver_velocity_iterations: int = 1
    cpu_dynamics: bool = True
    meters_per_unit: float = 1.0

    @property
    def dt(self) -> float:
        return 1.0 / self.time_steps_per_second

    def articulation_prim(self, root: str) -> str:
        """The prim an articulation view names for the asset's articulation `root` once this plan is authored."""
        return next((p.articulation_prim for p in self.pins if p.held == root), root)

    @property
    def up_vector(self) -> tuple[float, float, float]:
        return (0.0, 1.0, 0.0) if self.up_axis == "Y" else (0.0, 0.0, 1.0)


def plan_validation_layer(
    asset: "AssetModel",
    scene: "SceneSpec",
    target: str | None = None,
    existing_scenes: Iterable[str] = (),
    frame: StageFrame | None = None,
    built: "list[BuiltArticulation] | None" = None,
) -> ValidationLayerPlan:
    """Decide what to author: reuse the user's physics scene when there is one, else define ours. `built`: the
    articulations the engine's runtime built from the asset as authored (their root links are what a pin holds,
    engines.pins); None: as the asset model reads them."""
    frame = frame or StageFrame.of_asset(asset)
    existing = sorted(existing_scenes)
    fps = int(round(scene.physics_fps))
    if fps <= 0 or not math.isclose(fps, scene.physics_fps, rel_tol=0, abs_tol=1e-6):
        raise ValueError(f"physxScene:timeStepsPerSecond is an integer; physics_fps={scene.physics_fps} is not")
    up = frame.up_vector
    plan = ValidationLayerPlan(
        scene_path=existing[0] if existing else f"{VALIDATION_ROOT}/PhysicsScene",
        define_scene=not existing,
        time_steps_per_second=fps,
        gravity_direction=(float(-up[0]), float(-up[1]), float(-up[2])),
        gravity_magnitude_stage=frame.length_from_si(scene.gravity),
        up_axis=frame.up_axis.upper(),
        articulation_roots=[a.root for a in asset.articulations],
        articulation_links=[b for a in asset.articulations for b in a.bodies],
        solver_position_iterations=scene.solver_position_iterations,
        solver_velocity_iterations=scene.solver_velocity_iterations,
        meters_per_unit=frame.meters_per_unit,
    )
    bounds = asset.authored_bounds()
    if scene.ground is not None:
        extent = 10.0 if bounds is None else max(10.0, 4.0 * float(np.max(bounds[1] - bounds[0])))
        plan.ground = GroundPlan(
            path=f"{VALIDATION_ROOT}/GroundPlane",
            height_stage=frame.length_from_si(scene.ground.height),
            static_friction=scene.ground.static_friction,
            dynamic_friction=scene.ground.dynamic_friction,
            restitution=scene.ground.restitution,
            half_size_stage=frame.length_from_si(extent),
        )
    if scene.ramp is not None:
        plan.ramp = plan_ramp(scene.ramp, frame)
    if (scene.place_bottom_at is not None or scene.place_xy is not None) and bounds is not None:
        plan.lift_prim = target or asset.default_prim or _common_top_prim(asset)
        if scene.place_bottom_at is not None:
            plan.lift_stage = frame.length_from_si(scene.place_bottom_at - float(bounds[0][2]))
        if scene.place_xy is not None:
            centre = (bounds[0] + bounds[1]) / 2
            move = np.array([scene.place_xy[0] - centre[0], scene.place_xy[1] - centre[1], 0.0])
            plan.shift_stage = vec3(frame.point_from_si(move))
    plan.drives = plan_drives(asset, scene, frame)
    plan.variant_choices = list(asset.runtime_variants)
    if scene.pin_base:
        plan.pins = plan_pins(asset, built)
        plan.held_free = plan_held_free(asset, {p.body for p in plan.pins})
    return plan


def _common_top_prim(asset: "AssetModel") -> str | None:
    """With no defaultPrim: the one top-level prim that holds every rigid body (what a drop lifts), or None when
    they sit under several (newton's axis_cube and palletizer scenes have no defaultPrim: not lifted, they started
    in or on the floor and read as 'never touched')."""
    tops = {"/" + path.strip("/").split("/")[0] for path in asset.bodies}
    return tops.pop() if len(tops) == 1 else None


def applied_api_tokens(prim) -> list[str]:
    """Every API schema token applied to `prim`, including codeless ones this process has no definition of
    (PhysxArticulationAPI, PhysxJointAxisAPI:<axis>, Newton*API: `GetAppliedSchemas()` leaves those out)."""
    listop = prim.GetMetadata("apiSchemas")
    return [str(t) for t in listop.ApplyOperations([])] if listop else []


def physics_scene_paths(stage) -> list[str]:
    """Paths of the physics scenes already on `stage` (the plan overrides the first instead of adding one)."""
    from pxr import UsdPhysics

    return [str(p.GetPath()) for p in stage.Traverse() if p.IsA(UsdPhysics.Scene)]


# -- authoring ------------------------------------------------------------------------------------------
def author_validation_layer(stage, plan: ValidationLayerPlan, layer=None) -> None:
    """Author `plan` on `stage` into `layer` (an Sdf.Layer of the stage's layer stack; default: the
    current edit target). The edit target is the same after the call as before it."""
    from pxr import Usd

    with Usd.EditContext(stage, stage.GetEditTarget() if layer is None else Usd.EditTarget(layer)):
        _author(stage, plan)


def _author(stage, plan: ValidationLayerPlan) -> None:
    from pxr import Gf, Sdf, UsdGeom, UsdPhysics

    from ..core.usd.variants import author_selections

    if plan.variant_choices:  # first: the runtime's variants compose the prims authored below
        author_selections(stage.GetEditTarget().GetLayer(), plan.variant_choices)
    if plan.define_scene:
        UsdGeom.Scope.Define(stage, VALIDATION_ROOT)
        UsdPhysics.Scene.Define(stage, plan.scene_path)
    scene_prim = stage.GetPrimAtPath(plan.scene_path)
    scene = UsdPhysics.Scene(scene_prim)
    scene.CreateGravityDirectionAttr().Set(Gf.Vec3f(*plan.gravity_direction))
    scene.CreateGravityMagnitudeAttr().Set(float(plan.gravity_magnitude_stage))
    scene_prim.AddAppliedSchema("PhysxSceneAPI")
    _set(scene_prim, "physxScene:timeStepsPerSecond", Sdf.ValueTypeNames.UInt, plan.time_steps_per_second)
    if plan.cpu_dynamics:  # the numpy tensor frontend only works on the CPU pipeline
        _set(scene_prim, "physxScene:enableGPUDynamics", Sdf.ValueTypeNames.Bool, False)
        _set(scene_prim, "physxScene:broadphaseType", Sdf.ValueTypeNames.Token, "MBP")
    for root in plan.articulation_roots:
        prim = stage.GetPrimAtPath(root)
        if prim.IsValid():
            had_api = "PhysxArticulationAPI" in applied_api_tokens(prim)
            prim.AddAppliedSchema("PhysxArticulationAPI")
            _set(prim, "physxArticulation:solverPositionIterationCount", Sdf.ValueTypeNames.Int, plan.solver_position_iterations)
            _set(prim, "physxArticulation:solverVelocityIterationCount", Sdf.ValueTypeNames.Int, plan.solver_velocity_iterations)
            if not had_api:
                _keep_parser_thresholds(prim, plan.meters_per_unit)
    if plan.meters_per_unit != 1.0:
        for path in plan.articulation_links:
            prim = stage.GetPrimAtPath(path)
            if prim.IsValid():
                _keep_metre_cfm(prim, plan.meters_per_unit)
    if plan.ground is not None:
        _author_ground(stage, plan.ground, plan.up_axis)
    if plan.ramp is not None:
        author_ramp(stage, plan.ramp)
    if plan.lift_prim and (plan.lift_stage or any(plan.shift_stage)):
        _author_lift(stage, plan.lift_prim, plan.lift_stage, plan.up_vector, plan.shift_stage)
    for drive in plan.drives:
        author_drive(stage, drive)
    for path in plan.held_free:
        prim = stage.GetPrimAtPath(path)
        if prim.IsValid():
            _set(prim, "physics:kinematicEnabled", Sdf.ValueTypeNames.Bool, True)
    for pin in plan.pins:
        joint = author_pin_joint(stage, pin.body, pin.joint_path).GetPrim()
        if pin.move_root_api_from:
            _move_root_api(stage.GetPrimAtPath(pin.move_root_api_from), joint)


def _move_root_api(root, joint) -> None:
    """The articulation-root APIs (with their values) from a rigid body onto the pin joint: a `delete` list op
    and copied attributes in the layer being authored; the asset's layers are not touched."""
    tokens = applied_api_tokens(root)
    values = [(a.GetName(), a.GetTypeName(), a.Get()) for a in root.GetAttributes()
              if a.GetName().startswith(ROOT_ATTR_PREFIXES) and a.HasAuthoredValue()]
    for api in ROOT_APIS:
        if api in tokens:
            root.RemoveAppliedSchema(api)
            joint.AddAppliedSchema(api)
    for name, type_name, value in values:
        joint.CreateAttribute(name, type_name).Set(value)


def _keep_parser_thresholds(prim, meters_per_unit: float) -> None:
    """Applying PhysxArticulationAPI where the asset had none must not change the articulation's sleep and
    stabilization thresholds: without the API the parser uses units-scaled defaults (5e-3 and 1.0 on a
    metre stage), with it the schema fallbacks 5e-5 and 1e-5 (ovphysx docs/population/PhysxArticulationAPI.md,
    a documented defect of both population paths). Author the parser defaults unless the asset has values."""
    from pxr import Sdf

    speed2 = (10.0 / meters_per_unit) ** 2  # tolerances_speed = 10 / metersPerUnit, squared
    for name, value in (("physxArticulation:sleepThreshold", 5e-5 * speed2),
                        ("physxArticulation:stabilizationThreshold", 1e-2 * speed2)):
        attr = prim.GetAttribute(name)
        if not (attr and attr.HasAuthoredValue()):
            _set(prim, name, Sdf.ValueTypeNames.Float, float(value))


def metre_equivalent_cfm_scale(meters_per_unit: float) -> float:
    """The link cfmScale under which a stage at `meters_per_unit` regularises its revolute joints as a metre stage
    does with the default 0.025 (clamped to the schema's [0, 1]).

    PhysX adds to each articulation constraint's unit response a CFM of cfmScale / tolerancesScale.length x the
    link's linear impulse response (PhysX DyFeatherstoneArticulation.cpp `link.cfm = cfmScale * invLengthScale`,
    DyFeatherstoneForwardDynamic.cpp; omni.physx and ovphysx set tolerancesScale.length = 1 / metersPerUnit).
    That CFM scales as 1 / (kg u) while a revolute joint's response scales as 1 / (kg u^2), so relative to the
    joint it grows as 1 / metersPerUnit: x100 on a centimetre stage, where a capped joint then moves faster than
    its reported velocity (measured, 4R fixture arm, no gravity: 120 deg/s cap, position rate 130.8 deg/s in cm,
    120.1 in m). cfmScale x metersPerUnit restores the metre ratio for angular joints exactly (cm and mm then read
    120.145 deg/s as m does). Prismatic joints and contacts (response 1 / kg) then see 1e-4 of the metre CFM
    instead of the runtime's 1e-2: no cfmScale in [0, 1] gives them the metre value (docs/engine-divergences.md)."""
    return min(1.0, CFM_SCALE_DEFAULT * float(meters_per_unit))


def _keep_metre_cfm(prim, meters_per_unit: float) -> None:
    """An articulation link of a non-metre stage gets the metre-equivalent cfmScale unless the asset tunes it
    (PhysxRigidBodyAPI applied with a value: the author's choice, kept). Applying PhysxRigidBodyAPI changes no
    other parsed value (ovphysx docs/population/PhysxRigidBodyAPI.md: every other parser default equals what
    population writes without the API)."""
    from pxr import Sdf

    attr = prim.GetAttribute("physxRigidBody:cfmScale")
    if attr and attr.HasAuthoredValue() and "PhysxRigidBodyAPI" in applied_api_tokens(prim):
        return
    prim.AddAppliedSchema("PhysxRigidBodyAPI")
    _set(prim, "physxRigidBody:cfmScale", Sdf.ValueTypeNames.Float, metre_equivalent_cfm_scale(meters_per_unit))


def _author_ground(stage, ground: GroundPlan, axis: str) -> None:
    """A collision plane along the up axis with a physics material (restitution as the test asks).

    Not omni.physx's `physicsUtils.add_ground_plane`: that re-roots the path under the stage's default
    prim (NVIDIA-Omniverse/PhysX omni/extensions/runtime/source/omni.physx/python/scripts/physicsUtils.py,
    `get_stage_next_free_path(..., True)`), which on an asset stage makes the floor part of the asset.
    """
    from pxr import Gf, UsdGeom, UsdPhysics, UsdShade

    UsdGeom.Scope.Define(stage, VALIDATION_ROOT)
    xform = UsdGeom.Xform.Define(stage, ground.path)
    offset = [0.0, 0.0, 0.0]
    offset["XYZ".index(axis)] = ground.height_stage
    existing = {op.GetOpName(): op for op in xform.GetOrderedXformOps()}  # a stage saved with our ground in it
    translate = existing.get("xformOp:translate") or xform.AddTranslateOp()
    xform.SetXformOpOrder([translate])
    translate.Set(Gf.Vec3d(*offset))
    plane = UsdGeom.Plane.Define(stage, f"{ground.path}/CollisionPlane")
    plane.CreateAxisAttr().Set(axis)
    plane.CreateWidthAttr().Set(2.0 * ground.half_size_stage)
    plane.CreateLengthAttr().Set(2.0 * ground.half_size_stage)
    plane.CreateDisplayColorAttr().Set([Gf.Vec3f(0.2, 0.35, 0.75)])  # the spec's blue floor
    UsdPhysics.CollisionAPI.Apply(plane.GetPrim())
    material = UsdShade.Material.Define(stage, f"{ground.path}/PhysicsMaterial")
    physics_material = UsdPhysics.MaterialAPI.Apply(material.GetPrim())
    physics_material.CreateStaticFrictionAttr().Set(float(ground.static_friction))
    physics_material.CreateDynamicFrictionAttr().Set(float(ground.dynamic_friction))
    physics_material.CreateRestitutionAttr().Set(float(ground.restitution))
    UsdShade.MaterialBindingAPI.Apply(plane.GetPrim()).Bind(material, UsdShade.Tokens.weakerThanDescendants, "physics")


def _author_lift(stage, prim_path: str, distance: float, up_vector: tuple[float, float, float],
                 shift: tuple[float, float, float] = (0.0, 0.0, 0.0)) -> None:
    """Prepend a translate op so the move happens in the parent's space: `distance` along world up plus the world
    vector `shift` (stage units). Every prim below that resets its xform stack (`!resetXformStack!`: its transform is
    its world transform, whatever lies above it) gets the same world move: a crate resetting its stack started on the
    floor while the rest of the asset was lifted, and read as 'never touched'."""
    from pxr import Gf, Usd, UsdGeom

    prim = stage.GetPrimAtPath(prim_path)
    xformable = UsdGeom.Xformable(prim)
    if not xformable:
        raise ValueError(f"cannot lift {prim_path}: not an Xformable prim")
    world_move = Gf.Vec3d(*up_vector) * distance + Gf.Vec3d(*shift)
    parent = prim.GetParent()
    parent_to_world = (UsdGeom.Xformable(parent).ComputeLocalToWorldTransform(0) if parent.IsA(UsdGeom.Xformable)
                       else Gf.Matrix4d(1))
    resetting = [p for p in Usd.PrimRange(prim) if p != prim and p.IsA(UsdGeom.Xformable)
                 and UsdGeom.Xformable(p).GetResetXformStack()]
    _prepend_translate(xformable, parent_to_world.GetInverse().TransformDir(world_move))
    for below in resetting:  # their parent space is the world
        _prepend_translate(UsdGeom.Xformable(below), world_move)


def _prepend_translate(xformable, move) -> None:
    """The lift as the outermost op of `xformable` (after a reset of the xform stack, which it keeps)."""
    from pxr import Gf, UsdGeom

    ops = xformable.GetOrderedXformOps()
    name = f"xformOp:translate:{LIFT_OP_SUFFIX}"
    previous = next((op for op in ops if op.GetOpName() == name), None)
    if previous is not None:  # a stage saved with our lift in it: lift further from there
        previous.Set(Gf.Vec3d(previous.Get()) + Gf.Vec3d(move))
        return
    lift = xformable.AddTranslateOp(UsdGeom.XformOp.PrecisionDouble, LIFT_OP_SUFFIX)
    lift.Set(Gf.Vec3d(move))
    xformable.SetXformOpOrder([lift, *ops], xformable.GetResetXformStack())


def author_pin_joint(stage, body_path: str, joint_path: str = f"{VALIDATION_ROOT}/PinBase"):
    """A fixed joint from the world to the base body at its current pose (never in the asset); returns it."""
    from pxr import Gf, Sdf, UsdGeom, UsdPhysics

    body = stage.GetPrimAtPath(body_path)
    world = UsdGeom.Xformable(body).ComputeLocalToWorldTransform(0)
    world.Orthonormalize()
    joint = UsdPhysics.FixedJoint.Define(stage, joint_path)
    joint.CreateBody1Rel().SetTargets([Sdf.Path(body_path)])
    joint.CreateLocalPos0Attr().Set(Gf.Vec3f(world.ExtractTranslation()))
    joint.CreateLocalRot0Attr().Set(Gf.Quatf(world.ExtractRotationQuat()))
    joint.CreateLocalPos1Attr().Set(Gf.Vec3f(0.0, 0.0, 0.0))
    joint.CreateLocalRot1Attr().Set(Gf.Quatf(1.0))
    return joint


def _set(prim, name: str, type_name, value) -> None:
    attr = prim.GetAttribute(name) or prim.CreateAttribute(name, type_name)
    attr.Set(value)
