"""Rigid bodies, their MassAPI values and physics materials, in SI units.

UsdPhysics reads 0 as "not authored" for mass and density, so 0 stays unset here too; NaN, Inf and
negative values are reported as errors rather than passed on, because an engine would either
reject them or simulate garbage without saying so.
"""

from __future__ import annotations

import math

import numpy as np

from ..asset_model import BodyInfo, MaterialInfo
from ..geometry import quat_normalize
from .read_context import ReadContext, api_tokens, as_quat, authored, finite


def read_material(ctx: ReadContext, path, desc) -> MaterialInfo:
    """A physics material; density is converted to kg/m^3, combine modes come from the PhysX schema."""
    prim = ctx.stage.GetPrimAtPath(path)
    density = float(desc.density) if desc.density and desc.density > 0 else None
    return MaterialInfo(
        path=str(path),
        static_friction=float(desc.staticFriction),
        dynamic_friction=float(desc.dynamicFriction),
        restitution=float(desc.restitution),
        density=density * ctx.kpu / ctx.mpu**3 if density else None,
        friction_combine=authored(prim, "physxMaterial:frictionCombineMode"),
        restitution_combine=authored(prim, "physxMaterial:restitutionCombineMode"),
    )


def read_body(ctx: ReadContext, path, desc) -> None:
    """One rigid body: world pose, initial velocities (angular from deg/s), mass properties."""
    from pxr import UsdPhysics

    prim = ctx.stage.GetPrimAtPath(path)
    spath = str(path)
    pos, rot = np.array(desc.position, float), as_quat(desc.rotation)
    if not (finite(pos) and finite(rot)):
        ctx.issue("error", "TRANSFORM_NAN", spath, "rigid body transform contains NaN or Inf")
        pos, rot = np.nan_to_num(pos), np.array([1.0, 0, 0, 0])
    body = BodyInfo(
        path=spath,
        world_pose=ctx.world_pose(pos, rot),
        enabled=bool(desc.rigidBodyEnabled),
        kinematic=bool(desc.kinematicBody),
        linear_velocity=ctx.frame.vector_to_si(desc.linearVelocity, ctx.mpu),
        angular_velocity=ctx.frame.vector_to_si(desc.angularVelocity, math.pi / 180.0),
        starts_asleep=bool(desc.startsAsleep),
        gravity=not (authored(prim, "physxRigidBody:disableGravity") is True
                     and "PhysxRigidBodyAPI" in api_tokens(prim)),
    )
    if prim.HasAPI(UsdPhysics.MassAPI):
        _read_mass(ctx, spath, UsdPhysics.MassAPI(prim), body)
    ctx.model.bodies[spath] = body


def _read_mass(ctx: ReadContext, spath: str, mass_api, body: BodyInfo) -> None:
    """Mass, density, centre of mass, diagonal inertia and principal axes (the last only with an inertia)."""
    body.mass = mass_value(ctx, spath, mass_api.GetMassAttr().Get(), "mass", ctx.kpu)
    if body.mass is None and mass_api.GetMassAttr().HasAuthoredValue() and mass_api.GetMassAttr().Get() == 0:
        # Bullet's "static"; UsdPhysics's "not authored": what it means is the plausibility check's to say
        ctx.issue("info", "MASS_ZERO_AUTHORED", spath, "physics:mass = 0 authored (UsdPhysics: computed from the colliders)")
    body.density = mass_value(ctx, spath, mass_api.GetDensityAttr().Get(), "density", ctx.kpu / ctx.mpu**3)
    com = mass_api.GetCenterOfMassAttr().Get()
    # The schema fallback (-inf, -inf, -inf) means "not authored", not an invalid value.
    if com is not None and finite(com) and not all(abs(c) > 1e30 for c in com):
        body.center_of_mass = np.array(com, float) * ctx.mpu
    elif com is not None and not finite(com) and not all(math.isinf(c) and c < 0 for c in com):
        ctx.issue("error", "COM_NAN", spath, "centerOfMass contains NaN")
    inertia = mass_api.GetDiagonalInertiaAttr().Get()
    if inertia is not None:
        if not finite(inertia) or any(i < 0 for i in inertia):
            ctx.issue("error", "INERTIA_INVALID", spath, f"diagonalInertia must be finite and >= 0, got {tuple(inertia)}")
        elif any(i > 0 for i in inertia):
            body.diagonal_inertia = np.array(inertia, float) * ctx.kpu * ctx.mpu**2
        if finite(inertia) and any(i == 0 for i in inertia) and mass_api.GetDiagonalInertiaAttr().HasAuthoredValue():
            ctx.issue("info", "INERTIA_ZERO_AUTHORED", spath, f"diagonalInertia {tuple(inertia)} authored with a zero moment")
    axes = mass_api.GetPrincipalAxesAttr().Get()
    if axes is not None and body.diagonal_inertia is not None:
        q = as_quat(axes)
        if finite(q) and np.linalg.norm(q) > 1e-6:
            body.principal_axes = quat_normalize(q)


def mass_value(ctx: ReadContext, path: str, value, what: str, unit: float) -> float | None:
    """MassAPI mass/density: 0 means 'not authored' (UsdPhysics); NaN, Inf and negatives are errors."""
    if value is None:
        return None
    value = float(value)
    if not math.isfinite(value):
        ctx.issue("error", f"{what.upper()}_NAN", path, f"{what} is {value}: must be a finite positive number")
        return None
    if value < 0:
        ctx.issue("error", f"{what.upper()}_NEGATIVE", path, f"{what} is negative ({value})")
        return None
    if value == 0:
        return None
    return value * unit


def check_bodies(ctx: ReadContext) -> None:
    """A free dynamic body with neither collider nor authored mass falls through the floor or gets no mass."""
    for body in ctx.model.bodies.values():
        if body.enabled and not body.kinematic and not body.colliders and body.mass is None and body.articulation is None:
            ctx.issue("warning", "BODY_WITHOUT_COLLIDER", body.path, "rigid body has no collider and no authored mass")
