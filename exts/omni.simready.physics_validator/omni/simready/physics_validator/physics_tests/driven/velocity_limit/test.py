"""velocity_limit (FET022): the authored joint velocity cap is enforced at every physics frame.

Each driven joint with a velocity limit is commanded, alone, to the far end of its range (and, when that
move did not press the cap, back across the whole range); the peak of the larger of the engine's joint
velocity and the rate of the joint position must stay within limit x (1 + tolerance_percent). A joint
that never reached min_exercised_ratio of its cap verified nothing: its row is SKIP ("limit not
exercised"), and a test where no joint was exercised is SKIP, never PASS. A limit that PhysX does not
enforce (a joint outside an articulation, a spelling the runtime ignores) shows up as an overspeed.
Spec: docs/tests/velocity_limit.md.
"""

from __future__ import annotations

import math
from typing import Iterator

from pydantic import Field

from .bbox_watch import BoxWatch
from ...core.context import TestContext
from .motion import far_target
from .selection import select_driven_joints
from ...core.results import JointRow
from ...core.status import Status
from .base import (
    ADD_DRIVE_HINT, BBOX_CHECK_EVERY, DEAD_DRIVE_FRACTION, HINT_DEAD_DRIVE, DrivenJointConfig, DrivenJointTest,
    SeriesRecorder, dead_drive_story, engine_runs_actuators, jv, position_rate, progress, row_units, settle,
)

# An unlimited revolute joint on a runtime that bounds its position target (PhysX 5: 2 pi, the position wrapping within
# it) is chased instead of sent to a far target: every step the target is put this far ahead of the joint (under pi,
# so a wrapped drive error keeps its sign), inside the bound. A saturated drive then spins the joint as the far target
# would; the position rate is read across the wraps (position_rate wraps revolute deltas).
CHASE_LEAD = 3.0  # rad

HINT_WRONG_PRIM = (
    "Verify physxJoint:maxJointVelocity is authored on the joint prim that carries PhysxJointAPI, in degrees per "
    "second for revolute joints and metres per second for prismatic joints; PhysX caps revolute and prismatic "
    "articulation joints only (not spherical or fixed joints)."
)
HINT_ARTICULATION = (
    "PhysX enforces maxJointVelocity only on articulation joints: put this joint in an articulation (apply "
    "UsdPhysics.ArticulationRootAPI to the robot root and do not set physics:excludeFromArticulation on it)."
)
HINT_NEWTON_ONLY = (
    "newton:velocityLimit is read by Newton only: author physxJoint:maxJointVelocity (deg/s for revolute joints) "
    "so PhysX caps the joint too."
)
HINT_UNPARSED = (
    "The physics runtime ignores {source}: PhysX 5.12 / ovphysx 0.7 no longer parses PhysxJointAPI (Isaac Sim 5.x "
    "still does). Author the per-axis spelling `physxJointAxis:{axis}:maxJointVelocity` ({unit}) with "
    "PhysxJointAxisAPI:{axis} applied; it is honoured by both."
)
HINT_RETUNE = (
    "If the cap is enforced but single-frame spikes exceed it, soften the drive (lower stiffness, raise damping, "
    "lower maxForce); raising tolerance_percent is a last resort."
)
HINT_AUTHOR_LIMIT = (
    "If velocity limiting is required, author physxJoint:maxJointVelocity (deg/s for revolute, m/s for prismatic "
    "joints) on each joint that must be speed-limited, e.g. `float physxJoint:maxJointVelocity = 180` with "
    "PhysxJointAPI applied."
)
HINT_EXERCISE = (
    "Velocity limit not exercised: the drive never pushed the joint to its cap, so the cap was not verified. A drive "
    "that can reach the cap within the joint's range (more driveStiffness or driveMaxForce) exercises it; a cap far "
    "above what the actuator can do is not a velocity limit PhysX ever has to enforce."
)


