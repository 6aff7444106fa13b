"""The asset model: everything the tests and engines need from a USD asset, in SI and Z-up.

Built once by `core.usd.read_asset` (one pxr pass, never writes the file). Units are converted
here, once: positions in m, angles in rad, masses in kg, joint velocities in rad/s or m/s, angular
drive gains per radian. The world frame is the stage's world rotated so +Z is up and scaled to metres.
Quaternions are (w, x, y, z).
"""

from __future__ import annotations

import copy
import math
from dataclasses import dataclass, field

import numpy as np

from .inertial import MassProperties
from .markers import AssetMarkers
from .pose import IDENTITY_QUAT, Pose  # noqa: F401 - the model's poses, imported from here by the readers and tests


@dataclass
class Spelling:
    """One authored attribute that spells a value a physics runtime reads (core/usd/spellings.py), in SI.

    `partial`: a body value some of whose colliders author nothing (those take the runtime's default);
    `comparable`: False when the attribute is another quantity the runtime derives the value from (a density
    for a mass)."""

    attribute: str
    value: float | tuple[float, ...]
    partial: bool = False
    comparable: bool = True


@dataclass
class MaterialInfo:
    path: str = ""
    static_friction: float = 0.5
    dynamic_friction: float = 0.5
    restitution: float = 0.0
    density: float | None = None  # kg/m^3, None when not authored
    friction_combine: str | None = None  # PhysX combine modes: average, min, multiply, max
    restitution_combine: str | None = None


@dataclass
class ColliderInfo:
    path: str
    shape: str  # box, sphere, capsule, cylinder, cone, mesh, plane
    body: str | None  # owning rigid body path; None for a static collider
    local_pose: Pose  # relative to the body frame (world frame for static colliders)
    world_pose: Pose
    half_extents: np.ndarray | None = None  # box, SI (scale applied)
    radius: float | None = None  # sphere, capsule, cylinder, cone
    half_height: float | None = None  # capsule (cylinder part), cylinder, cone
    axis: str = "Z"  # capsule, cylinder, cone, plane normal
    mesh_points: np.ndarray | None = None  # (N, 3) in the collider frame, SI, scale applied
    mesh_face_vertex_counts: np.ndarray | None = None
    mesh_face_vertex_indices: np.ndarray | None = None
    approximation: str = "none"  # none, convexHull, convexDecomposition, boundingCube, boundingSphere, ...
    material: MaterialInfo | None = None
    collision_enabled: bool = True
    mass: float | None = None  # MassAPI on the collider, kg
    density: float | None = None  # MassAPI on the collider, kg/m^3
    collision_groups: list[str] = field(default_factory=list)
    trigger: bool = False  # PhysxTriggerAPI: a trigger volume, given no contacts by the runtime
    built_collides: bool | None = None  # whether the engine's runtime gives it contacts (core.runtime_model); None: unread

    @property
    def collides(self) -> bool:
        """The runtime gives this shape contacts: as the engine built it when it says, else collision enabled and not
        a trigger."""
        if self.built_collides is not None:
            return self.built_collides
        return self.collision_enabled and not self.trigger


@dataclass
class BodyInfo:
    path: str
    world_pose: Pose
    enabled: bool = True
    kinematic: bool = False
    linear_velocity: np.ndarray = field(default_factory=lambda: np.zeros(3))  # m/s, world
    angular_velocity: np.ndarray = field(default_factory=lambda: np.zeros(3))  # rad/s, world
    # As authored (MassAPI; the spellings fix rewrites and the readback's authored column): never the physics
    mass: float | None = None  # authored MassAPI mass (> 0), kg
    density: float | None = None  # authored MassAPI density on the body, kg/m^3
    center_of_mass: np.ndarray | None = None  # authored, body frame, m
    diagonal_inertia: np.ndarray | None = None  # authored, kg m^2
    principal_axes: np.ndarray | None = None  # authored, quaternion wxyz
    # Mass (kg), centre of mass (body frame, m) and inertia (kg m^2 about it) as the runtime built them, whatever the
    # spelling (core.runtime_model.adopt: from the engine's built model, else the USD reading's statement of UsdPhysics's
    # rules, core.usd_mass); None until adopted
    built_mass_properties: MassProperties | None = None
    colliders: list[str] = field(default_factory=list)
    articulation: str | None = None  # articulation root path when part of one
    starts_asleep: bool = False
    gravity: bool = True  # gravity acts on it (physxRigidBody:disableGravity not true, or as the runtime built it)
    spellings: dict[str, list[Spelling]] = field(default_factory=dict)  # property -> authored spellings (readback)

    @property
    def name(self) -> str:
        return self.path.rsplit("/", 1)[-1]


