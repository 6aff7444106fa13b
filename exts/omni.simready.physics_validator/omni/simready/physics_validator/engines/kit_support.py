"""The omni-free half of the Kit engine: everything it computes, with no Kit call in it.

`kit_engine.KitPhysxEngine` only moves data between omni.physx / omni.physics.tensors and the
functions here, so pytest can cover the logic without Kit:

- `core.units.StageFrame` converts between the open stage's up axis and units and the SI Z-up world.
- `DofMap`: engine joint order <-> tensor-view (articulation, dof) slots; full-size target arrays.
- `BodyCornerCache` / `world_bounds`: asset bounds from PhysX body poses and cached local boxes
  (USD poses are stale when Fabric is on, so PhysX poses are the only trustworthy source).
- `ValidationLayer`: the scene a test asks for (physics scene at the test's rate, ground plane,
  lift, base pin, CPU dynamics) authored on an anonymous sublayer of the session layer and
  removed afterwards, so the user's layers are never dirtied. Pure pxr.
- `CaptureSchedule`: which physics steps get a video frame.
"""

from __future__ import annotations

import copy
import math
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Iterable, Mapping

import numpy as np

from ..core.geometry import box_corners, collider_local_extent, compose, quat_to_matrix
from ..core.units import StageFrame

if TYPE_CHECKING:
    from ..core.asset_model import AssetModel, JointInfo
    from ..core.scene import SceneSpec

VALIDATION_ROOT = "/PhysicsValidator"
LIFT_OP_SUFFIX = "physicsValidatorLift"


# -- joint order and units ----------------------------------------------------------------------------
class DofMap:
    """Where each engine joint lives in the tensor view's (count, max_dofs) arrays, and its unit scale.

    Tensor arrays hold revolute DOFs in radians and prismatic DOFs in stage length units; the engine
    speaks rad and m. Joints outside every articulation (maximal-coordinate joints) have no slot:
    the tensor API cannot read or drive them, so they are reported in `unmapped`.
    """

    def __init__(self, joints: list["JointInfo"], view_dof_paths: list[list[str]], frame: StageFrame, shape: tuple[int, int]):
        self.joints = [j.path for j in joints]
        self.shape = shape
        self.slots: list[tuple[int, int] | None] = []
        self.scale = np.ones(len(joints))
        where = {path: (a, d) for a, paths in enumerate(view_dof_paths) for d, path in enumerate(paths)}
        for i, joint in enumerate(joints):
            self.slots.append(where.get(joint.path))
            self.scale[i] = 1.0 if joint.is_angular else frame.meters_per_unit
        self.unmapped = [p for p, s in zip(self.joints, self.slots) if s is None]

    @classmethod
    def build(cls, asset: "AssetModel", view_dof_paths: list[list[str]], frame: StageFrame | None = None) -> "DofMap":
        count = len(view_dof_paths)
        max_dofs = max((len(p) for p in view_dof_paths), default=0)
        return cls(asset.dof_joints, view_dof_paths, frame or StageFrame.of_asset(asset), (count, max_dofs))

    def gather(self, view_array) -> np.ndarray:
        """(count, max_dofs) view data -> engine-order SI array; NaN where a joint has no slot."""
        data = np.asarray(view_array, float).reshape(self.shape)
        out = np.full(len(self.joints), np.nan)
        for i, slot in enumerate(self.slots):
            if slot is not None:
                out[i] = data[slot] * self.scale[i]
        return out

    def scatter_targets(self, current_view_targets, targets_si) -> tuple[np.ndarray, np.ndarray]:
        """Full-size target array for `set_dof_position_targets` and the uint32 indices of the
        articulations that changed. NaN keeps a joint's current target (the tensor API has no
        sparse per-DOF write: read, modify, write back)."""
        targets_si = np.asarray(targets_si, float)
        if targets_si.shape != (len(self.joints),):
            raise ValueError(f"expected {len(self.joints)} joint targets, got shape {targets_si.shape}")
        out = np.array(current_view_targets, dtype=np.float32).reshape(self.shape).copy()
        touched: set[int] = set()
        for i, slot in enumerate(self.slots):
            if slot is None or not np.isfinite(targets_si[i]):
                continue
            out[slot] = targets_si[i] / self.scale[i]
            touched.add(slot[0])
        return out, np.array(sorted(touched), dtype=np.uint32)


