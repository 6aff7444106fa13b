"""What omni.physx parsed on the open stage, per DOF and per body, read back once per run (core/readback.py compares).

Through the omni.physics.tensors views the engine already holds (omni.physics.tensors/python/api.py):
`ArticulationView.get_dof_stiffnesses`, `get_dof_dampings`, `get_dof_max_forces`, `get_dof_max_velocities`,
`get_dof_friction_properties` (static effort, dynamic effort, viscous coefficient), `get_dof_armatures`,
`get_dof_limits`, and per link `get_masses`, `get_inertias`, `get_coms` with `link_paths`; `RigidBodyView`
`get_masses`, `get_inertias`, `get_coms` for the free bodies. The views speak radians, per-radian gains and stage
units (as ovphysx's bindings). Per-shape materials are not read here (the views pad them without a shape count).
What Isaac Sim 5.x parses is the `isaacsim-5` description (core/readback_physx.py): it has not been checked in
Kit from this repository; pytest reads these getters through the ovphysx-backed test double. In live mode the views
are invalidated when the timeline stops, before the runner asks: the engine reads right after it creates them.
"""

from __future__ import annotations

import math

import numpy as np

from ...core.engine import EngineError
from ...core.readback import RuntimeValues
from ...core.readback_physx import READS, runtime_description

FREE = 1e30  # FLT_MAX: unlimited
OUTSIDE = "outside any articulation: the tensor views have no row for it"


def read_while_valid(engine) -> RuntimeValues | None:
    """Live mode: read as soon as the views exist (the timeline stops before the runner asks, and a getter on an
    invalidated view logs a Kit error). None when the read fails: `runtime_values()` then says why."""
    try:
        return read_runtime_values(engine)
    except Exception:  # noqa: BLE001 - a readback never costs a test
        return None


def read_runtime_values(engine) -> RuntimeValues:
    if engine._sim_view is None or not engine._sim_view.is_valid:
        raise EngineError("the omni.physics.tensors views are gone (the timeline stopped): nothing to read")
    desc = runtime_description("isaacsim-5")
    desc["settings"] = {}
    values = RuntimeValues(engine="kit", **desc)
    frame, art, dof_map = engine._frame, engine._articulations, engine._dof_map
    raw = {}
    if art is not None:
        raw = {name: np.array(getattr(art, name)(), float) for name in (
            "get_dof_stiffnesses", "get_dof_dampings", "get_dof_max_forces", "get_dof_max_velocities",
            "get_dof_friction_properties", "get_dof_armatures", "get_dof_limits")}
    for path, slot in zip(dof_map.joints, dof_map.slots):
        joint = engine._asset.joints[path]
        if slot is None:
            values.joints[path] = {**{p: math.nan for p in READS}, "max_velocity": math.inf}
            values.unreadable[path] = OUTSIDE
            continue
        values.joints[path] = _dof_values({k: v[slot] for k, v in raw.items()}, joint.is_angular, frame)
    if art is not None:
        masses, inertias, coms = (np.array(getattr(art, n)(), float) for n in ("get_masses", "get_inertias", "get_coms"))
        for a, links in enumerate(art.link_paths):
            for k, path in enumerate(links):
                values.bodies[path] = _body_values(masses[a, k], inertias[a, k], coms[a, k], frame)
    bodies = engine._rigid_bodies
    if bodies is not None:
        masses, inertias, coms = (np.array(getattr(bodies, n)(), float) for n in ("get_masses", "get_inertias", "get_coms"))
        for i, path in enumerate(bodies.prim_paths):
            values.bodies[path] = _body_values(np.ravel(masses)[i], inertias.reshape(-1, 9)[i], coms.reshape(-1, 7)[i], frame)
    return values


def _unlimited(value: float) -> float:
    return math.copysign(math.inf, value) if abs(value) >= FREE else value


def _dof_values(v: dict, angular: bool, frame) -> dict[str, float]:
    coord = 1.0 if angular else frame.meters_per_unit
    effort = frame.joint_effort_scale(angular)
    friction, limit = v["get_dof_friction_properties"], v["get_dof_limits"]
    return {
        "stiffness": v["get_dof_stiffnesses"] * effort / coord, "damping": v["get_dof_dampings"] * effort / coord,
        "max_force": _unlimited(v["get_dof_max_forces"]) * effort,
        "max_velocity": _unlimited(v["get_dof_max_velocities"]) * coord, "armature": v["get_dof_armatures"] * effort,
        "static_friction": friction[0] * effort, "dynamic_friction": friction[1] * effort,
        "viscous_friction": friction[2] * effort / coord,
        "lower": _unlimited(limit[0]) * coord, "upper": _unlimited(limit[1]) * coord,
    }


def _body_values(mass: float, inertia, com, frame) -> dict:
    kg, m = frame.kilograms_per_unit, frame.meters_per_unit
    tensor = np.asarray(inertia, float).reshape(3, 3)
    principal = np.linalg.eigvalsh(0.5 * (tensor + tensor.T)) * kg * m**2
    return {"mass": float(mass) * kg, "inertia": tuple(sorted(float(x) for x in principal)),
            "com": tuple(float(x) * m for x in np.asarray(com, float)[:3])}