@dataclass
class DriveInfo:
    axis: str  # angular / linear, or rotX..transZ on a D6 joint
    type: str = "force"  # force or acceleration
    stiffness: float = 0.0  # N m/rad or N/m
    damping: float = 0.0  # N m s/rad or N s/m
    max_force: float = math.inf  # N m or N
    target_position: float = 0.0  # rad or m
    target_velocity: float = 0.0

    @property
    def active(self) -> bool:
        """A drive that can move its joint: stiffness or damping > 0 (the passive-joint rule)."""
        return self.stiffness > 0 or self.damping > 0

    @property
    def velocity_controlled(self) -> bool:
        """A velocity drive: stiffness 0, damping > 0. It follows a velocity target and ignores a position one."""
        return self.stiffness == 0 and self.damping > 0


@dataclass
class MimicInfo:
    """A mimic coupling as authored, and what it means in SI: follower = intercept + slope x reference.

    PhysxMimicJointAPI:<axis> constrains position + gearing x referencePosition + offset = 0 (so slope = -gearing);
    NewtonMimicAPI sets joint = coef0 + coef1 x leader (slope = coef1). Offsets are authored in the follower's USD
    units (degrees, stage lengths); a gearing between joints of two kinds carries their unit ratio."""

    schema: str  # "PhysxMimicJointAPI:rotZ" or "NewtonMimicAPI"
    gearing: float  # as authored: physxMimicJoint:<axis>:gearing or newton:mimicCoef1
    offset: float  # as authored: physxMimicJoint:<axis>:offset or newton:mimicCoef0 (follower USD units)
    slope: float  # d follower / d reference in SI (rad/rad, m/m, or their ratio)
    intercept: float  # follower at reference 0, SI (rad or m)
    natural_frequency: float | None = None  # PhysX: physxMimicJoint:<axis>:naturalFrequency (Hz), when authored
    damping_ratio: float | None = None  # PhysX: physxMimicJoint:<axis>:dampingRatio, when authored
    enabled: bool = True  # newton:mimicEnabled as authored (false: the author switched the coupling off)
    rejected: str = ""  # why the runtime does not build this coupling ('' : it does, or nothing says otherwise)

    @property
    def acts(self) -> bool:
        """The coupling moves the follower: switched on and built by the runtime."""
        return self.enabled and not self.rejected


@dataclass
class EnvelopeInfo:
    """PhysxDrivePerformanceEnvelopeAPI on a joint's drive, in SI. PhysX bounds the drive by |effort| <= maxForce -
    velocity_resistance |v| and |v| <= max_actuator_velocity - speed_effort_gradient |effort| (a DC-motor model);
    it acts on articulation joints only."""

    max_actuator_velocity: float | None = None  # rad/s or m/s at zero effort (None: not authored = unbounded)
    velocity_resistance: float = 0.0  # N m s/rad or N s/m: effort lost per unit speed
    speed_effort_gradient: float = 0.0  # rad/s per N m or m/s per N: speed lost per unit effort
    instance: str = ""  # the schema instance read (angular, linear, rotX...)


@dataclass
class LimitInfo:
    lower: float
    upper: float  # SI; lower > upper means the axis is locked (UsdPhysics D6 convention)