# -- bounds -------------------------------------------------------------------------------------------
class BodyCornerCache:
    """Each body's collider box corners in the body frame (SI), computed once from the asset model.

    World bounds each step = these corners moved by the body's PhysX pose. Corners rather than a
    merged box keep the result exact for boxes under rotation (a box of a box only grows).
    """

    def __init__(self, asset: "AssetModel"):
        self.corners: dict[str, np.ndarray] = {}
        for collider in asset.colliders.values():
            if not collider.collision_enabled:
                continue
            extent = collider_local_extent(collider)
            if extent is None:
                continue  # planes and empty meshes have no bounded box
            local = box_corners(*extent)
            if collider.body is None or collider.body not in asset.bodies:
                continue  # static scenery: not part of the asset's bounds
            pos, quat = collider.local_pose.pos, collider.local_pose.quat
            in_body = local @ quat_to_matrix(quat).T + np.asarray(pos, float)
            previous = self.corners.get(collider.body)
            self.corners[collider.body] = in_body if previous is None else np.vstack([previous, in_body])

    def world_bounds(self, poses: Mapping[str, tuple[np.ndarray, np.ndarray]]) -> tuple[np.ndarray, np.ndarray]:
        """Union AABB from body poses (SI, wxyz). A body missing from `poses` is an error: a stale
        bound would hide exactly the falls and penetrations the tests look for."""
        points = []  # the rigid bodies' colliders only: static scenery never counts (as in every engine)
        for body, corners in self.corners.items():
            if body not in poses:
                raise KeyError(f"no PhysX pose for body {body}")
            pos, quat = poses[body]
            points.append(corners @ quat_to_matrix(quat).T + np.asarray(pos, float))
        if not points:
            raise ValueError("the asset has no bounded collision shape")
        stacked = np.vstack(points)
        return stacked.min(axis=0), stacked.max(axis=0)


def centre_of_mass_world(asset: "AssetModel", body: str, pose: tuple[np.ndarray, np.ndarray]) -> np.ndarray:
    """Default force point: the authored centre of mass, else the body origin."""
    info = asset.bodies.get(body)
    com = None if info is None else info.center_of_mass
    if com is None:
        return np.asarray(pose[0], float)
    return compose(pose[0], pose[1], np.asarray(com, float), np.array([1.0, 0.0, 0.0, 0.0]))[0]


# -- video frames -------------------------------------------------------------------------------------
@dataclass(frozen=True)
class CaptureSchedule:
    """Capture a frame every `physics_fps / capture_fps` steps (rounded), starting at step 0."""

    physics_fps: float
    capture_fps: float

    @property
    def every(self) -> int:
        return max(1, int(round(self.physics_fps / self.capture_fps)))

    def due(self, step: int) -> bool:
        return step % self.every == 0


def downscale_rgba(frame: np.ndarray, max_width: int = 320) -> np.ndarray:
    """Nearest-neighbour shrink of an HxWx4 uint8 frame to at most `max_width` columns. Panel
    frames stay small: 10 s at 15 fps of 320x180 RGBA is ~35 MB."""
    frame = np.asarray(frame)
    height, width = frame.shape[:2]
    if width <= max_width:
        return np.ascontiguousarray(frame)
    new_height = max(1, int(round(height * max_width / width)))
    rows = (np.arange(new_height) * height / new_height).astype(int)
    cols = (np.arange(max_width) * width / max_width).astype(int)
    return np.ascontiguousarray(frame[rows][:, cols])


def usd_drive_target(joint: "JointInfo", value_si: float, frame: StageFrame) -> float:
    """A drive target as USD authors it: degrees for revolute joints, stage units for prismatic.
    Used for joints outside any articulation, which the tensor API cannot drive."""
    return math.degrees(value_si) if joint.is_angular else frame.length_from_si(value_si)


