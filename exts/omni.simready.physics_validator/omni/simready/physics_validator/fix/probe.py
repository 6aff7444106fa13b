"""Measurements through the engine, in the scene the driven-joint tests use (240 Hz, gravity, pinned base):

1. the joint-space inertia `mass_matrix()` at the authored pose;
2. a **probe**: the asset with every driven joint's drive replaced, in a probe layer, by a stiff, critically
   damped drive of unlimited force (stiffness = M_ii x PROBE_OMEGA^2, damping = 2 sqrt(stiffness M_ii)). The
   joints are commanded to the held pose and, one joint at a time, to its sweep endpoints (the waypoints of
   full_range_sweep, 10 % inside the limits). At rest the drive balances the load, so each joint's holding
   effort is `stiffness x (target - q)`: the gravity load (plus joint friction) at that pose, measured. The
   mass matrix is read at every pose too;
3. a joint that stays off its waypoint under that drive is re-probed 20x stiffer: a gravity deflection shrinks
   20x, a joint held by geometry (or friction, or a mimic constraint) does not: it is **blocked**;
4. for a blocked waypoint, the body pairs whose colliders touch there are filtered (`FilteredPairsAPI`, in a
   probe layer) and the waypoint is probed again: when it is reached then, collision geometry blocked it, and
   the pairs that unblock it alone are named; when not, every pair of a moved body with the rest is filtered once,
   so a blocked joint is named by a cause measured on it: collision geometry, or not collision geometry.

Everything is written to a work folder of the caller's (never the asset's folder); the asset is only sublayered.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

from ..core import out_writer
from ..core.built_model import from_asset
from ..core.runtime_model import with_mass_properties
from ..physics_tests.driven.base import driven_scene
from ..core.usd import read_asset
from ..physics_tests.driven.kinematics import moved_bodies
from ..physics_tests.driven.load_point import lever_arm
from ..run.worker_main import physics_progressed
from .geometry import every_pair, gravity_bound, model_inertia, touching_pairs
from .layers import (
    JointOverride, UsdUnits, add_filtered_pairs, drive_attr, open_stage, stage_metadata, write_composed_root,
    write_override_layer,
)
from .overlaps import OverlapTrial, RestOverlap
from .plausible import BOUND_FACTOR, exploded, pushed
from .readings import body_masses, drive_gains, mass_matrix, velocity_caps

PROBE_OMEGA = 2 * math.pi * 15.0  # rad/s: the probe drive's natural frequency
PROBE_ZETA = 0.1  # light damping: PhysX's articulation drive holds a static load with an error that grows with
# the damping (TGS, 16/1 iterations: K (target - q) read 12.6 / 37 / 170 N·m for D = 5 / 157 / 1000 N·m·s/rad against
# a 12.2 N·m load on the fixture arm), so the probe reads the load with little of it; `verify` measures the rest
PROBE_MAX_FORCE = 1e15  # USD units: unlimited for any robot
RAMP_SECONDS, HOLD_SECONDS = 0.3, 0.5
AVERAGE_SECONDS = 2 * (2 * math.pi / PROBE_OMEGA)  # two probe periods: the mean of a lightly damped ring-down
OFF_WAYPOINT = 0.02  # a probed joint farther than this fraction of its range (or 0.02 rad / 0.02 m) is re-probed
STIFFER = 20.0
BLOCKED_SHRINK = 0.5  # 20x stiffer and still more than half as far off: held by something, not by its load
MAX_CANDIDATE_PAIRS, MAX_SINGLE_PAIR_TRIALS = 8, 4
FRICTION_SHARE = 10.0  # probe stiffness >= this x friction / the off-waypoint tolerance
CONTACT_SAMPLES = 8  # touching colliders are looked for this often on the way to each waypoint
MIN_INERTIA = 1e-8
SPEED_SHARE = 0.8  # a probe ramp's peak speed (smoothstep: 1.5 x the mean) stays at this share of the velocity cap
# the longest ramp to one waypoint: a continuous joint wound up many turns (or a cap near 0) asked 8.4e9 s of a Kinova
# Gen3 probe, which stepped for ever under the watchdog (each step is progress)
MAX_RAMP_SECONDS = 10.0


@dataclass
class JointMeasure:
    """What the engine measured for one driven joint (SI: kg m^2 or kg, N m or N, m)."""

    path: str
    name: str
    angular: bool
    inertia: dict[str, float] = field(default_factory=dict)  # pose -> M_ii
    load: dict[str, float] = field(default_factory=dict)  # pose -> |holding effort| against gravity (+ friction)
    error: dict[str, float] = field(default_factory=dict)  # pose -> target - q under the probe drive
    lever_arm: float = 0.0  # farthest collider point of the moved bodies from the axis (revolute), 1 (prismatic)
    friction: float = 0.0  # static friction effort the runtime parsed
    armature: float = 0.0  # added to M_ii in every inertia here: PhysX's mass matrix leaves it out (MJCF assets carry 0.01-1)
    gravity_bound: float = math.inf  # g x sum of moved masses x their farthest reach (+ friction): no load exceeds it
    moved_mass: float = math.nan  # kg: the runtime's masses of the bodies the joint moves
    drive_type: str = "force"
    blocked: dict[str, dict] = field(default_factory=dict)  # pose -> {"error", "pairs": [[a, b]...], "collision": bool}
    exploded: dict[str, float] = field(default_factory=dict)  # pose -> the load read there: NaN, or past any weight
    note: str = ""  # why a value could not be measured

    @property
    def inertia_max(self) -> float:
        values = [v for v in self.inertia.values() if math.isfinite(v)]
        return max(values) if values else math.nan

    @property
    def inertia_pose(self) -> str:
        """Where `inertia_max` was measured, for people: "the authored pose", "its max endpoint", "joint2's max
        endpoint" (the largest M_ii over the probed poses, armature included)."""
        found = [(v, k) for k, v in self.inertia.items() if math.isfinite(v)]
        if not found:
            return ""
        return pose_text(max(found)[1])

    @property
    def load_max(self) -> float:
        values = [v for k, v in self.load.items() if math.isfinite(v) and k not in self.blocked]
        return max(values) if values else math.nan


