"""What the Omni PhysX runtime parsed, per DOF and per body, read back once per asset (core/readback.py compares).

Through tensor bindings (`ARTICULATION_DOF_STIFFNESS`, `_DAMPING`, `_MAX_FORCE`, `_MAX_VELOCITY`,
`_FRICTION_PROPERTIES`, `_ARMATURE`, `_LIMIT` over the articulations; `RIGID_BODY_MASS`, `_INERTIA`, `_COM_POSE`,
`_SHAPE_FRICTION_AND_RESTITUTION`, `_CONTACT_OFFSET`, `_REST_OFFSET` over every simulated body, articulation
links included): they read the PhysX objects themselves. The session API's `jointLimit` reports the parsed
descriptor instead — measured on a revolute authored at +-360.00027 deg: the session reads +-360.00027, the
binding +-2 pi, which is what PhysX enforces. The per-shape columns are padded to the widest body; the real
shape count per body comes from the session's `shapeCount` (no binding has it).

Bindings speak radians, per-radian gains and stage units (measured: 20 N m/deg reads 1145.9 N m/rad;
`newton:damping` 0.0017 N m s/deg reads viscous friction 0.0974 N m s/rad). A binding read before the first
step warms PhysX up (reads.py): `read_runtime_values` on an engine that has not stepped resets it to its load
state afterwards. Measured cost on a 6-DOF arm: ≈ 0.2-1 ms per binding, ≈ 10 ms per asset.

Joints outside any articulation have no tensor rows: NaN (the engine cannot say), except the velocity cap,
which PhysX does not enforce on them (inf), and a revolute joint's limits when the runtime logged that it clamped
them (the record names the joint and the value).
"""

from __future__ import annotations

import math
import re
import warnings

import numpy as np

from ...core.readback import RuntimeValues
from ...core.readback_physx import READS, runtime_description
from .properties import FLT_MAX_READ
from .session import read_columns

# A revolute joint outside any articulation is a PhysX D6 joint whose twist limits the runtime clamps to +-180 deg,
# with a log record naming the joint (measured: +-180.5 and +-360.00027 deg read "clamped to -180 / 180 degrees";
# +-180 and less: no record). Articulation joints keep any range (measured up to +-720 deg, binding and session),
# although ovphysx's docs/population/PhysicsRevoluteJoint.md says limits beyond +-360 deg are clamped to +-2 pi.
MAXIMAL_REVOLUTE_RANGE = (-math.pi, math.pi)
CLAMP_RECORD = re.compile(r"(Lower|Upper) angle limit on a revolute D6 joint was clamped to (-?[0-9.eE+]+) degrees\.? *(\S+)")
DOF_TENSORS = ("ARTICULATION_DOF_STIFFNESS", "ARTICULATION_DOF_DAMPING", "ARTICULATION_DOF_MAX_FORCE",
               "ARTICULATION_DOF_MAX_VELOCITY", "ARTICULATION_DOF_FRICTION_PROPERTIES", "ARTICULATION_DOF_ARMATURE",
               "ARTICULATION_DOF_LIMIT")
BODY_TENSORS = ("RIGID_BODY_MASS", "RIGID_BODY_INERTIA", "RIGID_BODY_COM_POSE", "RIGID_BODY_SHAPE_FRICTION_AND_RESTITUTION",
                "RIGID_BODY_CONTACT_OFFSET", "RIGID_BODY_REST_OFFSET")
OUTSIDE = "outside any articulation: the runtime's tensor API has no row for it"
# A limit authored on one side, the other at +-inf (UsdPhysics: no limit): PhysX 5.12 refuses the pair ("Invalid limit
# parameters; lowLimit must be <= highLimit", in its log) and holds the joint at [0, 0] (measured; with the open side a
# large finite value, 1e30, it limits that one side)
ONE_SIDED = ("limited on one side only: PhysX refuses a limit with an infinite side and holds the joint locked at 0 "
             "(runtime log: 'Invalid limit parameters'); author the open side as a large finite value (1e30) for a "
             "one-sided limit, or both limits")


def read_runtime_values(engine) -> RuntimeValues:
    """Every parsed per-DOF and per-body value of the loaded engine, in SI."""
    built, runtime, frame = engine._built, engine._runtime, engine._frame
    live = built.state_io.live
    raw = {name: _read(engine._physx, runtime, name, built.articulations) for name in DOF_TENSORS} if built.articulations else {}
    raw.update({name: _read(engine._physx, runtime, name, built.bodies) for name in BODY_TENSORS} if built.bodies else {})
    shapes = _shape_counts(engine._physx, runtime)
    if not live:
        engine.reset()  # the binding reads warmed PhysX up: back to the state at load
    values = RuntimeValues(engine="physx", **runtime_description(engine.target))
    clamped = _clamp_records(engine.warnings)
    for d in built.dofs:
        if d.art >= 0:
            values.joints[d.path] = _dof_values(raw, d, frame)
            if engine._asset.joints[d.path].one_sided is not None:
                for prop in ("lower", "upper"):
                    values.notes[(d.path, prop)] = ONE_SIDED
            continue
        values.joints[d.path] = {**{p: math.nan for p in READS}, "max_velocity": math.inf}  # no cap outside articulations
        values.unreadable[d.path] = OUTSIDE
        values.notes[(d.path, "max_velocity")] = "PhysX enforces no velocity cap on a joint outside any articulation"
        if d.angular:
            values.clamps.update({(d.path, "lower"): MAXIMAL_REVOLUTE_RANGE, (d.path, "upper"): MAXIMAL_REVOLUTE_RANGE})
            values.joints[d.path].update(clamped.get(d.path, {}))
            for prop in clamped.get(d.path, {}):
                values.notes[(d.path, prop)] = "clamped to ±180° (PhysX D6 twist limit outside any articulation; runtime log)"
    for row, path in enumerate(built.bodies if raw.get("RIGID_BODY_MASS") is not None else []):
        values.bodies[path] = _body_values(raw, row, int(shapes.get(path, 0)), frame)
    return values


