"""velocity_limit (FET_022): the authored joint velocity cap is enforced at every physics frame.

Each driven joint with a velocity limit is commanded, alone, to the far end of its range (and, when that
move did not press the cap, back across the whole range); the peak of the larger of the engine's joint
velocity and the rate of the joint position must stay within limit x (1 + tolerance_fraction). A joint
that never reached min_exercised_ratio of its cap verified nothing: its row is SKIP ("limit not
exercised"), and a test where no joint was exercised is SKIP, never PASS. A limit that PhysX does not
enforce (a joint outside an articulation, a spelling the runtime ignores) shows up as an overspeed.
Spec: docs/tests/velocity_limit.md.
"""

from __future__ import annotations

import math
from typing import Iterator

from ....core.context import TestContext
from ....core.quantities import listed
from ....core.results import JointRow
from ....core.status import Status
from ..base import (
    BBOX_CHECK_EVERY, DEAD_DRIVE_FRACTION, DrivenJointTest, SeriesRecorder, dead_drive_story,
    exploded_story, explosion_watch, jv, position_rate, progress, row_units, settle,
)
from ..codes import DrivenCode
from ..motion import far_target
from ..selection import select_driven_joints
from .codes import VelocityLimitCode as Code
from .config import VelocityLimitConfig
from .fix_rules import FIX_RULES
from .hints import HINTS
from .view import VIEW

# An unlimited revolute joint is chased instead of sent to a far target (a far target can be a whole number of turns
# away, and a runtime that bounds its position target, PhysX 5: 2 pi, wraps the position within it): every step the
# target is put this far ahead of the joint (under pi, so a wrapped drive error keeps its sign), inside the bound. A saturated
# drive then spins the joint as the far target
# would; the position rate is read across the wraps (position_rate wraps revolute deltas).
CHASE_LEAD = 3.0  # rad
# A velocity drive (stiffness 0, damping > 0) ignores position targets: it is commanded this multiple of its cap
# toward the far end, as the far target of a position drive asks for twice the cap.
VELOCITY_OVERDRIVE = 2.0


def by_velocity(joint) -> bool:
    """Whether the joint's drive is a velocity drive, commanded here by velocity targets."""
    return joint.drive is not None and joint.drive.velocity_controlled


Ctx = TestContext[VelocityLimitConfig]  # the context of this test: ctx.config is a VelocityLimitConfig


