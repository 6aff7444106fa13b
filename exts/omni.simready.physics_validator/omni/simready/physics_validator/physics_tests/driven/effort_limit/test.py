"""effort_limit (FET022): the drives hold a stable configuration against a 10 N load from 12 directions.

All driven joints hold their settled configuration with the authored gains; for each driven joint a
world-frame force is applied to its child body, at the child's collider point farthest from the joint
axis (so roll joints feel a torque too; prismatic joints: the centre of mass), in the 12 icosahedron
directions (re-applied every step, test_duration_seconds spread over the 12). A joint FAILs when its drive
gives way: a driven joint deflected from its held pose by more than break_tolerance x its range (a full
turn for unlimited revolute joints), a driven joint that sags that far under gravity before any load, any
joint beyond its authored limits by more than break_tolerance x its range (the spec's literal rule), NaN
or an explosion. After each joint's load is released the drives get recovery_seconds to pull back; one that
moves less than 10 % of the way back is a dead drive. Spec: docs/tests/effort_limit.md.
"""

from __future__ import annotations

import math

from typing import Iterator

import numpy as np
from pydantic import Field

from .bbox_watch import BoxWatch
from ...core.context import TestContext
from .force_directions import direction_label, icosahedron_directions
from .load_point import deflection_tolerance, joint_deflection, load_point
from ...core.quantities import for_people
from ...core.results import JointRow
from ...core.status import Status
from .base import (
    ADD_DRIVE_HINT, BBOX_CHECK_EVERY, DEAD_DRIVE_FRACTION, HINT_DEAD_DRIVE, DrivenJointConfig, DrivenJointTest,
    SeriesRecorder, dead_drive_story, drive_note, fmt, jv, row_units, settle,
)

HINT_MAX_FORCE = (
    "Joint breaks under the external force: raise driveMaxForce on the failing joint's UsdPhysics.DriveAPI to the "
    "real robot's rated torque, and check driveStiffness and driveDamping resist loads on top of gravity."
)
HINT_MASS = (
    "Check that link mass and inertia values are physically plausible: unrealistically low masses make a 10 N load "
    "break joints (and destabilise the solver) even with correct drives."
)
HINT_LOAD = (
    "If the asset is not meant to hold external loads (e.g. a kinematic articulation), lower "
    "force_magnitude_newtons to its expected operating load."
)
HINT_GAVE_WAY = (
    "The drive gives way under the load: raise driveMaxForce on the joint's UsdPhysics.DriveAPI to the real "
    "actuator's rated torque (it must exceed the load's torque about the axis, shown in the reason) and raise "
    "driveStiffness so the held pose deflects less than 10 % of the joint's range."
)
HINT_SAG = (
    "The drive cannot hold its pose against gravity alone: raise driveStiffness and driveMaxForce so that the "
    "gravity torque of the links it carries is a small fraction of what the drive can deliver."
)
# A joint the load's torque overpowers its drive on (>= HELD_FACTOR x driveMaxForce) that still deflects less than
# HELD_SHARE of its tolerance is held by something else (joint or viscous friction, a velocity cap of 0, a lock, a
# collision): its drive was not what the load tested, so the row is SKIP, never PASS. full_range_sweep and
# drive_gain_validation show whether the joint moves at all.
HELD_FACTOR, HELD_SHARE = 2.0, 0.01
HINT_HELD = (
    "Something other than the drive holds this joint against a load its driveMaxForce cannot: check joint friction "
    "and viscous friction (newton:friction / newton:damping, physxJointAxis:*FrictionEffort / viscousFrictionCoefficient), "
    "a velocity limit of 0, equal lower and upper limits, and colliders blocking it; then re-run."
)
HINT_EXPLODE = "The simulation exploded under load: check link masses and inertias and that the drive gains are not extreme."