@dataclass
class JointInfo:
    path: str
    type: str  # revolute, prismatic, fixed, spherical, d6, distance
    body0: str | None  # None = world
    body1: str | None
    local_pose0: Pose
    local_pose1: Pose
    axis: str = "X"  # revolute / prismatic axis in the joint frame
    lower: float | None = None  # SI; None when unlimited
    upper: float | None = None
    # a limit authored on one side only (the other +-inf): (lower, upper) with the open side infinite. UsdPhysics reads
    # no limit (lower/upper stay None: no range for the tests); PhysX locks such a joint, Newton limits that side
    one_sided: tuple[float, float] | None = None
    drive: DriveInfo | None = None
    d6_limits: dict[str, LimitInfo] = field(default_factory=dict)  # rotX..transZ, D6 / spherical
    d6_drives: dict[str, DriveInfo] = field(default_factory=dict)
    velocity_limit: float | None = None  # rad/s or m/s
    velocity_limit_source: str | None = None  # the attribute it was read from
    effort_limit: float | None = None  # the actuator's rated effort, N m or N (urdf:limit:effort, mjc:actuatorfrcrange)
    effort_limit_source: str | None = None  # the attribute it was read from
    effort_limit_note: str = ""  # why an authored rating was not taken (e.g. urdf:limit:effort = 0)
    enabled: bool = True
    exclude_from_articulation: bool = False
    collision_enabled: bool = False  # collisions between body0 and body1
    break_force: float = math.inf
    break_torque: float = math.inf
    articulation: str | None = None  # articulation root path when the joint belongs to one
    actuated_by: list[str] = field(default_factory=list)  # NewtonActuator / MjcActuator prims targeting it
    actuator_schemas: list[str] = field(default_factory=list)  # their prim types (NewtonActuator, MjcActuator), once each
    mimic_reference: str | None = None  # joint path this one follows (PhysxMimicJointAPI / NewtonMimicAPI)
    mimic_schema: str | None = None
    mimic: "MimicInfo | None" = None  # the authored coupling, in SI
    envelope: "EnvelopeInfo | None" = None  # PhysxDrivePerformanceEnvelopeAPI of its drive, in SI
    loop_closing: bool = False
    joint_state_position: float | None = None  # PhysicsJointStateAPI position, SI
    spellings: dict[str, list[Spelling]] = field(default_factory=dict)  # property -> authored spellings (readback)

    @property
    def name(self) -> str:
        return self.path.rsplit("/", 1)[-1]

    @property
    def is_dof(self) -> bool:
        return self.type in ("revolute", "prismatic")

    @property
    def is_angular(self) -> bool:
        return self.type == "revolute"

    @property
    def has_limits(self) -> bool:
        return (
            self.lower is not None
            and self.upper is not None
            and math.isfinite(self.lower)
            and math.isfinite(self.upper)
            and self.upper > self.lower
        )

    @property
    def limits(self) -> tuple[float, float] | None:
        """(lower, upper) in SI when the joint has usable limits (`has_limits`), else None."""
        if self.lower is None or self.upper is None or not self.has_limits:
            return None
        return self.lower, self.upper

    @property
    def is_locked(self) -> bool:
        """Both limits authored and equal: PhysX holds the joint fixed (measured on ovphysx: a [0, 0] range)."""
        return (self.lower is not None and self.upper is not None and math.isfinite(self.lower)
                and math.isfinite(self.upper) and self.upper <= self.lower)

    @property
    def is_passive(self) -> bool:
        """No drive with stiffness or damping > 0 and no actuator prim targeting it."""
        drives = [self.drive, *self.d6_drives.values()]
        return not self.actuated_by and not any(d is not None and d.active for d in drives)

    @property
    def is_mimic_follower(self) -> bool:
        """A coupling moves this joint: one is authored, switched on, and the runtime built it."""
        return self.mimic_reference is not None and (self.mimic is None or self.mimic.acts)

    @property
    def is_world_anchor(self) -> bool:
        """A joint that holds the asset to the world: exactly one side is a rigid body (the other the
        world or a static frame) and the joint removes translation. A fixed joint is the spec's case;
        a revolute, prismatic or spherical joint to the world (a pendulum, a cart on a rail) holds the
        asset just as well, so it cannot fall either. A D6 joint anchors when it limits a translation."""
        if not self.enabled or (self.body0 is None) == (self.body1 is None):
            return False
        if self.type in ("fixed", "revolute", "prismatic", "spherical"):
            return True
        if self.type == "d6":
            return any(axis in self.d6_limits for axis in ("transX", "transY", "transZ"))
        return False


@dataclass
class ArticulationInfo:
    root: str  # prim with ArticulationRootAPI
    bodies: list[str] = field(default_factory=list)
    joints: list[str] = field(default_factory=list)
    fixed_base: bool = False  # a joint ties the tree to the world
    base_body: str | None = None
    # physxArticulation:solverPositionIterationCount / solverVelocityIterationCount as authored on the root (None: not)
    solver_iterations: tuple[int | None, int | None] = (None, None)
    self_collisions: bool = True  # physxArticulation:enabledSelfCollisions (PhysX's default: links that are not
    # neighbours collide with each other)
    enabled: bool = True  # physxArticulation:articulationEnabled (false: PhysX builds no articulation from this root)


