"""The proposal rules: drive values from measured inertia and loads (formulas and units in docs/fix.md).

For a joint with measured joint-space inertia I (max of M_ii over the probed poses), holding efforts L(pose)
against gravity (+ joint friction), lever arm r of effort_limit's load F, and the tolerances the tests judge it by:

    stiffness  K = max( I w^2,  L(pose) / (s tol(pose)) for every judged pose,  (L_hold + F r) / (s tol_effort) )
    damping    D = 2 zeta sqrt(K I)                        (kept when the authored zeta is inside the band)
    maxForce   F_max = m max( L_max + I a_sweep,  L_hold + F r )

with w = 2 pi f_n, zeta the target damping ratio, s the deflection share and m the force margin (FixTargets);
a_sweep is the sweep's peak commanded acceleration. Everything here is SI (per radian); `layers.UsdUnits`
turns it into USD's per-degree values. An authored value that already meets its requirement is not changed.

One bound no proposal crosses, said when it binds (`Proposal.limits`, reported as not fixable by drives): the
actuator's rating: an authored maxForce (else the rated effort a converter carried, `urdf:limit:effort`) is never
raised unless `FixTargets.raise_max_force`; a joint that needs more reads "needs X N·m, rated Y N·m".

The step's resolution is no bound: a drive stiffer than K = I w_max² (w_max = 2 pi fps / steps_per_period, a natural
period of 10 steps at 240 Hz) arrives in about a step whatever its gains, and PhysX's implicit drives stay stable
there (tests/fix/test_stability_bound.py); a held load's error then shrinks as 1/sqrt(K) rather than 1/K, which the
verify pass (fix/plan.py) measures and sizes for. Joints held back by friction or contact need it: the Unitree Z1's
gripper, 0.00032 kg·m², moves its 9° steps at 87 N·m/°, 690x the bound.

A joint with no drive (`--add-drives`) gets a force drive (maxForce a torque or force the actuator's rating bounds) with the
same rules; its maxForce is the rated effort when the asset carries one, else the sized requirement, marked as an
assumption the author must confirm.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, TypeGuard

from ..core.quantities import for_people
from .plausible import IMPLAUSIBLE_FACTOR, implausible_loads, plausible_need
from .probe import pose_text

if TYPE_CHECKING:
    from ..core.asset_model import DriveInfo, JointInfo
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
    added: bool = False  # the joint had no drive: the proposal adds one (type, target, gains, maxForce)
    rating: float = math.inf  # the actuator's rating maxForce stays within (inf: none authored)
    rating_source: str = ""  # the attribute the rating was read from
    rating_note: str = ""  # why an authored rating was not taken (JointInfo.effort_limit_note)
    assumed: set[str] = field(default_factory=set)  # proposed values the author must confirm (no rating authored)
    limits: list[tuple[str, str]] = field(default_factory=list)  # (cause, sentence): a bound that kept a value short

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
    out = Proposal(joint.path, joint.name, joint.is_angular, level=level, added=not has_drive(drive))
    out.current = {"stiffness": drive.stiffness if drive else 0.0, "damping": drive.damping if drive else 0.0,
                   "maxForce": drive.max_force if drive else math.inf}
    out.rating, out.rating_source = rating(joint)
    out.rating_note = getattr(joint, "effort_limit_note", "")
    inertia = measure.inertia_max
    if not math.isfinite(inertia):
        return None
    if measure.exploded:
        pose, load = next(iter(measure.exploded.items()))
        unit = _unit(joint.is_angular, "load")
        out.limits.append(("exploded", f"under the probe's stiff drive the simulation blew up at {pose} (load read "
                                       f"{for_people(load, unit)}, the weight of everything it moves bounds it at "
                                       f"{for_people(measure.gravity_bound, unit)}): masses, inertias, limits or the "
                                       "couplings of the asset, not drive values"))
        return out
    inertia = max(inertia, MIN_INERTIA)
    loads = {k: v for k, v in measure.load.items() if math.isfinite(v) and k not in measure.blocked}
    odd = implausible_loads(loads, measure.gravity_bound)
    if odd:  # no mass the joint moves explains them: named, never sized for (not even with --raise-max-force)
        out.limits.append(("implausible_need", implausible_story(measure, odd)))
        loads = {k: v for k, v in loads.items() if k not in odd}
    load_max = max(loads.values(), default=0.0)
    load_hold = loads.get("hold", load_max)
    test_load = allow.effort_force * measure.lever_arm
    w = t.omega
    # stiffness: the natural-frequency floor, then every static deflection the tests judge
    where = f" (the largest of the probed poses, at {measure.inertia_pose})" if measure.inertia_pose else ""
    needs = [(inertia * w * w, f"I w² = {for_people(inertia)} {_unit(joint.is_angular, 'inertia')}{where} x ({w:.3g} rad/s)²")]
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
        lever = f" x {for_people(measure.lever_arm, 'm')} lever" if joint.is_angular else ""
        needs.append(((load_hold + test_load) / (t.deflection_share * allow.effort_tolerance),
                      f"{allow.load_test}: held load + {allow.effort_force:g} N{lever} "
                      f"deflects < {t.deflection_share:.3g} x "
                      f"{for_people(allow.effort_tolerance, 'rad' if joint.is_angular else 'm')}"))
    k_req, k_why = max(needs, key=lambda item: item[0])
    k_max = inertia * targets.omega_max(allow.fps) ** 2  # where the step stops resolving the drive (no bound: above)
    if k_req > k_max * (1.0 + t.slack):
        k_why += (f"; past the {allow.fps:g} Hz step's resolution ({_usd_text(k_max, joint.is_angular, 'stiffness')} for "
                  "this inertia): it arrives in about a step, and the verify pass measures what it holds")
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
    elif "stiffness" in out.proposed and abs(damping - d_req) > t.slack * d_req:
        # damping goes with stiffness: an authored damping kept beside a new stiffness rings or crawls (zeta 0.5 at
        # 4x the stiffness overshoots a step by 16 %): the target ratio at the proposed stiffness
        damping = d_req
        out.proposed["damping"] = d_req
        out.why["damping"] = (f"tuned with the stiffness: zeta {zeta_now:.3g} at the proposed stiffness -> "
                              f"{t.damping_ratio:g}: 2 zeta sqrt(K I)")
    # maxForce: margin over the peak gravity + dynamic load and over the held load + the test load
    dynamic = load_max + inertia * allow.sweep_accel + measure.friction
    held = load_hold + test_load + measure.friction
    f_req = t.force_margin * max(dynamic, held)
    which = "gravity + sweep acceleration" if dynamic >= held else f"held load + {allow.effort_force:g} N test load"
    peak = for_people(max(dynamic, held), _unit(joint.is_angular, 'load'))
    need = f"{t.force_margin:.3g} x {which} ({peak})"
    # the rating is compared with the unescalated margin: an escalation is a target, not what the load needs
    base = (targets.force_margin * max(dynamic, held), f"{targets.force_margin:.3g} x {which} ({peak})")
    out.derived["plausible_need"] = plausible_need(measure.gravity_bound, test_load, inertia, allow.sweep_accel,
                                                   t.force_margin)
    _max_force(out, f_req, need, targets, t.slack, base)
    if out.added:
        out.proposed.setdefault("stiffness", stiffness)
        out.proposed.setdefault("damping", damping)
        out.why.setdefault("damping", f"2 zeta sqrt(K I), zeta {t.damping_ratio:g}")
    out.derived = {**out.derived, "inertia": inertia, "load_max": load_max, "load_hold": load_hold, "test_load": test_load,
                   "stiffness_required": k_req, "max_force_required": f_req, "omega_n_target": w,
                   "omega_n": math.sqrt(stiffness / inertia) if stiffness > 0 else 0.0,
                   "zeta": damping / (2.0 * math.sqrt(stiffness * inertia)) if stiffness > 0 else math.inf,
                   "zeta_target": t.damping_ratio, "stiffness_bound": k_max, "rating": out.rating,
                   "gravity_bound": measure.gravity_bound}
    return out


def has_drive(drive: "DriveInfo | None") -> TypeGuard["DriveInfo"]:
    """A drive that moves its joint (stiffness or damping > 0: core.asset_model.DriveInfo.active)."""
    return drive is not None and (drive.stiffness > 0 or drive.damping > 0)


def rating(joint: "JointInfo") -> tuple[float, str]:
    """(the effort the drive's maxForce stays within, the attribute it comes from): an authored maxForce, else the
    rated effort a converter carried (urdf:limit:effort, mjc:actuatorfrcrange, an MJCF motor's ctrlrange x gear);
    (inf, '') when neither is authored. A maxForce authored on a drive with no gains is a rating too (a gripper's
    40 N cap whose gains were left for `fix` to size); authored as 0 there it rates nothing."""
    drive = joint.drive
    source = f"drive:{'angular' if joint.is_angular else 'linear'}:physics:maxForce"
    if has_drive(drive) and math.isfinite(drive.max_force):
        return drive.max_force, source
    if drive is not None and math.isfinite(drive.max_force) and drive.max_force > 0:
        return drive.max_force, f"{source}, authored on a drive with no gains"
    effort = joint.effort_limit
    if effort is not None and math.isfinite(effort) and effort > 0:
        return effort, joint.effort_limit_source or "the rated effort"
    return math.inf, ""


def _max_force(out: Proposal, f_req: float, need: str, targets: "FixTargets", slack: float,
               base: tuple[float, str]) -> None:
    """maxForce: the requirement, within the rating unless asked (`raise_max_force`); a new drive gets the rating.
    `base`: the requirement at the unescalated margin, which a rating below is reported against."""
    unit = _unit(out.angular, "load")
    capped = math.isfinite(out.rating) and not targets.raise_max_force
    if out.added:  # a new drive: the rated effort where authored, else the requirement, assumed
        if math.isfinite(out.rating):
            out.proposed["maxForce"], out.why["maxForce"] = out.rating, f"the rated effort ({out.rating_source})"
        elif f_req > 0:
            note = out.rating_note or "no rated effort authored"
            out.proposed["maxForce"], out.why["maxForce"] = f_req, f"{need}; assumed: {note}, confirm the actuator's rating"
            out.assumed.add("maxForce")
    elif f_req > 0 and out.current["maxForce"] < f_req * (1.0 - slack):
        value = min(f_req, out.rating) if capped else f_req
        if value > out.current["maxForce"] * (1.0 + slack):
            out.proposed["maxForce"], out.why["maxForce"] = value, need
    f_base, base_need = base
    if capped and f_base > out.rating * (1.0 + slack) and (out.added or math.isfinite(out.current["maxForce"])):
        out.limits.append(("actuator_rating", f"needs {for_people(f_base, unit)} ({base_need}), rated "
                                              f"{for_people(out.rating, unit)} ({out.rating_source}): kept at the rating; pass "
                                              "--raise-max-force to exceed it"))


def cap_max_force(out: Proposal, wanted: float, why: str, targets: "FixTargets") -> bool:
    """Raise a proposal's maxForce to `wanted` within the rating (the verify pass) and within what the joint's masses
    can need (`plausible.plausible_need`); False when either stopped it."""
    plausible = out.derived.get("plausible_need", math.inf)
    if out.value("maxForce") >= plausible * (1.0 - targets.slack):  # it has what its masses can need, and sat at it
        if all(c != "implausible_need" for c, _ in out.limits):
            unit = _unit(out.angular, "load")
            out.limits.append(("implausible_need", f"its drive sat at its maxForce {for_people(out.value('maxForce'), unit)} "
                                                   f"at the poses the tests judge, the most everything it moves can need "
                                                   f"({for_people(plausible, unit)}: its weight at its farthest reach, "
                                                   f"{for_people(out.derived.get('gravity_bound', math.nan), unit)}, x "
                                                   f"{IMPLAUSIBLE_FACTOR:g} for dynamics and contacts, + the test load and "
                                                   "the sweep's "
                                                   "acceleration, x the force margin): something holds it (a collider, a "
                                                   "limit) or the model is defective; maxForce not raised past it"))
        return False
    wanted = min(wanted, plausible)
    value = wanted if targets.raise_max_force or not math.isfinite(out.rating) else min(wanted, out.rating)
    if value > out.value("maxForce") * 1.000001:
        out.proposed["maxForce"] = value
        out.why["maxForce"] = out.why.get("maxForce", "") + why
    if value < wanted * 0.999999:
        unit = _unit(out.angular, "load")
        sentence = (f"needs more than {for_people(value, unit)} at the poses the tests judge (the drive sat at its maxForce), "
                    f"rated {for_people(out.rating, unit)} ({out.rating_source}): kept at the rating; pass --raise-max-force "
                    "to exceed it")
        if all(c != "actuator_rating" for c, _ in out.limits):
            out.limits.append(("actuator_rating", sentence))
        return False
    return True


def _usd_text(value: float, angular: bool, name: str) -> str:
    """A drive value as authored in USD (per degree for angular drives, stage units taken as SI)."""
    if angular:
        return f"{value * math.pi / 180.0:.4g} N·m/°" if name == "stiffness" else f"{value:.4g} N·m"
    return f"{value:.4g} N/m" if name == "stiffness" else f"{value:.4g} N"


def implausible_story(measure: "JointMeasure", odd: dict[str, float]) -> str:
    """Why the readings `odd` (pose -> effort) are named instead of sized for, with the numbers."""
    unit = "N·m" if measure.angular else "N"
    pose, load = max(odd.items(), key=lambda item: item[1])
    more = f" (and {len(odd) - 1} more pose(s) past it)" if len(odd) > 1 else ""
    mass = f" ({measure.moved_mass:.3g} kg, the runtime's masses)" if math.isfinite(measure.moved_mass) else ""
    return (f"holding it at {pose_text(pose)} read {for_people(load, unit)}{more}, while everything it moves{mass} weighs "
            f"on it at most {for_people(measure.gravity_bound, unit)} at its farthest reach "
            f"({IMPLAUSIBLE_FACTOR:g} x that allowed for dynamics and contacts: "
            f"{for_people(IMPLAUSIBLE_FACTOR * measure.gravity_bound, unit)}): no "
            "mass and lever arm of the asset explain it. A probe that blew up or a model defect (a collider overlapping "
            "another at that pose, masses or inertias), not an actuator's rating to exceed: not sized for")