def pose_text(pose: str) -> str:
    """A probed pose for people: "the authored pose", "its hold target", "its max endpoint", "joint2's max endpoint"."""
    if pose == "authored":
        return "the authored pose"
    if pose == "hold":
        return "its hold target"
    if "@" in pose:
        other, end = pose.split("@", 1)
        return f"{other}'s {end} endpoint"
    return f"its {pose} endpoint"


@dataclass
class ProbeResult:
    joints: dict[str, JointMeasure] = field(default_factory=dict)  # by joint path
    warnings: list[str] = field(default_factory=list)
    error: str = ""
    loads: int = 0  # engine loads it took
    dofs: list[str] = field(default_factory=list)  # the engine's DOF joints
    caps: np.ndarray | None = None  # enforced velocity caps per DOF (inf: none)
    overlaps: OverlapTrial | None = None  # the readings blew up: measured again with the rest overlaps filtered (overlaps.py)


@dataclass
class Waypoints:
    """Per driven joint: the held target and the sweep endpoints probed (SI)."""

    hold: dict[str, float]
    ends: dict[str, dict[str, float]]  # joint path -> {"max": q, "min": q}


def probe(asset_path: str, engine: str, config, waypoints: Waypoints, workdir: str | Path,
          fps: float = 240.0, overlaps: list[RestOverlap] | None = None) -> ProbeResult:
    """Measure every joint of `waypoints.hold` on `asset_path` (see the module docstring). `overlaps`: the body pairs
    that overlap at rest (fix/overlaps.py), filtered for every measurement when the first one blows up without them
    and not with them."""
    from ..engines import create_engine

    workdir = out_writer.folder(Path(workdir))  # OUT/.fix/<asset>/ (core.out_writer)
    out = ProbeResult()
    asset = read_asset(asset_path)
    scene = driven_scene(fps)
    eng = create_engine(engine, config)
    try:
        eng.load(asset, scene)
        out.loads += 1
        dofs = list(eng.dof_joints)
        M0 = mass_matrix(eng, len(dofs))
        authored_gains = drive_gains(eng, len(dofs))
        caps = velocity_caps(eng, len(dofs))
        masses = body_masses(eng)
        asset = with_mass_properties(asset, eng.built_model() if eng.capabilities().reads_built_model else from_asset(asset))
    finally:
        eng.close()
    out.dofs, out.caps = dofs, caps
    index = {p: i for i, p in enumerate(dofs)}
    joints = [p for p in waypoints.hold if p in index]
    for path in joints:
        j = asset.joints[path]
        i = index[path]
        m = JointMeasure(path, j.name, j.is_angular, friction=float(np.nan_to_num(authored_gains["static_friction"][i])),
                         drive_type=j.drive.type if j.drive is not None else "none",
                         armature=float(np.nan_to_num(authored_gains.get("armature", np.zeros(len(dofs)))[i])))
        m.inertia["authored"] = float(M0[i, i]) + m.armature
        out.joints[path] = m
    missing = [p for p in joints if not math.isfinite(out.joints[p].inertia["authored"])]
    if missing:  # PhysX simulates the joint outside its articulation: estimate from masses and geometry instead
        posed = {p: (np.asarray(b.world_pose.pos, float), np.asarray(b.world_pose.quat, float)) for p, b in asset.bodies.items()}
        for p in missing:
            m = out.joints[p]
            m.inertia["authored"] = model_inertia(asset, asset.joints[p], posed, masses) + m.armature
            m.note = "inertia estimated from masses and geometry (the engine simulates this joint outside its articulation)"
    measurable = [p for p in joints if math.isfinite(out.joints[p].inertia["authored"]) and out.joints[p].inertia["authored"] > 0]
    for p in set(joints) - set(measurable):
        out.joints[p].note = "no inertia: neither the engine nor the asset's masses give one"
    if not measurable:
        return out
    stiffness = {p: max(out.joints[p].inertia["authored"], MIN_INERTIA) * PROBE_OMEGA**2 for p in measurable}
    for p in measurable:  # friction too must not hold a probed joint off its waypoint
        stiffness[p] = max(stiffness[p], FRICTION_SHARE * out.joints[p].friction / _off_tolerance(asset.joints[p]))
    gains = {p: probe_gains(k, PROBE_OMEGA) for p, k in stiffness.items()}
    run = _ProbeRun(asset_path, engine, config, scene, workdir, asset, dofs, waypoints, caps)
    first = _first_measure(run, out, gains, stiffness, measurable, masses, overlaps or [])
    off: dict[str, list[str]] = {}
    for p in measurable:
        m = out.joints[p]
        tol = _off_tolerance(asset.joints[p])
        for pose, (err, load, inertia) in first[p].items():
            inertia = inertia + m.armature if math.isfinite(inertia) else m.inertia["authored"]
            if exploded(err, load, m.gravity_bound, stiffness[p], tol):
                m.exploded[pose] = load  # no load a drive value answers: named by the rules, never sized for
                continue
            m.error[pose], m.load[pose], m.inertia[pose] = err, load, inertia
            if pose not in ("max", "min"):
                continue
            if pushed(load, m.gravity_bound):  # more than all its bodies' weight: something pushes
                m.blocked[pose] = {"error": err, "pairs": [], "collision": False, "pull": load,
                                   "why": f"holding it takes {load:.3g} > {BOUND_FACTOR:g} x the weight of what it moves"}
            elif abs(err) > tol:
                off.setdefault(p, []).append(pose)
    stiff = dict(gains)
    if off:  # stiffer: a load deflection shrinks, a blocked joint does not
        stiff = {p: probe_gains(k * (STIFFER if p in off else 1.0), PROBE_OMEGA * math.sqrt(STIFFER if p in off else 1.0))
                 for p, k in stiffness.items()}
        second = run.measure("probe_stiff", stiff, list(off), poses_of=off)
        out.loads += 1
        for p, poses in off.items():
            m = out.joints[p]
            for pose in poses:
                err2, load2, inertia2 = second[p][pose]
                if abs(err2) > BLOCKED_SHRINK * abs(m.error[pose]) and abs(err2) > _off_tolerance(asset.joints[p]):
                    m.blocked[pose] = {"error": err2, "pairs": [], "collision": False, "pull": load2,
                                       "why": "20x stiffer, it stays as far off: something holds it"}
                else:
                    inertia2 = inertia2 + m.armature if math.isfinite(inertia2) else m.inertia["authored"]
                    m.error[pose], m.load[pose], m.inertia[pose] = err2, load2, inertia2
    blocked_labels = {f"{m.name}@{pose}" for m in out.joints.values() for pose in m.blocked}
    for m in out.joints.values():  # a configuration held by geometry loads the other joints with contact forces too
        for label in blocked_labels & set(m.load):
            del m.load[label]
    for p, m in out.joints.items():
        for pose, info in m.blocked.items():
            out.loads += _collision_test(run, gains, asset, m, pose, info, run.contacts.get(f"{p}@{pose}", {}))
    out.warnings.extend(run.warnings)
    return out


