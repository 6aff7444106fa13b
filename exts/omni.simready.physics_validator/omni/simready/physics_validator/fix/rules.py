"""The proposal rules: drive values from measured inertia and loads (formulas and units in docs/fix.md).

For a joint with measured joint-space inertia I (max of M_ii over the probed poses), holding efforts L(pose)
against gravity (+ joint friction), lever arm r of effort_limit's load F, and the tolerances the tests judge it by:

    stiffness  K = max( I w^2,  L(pose) / (s tol(pose)) for every judged pose,  (L_hold + F r) / (s tol_effort) )
    damping    D = 2 zeta sqrt(K I)                        (kept when the authored zeta is inside the band)
    maxForce   F_max = m max( L_max + I a_sweep,  L_hold + F r )

with w = 2 pi f_n, zeta the target damping ratio, s the deflection share and m the force margin (FixTargets);
a_sweep is the sweep's peak commanded acceleration. Everything here is SI (per radian); `layers.UsdUnits`
turns it into USD's per-degree values. An authored value that already meets its requirement is not changed.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from ..core.quantities import for_people

if TYPE_CHECKING:
    from ..core.asset_model import JointInfo
    from .probe import JointMeasure
    from .targets import FixTargets, JointAllowance

MIN_INERTIA = 1e-9


@dataclass
class Proposal:
    """One joint's proposal in SI: what is authored, what to change and why, and what it achieves."""

    path: str
    name: str
    angular: bool
    current: dict[str, float] = field(default_factory=dict)  # stiffness, damping, maxForce (inf = unlimited)
    proposed: dict[str, float] = field(default_factory=dict)  # only the changed ones
    why: dict[str, str] = field(default_factory=dict)  # per changed attribute: the rule with its numbers
    derived: dict[str, float] = field(default_factory=dict)  # inertia, loads, requirements, achieved omega_n/zeta
    level: int = 0

    @property
    def changed(self) -> bool:
        return bool(self.proposed)

    def value(self, name: str) -> float:
        return self.proposed.get(name, self.current.get(name, math.nan))


def _unit(angular: bool, name: str) -> str:
    force = "N·m" if angular else "N"
    return {"stiffness": f"{force}/rad" if angular else "N/m", "damping": f"{force}·s/rad" if angular else "N·s/m",
            "maxForce": force, "inertia": "kg·m²" if angular else "kg", "load": force}[name]


def propose(joint: "JointInfo", measure: "JointMeasure", allow: "JointAllowance", targets: "FixTargets",
            level: int = 0) -> Proposal | None:
    """The drive values `joint` needs, or None when its inertia was not measured."""
    t = targets.escalated(level)
    drive = joint.drive
    out = Proposal(joint.path, joint.name, joint.is_angular, level=level)
    out.current = {"stiffness": drive.stiffness if drive else 0.0, "damping": drive.damping if drive else 0.0,
                   "maxForce": drive.max_force if drive else math.inf}
    inertia = measure.inertia_max
    if not math.isfinite(inertia):
        return None
    inertia = max(inertia, MIN_INERTIA)
    loads = {k: v for k, v in measure.load.items() if math.isfinite(v) and k not in measure.blocked}
    load_max = max(loads.values(), default=0.0)
    load_hold = loads.get("hold", load_max)
    test_load = allow.effort_force * measure.lever_arm
    w = t.omega
    # stiffness: the natural-frequency floor, then every static deflection the tests judge
    needs = [(inertia * w * w, f"I w² = {for_people(inertia)} {_unit(joint.is_angular, 'inertia')} x ({w:.3g} rad/s)²")]
    for pose, what, tol in allow.deflections:
        if pose in measure.blocked:
            continue  # held by something else there: no drive value helps (reported by the pipeline)
        load = load_max if pose == "*" else loads.get(pose, load_max)
        if tol > 0 and load > 0:
            needs.append((load / (t.deflection_share * tol),
                          f"{what}: load {for_people(load, _unit(joint.is_angular, 'load'))} deflects < "
                          f"{t.deflection_share:.3g} x {for_people(tol, 'rad' if joint.is_angular else 'm')}"))
    tightest = min((tol for pose, _, tol in allow.deflections if tol > 0 and pose not in measure.blocked), default=math.nan)
    if measure.friction > 0 and math.isfinite(tightest):  # static friction must not hold it off by more either
        needs.append((measure.friction / (t.deflection_share * tightest),
                      f"joint friction {for_people(measure.friction, _unit(joint.is_angular, 'load'))} deflects < "
                      f"{t.deflection_share:.3g} x {for_people(tightest, 'rad' if joint.is_angular else 'm')}"))
    if math.isfinite(allow.effort_tolerance) and allow.effort_tolerance > 0 and (load_hold + test_load) > 0:
        needs.append(((load_hold + test_load) / (t.deflection_share * allow.effort_tolerance),
                      f"{allow.load_test}: held load + {allow.effort_force:g} N x {for_people(measure.lever_arm, 'm')} lever "
                      f"deflects < {t.deflection_share:.3g} x {for_people(allow.effort_tolerance, 'rad' if joint.is_angular else 'm')}"))
    k_req, k_why = max(needs, key=lambda item: item[0])
    stiffness = out.current["stiffness"]
    if stiffness < k_req * (1.0 - t.slack):
        stiffness = k_req
        out.proposed["stiffness"], out.why["stiffness"] = k_req, k_why
    # damping: the target ratio at the proposed stiffness and the heaviest pose
    d_req = 2.0 * t.damping_ratio * math.sqrt(stiffness * inertia)
    zeta_now = out.current["damping"] / (2.0 * math.sqrt(stiffness * inertia)) if stiffness > 0 else math.inf
    lo, hi = (t.damping_ratio * b for b in t.damping_band)
    damping = out.current["damping"]
    if not lo <= zeta_now <= hi:
        damping = d_req
        out.proposed["damping"] = d_req
        out.why["damping"] = f"zeta {zeta_now:.3g} -> {t.damping_ratio:g}: 2 zeta sqrt(K I)"
    # maxForce: margin over the peak gravity + dynamic load and over the held load + the test load
    dynamic = load_max + inertia * allow.sweep_accel + measure.friction
    held = load_hold + test_load + measure.friction
    f_req = t.force_margin * max(dynamic, held)
    if f_req > 0 and out.current["maxForce"] < f_req * (1.0 - t.slack):
        out.proposed["maxForce"] = f_req
        which = "gravity + sweep acceleration" if dynamic >= held else f"held load + {allow.effort_force:g} N test load"
        out.why["maxForce"] = f"{t.force_margin:.3g} x {which} ({for_people(max(dynamic, held), _unit(joint.is_angular, 'load'))})"
    out.derived = {"inertia": inertia, "load_max": load_max, "load_hold": load_hold, "test_load": test_load,
                   "stiffness_required": k_req, "max_force_required": f_req, "omega_n_target": w,
                   "omega_n": math.sqrt(stiffness / inertia) if stiffness > 0 else 0.0,
                   "zeta": damping / (2.0 * math.sqrt(stiffness * inertia)) if stiffness > 0 else math.inf,
                   "zeta_target": t.damping_ratio}
    return out