def _clamp_records(warnings_: list[str]) -> dict[str, dict[str, float]]:
    """{joint path: {"lower" | "upper": rad}} from the runtime's clamp records (maximal revolute joints)."""
    out: dict[str, dict[str, float]] = {}
    for text in warnings_:
        found = CLAMP_RECORD.search(text)
        if found:
            out.setdefault(found.group(3), {})[found.group(1).lower()] = math.radians(float(found.group(2)))
    return out


def _read(physx, runtime, name: str, paths: list[str]) -> np.ndarray | None:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DeprecationWarning)  # deprecated since 0.6, kept in 0.7 (reads.py)
        binding = physx.create_tensor_binding(prim_paths=list(paths), tensor_type=getattr(runtime.TensorType, name))
    try:
        buffer = np.zeros(binding.shape, np.float32)
        binding.read(buffer)
        return buffer.astype(float)
    finally:
        binding.destroy()


def _shape_counts(physx, runtime) -> dict[str, float]:
    SOT = runtime.SimObjectType
    out: dict[str, float] = {}
    for sim_type in (SOT.RIGID_BODY, SOT.ARTICULATION_LINK):
        for path, row in read_columns(physx, sim_type, ["shapeCount"]).get("shapeCount", {}).items():
            out[path] = float(row[0])
    return out


def _unlimited(value: float, sign: float = 1.0) -> float:
    return math.copysign(math.inf, value) if abs(value) >= FLT_MAX_READ else value


def _dof_values(raw: dict, d, frame) -> dict[str, float]:
    """One articulation DOF in SI: binding units are rad (stage length), per-rad (per-length) gains."""
    coord = 1.0 if d.angular else frame.meters_per_unit
    effort = frame.joint_effort_scale(d.angular)
    at = lambda name: raw[name][d.art, d.col]  # noqa: E731
    friction = at("ARTICULATION_DOF_FRICTION_PROPERTIES")  # static, dynamic effort; viscous per rate
    limit = at("ARTICULATION_DOF_LIMIT")
    return {
        "stiffness": at("ARTICULATION_DOF_STIFFNESS") * effort / coord,
        "damping": at("ARTICULATION_DOF_DAMPING") * effort / coord,
        "max_force": _unlimited(at("ARTICULATION_DOF_MAX_FORCE")) * effort,
        "max_velocity": _unlimited(at("ARTICULATION_DOF_MAX_VELOCITY")) * coord,
        "armature": at("ARTICULATION_DOF_ARMATURE") * effort,  # kg u^2 per rad^2 -> kg m^2; kg u/u -> kg
        "static_friction": friction[0] * effort, "dynamic_friction": friction[1] * effort,
        "viscous_friction": friction[2] * effort / coord,
        "lower": _unlimited(limit[0]) * coord, "upper": _unlimited(limit[1]) * coord,
    }


def _body_values(raw: dict, row: int, shapes: int, frame) -> dict:
    kg, m = frame.kilograms_per_unit, frame.meters_per_unit
    inertia = raw["RIGID_BODY_INERTIA"][row].reshape(3, 3)
    principal = np.linalg.eigvalsh(0.5 * (inertia + inertia.T)) * kg * m**2
    material = raw["RIGID_BODY_SHAPE_FRICTION_AND_RESTITUTION"][row][:shapes]
    per_shape = lambda values, scale=1.0: tuple(sorted({round(float(v) * scale, 7) for v in values}))  # noqa: E731
    return {
        "mass": float(raw["RIGID_BODY_MASS"][row]) * kg,
        "inertia": tuple(sorted(float(v) for v in principal)),
        "com": tuple(float(v) * m for v in raw["RIGID_BODY_COM_POSE"][row][:3]),
        "static_friction": per_shape(material[:, 0]), "dynamic_friction": per_shape(material[:, 1]),
        "restitution": per_shape(material[:, 2]),
        "contact_offset": per_shape(raw["RIGID_BODY_CONTACT_OFFSET"][row][:shapes], m),
        "rest_offset": per_shape(raw["RIGID_BODY_REST_OFFSET"][row][:shapes], m),
    }
