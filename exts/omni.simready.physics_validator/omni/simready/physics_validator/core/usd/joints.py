"""Joints: frames, limits, drives, D6 and spherical axes, velocity limits, in SI units and radians.

USD authors angles in degrees and lengths in stage units; drive gains carry both (per degree, per
stage unit), so each is converted with its own factor here once and engines see SI only. A
single-axis limit at +-inf or beyond 1e30 means "free", as in omni.physx. Velocity limits come in three spellings
(PhysX joint, PhysX per-axis, Newton); the first authored one wins and is recorded as the source.
"""

from __future__ import annotations

import math

from ..asset_model import DriveInfo, EnvelopeInfo, JointInfo, LimitInfo
from .read_context import ReadContext, api_tokens, authored, axis_letter, finite

# UsdPhysics parser object type -> JointInfo.type
JOINT_TYPES = {
    "RevoluteJoint": "revolute",
    "PrismaticJoint": "prismatic",
    "FixedJoint": "fixed",
    "SphericalJoint": "spherical",
    "D6Joint": "d6",
    "DistanceJoint": "distance",
    "CustomJoint": "d6",
}


def read_joint(ctx: ReadContext, path, desc, jtype: str) -> None:
    spath = str(path)
    prim = ctx.stage.GetPrimAtPath(path)
    body0 = _joint_body(ctx, desc.body0)
    body1 = _joint_body(ctx, desc.body1)
    for rel_name, rel_target in (("body0", desc.rel0), ("body1", desc.rel1)):
        target = str(rel_target) if rel_target else ""
        if target and not ctx.stage.GetPrimAtPath(target):
            ctx.issue("error", "JOINT_TARGET_MISSING", spath, f"physics:{rel_name} targets a missing prim {target}")
    pose0 = ctx.local_pose(desc.localPose0Position, desc.localPose0Orientation)
    pose1 = ctx.local_pose(desc.localPose1Position, desc.localPose1Orientation)
    if body0 is None:
        # Relative to the world: the local pose is a world pose in stage space.
        pose0 = ctx.world_pose(desc.localPose0Position, desc.localPose0Orientation)
    if body1 is None:
        pose1 = ctx.world_pose(desc.localPose1Position, desc.localPose1Orientation)
    joint = JointInfo(
        path=spath,
        type=jtype,
        body0=body0,
        body1=body1,
        local_pose0=pose0,
        local_pose1=pose1,
        enabled=bool(desc.jointEnabled),
        exclude_from_articulation=bool(desc.excludeFromArticulation),
        collision_enabled=bool(desc.collisionEnabled),
        break_force=float(desc.breakForce),
        break_torque=float(desc.breakTorque),
    )
    if jtype in ("revolute", "prismatic"):
        _read_single_axis(ctx, prim, desc, joint)
    elif jtype in ("d6", "spherical"):
        _read_d6(ctx, desc, joint, jtype)
    ctx.model.joints[spath] = joint


def _joint_body(ctx: ReadContext, path) -> str | None:
    """A joint end that is no rigid body of the asset (empty, or a plain prim) is the world."""
    spath = str(path) if path else ""
    if not spath:
        return None
    return spath if spath in ctx.model.bodies else None


