"""The asset's bodies and one-DOF joints on Newton's arrays, and the SI values Newton did not read.

`Dof` says where each joint of `dof_joints` lives in joint_q / joint_qd and with which sign; joints
Newton did not import as one revolute or prismatic DOF read NaN. The asset model then overrides what
Newton reads differently: the physxJointAxis velocity-limit spelling (and PhysX's meaning of
maxJointVelocity outside articulations), and the joint values of a stage not in metres.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from ...core.asset_model import AssetModel
from ...core.units import StageFrame
from . import compat
from .runtime import import_newton

wp, newton = import_newton()

# Newton's default joint velocity limit when none is authored (rad/s or m/s): "unlimited".
UNLIMITED_VELOCITY = 1.0e5


@dataclass
class Dof:
    path: str
    q_index: int = -1  # into joint_q / joint_target_q; -1 = not simulated by Newton (reads NaN)
    qd_index: int = -1  # into joint_qd
    sign: float = 1.0  # -1 when Newton's parent/child are USD's body1/body0


def map_bodies(model, result, asset: AssetModel, warn) -> tuple[dict[str, int], set[int]]:
    """(body path -> Newton body index, indices of the dynamic, i.e. not kinematic, bodies)."""
    flags = model.body_flags.numpy() if getattr(model, "body_flags", None) is not None else None
    kinematic = int(getattr(newton.BodyFlags, "KINEMATIC", 0))
    labels = list(model.body_label)
    path_map = result.get("path_body_map") or {label: i for i, label in enumerate(labels)}
    body_index = {path: int(i) for path, i in path_map.items() if 0 <= int(i) < model.body_count}
    dynamic = {i for i in body_index.values() if flags is None or not (int(flags[i]) & kinematic)}
    for path, body in asset.bodies.items():
        if body.enabled and path not in body_index:
            warn(f"{path}: rigid body not imported by Newton")
    return body_index, dynamic


def map_dofs(model, result, asset: AssetModel, warn) -> list[Dof]:
    """One Dof per asset DOF joint, in the asset's order."""
    joint_map = result.get("path_joint_map") or {label: i for i, label in enumerate(model.joint_label)}
    q_start, qd_start = model.joint_q_start.numpy(), model.joint_qd_start.numpy()
    joint_type, joint_child = model.joint_type.numpy(), model.joint_child.numpy()
    labels = list(model.body_label)
    one_dof = {int(newton.JointType.REVOLUTE), int(newton.JointType.PRISMATIC)}
    dofs = []
    for joint in asset.dof_joints:
        j = joint_map.get(joint.path)
        if j is None or int(joint_type[j]) not in one_dof:
            warn(f"{joint.path}: not simulated by Newton as a one-DOF joint; its readings are NaN")
            dofs.append(Dof(joint.path))
            continue
        child = labels[int(joint_child[j])] if int(joint_child[j]) >= 0 else None
        sign = -1.0 if (joint.body1 is not None and child == joint.body0 and child != joint.body1) else 1.0
        dofs.append(Dof(joint.path, int(q_start[j]), int(qd_start[j]), sign))
    return dofs


def apply_velocity_limits(model, dofs: list[Dof], asset: AssetModel, warn) -> None:
    """Write the asset's velocity limit where Newton did not read it (physxJointAxis:* spelling)."""
    limits = model.joint_velocity_limit.numpy()
    changed = False
    for dof in dofs:
        joint = asset.joints[dof.path]
        if dof.qd_index < 0 or joint.velocity_limit is None or not math.isfinite(joint.velocity_limit):
            continue
        if joint.articulation is None and (joint.velocity_limit_source or "").startswith("physx"):
            # PhysX enforces maxJointVelocity on articulation joints only: keep that meaning of the attribute.
            if float(limits[dof.qd_index]) < UNLIMITED_VELOCITY:
                limits[dof.qd_index] = UNLIMITED_VELOCITY
                changed = True
            continue
        if abs(float(limits[dof.qd_index]) - joint.velocity_limit) > 1e-6 * max(1.0, joint.velocity_limit):
            if float(limits[dof.qd_index]) < UNLIMITED_VELOCITY:
                warn(
                    f"{dof.path}: Newton read velocity limit {limits[dof.qd_index]:.6g}, the asset model "
                    f"{joint.velocity_limit:.6g} ({joint.velocity_limit_source}); the asset model's is used"
                )
            limits[dof.qd_index] = joint.velocity_limit
            changed = True
    if changed:
        model.joint_velocity_limit.assign(limits)