def _first_measure(run: "_ProbeRun", out: ProbeResult, gains: dict, stiffness: dict, joints: list[str], masses: dict,
                   overlaps: list[RestOverlap]) -> dict:
    """The probe's first measurement (the way to each waypoint watched for touching colliders), with each joint's
    lever arm and gravity bound at the hold pose. When a reading blows up and the asset has body pairs that overlap at
    rest, it is taken again with those pairs filtered; when nothing blows up then, that one is kept and every later
    measurement filters them too (`run.filtered`, `out.overlaps`: fix/overlaps.py)."""
    def measure(tag: str, filtered: list) -> tuple[dict, dict]:
        run.track, run.contacts = {p: True for p in joints}, {}
        result = run.measure(tag, gains, joints, filtered=filtered)
        run.track = {}
        out.loads += 1
        hold = run.poses.get("hold", {})
        for p in joints:
            m = out.joints[p]
            m.lever_arm = lever_arm(run.asset, run.asset.joints[p], hold)
            m.gravity_bound = gravity_bound(run.asset, run.asset.joints[p], hold, masses) + m.friction
            m.moved_mass = sum(masses.get(b, 0.0) for b in moved_bodies(run.asset, run.asset.joints[p]))
        blown = {}
        for p in joints:
            m, tol = out.joints[p], _off_tolerance(run.asset.joints[p])
            found = [(pose, load) for pose, (err, load, _) in result[p].items()
                     if exploded(err, load, m.gravity_bound, stiffness[p], tol)]
            if found:
                blown[m.name] = (pose_text(found[0][0]), found[0][1], m.gravity_bound)
        return result, blown

    first, blown = measure("probe", [])
    if not blown or not overlaps:
        return first
    kept = (dict(run.poses), dict(run.contacts), {p: (out.joints[p].lever_arm, out.joints[p].gravity_bound) for p in joints})
    trial = OverlapTrial(list(overlaps), blown, {out.joints[p].name: out.joints[p].angular for p in joints})
    pairs = [(o.body, o.other) for o in overlaps]
    second, still = measure("probe_overlaps_filtered", pairs)
    out.overlaps = trial
    if not still:
        trial.settled, run.filtered = True, pairs
        return second
    run.poses, run.contacts = kept[0], kept[1]  # not those overlaps: the measurement as authored stands
    for p, (arm, bound) in kept[2].items():
        out.joints[p].lever_arm, out.joints[p].gravity_bound = arm, bound
    return first


