"""velocity_limit (FET022): the authored joint velocity cap is enforced at every physics frame.

Each driven joint with a velocity limit is commanded, alone, toward a target it can only reach
quickly by exceeding its limit; the peak |velocity| over the window must stay within
limit x (1 + tolerance_percent). A limit that PhysX does not enforce (a joint outside an
articulation, a Newton-only spelling) shows up as an overspeed. Spec: docs/tests/velocity_limit.md.
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
    DrivenJointConfig,
    ADD_DRIVE_HINT, BBOX_CHECK_EVERY, DrivenJointTest, SeriesRecorder, engine_runs_actuators, fmt, position_rate, settle,
)

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
HINT_RETUNE = (
    "If the cap is enforced but single-frame spikes exceed it, soften the drive (lower stiffness, raise damping, "
    "lower maxForce); raising tolerance_percent is a last resort."
)
HINT_AUTHOR_LIMIT = (
    "If velocity limiting is required, author physxJoint:maxJointVelocity (deg/s for revolute, m/s for prismatic "
    "joints) on each joint that must be speed-limited, e.g. `float physxJoint:maxJointVelocity = 180` with "
    "PhysxJointAPI applied."
)


class VelocityLimitTest(DrivenJointTest):
    name = "velocity_limit"
    version = "1.0.0"
    features = ("FET022_DRIVEN_JOINTS_PHYSX", "FET022_DRIVEN_JOINTS_ISAAC")
    summary = "Each driven joint's measured velocity stays within its authored maxJointVelocity at every frame."
    require_velocity_limit = True

    class Config(DrivenJointConfig):
        settle_seconds: float = Field(1.0, ge=0, description="Physics time at the authored targets before the first joint.")
        tolerance_percent: float = Field(0.05, ge=0, description="Allowed overshoot of the limit, as a fraction (0.05 = 5 %).")
        test_duration_seconds: float = Field(2.0, gt=0, description="Observation window per joint (s).")
        settled_velocity_threshold: float = Field(0.05, gt=0, description="|v| below this counts as stopped (rad/s or m/s).")
        capture_settled_grace_frames: int = Field(24, ge=1, description="Stopped frames after the motion that end a joint early.")
        target_margin_ratio: float = Field(0.05, ge=0, lt=0.5, description="Target sits this fraction of the range inside the far limit.")

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
        failed, unchallenged, exploded = [], [], False

        for joint in selection.tested:
            idx = ctx.dof_index(joint.path)
            limit = joint.velocity_limit
            start = float(ctx.joint_positions()[idx])
            target = far_target(start, joint.lower, joint.upper, limit, cfg.test_duration_seconds, cfg.target_margin_ratio)
            ctx.label = f"joint {joint.name}: toward {target:+.3f}"
            ctx.set_joint_target(joint.path, target)
            peak, rate_peak, slow, moved, q_prev = 0.0, 0.0, 0, False, start
            for frame in range(frames):
                yield
                q = float(ctx.joint_positions()[idx])
                rate = abs(position_rate(q_prev, q, ctx.dt, joint.is_angular))
                q_prev = q
                rate_peak = max(rate_peak, rate if math.isfinite(rate) else math.inf)
                v = float(ctx.joint_velocities()[idx])  # the engine's joint velocity: what the verdict uses
                speed = abs(v) if math.isfinite(v) else math.inf
                peak = max(peak, speed)
                series.sample(joint.name, q=q, abs_velocity=speed, limit=limit)
                if not math.isfinite(speed) or (frame % BBOX_CHECK_EVERY == 0 and watch.exploded(ctx.bounds())):
                    exploded = True
                    break
                moved = moved or rate > cfg.settled_velocity_threshold
                slow = slow + 1 if rate < cfg.settled_velocity_threshold else 0
                if moved and slow >= cfg.capture_settled_grace_frames:
                    break  # the motion is over; nothing faster can follow
            allowed = limit * (1.0 + cfg.tolerance_percent)
            ratio = peak / limit
            row = JointRow(
                joint=joint.name,
                path=joint.path,
                status=Status.PASS,
                measured={"peak_velocity": peak, "ratio": ratio, "peak_displacement_rate": rate_peak, "target": target},
                limits={
                    "velocity_limit": limit,
                    "allowed": allowed,
                    "source": joint.velocity_limit_source,
                    "unit": "rad/s" if joint.is_angular else "m/s",
                    "articulated": joint.articulation is not None,
                },
            )
            if exploded:
                row.status, row.reason = Status.FAIL, "simulation exploded (NaN or bounding box > ratio x baseline)"
                row.fix_hints = ["Check link masses and inertias, drive stiffness, and that the joint limits are plausible."]
            elif peak > allowed:
                row.status = Status.FAIL
                row.reason = (
                    f"peak |velocity| {fmt(peak)} > allowed {fmt(allowed)} "
                    f"(limit {fmt(limit)} from {joint.velocity_limit_source}, +{cfg.tolerance_percent:.0%})"
                )
                if joint.articulation is None:
                    row.reason += "; the joint is not part of an articulation, so PhysX does not enforce the limit"
                    row.fix_hints = [HINT_ARTICULATION]
                elif joint.velocity_limit_source == "newton:velocityLimit":
                    row.fix_hints = [HINT_NEWTON_ONLY, HINT_WRONG_PRIM]
                else:
                    row.fix_hints = [HINT_WRONG_PRIM, HINT_RETUNE]
            elif ratio < 0.5:
                unchallenged.append(joint.name)
                row.reason = f"cap not exercised: the drive reached only {ratio:.0%} of the limit"
            ctx.joint_row(row)
            if row.status is Status.FAIL:
                failed.append(row)
            if exploded:
                break

        tested = len(ctx.result.joints)
        ctx.metric("joints_passed", tested - len(failed))
        ctx.metric("joints_failed", len(failed))
        ctx.metric("max_velocity_ratio", max((r.measured["ratio"] for r in ctx.result.joints), default=0.0))
        if unchallenged:
            ctx.warn(
                "velocity cap not exercised for " + ", ".join(unchallenged)
                + ": the drive did not reach half of the limit (short range, weak drive, or a generous limit)"
            )
        if failed:
            hints = [h for r in failed for h in r.fix_hints]
            detail = "; ".join(f"{r.joint}: {r.reason}" for r in failed[:4])
            ctx.finish(Status.FAIL, f"{len(failed)} of {tested} joints exceeded their velocity limit: {detail}", hints)
        else:
            ctx.finish(Status.PASS, f"{tested} joints stayed within their velocity limits "
                                    f"(max ratio {ctx.result.metrics['max_velocity_ratio']:.3f})")