# -- restricting the asset to the panel's target ------------------------------------------------------
# -- the session sublayer -----------------------------------------------------------------------------
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
    """What the engine authors for one test, in stage units and the stage's frame."""

    scene_path: str
    define_scene: bool  # False: override the user's own physics scene (in our sublayer only)
    time_steps_per_second: int
    gravity_direction: tuple[float, float, float]
    gravity_magnitude_stage: float
    up_axis: str
    ground: GroundPlan | None = None
    lift_prim: str | None = None
    lift_stage: float = 0.0  # distance along the stage up axis, stage units, in world space
    pin_body: str | None = None
    articulation_roots: list[str] = field(default_factory=list)
    solver_position_iterations: int = 16
    solver_velocity_iterations: int = 1
    cpu_dynamics: bool = True

    @property
    def dt(self) -> float:
        return 1.0 / self.time_steps_per_second


def plan_validation_layer(
    asset: "AssetModel",
    scene: "SceneSpec",
    target: str | None = None,
    existing_scenes: Iterable[str] = (),
    frame: StageFrame | None = None,
) -> ValidationLayerPlan:
    """Decide what to author: reuse the user's physics scene when there is one, else define ours."""
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
        gravity_direction=tuple(float(v) for v in -up),
        gravity_magnitude_stage=frame.length_from_si(scene.gravity),
        up_axis=frame.up_axis.upper(),
        articulation_roots=[a.root for a in asset.articulations],
        solver_position_iterations=scene.solver_position_iterations,
        solver_velocity_iterations=scene.solver_velocity_iterations,
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
    if scene.place_bottom_at is not None and bounds is not None:
        plan.lift_prim = target or asset.default_prim
        plan.lift_stage = frame.length_from_si(scene.place_bottom_at - float(bounds[0][2]))
    if scene.pin_base:
        plan.pin_body = _base_body(asset)
    return plan


def _base_body(asset: "AssetModel") -> str | None:
    for art in asset.articulations:
        if art.base_body:
            return art.base_body
    roots = [b.path for b in asset.dynamic_bodies]
    return min(roots, key=lambda p: (p.count("/"), p)) if roots else None


