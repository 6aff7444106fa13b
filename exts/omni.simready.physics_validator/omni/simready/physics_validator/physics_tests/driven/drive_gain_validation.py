"""drive_gain_validation (FET022): the authored drive gains give a stable, settling step response.

Each driven joint steps by step_magnitude_deg (in the direction that stays within its limits)
with the authored gains; overshoot %, settling time in the 5 % band and velocity sign changes are
measured. Poor tuning is a WARN unless step_fatal is set. The joint is driven back to its start
before the next one. Spec: docs/tests/drive_gain_validation.md.
"""

from __future__ import annotations

import math
from typing import Iterator

from pydantic import Field

from .bbox_watch import BoxWatch
from ...core.context import TestContext
from ...core.results import JointRow
from ...core.status import Status
from .step_response import count_sign_changes, overshoot_pct, settling_time, step_target
from .base import DrivenJointConfig, ADD_DRIVE_HINT, BBOX_CHECK_EVERY, DrivenJointTest, SeriesRecorder, fmt, position_rate, settle, unit

HINT_OVERSHOOT = (
    "Overshoot: raise driveDamping on the joint's UsdPhysics.DriveAPI (damping resists velocity and lowers the "
    "peak); do not lower stiffness to compensate, that slows settling."
)
HINT_SETTLE = (
    "Not settled: raise driveStiffness for a stronger restoring force and make sure driveMaxForce is high enough "
    "to deliver it; a low maxForce cap prevents the drive from closing the position error."
)
HINT_OSCILLATE = "Oscillation: raise driveDamping; sometimes a little more driveMaxForce is needed for damping to act."


