"""Every authored attribute that spells a value a physics runtime reads, per DOF joint and body, in SI.

The runtime readback (core/readback.py) sets each value the engine parsed beside what the asset authors.
One property can be spelled by several schemas (PhysX per-axis, legacy PhysX, Newton, MuJoCo), and which one a
runtime reads is the runtime's business: this module records them all, in SI, with the attribute each came
from, so the readback can say which one the runtime took, which it ignored and which it read from another
engine's schema. Only authored values count (`HasAuthoredValue`); a schema's fallback is not the author's.

Units as USD authors them (and as ovphysx's population contract documents them): angular coordinates and
rates in degrees, angular drive gains and PhysX/Newton viscous friction per degree, MuJoCo damping per radian;
efforts, armatures and lengths in stage units. A value at or beyond 1e30 means "free / unlimited" (inf).
"""

from __future__ import annotations

import math

from ..asset_model import BodyInfo, JointInfo, Spelling
from ..units import StageFrame
from .read_context import ReadContext

FREE = 1e30  # |value| at or beyond this is "unlimited", as omni.physx reads it
AXES = {True: ("angular", "rotX", "rotY", "rotZ"), False: ("linear", "transX", "transY", "transZ")}

# property -> (attribute template, kind); {inst} = the drive / per-axis instance the joint type reads (angular,
# linear), {axis} = every per-axis instance name (a revolute spelled rotX is authored, but not read on a revolute)
JOINT_SPELLINGS: dict[str, tuple[tuple[str, str], ...]] = {
    "stiffness": (("drive:{inst}:physics:stiffness", "gain"),),
    "damping": (("drive:{inst}:physics:damping", "gain"),),
    "max_force": (("drive:{inst}:physics:maxForce", "effort"),),
    "max_velocity": (("physxJointAxis:{axis}:maxJointVelocity", "rate"), ("physxJoint:maxJointVelocity", "rate"),
                     ("newton:velocityLimit", "rate")),
    "armature": (("physxJointAxis:{axis}:armature", "inertia"), ("physxJoint:armature", "inertia"),
                 ("newton:armature", "inertia"), ("mjc:armature", "inertia")),
    "static_friction": (("physxJointAxis:{axis}:staticFrictionEffort", "effort"), ("newton:friction", "effort"),
                        ("mjc:frictionloss", "effort")),
    "dynamic_friction": (("physxJointAxis:{axis}:dynamicFrictionEffort", "effort"), ("newton:friction", "effort"),
                         ("mjc:frictionloss", "effort")),
    "viscous_friction": (("physxJointAxis:{axis}:viscousFrictionCoefficient", "gain"), ("newton:damping", "gain"),
                         ("mjc:damping", "gain_per_rad")),
    "lower": (("physics:lowerLimit", "coordinate"),),
    "upper": (("physics:upperLimit", "coordinate"),),
}
MATERIAL_PROPERTIES = ("static_friction", "dynamic_friction", "restitution")
OFFSETS = {"contact_offset": "physxCollision:contactOffset", "rest_offset": "physxCollision:restOffset"}


def si_scale(kind: str, angular: bool, mpu: float, kpu: float) -> float:
    """USD value of `kind` -> SI, for an angular (revolute) or linear (prismatic) DOF."""
    if kind == "gain":
        return StageFrame(meters_per_unit=mpu, kilograms_per_unit=kpu).joint_gain_scale(angular)
    per_degree = 180.0 / math.pi
    if angular:
        return {"coordinate": 1.0 / per_degree, "rate": 1.0 / per_degree,
                "gain_per_rad": kpu * mpu**2, "effort": kpu * mpu**2, "inertia": kpu * mpu**2}[kind]
    return {"coordinate": mpu, "rate": mpu, "gain": kpu, "gain_per_rad": kpu, "effort": kpu * mpu, "inertia": kpu}[kind]


def attribute_names(template: str, angular: bool) -> list[str]:
    if "{axis}" in template:
        return [template.format(axis=axis) for axis in AXES[angular]]
    return [template.format(inst=AXES[angular][0])]


def read_spellings(ctx: ReadContext) -> None:
    """Fill `spellings` of every DOF joint and every body of the model (after bodies, colliders and joints)."""
    for joint in ctx.model.joints.values():
        if joint.is_dof:
            _joint_spellings(ctx, joint)
    for body in ctx.model.bodies.values():
        _body_spellings(ctx, body)


def _joint_spellings(ctx: ReadContext, joint: JointInfo) -> None:
    prim = ctx.stage.GetPrimAtPath(joint.path)
    angular = joint.is_angular
    for prop, templates in JOINT_SPELLINGS.items():
        found = []
        for template, kind in templates:
            for name in attribute_names(template, angular):
                value = _authored_float(prim, name)
                if value is not None:
                    found.append(Spelling(name, _to_si(value, si_scale(kind, angular, ctx.mpu, ctx.kpu))))
        if found:
            joint.spellings[prop] = found


def _to_si(value: float, scale: float) -> float:
    return math.copysign(math.inf, value) if abs(value) >= FREE else value * scale


def _authored_float(prim, name: str) -> float | None:
    attr = prim.GetAttribute(name) if prim else None
    if not attr or not attr.HasAuthoredValue():
        return None
    try:
        value = float(attr.Get())
    except (TypeError, ValueError):
        return None
    return None if math.isnan(value) else value


def _body_spellings(ctx: ReadContext, body: BodyInfo) -> None:
    colliders = [ctx.model.colliders[c] for c in body.colliders if c in ctx.model.colliders]
    colliders = [c for c in colliders if c.collision_enabled]
    spellings = body.spellings
    if body.mass is not None:
        spellings["mass"] = [Spelling("physics:mass", body.mass)]
    elif colliders and all(c.mass is not None for c in colliders):
        spellings["mass"] = [Spelling("physics:mass (colliders)", sum(c.mass or 0.0 for c in colliders))]  # all set
    else:
        density = body.density or next((c.density for c in colliders if c.density), None) or next(
            (c.material.density for c in colliders if c.material is not None and c.material.density), None)
        if density:
            spellings["mass"] = [Spelling("physics:density", density, comparable=False)]
    if body.diagonal_inertia is not None:
        spellings["inertia"] = [Spelling("physics:diagonalInertia", tuple(sorted(float(v) for v in body.diagonal_inertia)))]
    if body.center_of_mass is not None:
        spellings["com"] = [Spelling("physics:centerOfMass", tuple(float(v) for v in body.center_of_mass))]
    bound = [c.material for c in colliders if c.material is not None]
    if bound:
        partial = len(bound) < len(colliders)
        for prop, attr in zip(MATERIAL_PROPERTIES, ("physics:staticFriction", "physics:dynamicFriction", "physics:restitution")):
            values = tuple(sorted({float(getattr(m, prop)) for m in bound}))
            spellings[prop] = [Spelling(attr, values, partial=partial)]
    for prop, name in OFFSETS.items():
        offsets = [_authored_float(ctx.stage.GetPrimAtPath(c.path), name) for c in colliders]
        authored = [v * ctx.mpu for v in offsets if v is not None and math.isfinite(v) and v >= 0]
        if authored:
            spellings[prop] = [Spelling(name, tuple(sorted(set(authored))), partial=len(authored) < len(colliders))]