def _off_tolerance(joint) -> float:
    span = (joint.upper - joint.lower) if joint.has_limits else 2 * math.pi
    return min(0.02, OFF_WAYPOINT * span)


def probe_gains(stiffness: float, omega: float) -> tuple[float, float, float]:
    """(K, D, maxForce) of a probe drive: lightly damped at `omega`, unlimited force."""
    inertia = stiffness / omega**2
    return stiffness, 2.0 * PROBE_ZETA * math.sqrt(stiffness * inertia), math.inf


def _collision_test(run: "_ProbeRun", gains: dict, asset, m: JointMeasure, pose: str, info: dict, contacts: dict) -> int:
    """Filter the body pairs whose colliders touched on the way to the blocked waypoint and probe it again: reached
    (and held by no more than its weight), collision geometry blocked it; the pairs that unblock it alone are named.
    When none touched, or those did not free it, every pair of a moved body with the rest is filtered once: reached
    then, collision geometry stops it through a pair no box showed touching (`unseen`); still stopped, it is not
    collision geometry (`all_filtered`). Returns the engine loads it took."""
    path = m.path
    pairs = [pair for pair, _ in sorted(contacts.items(), key=lambda item: -item[1])][:MAX_CANDIDATE_PAIRS]
    info["candidates"] = [list(p) for p in pairs]
    tol = _off_tolerance(asset.joints[path])

    def reached(result) -> bool:
        err, load, _ = result[path][pose]
        return abs(err) <= tol and not pushed(load, m.gravity_bound)

    loads = 0
    if pairs:
        loads += 1
    if not pairs or not reached(run.measure(f"filter_{m.name}_{pose}", gains, [path], poses_of={path: [pose]},
                                            filtered=pairs)):
        # not these colliders (or none were seen touching): every pair of a moved body with the rest, once
        broad = every_pair(asset, asset.joints[path])
        info["all_filtered"] = bool(broad)
        if broad:
            loads += 1
            if reached(run.measure(f"filter_all_{m.name}_{pose}", gains, [path], poses_of={path: [pose]}, filtered=broad)):
                info["collision"], info["pairs"], info["unseen"] = True, [], True
        return loads
    info["collision"] = True
    decisive = []
    if len(pairs) > 1:
        for pair in pairs[:MAX_SINGLE_PAIR_TRIALS]:
            loads += 1
            if reached(run.measure(f"filter1_{m.name}_{pose}", gains, [path], poses_of={path: [pose]}, filtered=[pair])):
                decisive.append(pair)
    info["pairs"] = [list(p) for p in (decisive or pairs)]
    return loads