def _read_single_axis(ctx: ReadContext, prim, desc, joint: JointInfo) -> None:
    """Revolute or prismatic: axis, limits, drive, velocity limit and authored joint state."""
    joint.axis = axis_letter(desc.axis, "X")
    angular = joint.type == "revolute"
    limit = desc.limit
    if limit.enabled and finite([limit.lower, limit.upper]) and abs(limit.lower) < 1e30 and abs(limit.upper) < 1e30:
        joint.lower = joint_value(ctx, limit.lower, angular)
        joint.upper = joint_value(ctx, limit.upper, angular)
    elif sum(finite(v) and abs(float(v)) < 1e30 for v in (limit.lower, limit.upper)) == 1:
        side = [joint_value(ctx, v, angular) if finite(v) and abs(float(v)) < 1e30 else math.copysign(math.inf, float(v))
                for v in (limit.lower, limit.upper)]
        joint.one_sided = (side[0], side[1])
    drive = desc.drive
    if drive.enabled:
        joint.drive = _drive(ctx, "angular" if angular else "linear", drive, angular, joint.path)
        joint.envelope = _envelope(ctx, prim, angular)
    _velocity_limit(ctx, prim, joint)
    _effort_limit(ctx, prim, joint)
    if joint.velocity_limit is None and joint.envelope is not None and joint.envelope.max_actuator_velocity is not None:
        # No joint cap authored: the actuator's envelope is the speed the drive cannot exceed (NVIDIA's resolution too).
        joint.velocity_limit = joint.envelope.max_actuator_velocity
        joint.velocity_limit_source = f"physxDrivePerformanceEnvelope:{joint.envelope.instance}:maxActuatorVelocity"
    state = authored(prim, f"state:{'angular' if angular else 'linear'}:physics:position")
    if state is not None and finite(state):
        joint.joint_state_position = joint_value(ctx, float(state), angular)


def joint_value(ctx: ReadContext, value: float, angular: bool) -> float:
    """A joint coordinate: degrees -> radians, stage units -> metres."""
    return math.radians(value) if angular else value * ctx.mpu


def _drive(ctx: ReadContext, axis: str, drive, angular: bool, path: str) -> DriveInfo:
    """A DriveAPI instance in SI. Negative stiffness, damping or maxForce is broken content (PhysX rejects it):
    an asset error naming the attribute, so every test stops with PRECHECK_FAILURE instead of running a drive
    that was silently clamped to 0."""
    kpu, mpu = ctx.kpu, ctx.mpu
    for name, value in (("stiffness", drive.stiffness), ("damping", drive.damping), ("maxForce", drive.forceLimit)):
        if math.isfinite(float(value)) and float(value) < 0:
            ctx.issue("error", "DRIVE_GAIN_NEGATIVE", path,
                      f"drive:{axis}:physics:{name} = {float(value):g} is negative; drive gains and maxForce must be >= 0")
    gain_unit = ctx.frame.joint_gain_scale(angular)
    force_unit = kpu * mpu**2 if angular else kpu * mpu
    max_force = float(drive.forceLimit)
    if not math.isfinite(max_force) or max_force <= 0 or max_force > 1e30:
        max_force = math.inf if (not math.isfinite(max_force) or max_force > 1e30) else max_force
    return DriveInfo(
        axis=axis,
        type="acceleration" if drive.acceleration else "force",
        stiffness=max(float(drive.stiffness), 0.0) * gain_unit,
        damping=max(float(drive.damping), 0.0) * gain_unit,
        max_force=max_force * force_unit if math.isfinite(max_force) else math.inf,
        target_position=joint_value(ctx, float(drive.targetPosition), angular),
        target_velocity=joint_value(ctx, float(drive.targetVelocity), angular),
    )


def _read_d6(ctx: ReadContext, desc, joint: JointInfo, jtype: str) -> None:
    """Spherical: two cone half-angles. D6: per-DOF limits and drives keyed rotX/transY-style."""
    if jtype == "spherical":
        joint.axis = axis_letter(desc.axis, "X")
        limit = desc.limit
        if limit.enabled:
            joint.d6_limits["cone0"] = LimitInfo(math.radians(limit.angle0), math.radians(limit.angle0))
            joint.d6_limits["cone1"] = LimitInfo(math.radians(limit.angle1), math.radians(limit.angle1))
        return
    for pair in getattr(desc, "jointLimits", []):
        axis, limit = _d6_axis(pair.first), pair.second
        angular = axis.startswith("rot")
        if limit.enabled:
            joint.d6_limits[axis] = LimitInfo(joint_value(ctx, limit.lower, angular), joint_value(ctx, limit.upper, angular))
    for pair in getattr(desc, "jointDrives", []):
        axis, drive = _d6_axis(pair.first), pair.second
        if drive.enabled:
            joint.d6_drives[axis] = _drive(ctx, axis, drive, axis.startswith("rot"), joint.path)