def apply_si_joint_units(model, dofs: list[Dof], asset: AssetModel, defaults: dict[str, float] | None = None) -> None:
    """The joint values of a stage not in metres, in SI. Newton imports the scaled in-memory stage (importer.py)
    with every joint attribute read as if in metres and kilograms: prismatic limits and targets in stage lengths,
    drive gains and maxForce in stage effort units (measured on the centimetre arm: 2e7 N m/rad for 2000, maxForce
    5e6 N m for 500; a slider's 50 N read 5000; newton:damping 1e4 x too strong). Drives and prismatic limits come
    from the asset model (SI); armature, friction and passive stiffness / damping (newton:*), which the asset model
    does not read, are converted with the stage's factors - except a value equal to the runtime's own default for it
    (`defaults`, array name -> SI value: Isaac Sim 6.2's armature 0.1), which no attribute authored."""
    frame = StageFrame.of_asset(asset)
    defaults = defaults or {}
    names = ("joint_limit_lower", "joint_limit_upper", "joint_target_ke", "joint_target_kd", "joint_target_q",
             "joint_effort_limit", "joint_armature", "joint_friction", "joint_stiffness", "joint_damping")
    arrays = {name: getattr(model, name).numpy() for name in names if hasattr(model, name)}
    for dof in dofs:
        joint = asset.joints[dof.path]
        if dof.qd_index < 0 or joint.type not in ("revolute", "prismatic"):
            continue
        angular = joint.type == "revolute"
        effort = frame.joint_effort_scale(angular)  # kg u^2/s^2 -> N m, kg u/s^2 -> N
        inertia = frame.kilograms_per_unit * (frame.meters_per_unit ** 2 if angular else 1.0)  # kg u^2 -> kg m^2, kg
        gain = effort if angular else effort / frame.meters_per_unit  # per rad (Newton reads degrees), per stage length
        for name, scale in (("joint_armature", inertia), ("joint_friction", effort), ("joint_stiffness", gain),
                            ("joint_damping", gain)):
            if name in arrays and not (name in defaults and float(arrays[name][dof.qd_index]) == np.float32(defaults[name])):
                arrays[name][dof.qd_index] *= scale
        if not angular:
            lo, hi = (joint.lower, joint.upper) if dof.sign > 0 else (
                None if joint.upper is None else -joint.upper, None if joint.lower is None else -joint.lower)
            if lo is not None:
                arrays["joint_limit_lower"][dof.qd_index] = lo
            if hi is not None:
                arrays["joint_limit_upper"][dof.qd_index] = hi
        if joint.drive is not None:
            arrays["joint_target_ke"][dof.qd_index] = joint.drive.stiffness
            arrays["joint_target_kd"][dof.qd_index] = joint.drive.damping
            if 0.0 < joint.drive.max_force < math.inf:  # else Newton's own reading (0 and unauthored: no limit)
                arrays["joint_effort_limit"][dof.qd_index] = joint.drive.max_force
            if not angular:
                arrays["joint_target_q"][dof.q_index] = dof.sign * joint.drive.target_position
    for name, values in arrays.items():
        getattr(model, name).assign(values)