class ValidationLayer:
    """An anonymous sublayer of the session layer holding every edit of one validation.

    The edit target moves to it while the test runs (so PhysX write-back lands there too) and
    `remove()` restores the previous edit target and drops the layer: the composed stage is back to
    what it was and no user layer was ever dirtied.
    """

    def __init__(self, stage, plan: ValidationLayerPlan):
        self.stage = stage
        self.plan = plan
        self.layer = None
        self._previous_edit_target = None

    def apply(self) -> "ValidationLayer":
        from pxr import Sdf, Usd

        self.layer = Sdf.Layer.CreateAnonymous("physics_validator")
        session = self.stage.GetSessionLayer()
        session.subLayerPaths.insert(0, self.layer.identifier)
        self._previous_edit_target = self.stage.GetEditTarget()
        self.stage.SetEditTarget(Usd.EditTarget(self.layer))
        try:
            self._author()
        except Exception:
            self.remove()
            raise
        return self

    def remove(self) -> None:
        if self.layer is None:
            return
        if self._previous_edit_target is not None:
            self.stage.SetEditTarget(self._previous_edit_target)
        session = self.stage.GetSessionLayer()
        if self.layer.identifier in session.subLayerPaths:
            session.subLayerPaths.remove(self.layer.identifier)
        self.layer = None

    # -- authoring ---------------------------------------------------------------------------------
    def _author(self) -> None:
        from pxr import Gf, Sdf, UsdGeom, UsdPhysics

        plan, stage = self.plan, self.stage
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
                prim.AddAppliedSchema("PhysxArticulationAPI")
                _set(prim, "physxArticulation:solverPositionIterationCount", Sdf.ValueTypeNames.Int, plan.solver_position_iterations)
                _set(prim, "physxArticulation:solverVelocityIterationCount", Sdf.ValueTypeNames.Int, plan.solver_velocity_iterations)
        if plan.ground is not None:
            self._author_ground(plan.ground)
        if plan.lift_prim and plan.lift_stage:
            self._author_lift(plan.lift_prim, plan.lift_stage)
        if plan.pin_body:
            self._author_pin(plan.pin_body)

    def _author_ground(self, ground: GroundPlan) -> None:
        from pxr import Gf, UsdGeom, UsdPhysics, UsdShade

        stage, axis = self.stage, self.plan.up_axis
        UsdGeom.Scope.Define(stage, VALIDATION_ROOT)
        xform = UsdGeom.Xform.Define(stage, ground.path)
        offset = [0.0, 0.0, 0.0]
        offset["XYZ".index(axis)] = ground.height_stage
        xform.AddTranslateOp().Set(Gf.Vec3d(*offset))
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
        UsdShade.MaterialBindingAPI.Apply(plane.GetPrim()).Bind(
            material, UsdShade.Tokens.weakerThanDescendants, "physics"
        )

    def _author_lift(self, prim_path: str, distance: float) -> None:
        """Prepend a translate op so the lift happens in the parent's space, along world up."""
        from pxr import Gf, UsdGeom

        prim = self.stage.GetPrimAtPath(prim_path)
        xformable = UsdGeom.Xformable(prim)
        if not xformable:
            raise ValueError(f"cannot lift {prim_path}: not an Xformable prim")
        world_up = Gf.Vec3d(*self.plan_up_vector())
        parent_to_world = UsdGeom.Xformable(prim.GetParent()).ComputeLocalToWorldTransform(0) if prim.GetParent().IsA(UsdGeom.Xformable) else Gf.Matrix4d(1)
        in_parent = parent_to_world.GetInverse().TransformDir(world_up * distance)
        ops = xformable.GetOrderedXformOps()
        lift = xformable.AddTranslateOp(UsdGeom.XformOp.PrecisionDouble, LIFT_OP_SUFFIX)
        lift.Set(Gf.Vec3d(in_parent))
        xformable.SetXformOpOrder([lift, *ops], xformable.GetResetXformStack())

    def plan_up_vector(self) -> tuple[float, float, float]:
        return (0.0, 1.0, 0.0) if self.plan.up_axis == "Y" else (0.0, 0.0, 1.0)

    def _author_pin(self, body_path: str) -> None:
        """A fixed joint from the world to the base body at its current pose (never in the asset)."""
        from pxr import Gf, Sdf, UsdGeom, UsdPhysics

        body = self.stage.GetPrimAtPath(body_path)
        world = UsdGeom.Xformable(body).ComputeLocalToWorldTransform(0)
        world.Orthonormalize()
        joint = UsdPhysics.FixedJoint.Define(self.stage, f"{VALIDATION_ROOT}/PinBase")
        joint.CreateBody1Rel().SetTargets([Sdf.Path(body_path)])
        joint.CreateLocalPos0Attr().Set(Gf.Vec3f(world.ExtractTranslation()))
        joint.CreateLocalRot0Attr().Set(Gf.Quatf(world.ExtractRotationQuat()))
        joint.CreateLocalPos1Attr().Set(Gf.Vec3f(0.0, 0.0, 0.0))
        joint.CreateLocalRot1Attr().Set(Gf.Quatf(1.0))


def _set(prim, name: str, type_name, value) -> None:
    attr = prim.GetAttribute(name) or prim.CreateAttribute(name, type_name)
    attr.Set(value)


def physics_scene_paths(stage) -> list[str]:
    from pxr import UsdPhysics

    return [str(p.GetPath()) for p in stage.Traverse() if p.IsA(UsdPhysics.Scene)]


@dataclass
class UserState:
    """What the Kit engine puts back after a run: timeline time and play state, and the selection."""

    time: float = 0.0
    playing: bool = False
    selection: list[str] = field(default_factory=list)