@dataclass
class AssetIssue:
    """Something wrong found while reading (not a test verdict): shown in prechecks and reports."""

    severity: str  # error, warning
    code: str  # e.g. MASS_NAN, NO_COLLIDER, JOINT_TARGET_MISSING
    path: str
    message: str


@dataclass
class AssetModel:
    path: str
    default_prim: str | None
    up_axis: str = "Z"
    meters_per_unit: float = 1.0
    kilograms_per_unit: float = 1.0
    bodies: dict[str, BodyInfo] = field(default_factory=dict)
    colliders: dict[str, ColliderInfo] = field(default_factory=dict)
    joints: dict[str, JointInfo] = field(default_factory=dict)
    articulations: list[ArticulationInfo] = field(default_factory=list)
    filtered_pairs: list[tuple[str, str]] = field(default_factory=list)
    collision_group_filters: list[tuple[str, str]] = field(default_factory=list)  # group pairs that do not collide
    issues: list[AssetIssue] = field(default_factory=list)
    robot_type: str | None = None  # isaac:robotType, normalised
    physics_runtime: str | None = None  # the runtime whose variants were selected when reading (PhysX, Newton)
    runtime_variants: list = field(default_factory=list)  # core.usd.variants.VariantChoice made for it
    markers: AssetMarkers = field(default_factory=AssetMarkers)  # gripper sites, grasp lines, robot links (core.markers)

    # -- queries used by tests and engines --------------------------------------------------------
    @property
    def dynamic_bodies(self) -> list[BodyInfo]:
        return [b for b in self.bodies.values() if b.enabled and not b.kinematic]

    @property
    def dof_joints(self) -> list[JointInfo]:
        return [j for j in self.joints.values() if j.is_dof and j.enabled]

    @property
    def world_anchors(self) -> list[JointInfo]:
        return [j for j in self.joints.values() if j.is_world_anchor]

    def restricted_to(self, root: str | None) -> "AssetModel":
        """The part of the model below `root` (the panel's target prim). A joint stays when it lies
        under the root or touches a body that does (world anchors often live outside the asset)."""
        if not root or root == "/":
            return self
        out = copy.copy(self)
        out.bodies = {p: b for p, b in self.bodies.items() if _under(p, root)}
        out.colliders = {p: c for p, c in self.colliders.items() if _under(p, root)}
        out.joints = {p: j for p, j in self.joints.items() if _under(p, root) or _under(j.body0, root) or _under(j.body1, root)}
        out.articulations = [a for a in self.articulations if _under(a.root, root) or any(_under(b, root) for b in a.bodies)]
        out.issues = [i for i in self.issues if _under(i.path, root)]
        out.default_prim = root
        return out

    def bounding_colliders(self, body: str) -> list[ColliderInfo]:
        """The colliders that make a body's bounds: those the runtime gives contacts, or, when none does (every collider
        disabled, or only a trigger), all of them, so that a body that touches nothing is still seen where it is."""
        info = self.bodies.get(body)
        colliders = [self.colliders[p] for p in (info.colliders if info is not None else ()) if p in self.colliders]
        colliding = [c for c in colliders if c.collides]
        return colliding or colliders

    def errors(self) -> list[AssetIssue]:
        return [i for i in self.issues if i.severity == "error"]

    def joint_by_name(self, name: str) -> JointInfo | None:
        for joint in self.joints.values():
            if joint.name == name:
                return joint
        return None

    @property
    def static_colliders(self) -> list[ColliderInfo]:
        """Collision geometry on no rigid body: scenery (a floor, a platform), not part of what moves."""
        return [c for c in self.colliders.values() if c.body is None]

    def authored_bounds(self) -> tuple[np.ndarray, np.ndarray] | None:
        """World AABB of the rigid bodies' colliders as authored (before simulation).

        The asset's bounds everywhere (tests, engines, placement) are those of its rigid bodies'
        collision shapes (`bounding_colliders`: a trigger volume is no part of them); static colliders are scenery
        and never count.
        """
        from .geometry import collider_world_aabb

        boxes = [collider_world_aabb(c) for body in self.bodies for c in self.bounding_colliders(body)]
        boxes = [b for b in boxes if b is not None]
        if not boxes:
            return None
        lo = np.min([b[0] for b in boxes], axis=0)
        hi = np.max([b[1] for b in boxes], axis=0)
        return lo, hi


def _under(path: str | None, root: str) -> bool:
    return path is not None and (path == root or path.startswith(root.rstrip("/") + "/"))