class DriveGainValidationTest(DrivenJointTest):
    name = "drive_gain_validation"
    version = "1.0.0"
    features = ("FET022_DRIVEN_JOINTS_PHYSX", "FET022_DRIVEN_JOINTS_ISAAC")
    summary = "A step on each driven joint settles without excessive overshoot or oscillation (WARN unless step_fatal)."

    class Config(DrivenJointConfig):
        settle_seconds: float = Field(1.0, ge=0, description="Physics time at the authored targets before the first joint.")
        step_magnitude_deg: float = Field(30.0, gt=0, description="Step size for revolute joints (deg).")
        prismatic_step_m: float = Field(0.05, gt=0, description="Step size for prismatic joints (m); the spec names degrees only.")
        test_duration_seconds: float = Field(5.0, gt=0, description="Longest observation window per joint (s).")
        max_overshoot_pct: float = Field(50.0, ge=0, description="Overshoot allowed, % of the step.")
        max_settling_seconds: float = Field(5.0, gt=0, description="The joint must stay in the settling band before this (s).")
        max_oscillations: int = Field(20, ge=0, description="Velocity sign changes allowed in the window.")
        settling_tolerance: float = Field(0.05, gt=0, lt=1, description="Settling band, fraction of the step magnitude.")
        step_fatal: bool = Field(False, description="Poor step response fails the test (default: warning).")
        settled_velocity_threshold: float = Field(0.05, gt=0, description="|v| below this counts as stopped; also the sign-change deadband.")
        capture_settled_grace_frames: int = Field(24, ge=1, description="Stopped, in-band frames that end a joint early.")

    def run(self, ctx: TestContext) -> Iterator[None]:
        cfg = ctx.config
        selection = self.select(ctx)
        if not selection.tested:
            self.skip_nothing_to_test(ctx, selection, "no driven joint to step", [ADD_DRIVE_HINT])
            return
        yield from settle(ctx, cfg.settle_seconds)
        watch = BoxWatch(ctx.bounds(), cfg.bbox_explode_ratio)
        series = SeriesRecorder(ctx)
        window = int(round(min(cfg.test_duration_seconds, cfg.max_settling_seconds) / ctx.dt))
        poor, exploded = [], False

        for joint in selection.tested:
            idx = ctx.dof_index(joint.path)
            start = float(ctx.joint_positions()[idx])
            magnitude = math.radians(cfg.step_magnitude_deg) if joint.is_angular else cfg.prismatic_step_m
            target = step_target(start, joint.lower, joint.upper, magnitude)
            step = target - start
            band = cfg.settling_tolerance * abs(step)
            ctx.label = f"joint {joint.name}: step {'+' if step >= 0 else '-'}"
            ctx.set_joint_target(joint.path, target)
            times, positions, velocities = [], [], []
            t0, calm, q_prev = ctx.time, 0, start
            for frame in range(window):
                yield
                q = float(ctx.joint_positions()[idx])
                v, q_prev = position_rate(q_prev, q, ctx.dt, joint.is_angular), q
                times.append(ctx.time - t0)
                positions.append(q)
                velocities.append(v)
                series.sample(joint.name, q=q, target=target)
                if not (math.isfinite(q) and math.isfinite(v)) or (
                    frame % BBOX_CHECK_EVERY == 0 and watch.exploded(ctx.bounds())
                ):
                    exploded = True
                    break
                calm = calm + 1 if (abs(v) < cfg.settled_velocity_threshold and abs(q - target) <= band) else 0
                if calm >= cfg.capture_settled_grace_frames:
                    break  # settled and at rest: nothing more to see
            overshoot = overshoot_pct(positions, start, target)
            t_settle = settling_time(times, positions, target, band)
            oscillations = count_sign_changes(velocities, cfg.settled_velocity_threshold)
            issues, hints = [], []
            if exploded:
                issues.append("simulation exploded (NaN or bounding box > ratio x baseline)")
                hints.append("Check link masses and inertias and that the drive gains are not extreme.")
            if overshoot > cfg.max_overshoot_pct:
                issues.append(f"overshoot {overshoot:.1f} % > {cfg.max_overshoot_pct:g} %")
                hints.append(HINT_OVERSHOOT)
            if t_settle is None or t_settle > cfg.max_settling_seconds:
                final_err = abs(positions[-1] - target) if positions else math.nan
                issues.append(f"not settled within {cfg.max_settling_seconds:g} s (final error {fmt(final_err)} "
                              f"{unit(joint)} > band {fmt(band)})")
                hints.append(HINT_SETTLE)
            if oscillations > cfg.max_oscillations:
                issues.append(f"{oscillations} velocity sign changes > {cfg.max_oscillations}")
                hints.append(HINT_OSCILLATE)
            verdict = (Status.FAIL if cfg.step_fatal or exploded else Status.WARN) if issues else Status.PASS
            row = JointRow(
                joint=joint.name, path=joint.path, status=verdict, reason="; ".join(issues),
                measured={"overshoot_pct": overshoot, "settling_time_s": t_settle, "oscillations": oscillations,
                          "start": start, "target": target, "final_error": abs(positions[-1] - target) if positions else None},
                limits={"max_overshoot_pct": cfg.max_overshoot_pct, "max_settling_seconds": cfg.max_settling_seconds,
                        "max_oscillations": cfg.max_oscillations, "settling_band": band, "unit": unit(joint)},
                fix_hints=list(dict.fromkeys(hints)),
            )
            ctx.joint_row(row)
            if issues:
                poor.append(row)
                ctx.warn(f"{joint.name}: {row.reason}")
            if exploded:
                break
            # Back to the start before the next joint (bounded by the same window).
            ctx.label = f"joint {joint.name}: return"
            ctx.set_joint_target(joint.path, start)
            calm, q_prev = 0, positions[-1] if positions else start
            for _ in range(window):
                yield
                q = float(ctx.joint_positions()[idx])
                v, q_prev = position_rate(q_prev, q, ctx.dt, joint.is_angular), q
                calm = calm + 1 if (abs(v) < cfg.settled_velocity_threshold and abs(q - start) <= band) else 0
                if calm >= cfg.capture_settled_grace_frames or not math.isfinite(q):
                    break

        tested = len(ctx.result.joints)
        rows = ctx.result.joints
        ctx.metric("joints_passed", tested - len(poor))
        ctx.metric("joints_poor", len(poor))
        ctx.metric("max_overshoot_pct", max((r.measured["overshoot_pct"] for r in rows), default=0.0))
        ctx.metric("max_oscillations", max((r.measured["oscillations"] for r in rows), default=0))
        settle_times = [r.measured["settling_time_s"] for r in rows]
        ctx.metric("max_settling_time_s", None if any(t is None for t in settle_times) else max(settle_times, default=0.0))
        if poor:
            detail = "; ".join(f"{r.joint}: {r.reason}" for r in poor[:4])
            status = Status.FAIL if (cfg.step_fatal or exploded) else Status.WARN
            ctx.finish(status, f"{len(poor)} of {tested} joints have a poor step response: {detail}",
                       [h for r in poor for h in r.fix_hints])
        else:
            ctx.finish(Status.PASS, f"{tested} joints settled within {cfg.max_settling_seconds:g} s without excessive "
                                    "overshoot or oscillation")
