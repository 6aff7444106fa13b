"""effort_limit (FET_022): the drives hold a stable configuration against a 10 N load from 12 directions.

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
from typing import Generator, Iterator

import numpy as np

from ....core.context import TestContext
from ....core.quantities import for_people, listed
from ....core.results import JointRow
from ....core.status import Status
from ..base import (
    DEAD_DRIVE_FRACTION, DrivenJointTest, SeriesRecorder, dead_drive_story, drive_note, explosion_watch, fmt, jv,
    row_units, settle,
)
from ..bbox_watch import BoxWatch
from ..codes import DrivenCode
from ..force_directions import direction_label, icosahedron_directions
from ..load_point import load_point
from .codes import EffortLimitCode as Code
from .config import EffortLimitConfig
from .fix_rules import FIX_RULES
from .hints import HINTS
from .loading import Break, HeldPose, JointLoad, load_joint
from .view import VIEW

# A joint the load's torque overpowers its drive on (>= HELD_FACTOR x driveMaxForce) that still deflects less than
# HELD_SHARE of its tolerance is held by something else (joint or viscous friction, a velocity cap of 0, a lock, a
# collision): its drive was not what the load tested, so the row is SKIP, never PASS. full_range_sweep and
# drive_gain_validation show whether the joint moves at all.
HELD_FACTOR, HELD_SHARE = 2.0, 0.01

def load_on_joint(force: float, joint, point) -> float:
    """The most the load can push the joint: its torque about a revolute axis (N·m), its force along a prismatic
    one (N)."""
    return force * point.lever_arm if joint.is_angular else force


Ctx = TestContext[EffortLimitConfig]  # the context of this test: ctx.config is a EffortLimitConfig


class EffortLimitTest(DrivenJointTest[EffortLimitConfig]):
    name = "effort_limit"
    version = "1.3.0"
    features = ("FET_022_PHYSX", "FET_022_NEWTON", "FET_022_ISAAC")
    summary = "The drives hold a stable configuration under a 10 N load at each joint's child body from 12 directions."
    Config = EffortLimitConfig
    codes = (DrivenCode, Code)
    hints = HINTS
    view = VIEW
    fix_rules = FIX_RULES

    def run(self, ctx: Ctx) -> Iterator[None]:
        cfg = ctx.config
        selection = self.select(ctx)
        if not selection.tested:
            self.skip_nothing_to_test(ctx, selection, "no driven joint to load")
            return
        held = yield from self._hold(ctx, selection)
        watch = explosion_watch(ctx)
        directions = icosahedron_directions()
        frames_per_direction = max(1, int(round(cfg.test_duration_seconds / ctx.dt / len(directions))))
        series = SeriesRecorder(ctx)
        ctx.metric("frames_per_direction", frames_per_direction)
        blew_up = self._explosion_while_held(held, watch)
        stopped = bool(blew_up)
        for index, joint in enumerate(selection.tested):
            if blew_up and index == 0:
                ctx.joint_row(JointRow(joint=joint.name, path=joint.path, status=Status.FAIL, codes=[DrivenCode.EXPLODED],
                                       reason=blew_up))
                continue
            point = None if stopped else load_point(ctx.asset, joint, ctx.body_poses())
            if stopped or point is None or not point.torques:
                code, why = ((Code.NOT_LOADED, "not loaded: the test stopped at the first failing joint") if stopped else
                             (Code.NO_LOAD_POINT, "no moving body to load") if point is None else
                             (Code.NO_LEVER_ARM, "not judged: no collider point of the bodies it moves lies off its "
                                                 "axis, so no load can turn it"))
                ctx.joint_row(JointRow(joint=joint.name, path=joint.path, status=Status.SKIP, code=code, reason=why))
                continue
            load = yield from load_joint(ctx, joint, point, held, watch, directions, frames_per_direction, series)
            row = self._row(ctx, joint, point, held, load, directions)
            ctx.joint_row(row)
            if row.status is Status.FAIL:
                stopped = cfg.stop_on_first_break or (load.broke is not None and load.broke.code == DrivenCode.EXPLODED)
        self._verdict(ctx)

    @staticmethod
    def _explosion_while_held(held: HeldPose, watch: BoxWatch) -> str:
        """Why the asset counts as exploded while merely held, before any load, or ''. A NaN pose has no lever arm
        to load: read as "nothing to load" it would SKIP what is an explosion, so the first tested joint FAILs
        EXPLODED and the rest are not loaded. The box is the watch's baseline, read at the held pose."""
        low, high = watch.lo0, watch.hi0
        if not np.all(np.isfinite(held.pose)):
            what = "the joint state went NaN"
        elif not (np.all(np.isfinite(low)) and np.all(np.isfinite(high))):
            what = "its bounding box went non-finite (NaN)"
        else:
            return ""
        return f"simulation exploded while the drives held the start pose, before any load: {what}"

    def _hold(self, ctx: Ctx, selection) -> Generator[None, None, HeldPose]:
        """Hold the configuration the robot starts in (clamped inside the limits) with the authored gains, settle,
        and return the held pose every deflection is measured from (HeldPose)."""
        cfg = ctx.config
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
        yield from settle(ctx, cfg.settle_seconds, until_rest=True)
        pose = np.array(ctx.joint_positions(), dtype=float)  # the held pose under gravity: deflection baseline
        return HeldPose.measure(dofs, infos, hold, pose, lower, upper, [ctx.dof_index(j.path) for j in selection.tested],
                                cfg)

    def _row(self, ctx, joint, point, held: HeldPose, load: JointLoad, directions) -> JointRow:
        cfg = ctx.config
        idx = ctx.dof_index(joint.path)
        findings: list[tuple[str, str]] = []
        if held.sag[idx] > held.tol[idx]:
            findings.append((Code.SAGGED.value, f"sagged {jv(joint, held.sag[idx])} from its commanded hold "
                             f"{jv(joint, held.hold[idx])} under gravity before any load (> {jv(joint, held.tol[idx])}, "
                             f"{cfg.break_tolerance:.0%} of its range)"))
        recovered = None if load.back is None else load.back[1] / load.back[0]
        dead = recovered is not None and recovered < DEAD_DRIVE_FRACTION
        if load.broke:
            text = self._break_text(ctx, joint, load.broke, point, held, directions, load.back)
            codes = [load.broke.code] if load.broke.code == DrivenCode.EXPLODED or not dead else \
                [DrivenCode.DEAD_DRIVE.value, load.broke.code]
            findings += [(code, text) for code in codes[:1]] + [(code, "") for code in codes[1:]]
        row = JointRow(
            joint=joint.name, path=joint.path, status=Status.FAIL if findings else Status.PASS,
            codes=[code for code, _ in findings] or [DrivenCode.OK],
            reason="; ".join(text for _, text in findings if text),
            measured={"max_deflection": load.own_max, "max_deflection_any_joint": load.any_max,
                      "most_deflected_joint": load.worst_joint, "worst_direction": load.worst_dir + 1,
                      "worst_direction_vector": direction_label(directions[load.worst_dir]),
                      "held_pose_sag": float(held.sag[idx]), "gave_way": load.broke.kind if load.broke else "",
                      "recovered": recovered, "dead_drive": bool(dead),
                      "lever_arm": point.lever_arm if joint.is_angular else None,
                      "load_point": "centre of mass" if load.held_point is None else
                      "(" + ", ".join(f"{c:+.3f}" for c in load.held_point) + ")"},
            limits={"force_newtons": cfg.force_magnitude_newtons, "break_tolerance": cfg.break_tolerance,
                    "deflection_tolerance": float(held.tol[idx]), "lower": joint.lower, "upper": joint.upper,
                    "loaded_body": point.body, "load_point_rule": point.how,
                    "load_torque": load_on_joint(cfg.force_magnitude_newtons, joint, point)},
            units=row_units(joint, positions=("max_deflection", "held_pose_sag", "deflection_tolerance", "lower",
                                              "upper"),
                            lever_arm="m", force_newtons="N", load_torque="N·m" if joint.is_angular else "N", recovered="",
                            break_tolerance=""),
        )
        held_by = self._held_by_other(joint, row, load.own_max, float(held.tol[idx]))
        if held_by:
            row.set_verdict(Status.SKIP, [Code.HELD_BY_OTHER], held_by)
        return row

    def _held_by_other(self, joint, row, deflected: float, tol: float) -> str:
        """The SKIP reason of a passing joint its drive could not have held (HELD_FACTOR), or ''."""
        drive = joint.drive
        torque = float(row.limits["load_torque"])
        if row.status is not Status.PASS or drive is None or not math.isfinite(drive.max_force) or drive.max_force <= 0:
            return ""
        if torque < HELD_FACTOR * drive.max_force or deflected >= HELD_SHARE * tol:
            return ""
        unit = "N·m" if joint.is_angular else "N"
        return (f"not judged: held by something other than its drive: the load's "
                f"{'torque about its axis' if joint.is_angular else 'force along its axis'} "
                f"{for_people(torque, unit)} is {torque / drive.max_force:.3g} x its driveMaxForce "
                f"{for_people(drive.max_force, unit)}, yet it deflected only {jv(joint, deflected)} (< {HELD_SHARE:.0%} of "
                f"{jv(joint, tol)}): joint friction, a velocity cap of 0, a lock or a collision holds it")

    def _break_text(self, ctx, joint, broke: Break, point, held: HeldPose, directions, back) -> str:
        cfg = ctx.config
        out = (f"{broke.text} under {fmt(cfg.force_magnitude_newtons)} N at {point.body.rsplit('/', 1)[-1]} in direction "
               f"{broke.direction + 1} {direction_label(directions[broke.direction])}")
        info = None if broke.dof is None else held.infos[broke.dof]
        if info is None:
            return out
        if broke.dof == ctx.dof_index(joint.path) and info.is_angular:
            torque = cfg.force_magnitude_newtons * point.lever_arm
            out += (f"; the load's torque about its axis reaches {for_people(torque, 'N·m')} "
                    f"({for_people(point.lever_arm, 'm')} lever arm)")
        if back is not None and back[1] < DEAD_DRIVE_FRACTION * back[0]:
            story = dead_drive_story(info, max(back[1], 0.0), back[0], "back to its held pose once the load was released")
            return f"{story}: {out}"
        return f"{out}; {drive_note(info)}"

    def _verdict(self, ctx) -> None:
        cfg = ctx.config
        loaded = [r for r in ctx.result.joints if r.status is not Status.SKIP]
        failed = [r for r in loaded if r.status is Status.FAIL]
        ctx.metric("joints_loaded", len(loaded))
        ctx.metric("joints_passed", len(loaded) - len(failed))
        ctx.metric("joints_failed", len(failed))
        ctx.metric("joints_dead_drive", sum(1 for r in loaded if r.measured.get("dead_drive")))
        # none loaded when it blew up held
        ctx.metric("max_deflection", max((r.measured.get("max_deflection", 0.0) for r in loaded), default=0.0))
        held = [r for r in ctx.result.joints if r.code == Code.HELD_BY_OTHER]
        if not loaded:
            detail = listed([f"{r.joint}: {r.reason}" for r in held], 3, "; ") or "no joint was loaded"
            ctx.finish(Status.SKIP, f"no drive was exercised by the load: {detail}",
                       code=Code.HELD_BY_OTHER if held else Code.NO_DRIVE_EXERCISED)
            return
        if failed:
            detail = listed([f"{r.joint}: {r.reason}" for r in failed], 3, "; ")
            ctx.finish(Status.FAIL, f"{len(failed)} joint(s) gave way or broke under load: {detail}",
                       [h for r in failed for h in r.fix_hints], code=DrivenCode.JOINTS_FAILED)
        else:
            worst = max(loaded, key=lambda r: r.measured["max_deflection"] / max(r.limits["deflection_tolerance"], 1e-12),
                        default=None)
            detail = "" if worst is None else (
                f"; largest deflection {worst.joint} {jv(ctx.asset.joints[worst.path], worst.measured['max_deflection'])}"
                f" of {jv(ctx.asset.joints[worst.path], worst.limits['deflection_tolerance'])} allowed")
            if held:
                detail += "; not judged (held by something other than its drive): " + ", ".join(r.joint for r in held)
            ctx.finish(Status.PASS, f"{len(loaded)} joints held under {fmt(cfg.force_magnitude_newtons)} N from 12 "
                                    f"directions{detail}", code=DrivenCode.OK)