class VelocityLimitTest(DrivenJointTest[VelocityLimitConfig]):
    name = "velocity_limit"
    version = "1.3.0"
    features = ("FET_022_PHYSX", "FET_022_NEWTON", "FET_022_ISAAC")
    summary = "Each driven joint's measured velocity stays within its authored maxJointVelocity at every frame."
    require_velocity_limit = True
    require_position_control = False  # velocity drives are commanded by velocity here
    Config = VelocityLimitConfig
    codes = (DrivenCode, Code)
    hints = HINTS
    view = VIEW
    fix_rules = FIX_RULES
    readback = {"joint:max_velocity": "velocity_limit"}  # the runtime's cap, judged against this row limit (readback.md)

    def run(self, ctx: Ctx) -> Iterator[None]:
        cfg = ctx.config
        selection = self.select(ctx)
        if not selection.tested:
            driven = select_driven_joints(
                ctx.asset, simulated=ctx.dof_joints,
                simulated_actuator_schemas=ctx.engine_capabilities.simulated_actuator_schemas,
            ).tested
            if driven:
                self.skip_nothing_to_test(ctx, selection, "no driven joint has a velocity limit", Code.NO_VELOCITY_LIMIT)
            else:
                self.skip_nothing_to_test(ctx, selection, "no driven joint to test")
            return
        yield from settle(ctx, cfg.settle_seconds, until_rest=True)
        watch = explosion_watch(ctx)
        series = SeriesRecorder(ctx)
        frames = max(20, int(round(cfg.test_duration_seconds / ctx.dt)))
        exploded = ""

        for joint in selection.tested:
            idx = ctx.dof_index(joint.path)
            limit = joint.velocity_limit
            assert limit is not None  # require_velocity_limit: the selection keeps joints that have one
            if by_velocity(joint) and not ctx.engine_capabilities.joint_velocity_targets:
                ctx.joint_row(JointRow(joint=joint.name, path=joint.path, status=Status.SKIP,
                                       code=Code.VELOCITY_TARGETS_UNSUPPORTED,
                                       reason="velocity drive (driveStiffness 0): this engine takes no velocity "
                                              "targets, so its cap cannot be exercised here"))
                continue
            peak = {"reported": 0.0, "rate": 0.0}
            moves, travels, best_follow = [], [], 0.0
            limited = joint.has_limits
            home = float(ctx.joint_positions()[idx])
            for _ in range(2 if limited else 1):  # far end; then end to end when the cap was not pressed
                start = float(ctx.joint_positions()[idx])
                lower, upper = joint.limits or joint.one_sided or (None, None)
                target = far_target(start, lower, upper, limit, cfg.test_duration_seconds, cfg.target_margin_ratio)
                moves.append(target)
                travels.append(abs(target - start))
                follow, exploded = yield from self._move(ctx, joint, idx, start, target, frames, peak, watch, series)
                if by_velocity(joint):
                    ctx.set_joint_velocity_target(joint.path, 0.0)
                best_follow = max(best_follow, follow)
                if exploded or max(peak.values()) >= cfg.thresholds_for(joint).exercised * limit:
                    break
            ctx.joint_row(self._row(ctx, joint, limit, peak, moves, travels, best_follow, exploded))
            if exploded:
                break
            if limited:  # back home, so the next joint is judged from a pose where it is free to move
                yield from self._return_home(ctx, joint, idx, home, frames)
        self._verdict(ctx)

    def _return_home(self, ctx, joint, idx, home, frames):
        """Drive the joint back to where its test began (a slide left at its far end can block a neighbour's hinge),
        until it has stopped there or the observation window is over."""
        cfg = ctx.config
        ctx.label = f"joint {joint.name}: return"
        calm, q_prev = 0, float(ctx.joint_positions()[idx])
        towards = math.copysign(1.0, home - q_prev)
        if by_velocity(joint):  # run back at the cap, stopped once it has passed home
            ctx.set_joint_velocity_target(joint.path, towards * joint.velocity_limit)
        else:
            ctx.set_joint_target(joint.path, home)
        for _ in range(frames):
            yield
            q = float(ctx.joint_positions()[idx])
            rate, q_prev = position_rate(q_prev, q, ctx.dt, joint.is_angular), q
            if by_velocity(joint) and (home - q) * towards <= 0:
                break
            calm = calm + 1 if abs(rate) < cfg.settled_velocity_threshold else 0
            if calm >= cfg.capture_settled_grace_frames or not math.isfinite(q):
                break
        if by_velocity(joint):
            ctx.set_joint_velocity_target(joint.path, 0.0)

    def _move(self, ctx, joint, idx, start, target, frames, peak, watch, series):
        """Command `target` and watch up to `frames` steps; updates `peak`, returns (best progress, why it exploded or
        '')."""
        cfg = ctx.config
        ctx.label = f"joint {joint.name}: toward {jv(joint, target)}"
        bound = ctx.revolute_target_bound
        # An unlimited revolute joint is always chased: a far target can be a whole number of turns away, which a
        # runtime that wraps the position reads as no move at all. A velocity drive is sent a velocity instead.
        velocity = by_velocity(joint)
        chase = joint.is_angular and not joint.has_limits and not velocity
        lead = math.copysign(CHASE_LEAD, target - start)
        if velocity:
            ctx.set_joint_velocity_target(joint.path, math.copysign(VELOCITY_OVERDRIVE * joint.velocity_limit,
                                                                    target - start))
        elif not chase:
            ctx.set_joint_target(joint.path, target)
        slow, moved, q_prev, best = 0, False, start, 0.0
        unwrap = joint.is_angular and not joint.has_limits  # a wheel: read its position across the runtime's wraps
        travelled = start
        name = joint.name  # looked up once: this loop runs every step
        for frame in range(frames):
            if chase:
                ctx.set_joint_target(joint.path, min(max(q_prev + lead, -bound), bound))
            yield
            q = float(ctx.joint_positions()[idx])
            signed = position_rate(q_prev, q, ctx.dt, joint.is_angular)
            rate = abs(signed) if math.isfinite(signed) else math.inf
            q_prev = q
            if unwrap:
                travelled += signed * ctx.dt
                q = travelled
            v = float(ctx.joint_velocities()[idx])  # the engine's joint velocity
            speed = abs(v) if math.isfinite(v) else math.inf
            peak["reported"] = max(peak["reported"], speed)
            peak["rate"] = max(peak["rate"], rate)
            best = max(best, progress(start, q, target))
            series.sample(name, q=q, abs_velocity=max(speed, rate), limit=joint.velocity_limit)
            if not math.isfinite(speed) or not math.isfinite(q) or (
                frame % BBOX_CHECK_EVERY == 0 and watch.exploded(ctx.bounds())
            ):
                return best, exploded_story(watch)
            moved = moved or rate > cfg.settled_velocity_threshold
            slow = slow + 1 if rate < cfg.settled_velocity_threshold else 0
            if moved and slow >= cfg.capture_settled_grace_frames:
                break  # the motion is over; nothing faster can follow
        return best, ""

    def _row(self, ctx, joint, limit, peak, moves, travels, follow, exploded) -> JointRow:
        cfg = ctx.config
        travel = sum(travels)
        judged = max(peak.values())
        measure = "position rate" if peak["rate"] > peak["reported"] else "reported velocity"
        thresholds = cfg.thresholds_for(joint)
        allowed = thresholds.allowed
        ratio = judged / limit
        # PhysxDrivePerformanceEnvelopeAPI: the drive cannot push the joint past maxActuatorVelocity (less under
        # effort), so a cap above it is not reachable by this test's drive-powered moves: exercised means reaching the
        # envelope then (docs/tests/velocity_limit.md).
        envelope = joint.envelope.max_actuator_velocity if joint.envelope is not None else None
        reachable = min(limit, envelope) if envelope is not None else limit
        row = JointRow(
            joint=joint.name, path=joint.path, status=Status.PASS, code=DrivenCode.OK,
            measured={"peak_velocity": peak["reported"], "peak_displacement_rate": peak["rate"], "peak": judged,
                      "ratio": ratio, "target": moves[-1], "moves": len(moves), "travel": travel,
                      "follow": follow},
            limits={"velocity_limit": limit, "actuator_velocity": envelope, "allowed": allowed,
                    "min_exercised_ratio": thresholds.exercised,
                    "source": joint.velocity_limit_source, "unit": "rad/s" if joint.is_angular else "m/s",
                    "articulated": joint.articulation is not None},
            units=row_units(joint, positions=("target", "travel"),
                            rates=("peak_velocity", "peak_displacement_rate", "peak", "velocity_limit", "allowed",
                                   "actuator_velocity"),
                            ratio="", follow="", min_exercised_ratio=""),
        )
        if exploded:
            row.set_verdict(Status.FAIL, [DrivenCode.EXPLODED], exploded)
        elif cfg.blown_up(joint, judged, ctx.dt):
            row.set_verdict(Status.FAIL, [DrivenCode.EXPLODED],
                            f"simulation exploded at this joint: its {measure} peaked at {jv(joint, judged, rate=True)}, "
                            f"more than {cfg.blow_up_deg_per_step if joint.is_angular else cfg.blow_up_metres_per_step:g}"
                            f" {'deg' if joint.is_angular else 'm'} in one physics step ({ctx.dt * 1000:.2f} ms): no drive "
                            "reaches that, so the cap was not what failed (look at masses, inertias, overlapping colliders "
                            "and limits)")
        elif judged > allowed:
            code, why = self._overspeed_cause(ctx, joint)
            row.set_verdict(Status.FAIL, [code],
                            f"peak {jv(joint, judged, rate=True)} ({measure}) > allowed {jv(joint, allowed, rate=True)} "
                            f"(limit {jv(joint, limit, rate=True)} from {joint.velocity_limit_source}, "
                            f"+{cfg.tolerance_fraction:.0%}; reported velocity peaked at "
                            f"{jv(joint, peak['reported'], rate=True)}, position rate at "
                            f"{jv(joint, peak['rate'], rate=True)})" + why)
        elif judged / reachable < thresholds.exercised:
            reason = (f"limit not exercised: the joint reached at most {jv(joint, judged, rate=True)}, {ratio:.0%} of "
                      f"its {jv(joint, limit, rate=True)} cap (< {thresholds.exercised:.0%}), over "
                      f"{len(moves)} move(s) of {jv(joint, travel)} in all")
            if follow < DEAD_DRIVE_FRACTION:
                row.set_verdict(Status.SKIP, [DrivenCode.DEAD_DRIVE, Code.NOT_EXERCISED],
                                reason + "; " + dead_drive_story(joint, max(follow, 0.0) * travels[0], travels[0],
                                                                 f"toward {jv(joint, moves[0])}"))
            else:
                row.set_verdict(Status.SKIP, [Code.NOT_EXERCISED],
                                reason + "; a drive that reaches the cap within this range (more driveStiffness or "
                                         "driveMaxForce) would exercise it")
        return row

    def _overspeed_cause(self, ctx, joint) -> tuple[Code, str]:
        """Why the cap was not held, as a code and the words added to the reason."""
        enforced = ctx.enforced_velocity_limit(joint.path)  # None: the engine does not say
        if joint.articulation is None:
            return (Code.OVERSPEED_OUTSIDE_ARTICULATION,
                    "; the joint is not part of an articulation, so PhysX does not enforce the limit")
        if not ctx.engine_capabilities.caps_joint_velocities:
            return (Code.OVERSPEED_UNCAPPED_RUNTIME, "; this runtime caps no joint's velocity, whatever the spelling")
        if enforced is not None and math.isinf(enforced):
            return (Code.OVERSPEED_UNPARSED_SPELLING, "; the engine enforces no cap on this joint: its runtime does not "
                                                      f"parse {joint.velocity_limit_source}")
        if joint.velocity_limit_source == "newton:velocityLimit":
            return Code.OVERSPEED_NEWTON_ONLY, ""
        return Code.OVERSPEED, ""

    def _verdict(self, ctx) -> None:
        rows = ctx.result.joints
        failed = [r for r in rows if r.status is Status.FAIL]
        skipped = [r for r in rows if r.status is Status.SKIP]
        verified = [r for r in rows if r.status is Status.PASS]
        ctx.metric("joints_passed", len(verified))
        ctx.metric("joints_failed", len(failed))
        ctx.metric("joints_not_exercised", len(skipped))
        ctx.metric("max_velocity_ratio", max((r.measured["ratio"] for r in rows), default=0.0))
        skip_detail = listed([f"{r.joint}: {r.reason}" for r in skipped], 3, "; ")
        if failed:
            detail = listed([f"{r.joint}: {r.reason}" for r in failed], 4, "; ")
            ctx.finish(Status.FAIL, f"{len(failed)} of {len(rows)} joints exceeded their velocity limit: {detail}",
                       [h for r in failed for h in r.fix_hints], code=DrivenCode.JOINTS_FAILED)
        elif not verified:
            ctx.finish(Status.SKIP, f"velocity limit not exercised on any of {len(rows)} joints: {skip_detail}",
                       [h for r in skipped for h in r.fix_hints], code=Code.NOT_EXERCISED)
        else:
            ratio = max(r.measured["ratio"] for r in verified)
            ctx.finish(Status.PASS, f"{len(verified)} of {len(rows)} joints reached their velocity cap and stayed within "
                                    f"it (max ratio {ratio:.3f})" + (f"; not exercised: {skip_detail}" if skipped else ""),
                       [h for r in skipped for h in r.fix_hints], code=DrivenCode.OK)  # how to exercise the rest