def restore_mimics(builder, result, asset: AssetModel, warn) -> None:
    """Mimic couplings as the asset model reads them (SI), where Newton 1.8's importer reads them otherwise (a coupling
    switched off by newton:mimicEnabled = false stays off: it was restored, and a dead follower drive was never seen):

    - NewtonMimicAPI: the importer asks `prim.HasAPI("NewtonMimicAPI")`, false where the Newton USD schemas are not
      registered with pxr (as here), so the follower moved freely (measured on the fixture gripper: the follower at
      its limit while the leader sat at 0.3 rad);
    - PhysxMimicJointAPI: the importer takes physxMimicJoint:<axis>:offset as radians, but USD authors it in degrees
      for a revolute follower (an offset of 10 pinned the follower at its limit; PhysX holds it 10 deg off).
    """
    joint_map = result.get("path_joint_map") or {}
    coupled = compat.mimics(builder)
    for joint in asset.joints.values():
        mimic = joint.mimic
        if mimic is None:
            continue
        follower, reference = joint_map.get(joint.path), joint_map.get(joint.mimic_reference or "")
        if follower is None or reference is None:
            continue
        if not mimic.enabled:  # newton:mimicEnabled = false: an independent joint, as Newton's own importer reads it
            compat.clear_mimic(builder, follower)
            continue
        wanted = (float(mimic.intercept), float(mimic.slope))
        built = coupled.get(follower)
        current = built[1:] if built is not None and built[0] == reference else None
        if current is not None and all(abs(float(a) - b) <= 1e-6 * max(1.0, abs(b)) for a, b in zip(current, wanted)):
            continue
        try:
            compat.set_mimic(builder, follower, reference, wanted)
        except Exception as exc:  # noqa: BLE001 - Newton refuses (a chain, another articulation): say so
            warn(f"{joint.path}: {mimic.schema} not simulated by Newton: {exc}")
            continue
        if current is not None:
            warn(f"{joint.path}: Newton read the {mimic.schema} coupling as follower = {float(current[0]):.6g} + "
                 f"{float(current[1]):.6g} x reference; the asset model's {wanted[0]:.6g} + {wanted[1]:.6g} x reference "
                 "(SI) is used")


def apply_drive_overrides(model, dofs: list[Dof], spec) -> None:
    """The scene's drive overrides (core.scene.DriveOverride) on Newton's drive arrays, in Newton's joint sign."""
    if not spec.drive_overrides:
        return
    names = ("joint_target_ke", "joint_target_kd", "joint_effort_limit", "joint_target_q", "joint_target_qd")
    arrays = {name: getattr(model, name).numpy() for name in names}
    mode = model.joint_target_mode.numpy() if getattr(model, "joint_target_mode", None) is not None else None
    for dof in dofs:
        drive = spec.drive_overrides.get(dof.path)
        if drive is None or dof.qd_index < 0:
            continue
        arrays["joint_target_ke"][dof.qd_index] = drive.stiffness
        arrays["joint_target_kd"][dof.qd_index] = drive.damping
        arrays["joint_effort_limit"][dof.qd_index] = drive.max_force if math.isfinite(drive.max_force) else 1e30
        arrays["joint_target_q"][dof.q_index] = dof.sign * drive.target_position
        arrays["joint_target_qd"][dof.qd_index] = dof.sign * drive.target_velocity
        if mode is not None:
            mode[dof.qd_index] = int(newton.JointTargetMode.POSITION_VELOCITY)
    for name, values in arrays.items():
        getattr(model, name).assign(values)
    if mode is not None:
        model.joint_target_mode.assign(mode)


def silence_triggers(builder, asset: AssetModel, warn) -> None:
    """A PhysxTriggerAPI collider gets no contacts, as PhysX builds it (eSIMULATION_SHAPE cleared): Newton 1.8 has no
    trigger shapes and imported it as an ordinary collider, so a tote's trigger zone 5 cm larger than the tote held it
    up, and started inside a ramp placed for the tote. On the builder, before anything is placed by its shapes."""
    triggers = {c.path for c in asset.colliders.values() if c.trigger}
    if not triggers:
        return
    collide = int(newton.ShapeFlags.COLLIDE_SHAPES) | int(newton.ShapeFlags.COLLIDE_PARTICLES)
    silenced = [s for s, label in enumerate(builder.shape_label) if str(label) in triggers]
    for s in silenced:
        builder.shape_flags[s] = int(builder.shape_flags[s]) & ~collide
    if silenced:
        warn(f"{len(silenced)} trigger collider(s) (PhysxTriggerAPI) built without contacts, as PhysX builds them "
             "(Newton has no trigger shapes)")