class _ProbeRun:
    """One probe configuration after another: a probe layer (stiff drives, optional filtered pairs) over the asset,
    loaded, commanded through the waypoints; returns per joint {pose: (target - q, |holding effort|, M_ii)}."""

    def __init__(self, asset_path, engine, config, scene, workdir: Path, asset, dofs, waypoints: Waypoints, caps):
        self.asset_path, self.engine, self.config, self.scene = asset_path, engine, config, scene
        self.workdir, self.asset, self.dofs, self.waypoints = workdir, asset, dofs, waypoints
        self.index = {p: i for i, p in enumerate(dofs)}
        self.caps = caps  # enforced velocity caps: a ramp never asks for more than SPEED_SHARE of them
        self.unlimited = np.array([asset.joints[p].is_angular and not asset.joints[p].has_limits if p in asset.joints
                                   else False for p in dofs], bool)
        self.stage = open_stage(asset_path)
        self.units = UsdUnits(asset.kilograms_per_unit, asset.meters_per_unit)
        self.meta = stage_metadata(self.stage)
        self.poses: dict[str, dict] = {}
        self.warnings: list[str] = []
        self.track: dict[str, bool] = {}  # joints whose way to each waypoint is watched for touching colliders
        self.contacts: dict[str, dict] = {}  # "<joint>@<pose>" -> {(moved body, other body): largest overlap}
        self.filtered: list[tuple[str, str]] = []  # body pairs every measurement filters (rest overlaps: overlaps.py)

    def measure(self, tag: str, gains: dict, joints: list[str], poses_of: dict | None = None,
                filtered: list | None = None, hold: float = HOLD_SECONDS) -> dict:
        """Load the asset with `gains` {joint: (K, D, maxForce)} (SI) in a probe layer and take `joints` through
        their waypoints (or only `poses_of`); per joint {pose: (target - q, K |target - q|, M_ii)}."""
        from ..engines import create_engine

        root = self._write(tag, gains, filtered or [])
        model = read_asset(root)
        eng = create_engine(self.engine, self.config)
        try:
            eng.load(model, self.scene)
            return self._drive(eng, {p: g[0] for p, g in gains.items()}, joints, poses_of, hold)
        finally:
            for w in eng.warnings:
                if w not in self.warnings and "carried over" not in w:
                    self.warnings.append(w)
            eng.close()

    def _write(self, tag: str, gains: dict, filtered: list) -> Path:
        overrides = []
        for path, (k, d, f) in gains.items():
            j = self.asset.joints[path]
            u = self.units
            values: dict = {  # attribute -> USD value (JointOverride.values)
                drive_attr(j.is_angular, "stiffness"): u.to_usd("stiffness", k, j.is_angular),
                drive_attr(j.is_angular, "damping"): u.to_usd("damping", d, j.is_angular),
                drive_attr(j.is_angular, "maxForce"):
                    u.to_usd("maxForce", f, j.is_angular) if math.isfinite(f) else PROBE_MAX_FORCE}
            overrides.append(JointOverride(path, values, apis=[f"PhysicsDriveAPI:{'angular' if j.is_angular else 'linear'}"]))
        layer = write_override_layer(self.workdir / f"{tag}.layer.usda", self.stage, overrides)
        if filtered or self.filtered:
            add_filtered_pairs(layer, [*self.filtered, *filtered], durable=False)
        return write_composed_root(self.workdir / f"{tag}.usda", [layer, self.asset_path], self.meta)

    def _drive(self, eng, stiffness: dict, joints: list[str], poses_of: dict | None, hold_seconds: float) -> dict:
        dt = eng.dt
        targets = np.full(len(self.dofs), np.nan)
        for path, held in self.waypoints.hold.items():
            if path in self.index:
                targets[self.index[path]] = held
        out: dict[str, dict] = {p: {} for p in joints}

        def settle(goal: np.ndarray, ramp: float, hold: float, watch=None) -> tuple[np.ndarray, np.ndarray]:
            start = np.where(np.isnan(goal), np.nan, eng.joint_positions())
            moves = np.abs(np.nan_to_num(goal - start))
            moves = np.where(self.unlimited, np.minimum(moves, np.pi), moves)  # a free revolute turns the short way
            ramp = min(MAX_RAMP_SECONDS, max(ramp, float(np.max(1.5 * moves / (SPEED_SHARE * self.caps), initial=0.0))))
            frames = max(1, int(round(ramp / dt)))
            for f in range(frames):
                s = (f + 1) / frames
                eng.set_joint_position_targets(np.where(np.isnan(goal), np.nan, start + (goal - start) * (s * s * (3 - 2 * s))))
                eng.step()
                physics_progressed()
                if watch is not None and (f % max(1, frames // CONTACT_SAMPLES) == 0 or f == frames - 1):
                    watch(eng)
            qs = []
            for f in range(max(1, int(round(hold / dt)))):
                eng.step()
                physics_progressed()
                if f >= int(round((hold - AVERAGE_SECONDS) / dt)):
                    qs.append(eng.joint_positions())
            return np.mean(qs, axis=0), mass_matrix(eng, len(self.dofs))

        def record(mover: str | None, pose: str, goal: np.ndarray, q: np.ndarray, M: np.ndarray, who: list[str]) -> None:
            """Own waypoints read 'max'/'min'; another joint's configuration '<its name>@max' (its load only)."""
            for p in who:
                i = self.index[p]
                err = float(goal[i] - q[i])
                label = pose if mover in (None, p) else f"{self.asset.joints[mover].name}@{pose}"
                out[p][label] = (err, abs(stiffness[p] * err), float(M[i, i]))

        q, M = settle(targets, RAMP_SECONDS, hold_seconds)
        self.poses["hold"] = _poses(eng)
        record(None, "hold", targets, q, M, joints)
        for path in joints:
            wanted = (poses_of or {}).get(path, list(self.waypoints.ends.get(path, {})))
            for pose in wanted:
                goal = targets.copy()
                goal[self.index[path]] = self.waypoints.ends[path][pose]
                watch = self._watcher(path, pose) if self.track.get(path) else None
                q, M = settle(goal, RAMP_SECONDS, hold_seconds, watch)
                if watch is not None:
                    watch(eng)
                record(path, pose, goal, q, M, [path] if poses_of is not None else joints)
                self.poses[f"{path}@{pose}"] = _poses(eng)
                settle(targets, RAMP_SECONDS, 0.1)
        return out


    def _watcher(self, path: str, pose: str):
        found = self.contacts.setdefault(f"{path}@{pose}", {})
        joint = self.asset.joints[path]

        def watch(eng) -> None:
            for a, b, overlap in touching_pairs(self.asset, joint, _poses(eng)):
                found[(a, b)] = max(found.get((a, b), 0.0), overlap)
        return watch


def _poses(eng) -> dict:
    return {k: (np.array(v[0], float), np.array(v[1], float)) for k, v in eng.body_poses().items()}