class EffortLimitTest(DrivenJointTest):
    name = "effort_limit"
    version = "1.2.0"
    features = ("FET022_DRIVEN_JOINTS_PHYSX", "FET022_DRIVEN_JOINTS_ISAAC")
    summary = "The drives hold a stable configuration under a 10 N load at each joint's child body from 12 directions."

    class Config(DrivenJointConfig):
        capture_fps: float = Field(8.0, gt=0, description="Video frames per simulated second.")
        settle_seconds: float = Field(0.3, ge=0, description="Physics time holding the configuration before loading.")
        force_magnitude_newtons: float = Field(10.0, ge=0, description="External force at each joint's child body (N).")
        test_duration_seconds: float = Field(2.0, gt=0, description="Load time per joint, spread over the 12 directions (s).")
        break_tolerance: float = Field(0.10, ge=0, description="Fail: a driven joint deflected from its held pose, or any joint beyond its limits, by more than this x its range.")
        unlimited_prismatic_range_m: float = Field(1.0, gt=0, description="Range an unlimited prismatic joint's deflection is measured against (m).")
        recovery_seconds: float = Field(0.5, ge=0, description="Unloaded time after each joint's load, for the drives to pull back (s).")
        stop_on_first_break: bool = Field(True, description="Stop the test at the first failing joint (avoids cascading instability).")

    def run(self, ctx: TestContext) -> Iterator[None]:
        cfg = ctx.config
        selection = self.select(ctx)
        if not selection.tested:
            self.skip_nothing_to_test(ctx, selection, "no driven joint to load", [ADD_DRIVE_HINT])
            return

        # Hold the configuration the robot starts in (clamped inside the limits) with the authored gains.
        dofs = ctx.dof_joints
        infos = [ctx.asset.joints.get(path) for path in dofs]
        hold = np.array(ctx.joint_positions(), dtype=float)
        lower = np.array([j.lower if j is not None and j.has_limits else -np.inf for j in infos])
        upper = np.array([j.upper if j is not None and j.has_limits else np.inf for j in infos])
        hold = np.clip(hold, lower, upper)
        tested_idx = [ctx.dof_index(j.path) for j in selection.tested]
        targets = np.full(len(dofs), np.nan)
        targets[tested_idx] = hold[tested_idx]
        ctx.set_joint_targets(targets)
        yield from settle(ctx, cfg.settle_seconds)
        pose = np.array(ctx.joint_positions(), dtype=float)  # the held pose under gravity: deflection baseline
        watch = BoxWatch(ctx.bounds(), cfg.bbox_explode_ratio)
        span = upper - lower
        slack = np.where(np.isfinite(span), cfg.break_tolerance * span, np.inf)  # the spec's literal rule
        tol = np.full(len(dofs), np.inf)  # deflection from the held pose, driven joints only
        for i in tested_idx:
            tol[i] = deflection_tolerance(infos[i], cfg.break_tolerance, cfg.unlimited_prismatic_range_m)
        wrap = np.array([j is not None and j.is_angular and not j.has_limits for j in infos])
        sag = joint_deflection(pose, hold, wrap)
        self.ctx, self.infos, self.dofs = ctx, infos, dofs
        directions = icosahedron_directions()
        frames_per_direction = max(1, int(round(cfg.test_duration_seconds / ctx.dt / len(directions))))
        series = SeriesRecorder(ctx)
        ctx.metric("frames_per_direction", frames_per_direction)
        stopped = False

        for joint in selection.tested:
            idx = ctx.dof_index(joint.path)
            point = load_point(ctx.asset, joint)
            if stopped or point is None:
                why = "not loaded: the test stopped at the first failing joint" if stopped else "no child body to load"
                ctx.joint_row(JointRow(joint=joint.name, path=joint.path, status=Status.SKIP, reason=why))
                continue
            failures, hints = [], []
            if sag[idx] > tol[idx]:
                failures.append(f"sagged {jv(joint, sag[idx])} from its commanded hold {jv(joint, hold[idx])} under "
                                f"gravity before any load (> {jv(joint, tol[idx])}, {cfg.break_tolerance:.0%} of its range)")
                hints.append(HINT_SAG)
            own_max, any_max, worst_dir, worst_joint, broke = 0.0, 0.0, 0, "", None
            held_point = self._point(point)
            for d, direction in enumerate(directions):
                ctx.label = f"joint {joint.name}: force {d + 1}/12"
                force = cfg.force_magnitude_newtons * direction
                for frame in range(frames_per_direction):
                    ctx.apply_force(point.body, force, self._point(point))
                    yield
                    q = np.asarray(ctx.joint_positions(), dtype=float)
                    check_box = frame % BBOX_CHECK_EVERY == 0 or frame == frames_per_direction - 1
                    if not np.all(np.isfinite(q)) or (check_box and watch.exploded(ctx.bounds())):
                        broke = (d, "exploded", None, "simulation exploded (NaN joint state or bounding box > "
                                                      f"{fmt(cfg.bbox_explode_ratio)} x baseline)")
                        break
                    deflection = joint_deflection(q, pose, wrap)
                    series.sample(f"effort/{joint.name}", deflection=float(deflection[idx]))
                    own_max = max(own_max, float(deflection[idx]))
                    k = int(np.argmax(deflection))
                    if deflection[k] > any_max:
                        any_max, worst_dir, worst_joint = float(deflection[k]), d, self._name(k)
                    broke = self._gave_way(q, deflection, tol, lower, upper, slack, d)
                    if broke:
                        break
                if broke:
                    worst_dir = broke[0]
                    break
            back = None  # (deflection when the load was released, how far the drive pulled back)
            if not (broke and broke[1] == "exploded"):
                back = yield from self._recover(broke[2] if broke else None, pose, wrap, cfg.recovery_seconds)
            recovered = None if back is None else back[1] / back[0]
            if broke:
                failures.append(self._break_text(joint, broke, point, directions, back))
                hints += [HINT_EXPLODE] if broke[1] == "exploded" else self._break_hints(broke, recovered)
            row = JointRow(
                joint=joint.name, path=joint.path, status=Status.FAIL if failures else Status.PASS,
                reason="; ".join(failures),
                measured={"max_deflection": own_max, "max_deflection_any_joint": any_max,
                          "most_deflected_joint": worst_joint, "worst_direction": worst_dir + 1,
                          "worst_direction_vector": direction_label(directions[worst_dir]),
                          "held_pose_sag": float(sag[idx]), "gave_way": broke[1] if broke else "",
                          "recovered": recovered, "dead_drive": bool(recovered is not None and
                                                                     recovered < DEAD_DRIVE_FRACTION),
                          "lever_arm": point.lever_arm,
                          "load_point": "centre of mass" if held_point is None else
                          "(" + ", ".join(f"{c:+.3f}" for c in held_point) + ")"},
                limits={"force_newtons": cfg.force_magnitude_newtons, "break_tolerance": cfg.break_tolerance,
                        "deflection_tolerance": float(tol[idx]), "lower": joint.lower, "upper": joint.upper,
                        "loaded_body": point.body, "load_point_rule": point.how,
                        "load_torque": cfg.force_magnitude_newtons * point.lever_arm},
                units=row_units(joint, positions=("max_deflection", "held_pose_sag", "deflection_tolerance", "lower",
                                                  "upper"),
                                lever_arm="m", force_newtons="N", load_torque="N·m", recovered="",
                                break_tolerance=""),
                fix_hints=list(dict.fromkeys(hints)),
            )
            held = self._held_by_other(joint, row, own_max, float(tol[idx]))
            if held:
                row.status, row.reason, row.fix_hints = Status.SKIP, held, [HINT_HELD]
            ctx.joint_row(row)
            if failures:
                stopped = cfg.stop_on_first_break or (broke is not None and broke[1] == "exploded")
        self._verdict(ctx)

    def _held_by_other(self, joint, row, deflected: float, tol: float) -> str:
        """The SKIP reason of a passing joint its drive could not have held (HELD_FACTOR), or ''."""
        drive = joint.drive
        torque = float(row.limits["load_torque"])
        if row.status is not Status.PASS or drive is None or not math.isfinite(drive.max_force) or drive.max_force <= 0:
            return ""
        if torque < HELD_FACTOR * drive.max_force or deflected >= HELD_SHARE * tol:
            return ""
        unit = "N·m" if joint.is_angular else "N"
        return (f"not judged: held by something other than its drive: the load's {'torque about its axis' if joint.is_angular else 'force along its axis'} "
                f"{for_people(torque, unit)} is {torque / drive.max_force:.3g} x its driveMaxForce "
                f"{for_people(drive.max_force, unit)}, yet it deflected only {jv(joint, deflected)} (< {HELD_SHARE:.0%} of "
                f"{jv(joint, tol)}): joint friction, a velocity cap of 0, a lock or a collision holds it")

    def _point(self, point):
        """The load point in the world now (None = the centre of mass, when the engine has no pose for the body)."""
        pose = self.ctx.body_poses().get(point.body)
        return None if pose is None else point.world(pose)

    def _name(self, k: int) -> str:
        return self.dofs[k].rsplit("/", 1)[-1]

    def _gave_way(self, q, deflection, tol, lower, upper, slack, d):
        """(direction, kind, dof index, text) for the first joint that gave way, or None."""
        over = np.flatnonzero(deflection > tol)
        if over.size:
            j = int(over[np.argmax(deflection[over] / tol[over])])
            info = self.infos[j]
            return (d, "deflected", j, f"{self._name(j)} gave way {jv(info, deflection[j])} from its held pose "
                                       f"(> {jv(info, tol[j])}, {self.ctx.config.break_tolerance:.0%} of its range)")
        excess = np.maximum(lower - q, q - upper)
        over = np.flatnonzero(excess > slack)
        if over.size:
            j = int(over[0])
            info = self.infos[j]
            if info is None:
                return (d, "beyond limits", j, f"joint {self._name(j)} is beyond its limits by {fmt(excess[j])}")
            return (d, "beyond limits", j, f"{self._name(j)} at {jv(info, q[j])} is beyond its limits "
                                           f"[{jv(info, lower[j])}, {jv(info, upper[j])}] by {jv(info, excess[j])} > "
                                           f"break_tolerance x range {jv(info, slack[j])}")
        return None

    def _recover(self, j, pose, wrap, seconds):
        """Unloaded steps for the drives to pull back. For joint `j`: (its largest deflection after the release, how
        far the drive then brought it back), or None. Measured from the largest deflection, not from the release:
        a joint released at the moment it crossed the threshold still carries momentum away from its pose."""
        ctx = self.ctx
        ctx.label = "recover"
        worst = end = None
        for _ in range(int(round(seconds / ctx.dt))):
            yield
            if j is not None:
                end = float(joint_deflection(np.asarray(ctx.joint_positions(), float), pose, wrap)[j])
                worst = end if worst is None else max(worst, end)
        if j is None or not worst:
            return None
        return worst, worst - end

    def _break_text(self, joint, broke, point, directions, back) -> str:
        cfg = self.ctx.config
        d, kind, j, text = broke
        out = (f"{text} under {fmt(cfg.force_magnitude_newtons)} N at {point.body.rsplit('/', 1)[-1]} in direction "
               f"{d + 1} {direction_label(directions[d])}")
        info = None if j is None else self.infos[j]
        if info is None:
            return out
        if j == self.ctx.dof_index(joint.path) and info.is_angular:
            torque = cfg.force_magnitude_newtons * point.lever_arm
            out += (f"; the load's torque about its axis reaches {for_people(torque, 'N·m')} "
                    f"({for_people(point.lever_arm, 'm')} lever arm)")
        if back is not None and back[1] < DEAD_DRIVE_FRACTION * back[0]:
            story = dead_drive_story(info, max(back[1], 0.0), back[0], "back to its held pose once the load was released")
            return f"{story}: {out}"
        return f"{out}; {drive_note(info)}"

    def _break_hints(self, broke, recovered) -> list[str]:
        if recovered is not None and recovered < DEAD_DRIVE_FRACTION:
            return [HINT_DEAD_DRIVE, HINT_LOAD]
        if broke[1] == "deflected":
            return [HINT_GAVE_WAY, HINT_LOAD]
        return [HINT_MAX_FORCE, HINT_MASS, HINT_LOAD]

    def _verdict(self, ctx) -> None:
        cfg = ctx.config
        loaded = [r for r in ctx.result.joints if r.status is not Status.SKIP]
        failed = [r for r in loaded if r.status is Status.FAIL]
        ctx.metric("joints_loaded", len(loaded))
        ctx.metric("joints_passed", len(loaded) - len(failed))
        ctx.metric("joints_failed", len(failed))
        ctx.metric("joints_dead_drive", sum(1 for r in loaded if r.measured.get("dead_drive")))
        ctx.metric("max_deflection", max((r.measured["max_deflection"] for r in loaded), default=0.0))
        held = [r for r in ctx.result.joints if r.status is Status.SKIP and r.reason.startswith("not judged: held")]
        if not loaded:
            detail = "; ".join(f"{r.joint}: {r.reason}" for r in held[:3]) or "no joint was loaded"
            ctx.finish(Status.SKIP, f"no drive was exercised by the load: {detail}",
                       [HINT_HELD] if held else [])
            return
        if failed:
            detail = "; ".join(f"{r.joint}: {r.reason}" for r in failed[:3])
            ctx.finish(Status.FAIL, f"{len(failed)} joint(s) gave way or broke under load: {detail}",
                       [h for r in failed for h in r.fix_hints])
        else:
            worst = max(loaded, key=lambda r: r.measured["max_deflection"] / max(r.limits["deflection_tolerance"], 1e-12),
                        default=None)
            detail = "" if worst is None else (
                f"; largest deflection {worst.joint} {jv(ctx.asset.joints[worst.path], worst.measured['max_deflection'])}"
                f" of {jv(ctx.asset.joints[worst.path], worst.limits['deflection_tolerance'])} allowed")
            if held:
                detail += "; not judged (held by something other than its drive): " + ", ".join(r.joint for r in held)
            ctx.finish(Status.PASS, f"{len(loaded)} joints held under {fmt(cfg.force_magnitude_newtons)} N from 12 "
                                    f"directions{detail}")