class VelocityLimitTest(DrivenJointTest):
    name = "velocity_limit"
    version = "1.2.0"
    features = ("FET022_DRIVEN_JOINTS_PHYSX", "FET022_DRIVEN_JOINTS_ISAAC")
    summary = "Each driven joint's measured velocity stays within its authored maxJointVelocity at every frame."
    require_velocity_limit = True

    class Config(DrivenJointConfig):
        settle_seconds: float = Field(1.0, ge=0, description="Physics time at the authored targets before the first joint.")
        tolerance_percent: float = Field(0.05, ge=0, description="Allowed overshoot of the limit, as a fraction (0.05 = 5 %).")
        test_duration_seconds: float = Field(2.0, gt=0, description="Observation window per joint and move (s).")
        settled_velocity_threshold: float = Field(0.05, gt=0, description="|v| below this counts as stopped (rad/s or m/s).")
        capture_settled_grace_frames: int = Field(24, ge=1, description="Stopped frames after the motion that end a move early.")
        target_margin_ratio: float = Field(0.05, ge=0, lt=0.5, description="Target sits this fraction of the range inside the far limit.")
        min_exercised_ratio: float = Field(0.9, gt=0, le=1, description="A joint whose peak stays below this fraction of its cap was not exercised (SKIP row).")

    def run(self, ctx: TestContext) -> Iterator[None]:
        cfg = ctx.config
        selection = self.select(ctx)
        if not selection.tested:
            driven = select_driven_joints(
                ctx.asset, simulated=ctx.dof_joints, engine_runs_actuators=engine_runs_actuators(ctx)
            ).tested
            what = "no driven joint has a velocity limit" if driven else "no driven joint to test"
            hints = [HINT_AUTHOR_LIMIT] if driven else [ADD_DRIVE_HINT]
            self.skip_nothing_to_test(ctx, selection, what, hints)
            return
        yield from settle(ctx, cfg.settle_seconds)
        watch = BoxWatch(ctx.bounds(), cfg.bbox_explode_ratio)
        series = SeriesRecorder(ctx)
        frames = max(20, int(round(cfg.test_duration_seconds / ctx.dt)))
        exploded = False

        for joint in selection.tested:
            idx = ctx.dof_index(joint.path)
            limit = joint.velocity_limit
            peak = {"reported": 0.0, "rate": 0.0}
            moves, travels, best_follow = [], [], 0.0
            limited = joint.has_limits
            for _ in range(2 if limited else 1):  # far end; then end to end when the cap was not pressed
                start = float(ctx.joint_positions()[idx])
                target = far_target(start, joint.lower, joint.upper, limit, cfg.test_duration_seconds,
                                    cfg.target_margin_ratio)
                moves.append(target)
                travels.append(abs(target - start))
                follow, exploded = yield from self._move(ctx, joint, idx, start, target, frames, peak, watch, series)
                best_follow = max(best_follow, follow)
                if exploded or max(peak.values()) >= cfg.min_exercised_ratio * limit:
                    break
            ctx.joint_row(self._row(ctx, joint, limit, peak, moves, travels, best_follow, exploded))
            if exploded:
                break
        self._verdict(ctx)

    def _move(self, ctx, joint, idx, start, target, frames, peak, watch, series):
        """Command `target` and watch up to `frames` steps; updates `peak`, returns (best progress, exploded)."""
        cfg = ctx.config
        ctx.label = f"joint {joint.name}: toward {jv(joint, target)}"
        bound = ctx.revolute_target_bound
        chase = joint.is_angular and not joint.has_limits and math.isfinite(bound) and abs(target) > bound
        lead = math.copysign(CHASE_LEAD, target - start)
        if not chase:
            ctx.set_joint_target(joint.path, target)
        slow, moved, q_prev, best = 0, False, start, 0.0
        travelled = start  # chase: the position unwrapped across the runtime's wraps
        for frame in range(frames):
            if chase:
                ctx.set_joint_target(joint.path, min(max(q_prev + lead, -bound), bound))
            yield
            q = float(ctx.joint_positions()[idx])
            signed = position_rate(q_prev, q, ctx.dt, joint.is_angular)
            rate = abs(signed) if math.isfinite(signed) else math.inf
            q_prev = q
            if chase:
                travelled += signed * ctx.dt
                q = travelled
            v = float(ctx.joint_velocities()[idx])  # the engine's joint velocity
            speed = abs(v) if math.isfinite(v) else math.inf
            peak["reported"] = max(peak["reported"], speed)
            peak["rate"] = max(peak["rate"], rate)
            best = max(best, progress(start, q, target))
            series.sample(joint.name, q=q, abs_velocity=max(speed, rate), limit=joint.velocity_limit)
            if not math.isfinite(speed) or not math.isfinite(q) or (
                frame % BBOX_CHECK_EVERY == 0 and watch.exploded(ctx.bounds())
            ):
                return best, True
            moved = moved or rate > cfg.settled_velocity_threshold
            slow = slow + 1 if rate < cfg.settled_velocity_threshold else 0
            if moved and slow >= cfg.capture_settled_grace_frames:
                break  # the motion is over; nothing faster can follow
        return best, False

    def _row(self, ctx, joint, limit, peak, moves, travels, follow, exploded) -> JointRow:
        cfg = ctx.config
        travel = sum(travels)
        judged = max(peak.values())
        measure = "position rate" if peak["rate"] > peak["reported"] else "reported velocity"
        allowed = limit * (1.0 + cfg.tolerance_percent)
        ratio = judged / limit
        row = JointRow(
            joint=joint.name, path=joint.path, status=Status.PASS,
            measured={"peak_velocity": peak["reported"], "peak_displacement_rate": peak["rate"], "peak": judged,
                      "ratio": ratio, "target": moves[-1], "moves": len(moves), "travel": travel,
                      "follow": follow},
            limits={"velocity_limit": limit, "allowed": allowed, "min_exercised_ratio": cfg.min_exercised_ratio,
                    "source": joint.velocity_limit_source, "unit": "rad/s" if joint.is_angular else "m/s",
                    "articulated": joint.articulation is not None},
            units=row_units(joint, positions=("target", "travel"),
                            rates=("peak_velocity", "peak_displacement_rate", "peak", "velocity_limit", "allowed"),
                            ratio="", follow="", min_exercised_ratio=""),
        )
        if exploded:
            row.status, row.reason = Status.FAIL, "simulation exploded (NaN or bounding box > ratio x baseline)"
            row.fix_hints = ["Check link masses and inertias, drive stiffness, and that the joint limits are plausible."]
        elif judged > allowed:
            row.status = Status.FAIL
            row.reason = (f"peak {jv(joint, judged, rate=True)} ({measure}) > allowed {jv(joint, allowed, rate=True)} "
                          f"(limit {jv(joint, limit, rate=True)} from {joint.velocity_limit_source}, "
                          f"+{cfg.tolerance_percent:.0%}; reported velocity peaked at "
                          f"{jv(joint, peak['reported'], rate=True)}, position rate at {jv(joint, peak['rate'], rate=True)})")
            row.fix_hints = self._overspeed_hints(ctx, joint, row)
        elif ratio < cfg.min_exercised_ratio:
            row.status = Status.SKIP
            row.reason = (f"limit not exercised: the joint reached at most {jv(joint, judged, rate=True)}, {ratio:.0%} of "
                          f"its {jv(joint, limit, rate=True)} cap (< {cfg.min_exercised_ratio:.0%}), over "
                          f"{len(moves)} move(s) of {jv(joint, travel)} in all")
            if follow < DEAD_DRIVE_FRACTION:
                row.reason += "; " + dead_drive_story(joint, max(follow, 0.0) * travels[0], travels[0],
                                                      f"toward {jv(joint, moves[0])}")
                row.fix_hints = [HINT_DEAD_DRIVE]
            else:
                row.reason += ("; a drive that reaches the cap within this range (more driveStiffness or "
                               "driveMaxForce) would exercise it")
                row.fix_hints = [HINT_EXERCISE]
        return row

    def _overspeed_hints(self, ctx, joint, row) -> list[str]:
        enforced = ctx.enforced_velocity_limit(joint.path)  # None: the engine does not say
        if joint.articulation is None:
            row.reason += "; the joint is not part of an articulation, so PhysX does not enforce the limit"
            return [HINT_ARTICULATION]
        if enforced is not None and math.isinf(enforced):
            row.reason += f"; the engine enforces no cap on this joint: its runtime does not parse {joint.velocity_limit_source}"
            axis = "angular" if joint.is_angular else "linear"
            unit = "deg/s" if joint.is_angular else "m/s"
            return [HINT_UNPARSED.format(source=joint.velocity_limit_source, axis=axis, unit=unit)]
        if joint.velocity_limit_source == "newton:velocityLimit":
            return [HINT_NEWTON_ONLY, HINT_WRONG_PRIM]
        return [HINT_WRONG_PRIM, HINT_RETUNE]

    def _verdict(self, ctx) -> None:
        rows = ctx.result.joints
        failed = [r for r in rows if r.status is Status.FAIL]
        skipped = [r for r in rows if r.status is Status.SKIP]
        verified = [r for r in rows if r.status is Status.PASS]
        ctx.metric("joints_passed", len(verified))
        ctx.metric("joints_failed", len(failed))
        ctx.metric("joints_not_exercised", len(skipped))
        ctx.metric("max_velocity_ratio", max((r.measured["ratio"] for r in rows), default=0.0))
        skip_detail = "; ".join(f"{r.joint}: {r.reason}" for r in skipped[:3])
        if failed:
            detail = "; ".join(f"{r.joint}: {r.reason}" for r in failed[:4])
            ctx.finish(Status.FAIL, f"{len(failed)} of {len(rows)} joints exceeded their velocity limit: {detail}",
                       [h for r in failed for h in r.fix_hints])
        elif not verified:
            ctx.finish(Status.SKIP, f"velocity limit not exercised on any of {len(rows)} joints: {skip_detail}",
                       [h for r in skipped for h in r.fix_hints])
        else:
            ratio = max(r.measured["ratio"] for r in verified)
            ctx.finish(Status.PASS, f"{len(verified)} of {len(rows)} joints reached their velocity cap and stayed within "
                                    f"it (max ratio {ratio:.3f})" + (f"; not exercised: {skip_detail}" if skipped else ""),
                       [h for r in skipped for h in r.fix_hints])  # how to exercise the rest
