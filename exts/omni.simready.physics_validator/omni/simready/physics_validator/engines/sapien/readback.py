"""What SAPIEN's PhysX 5.3 holds per DOF and per body, read back once per asset (core/readback.py compares).

From the articulation joints (`stiffness`, `damping`, `force_limit`, `max_velocity`, `armature`, `limits`) and
the rigid components (mass, principal inertia, centre of mass, per-shape materials and offsets), in SI: this
engine builds its scene from the asset model through our own translation, so the readback shows what that
translation gave PhysX (e.g. a `newton:velocityLimit` it does not apply). Joints outside articulations (D6
drives) read NaN. SAPIEN's articulation joint friction is a coefficient, not an effort: not reported.
"""

from __future__ import annotations

import math
import numpy as np

from ...core.readback import RuntimeValues


UNLIMITED_VELOCITY = math.radians(1e6) * 0.999  # the translation's "no cap": omni.physx's default 1e6 deg/s
READS = {
    "stiffness": ("drive:{inst}:physics:stiffness",), "damping": ("drive:{inst}:physics:damping",),
    "max_force": ("drive:{inst}:physics:maxForce",),
    "max_velocity": ("physxJoint:maxJointVelocity", "physxJointAxis:{inst}:maxJointVelocity"),  # articulations.py
    "armature": (), "lower": ("physics:lowerLimit",), "upper": ("physics:upperLimit",),
}
OWN = ("physics:", "drive:", "physxJointAxis:", "physxJoint:", "physx")
DEFAULTS = {"stiffness": (0.0,), "damping": (0.0,), "max_force": (math.inf, 0.0), "max_velocity": (math.inf,),
            "armature": (0.0,), "lower": (-math.inf,), "upper": (math.inf,)}


def read_runtime_values(engine) -> RuntimeValues:
    built = engine._built
    values = RuntimeValues(engine="sapien", reads=dict(READS), own=OWN, defaults=dict(DEFAULTS),
                           body_defaults={"static_friction": (0.5,), "dynamic_friction": (0.5,), "restitution": (0.0,)})
    for dof in engine._dofs:
        joint = dof.art_joint
        if joint is None:
            values.joints[dof.path] = {p: math.nan for p in READS}
            values.unreadable[dof.path] = "outside any articulation (a D6 drive): not read back"
            continue
        (lower, upper), = np.asarray(joint.get_limits(), float)
        if dof.sign < 0:
            lower, upper = -upper, -lower
        velocity = float(joint.get_max_velocity())
        values.joints[dof.path] = {
            "stiffness": float(joint.get_stiffness()), "damping": float(joint.get_damping()),
            "max_force": _unlimited(float(joint.get_force_limit()), 1e30),
            "max_velocity": math.inf if velocity >= UNLIMITED_VELOCITY else velocity,
            "armature": float(np.ravel(joint.get_armature())[0]), "lower": lower, "upper": upper,
        }
    for path, component in built.bodies.items():
        shapes = list(component.get_collision_shapes())
        materials = [s.get_physical_material() for s in shapes]
        entry: dict[str, float | tuple] = {"mass": float(built.masses.get(path, math.nan))}
        if hasattr(component, "get_inertia"):
            entry["inertia"] = tuple(sorted(float(v) for v in component.get_inertia()))
            entry["com"] = tuple(float(v) for v in component.get_cmass_local_pose().p)
        entry.update({
            "static_friction": _unique(m.get_static_friction() for m in materials),
            "dynamic_friction": _unique(m.get_dynamic_friction() for m in materials),
            "restitution": _unique(m.get_restitution() for m in materials),
            "contact_offset": _unique(s.get_contact_offset() for s in shapes),
            "rest_offset": _unique(s.get_rest_offset() for s in shapes),
        })
        values.bodies[path] = entry
    return values


def _unlimited(value: float, limit: float) -> float:
    return math.inf if value >= limit else value


def _unique(values) -> tuple:
    return tuple(sorted({round(float(v), 7) for v in values}))
