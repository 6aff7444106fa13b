"""One asset's proposal, measured: probe the engine, apply the rules, then verify the proposal statically.

`plan_asset` runs in a worker process of the run layer (`run.worker.run_calls`): the probe loads the engine several
times and a native crash or hang must cost one asset, not the run. It returns plain data.

Verify: the proposed drives (with their proposed maxForce) are loaded in a probe layer and every tuned joint is
taken to the poses the tests judge it at; the static error the engine shows there is compared with the share of
the tolerance the rules allow. PhysX's articulation drive holds a static load with an error that grows with the
drive's damping (16/1 solver iterations; see probe.PROBE_ZETA), so the rule's K = L / (s tol) is a first guess:
a joint still too far off gets K (and D, keeping zeta) raised by the measured ratio (squared past the step's
resolution, where the error falls as 1/sqrt(K)), or, when its drive is at its maxForce, twice the maxForce within the
rating; at most VERIFY_PASSES times. A joint still off after them is named (`not_met`) with its error and stiffness.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from pathlib import Path

from ..core import out_writer
from ..core.config import ValidationConfig
from ..core.quantities import for_people
from ..core.usd import read_asset
from .overlaps import RestOverlap
from .probe import HOLD_SECONDS, ProbeResult, Waypoints, _ProbeRun, probe
from .rules import Proposal, cap_max_force, propose
from .targets import MAX_LEVEL, FixTargets, JointAllowance, endpoint_tolerance

VERIFY_PASSES = 4
RAISE_MARGIN = 1.25  # a verified shortfall raises stiffness by the measured ratio x this
BLOCKED_SLACK = 1.1  # at an endpoint the stiff probe stopped short of (inside its tolerance): 10 % more than its stop
SATURATED = 0.95  # a holding effort at this share of maxForce: the drive is at its limit


@dataclass
class PlanRequest:
    asset_path: str
    engine: str
    config: ValidationConfig  # crosses to the worker as its dict, parsed once there (`run.worker_pool.pickle_for_worker`)
    joints: list[str]  # joint paths to tune
    allow: dict[str, JointAllowance]
    targets: FixTargets
    levels: dict[str, int] = field(default_factory=dict)
    workdir: str = ""
    probe: ProbeResult | None = None  # reuse an earlier round's measurements
    reuse: dict[str, Proposal] = field(default_factory=dict)  # joints whose targets did not change: last round's proposal
    overlaps: list[RestOverlap] = field(default_factory=list)  # body pairs overlapping at rest (fix/overlaps.py)


@dataclass
class Plan:
    probe: ProbeResult | None
    proposals: dict[str, Proposal] = field(default_factory=dict)
    verified: dict[str, dict] = field(default_factory=dict)  # joint -> {pose: static error} with the proposal
    notes: list[str] = field(default_factory=list)
    error: str = ""


def plan_asset(request: PlanRequest) -> Plan:
    config = request.config
    workdir = Path(request.workdir)
    fps = next((a.fps for a in request.allow.values() if a.ends), 240.0)  # the rate of the test that moves them
    waypoints = Waypoints({p: a.hold for p, a in request.allow.items()}, {p: a.ends for p, a in request.allow.items()})
    measured = request.probe or probe(request.asset_path, request.engine, config, waypoints, workdir / "probe", fps,
                                      request.overlaps)
    plan = Plan(measured)
    if measured.error:
        plan.error = measured.error
        return plan
    asset = read_asset(request.asset_path)
    for path in request.joints:
        m = measured.joints.get(path)
        if m is None:
            continue
        if path in request.reuse:  # its targets did not change since it was verified: nothing to measure again
            plan.proposals[path] = request.reuse[path]
            continue
        level = request.levels.get(path, 0)
        proposal = propose(asset.joints[path], m, request.allow[path], request.targets, level)
        while proposal is not None and not proposal.changed and not proposal.limits and level < MAX_LEVEL:
            # a joint tuned for a failing row whose drive already meets the static needs: aim higher now, never
            # answer "already met" beside a failure (the re-run judges the escalated drive)
            level += 1
            proposal = propose(asset.joints[path], m, request.allow[path], request.targets, level)
        if proposal is not None and not proposal.changed and not proposal.limits:
            proposal.limits.append(("met_statically", f"its drive (stiffness {proposal.value('stiffness'):.4g}, maxForce "
                                                      f"{proposal.value('maxForce'):.4g}, SI) already meets every static "
                                                      f"need the tests set, escalated {MAX_LEVEL}x: what fails it is not "
                                                      "a drive value"))
        if proposal is None:
            plan.notes.append(f"{asset.joints[path].name}: {m.note or 'not measured'}")
            continue
        plan.proposals[path] = proposal
    tuned = [p for p, prop in plan.proposals.items() if prop.changed and p not in request.reuse]
    if tuned:
        _verify(plan, request, asset, config, waypoints, workdir / "verify", fps, tuned)
    return plan


def _verify(plan: Plan, request: PlanRequest, asset, config, waypoints: Waypoints, workdir: Path, fps: float,
            tuned: list[str]) -> None:
    from ..core.scene import SceneSpec

    out_writer.folder(workdir)
    scene = SceneSpec(physics_fps=fps, gravity=9.81, ground=None, pin_base=True)
    assert plan.probe is not None  # a plan that proposes was measured
    caps = plan.probe.caps
    run = _ProbeRun(request.asset_path, request.engine, config, scene, workdir, asset, plan.probe.dofs, waypoints, caps)
    run.filtered = plan.probe.overlaps.filtered if plan.probe.overlaps else []  # measured with them: verified with them
    stuck: set[str] = set()  # joints held at the actuator's rating: not raised again
    for attempt in range(VERIFY_PASSES):
        gains = {p: (prop.value("stiffness"), prop.value("damping"),
                     prop.value("maxForce")) for p, prop in plan.proposals.items() if prop.changed}
        poses_of = {p: judged_poses(request.allow[p], plan.probe.joints[p].blocked) for p in tuned}
        result = run.measure(f"verify{attempt}", gains, tuned, poses_of=poses_of, hold=HOLD_SECONDS)
        short = False
        for p in tuned:
            prop, allow = plan.proposals[p], request.allow[p]
            errors = {pose: v[0] for pose, v in result.get(p, {}).items() if pose in ("hold", *poses_of[p])}
            plan.verified[p] = {pose: abs(e) for pose, e in errors.items()}
            share = request.targets.escalated(prop.level).deflection_share
            floors = {pose: BLOCKED_SLACK * abs(info["error"]) for pose, info in plan.probe.joints[p].blocked.items()}
            ratio = _shortfall(errors, allow, share, floors)
            prop.derived["verified_ratio"] = ratio
            if ratio <= 1.0:
                continue
            short = True
            k, d, f = gains[p]
            held = max(k * abs(e) for e in errors.values())
            if math.isfinite(f) and held >= SATURATED * f:
                if not cap_max_force(prop, 2.0 * f, "; verified: the drive sat at its maxForce, x2", request.targets):
                    stuck.add(p)
                continue
            factor = raise_factor(ratio * RAISE_MARGIN, k, prop.derived.get("stiffness_bound", math.inf))
            prop.proposed["stiffness"] = k * factor
            prop.proposed["damping"] = d * math.sqrt(factor)
            prop.why["stiffness"] = prop.why.get("stiffness",
                                                 "") + f"; verified: static error {ratio:.3g}x the allowed share, x{factor:.3g}"
            prop.why.setdefault("damping", "zeta kept as stiffness was raised")
            prop.derived["omega_n"] = math.sqrt(prop.proposed["stiffness"] / prop.derived["inertia"])
        tuned = [p for p in tuned if p not in stuck]
        if not short or not tuned:
            return
    plan.notes.append(f"static errors still above the allowed share after {VERIFY_PASSES} verify passes")
    for p in tuned:  # still off: said with the numbers, never left as if the drive met what the tests need
        prop = plan.proposals[p]
        errors = plan.verified.get(p, {})
        if errors and prop.derived.get("verified_ratio", 0.0) > 1.0 / request.targets.escalated(prop.level).deflection_share:
            pose, error = max(errors.items(), key=lambda item: item[1])
            unit = "rad" if prop.angular else "m"
            prop.limits.append(("not_met", f"still {for_people(error, unit)} off at {pose} with stiffness "
                                           f"{prop.value('stiffness'):.4g} {'N·m/rad' if prop.angular else 'N/m'} after "
                                           f"{VERIFY_PASSES} verify passes: more than the whole tolerance there"))


def raise_factor(ratio: float, stiffness: float, resolved: float) -> float:
    """How much stiffer a drive whose static error is `ratio` x the allowed one must get. Below the step's resolution
    (`resolved`, K = I w_max²) the error falls as 1/K; past it as 1/sqrt(K) (docs/fix.md, measured on physx), so the
    part of the ratio left past it is squared."""
    if stiffness <= 0 or not math.isfinite(resolved) or stiffness * ratio <= resolved:
        return ratio
    linear = max(resolved / stiffness, 1.0)  # the share of the ratio still bought at 1/K
    return linear * (ratio / linear) ** 2


def judged_poses(allow: JointAllowance, blocked: dict) -> list[str]:
    """The endpoints verify takes a joint to: every one the tests judge, but those the probe found blocked beyond
    their tolerance (no drive value reaches them; named by the pipeline)."""
    return [k for k in allow.ends if k not in blocked or abs(blocked[k]["error"]) <= endpoint_tolerance(allow, k)]


def _shortfall(errors: dict[str, float], allow: JointAllowance, share: float, floors: dict[str, float]) -> float:
    """Largest measured static error / allowed error (share x tolerance) over the judged poses (<= 1: met). At an
    endpoint the stiff probe stopped short of inside its tolerance, the drive is allowed that stop (`floors`)."""
    worst = 0.0
    for pose, _what, tol in allow.deflections:
        if tol <= 0:
            continue
        observed = max(abs(v) for v in errors.values()) if pose == "*" and errors else abs(errors.get(pose, 0.0))
        worst = max(worst, observed / max(share * tol, floors.get(pose, 0.0)))
    return worst
