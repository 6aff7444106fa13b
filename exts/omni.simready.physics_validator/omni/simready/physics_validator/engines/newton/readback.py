"""What Newton's model holds per DOF and per body, read back once per asset (core/readback.py compares).

From the model arrays the solver steps with (SI, radians, per-radian gains): `joint_target_ke` / `_kd` (drive),
`joint_effort_limit`, `joint_velocity_limit` (after this engine's own override from the asset model, mapping.py),
`joint_armature`, `joint_friction` (one Coulomb effort: static and dynamic), `joint_damping` (viscous, per rad),
`joint_limit_lower` / `_upper`; `body_mass`, `body_inertia`, `body_com`, and per shape `shape_material_mu`
(Newton's one friction coefficient, reported as dynamic friction) and `shape_material_restitution`.
Newton's "unlimited" defaults are finite: an effort limit at or above 1e6 and a velocity limit at or above 1e5
read as inf.
"""

from __future__ import annotations

import math
import numpy as np

from ...core.readback import RuntimeValues
from .runtime import import_newton


wp, newton = import_newton()

UNLIMITED_EFFORT = 1e6  # ModelBuilder.JointDofConfig.effort_limit default
UNLIMITED_VELOCITY = 1e5  # mapping.UNLIMITED_VELOCITY (the builder's default is 1e6)
READS = {
    "stiffness": ("drive:{inst}:physics:stiffness",), "damping": ("drive:{inst}:physics:damping",),
    "max_force": ("drive:{inst}:physics:maxForce",),
    # the engine applies the asset model's velocity limit (the first authored spelling, core/usd/joints.py)
    "max_velocity": ("physxJoint:maxJointVelocity", "physxJointAxis:{inst}:maxJointVelocity", "newton:velocityLimit"),
    "armature": ("newton:armature", "physxJoint:armature"),  # SchemaResolverNewton, then SchemaResolverPhysx
    "static_friction": ("newton:friction",), "dynamic_friction": ("newton:friction",),
    "viscous_friction": ("newton:damping",), "lower": ("physics:lowerLimit",), "upper": ("physics:upperLimit",),
}
OWN = ("physics:", "drive:", "newton:")
DEFAULTS = {"stiffness": (0.0,), "damping": (0.0,), "max_force": (math.inf,), "max_velocity": (math.inf,),
            "armature": (0.0,), "static_friction": (0.0,), "dynamic_friction": (0.0,), "viscous_friction": (0.0,),
            "lower": (-math.inf,), "upper": (math.inf,)}


def read_runtime_values(engine) -> RuntimeValues:
    m = engine._model
    arrays = {name: getattr(m, name).numpy().astype(float) for name in (
        "joint_target_ke", "joint_target_kd", "joint_effort_limit", "joint_velocity_limit", "joint_armature",
        "joint_friction", "joint_damping", "joint_limit_lower", "joint_limit_upper")}
    shape = newton.ModelBuilder.ShapeConfig()
    values = RuntimeValues(engine="newton", reads=dict(READS), own=OWN, defaults=dict(DEFAULTS),
                           body_defaults={"dynamic_friction": (float(shape.mu),), "restitution": (float(shape.restitution),)})
    for dof in engine._dofs:
        if dof.qd_index < 0:
            values.joints[dof.path] = {p: math.nan for p in READS}
            values.unreadable[dof.path] = "not simulated by Newton as a one-DOF joint"
            continue
        values.joints[dof.path] = _dof_values(arrays, dof.qd_index, dof.sign)
        if not engine.target.enforces_velocity_limits:  # SolverMuJoCo reads no joint_velocity_limit
            values.joints[dof.path]["max_velocity"] = math.inf
    mass, com, inertia = m.body_mass.numpy(), m.body_com.numpy(), m.body_inertia.numpy()
    shape_body = m.shape_body.numpy()
    mu, restitution = m.shape_material_mu.numpy(), m.shape_material_restitution.numpy()
    for path, i in engine._body_index.items():
        shapes = shape_body == i
        values.bodies[path] = {
            "mass": float(mass[i]), "com": tuple(float(v) for v in com[i]),
            "inertia": tuple(sorted(float(v) for v in np.linalg.eigvalsh(0.5 * (inertia[i] + inertia[i].T)))),
            "dynamic_friction": _unique(mu[shapes]), "restitution": _unique(restitution[shapes]),
        }
    return values


def _dof_values(a: dict, k: int, sign: float) -> dict[str, float]:
    lower, upper = a["joint_limit_lower"][k], a["joint_limit_upper"][k]
    if sign < 0:  # Newton's parent/child are USD's body1/body0: its range is the USD one mirrored
        lower, upper = -upper, -lower
    effort, velocity = a["joint_effort_limit"][k], a["joint_velocity_limit"][k]
    return {
        "stiffness": a["joint_target_ke"][k], "damping": a["joint_target_kd"][k],
        "max_force": math.inf if effort >= UNLIMITED_EFFORT else effort,
        "max_velocity": math.inf if velocity >= UNLIMITED_VELOCITY else velocity,
        "armature": a["joint_armature"][k], "static_friction": a["joint_friction"][k],
        "dynamic_friction": a["joint_friction"][k], "viscous_friction": a["joint_damping"][k],
        "lower": lower, "upper": upper,
    }


def _unique(values) -> tuple:
    return tuple(sorted({round(float(v), 7) for v in values}))