def _d6_axis(dof) -> str:
    """UsdPhysics JointDOF enum (TransX, RotY, ...) -> rotX-style token used in USD attribute names."""
    name = str(dof).rsplit(".", 1)[-1]
    return name[0].lower() + name[1:]


def _envelope(ctx: ReadContext, prim, angular: bool) -> EnvelopeInfo | None:
    """PhysxDrivePerformanceEnvelopeAPI:<angular|linear> beside the drive (read only when applied, as PhysX does).
    USD units: deg/s (angular) or stage length/s; torque s/deg; deg/s per torque."""
    instance = "angular" if angular else "linear"
    if f"PhysxDrivePerformanceEnvelopeAPI:{instance}" not in api_tokens(prim):
        return None
    ns = f"physxDrivePerformanceEnvelope:{instance}"
    rate = ctx.frame.joint_coordinate_scale(angular)  # deg -> rad, stage length -> m
    effort = ctx.frame.joint_effort_scale(angular)  # torque / force -> SI
    out = EnvelopeInfo(instance=instance)
    vmax = authored(prim, f"{ns}:maxActuatorVelocity")
    if vmax is not None and finite(vmax) and 0 < float(vmax) < 1e30:
        out.max_actuator_velocity = float(vmax) * rate
    resistance = authored(prim, f"{ns}:velocityDependentResistance")
    if resistance is not None and finite(resistance) and float(resistance) > 0:
        out.velocity_resistance = float(resistance) * effort / rate
    gradient = authored(prim, f"{ns}:speedEffortGradient")
    if gradient is not None and finite(gradient) and float(gradient) > 0:
        out.speed_effort_gradient = float(gradient) * rate / effort
    return out


def _velocity_limit(ctx: ReadContext, prim, joint: JointInfo) -> None:
    """physxJoint:maxJointVelocity, then physxJointAxis:<axis>:maxJointVelocity, then newton:velocityLimit."""
    angular = joint.type == "revolute"
    axis_names = ["angular", "rotX", "rotY", "rotZ"] if angular else ["linear", "transX", "transY", "transZ"]
    candidates = ["physxJoint:maxJointVelocity"]
    candidates += [f"physxJointAxis:{axis}:maxJointVelocity" for axis in axis_names]
    candidates.append("newton:velocityLimit")
    for name in candidates:
        attr = prim.GetAttribute(name)
        if not attr or not attr.HasAuthoredValue():
            continue
        value = attr.Get()
        if value is None:
            continue
        value = float(value)
        if not math.isfinite(value) or value <= 0:
            held = " (PhysX holds a joint capped at 0 still: it cannot move)" if value == 0 else ""
            ctx.issue("warning", "VELOCITY_LIMIT_INVALID", joint.path,
                      f"{name} = {value} is not a finite positive limit{held}; the validator reads no limit here. "
                      "Author the actuator's real cap, or remove the attribute")
            continue
        joint.velocity_limit = math.radians(value) if angular else value * ctx.mpu
        joint.velocity_limit_source = name
        return


# Where converters put the actuator's rated effort (stage force or torque units): the URDF converter's custom
# attribute, then MuJoCo's joint actuator force range (the larger magnitude of its two ends).
EFFORT_SPELLINGS = (("urdf:limit:effort",), ("mjc:actuatorfrcrange:min", "mjc:actuatorfrcrange:max"))


def _effort_limit(ctx: ReadContext, prim, joint: JointInfo) -> None:
    """The rated effort a converter carried over (`fix` never sizes a drive's maxForce above it unless asked)."""
    unit = ctx.kpu * ctx.mpu**2 if joint.type == "revolute" else ctx.kpu * ctx.mpu
    for names in EFFORT_SPELLINGS:
        values = [authored(prim, name) for name in names]
        found = [abs(float(v)) for v in values if v is not None and finite(v) and float(v) != 0]
        if found:
            joint.effort_limit = max(found) * unit
            joint.effort_limit_source = names[0] if len(names) == 1 else names[0].rsplit(":", 1)[0]
            return
        if any(v is not None and finite(v) and float(v) == 0 for v in values):  # 0: no rating, said (kr210's URDF)
            joint.effort_limit_note = f"{names[0]} is authored as 0, which rates no actuator"
