"""drive_gain_validation (FET022): the authored drive gains give a stable, settling step response.

Each driven joint steps by step_magnitude_deg toward a side of its range with room for the step and
its allowed overshoot (scaled down, and reported, when neither side has); overshoot %, settling (entering
the 5 % band and staying in it through a tail after the window) and reversals larger than a fraction of
the step are measured. Poor tuning is a WARN unless step_fatal is set; a joint that moves less than 10 %
of the step is a dead drive. The joint is driven back to its start before the next one.
Spec: docs/tests/drive_gain_validation.md.
"""

from __future__ import annotations

import math
from typing import Iterator

from pydantic import Field

from .bbox_watch import BoxWatch
from ...core.context import TestContext
from ...core.results import JointRow
from ...core.status import Status
from .step_response import count_reversals, overshoot_pct, settling_time, step_target
from .base import (
    ADD_DRIVE_HINT, BBOX_CHECK_EVERY, DEAD_DRIVE_FRACTION, HINT_DEAD_DRIVE, DrivenJointConfig, DrivenJointTest,
    SeriesRecorder, dead_drive_story, jv, position_rate, progress, row_units, settle, unit,
)

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
    version = "1.1.0"
    features = ("FET022_DRIVEN_JOINTS_PHYSX", "FET022_DRIVEN_JOINTS_ISAAC")
    summary = "A step on each driven joint settles without excessive overshoot or oscillation (WARN unless step_fatal)."

    class Config(DrivenJointConfig):
        settle_seconds: float = Field(1.0, ge=0, description="Physics time at the authored targets before the first joint.")
        step_magnitude_deg: float = Field(30.0, gt=0, description="Step size for revolute joints (deg).")
        prismatic_step_m: float = Field(0.05, gt=0, description="Step size for prismatic joints (m); the spec names degrees only.")
        test_duration_seconds: float = Field(5.0, gt=0, description="Longest observation window per joint (s).")
        max_overshoot_pct: float = Field(50.0, ge=0, description="Overshoot allowed, % of the step.")
        max_settling_seconds: float = Field(5.0, gt=0, description="The joint must be in the settling band, and stay there, by this time (s).")
        max_oscillations: int = Field(20, ge=0, description="Velocity sign changes (reversals) allowed in the window.")
        settling_tolerance: float = Field(0.05, gt=0, lt=1, description="Settling band, fraction of the step magnitude.")
        settling_tail_seconds: float = Field(0.5, ge=0, description="Observed after the window: the joint must stay in the band (s).")
        oscillation_threshold: float = Field(0.001, gt=0, lt=1, description="A reversal counts when the joint swings back by more than this fraction of the step.")
        step_fatal: bool = Field(False, description="Poor step response fails the test (default: warning).")
        settled_velocity_threshold: float = Field(0.05, gt=0, description="|v| below this counts as stopped when driving back to the start (rad/s or m/s).")
        capture_settled_grace_frames: int = Field(24, ge=1, description="Calm, in-band frames that end a window early (then the tail).")

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
        tail = int(round(cfg.settling_tail_seconds / ctx.dt))
        exploded = False

        for joint in selection.tested:
            idx = ctx.dof_index(joint.path)
            start = float(ctx.joint_positions()[idx])
            magnitude = math.radians(cfg.step_magnitude_deg) if joint.is_angular else cfg.prismatic_step_m
            # Room for the step and the overshoot the threshold allows (+10 % of the step), so overshoot can show.
            target, scaled = step_target(start, joint.lower, joint.upper, magnitude, cfg.max_overshoot_pct / 100.0 + 0.1)
            step = target - start
            band = cfg.settling_tolerance * abs(step)
            if scaled:
                ctx.warn(f"{joint.name}: step scaled to {jv(joint, abs(step))} (its range leaves no room for a "
                         f"{jv(joint, magnitude)} step and its {cfg.max_overshoot_pct:g} % overshoot on either side)")
            ctx.label = f"joint {joint.name}: step {'+' if step >= 0 else '-'}"
            ctx.set_joint_target(joint.path, target)
            times, positions = [], []
            t0, calm = ctx.time, 0
            frame, end = 0, window  # `end`: this joint's window, shortened once it has provably settled
            while frame < end + tail:
                yield
                frame += 1
                q = float(ctx.joint_positions()[idx])
                times.append(ctx.time - t0)
                positions.append(q)
                series.sample(joint.name, q=q, target=target)
                v = position_rate(positions[-2] if len(positions) > 1 else start, q, ctx.dt, joint.is_angular)
                if not (math.isfinite(q) and math.isfinite(v)) or (
                    frame % BBOX_CHECK_EVERY == 0 and watch.exploded(ctx.bounds())
                ):
                    exploded = True
                    break
                # Early end of the window only when the joint is in the band and too slow to leave it before the
                # window and the tail are over (extrapolated); the tail is always observed.
                left = max(end - frame, 0) * ctx.dt + cfg.settling_tail_seconds
                calm = calm + 1 if abs(q - target) + abs(v) * left <= band else 0
                if frame < end and calm >= cfg.capture_settled_grace_frames:
                    end = frame
            in_window = [q for t, q in zip(times, positions) if t <= end * ctx.dt + 1e-9]
            overshoot = overshoot_pct(positions, start, target)
            t_settle = settling_time(times, positions, target, band)
            if t_settle is not None and t_settle > end * ctx.dt + 1e-9:
                t_settle = None  # entered the band only during the tail
            oscillations = count_reversals([start] + in_window, cfg.oscillation_threshold * abs(step))
            follow = max((progress(start, q, target) for q in positions), default=0.0)
            final_err = abs(positions[-1] - target) if positions else math.nan
            issues, hints = [], []
            if exploded:
                issues.append("simulation exploded (NaN or bounding box > ratio x baseline)")
                hints.append("Check link masses and inertias and that the drive gains are not extreme.")
            dead = not exploded and follow < DEAD_DRIVE_FRACTION
            if dead:
                issues.append(dead_drive_story(joint, max(follow, 0.0) * abs(step), step, "by the step"))
                hints.append(HINT_DEAD_DRIVE)
            if overshoot > cfg.max_overshoot_pct:
                issues.append(f"overshoot {overshoot:.1f} % > {cfg.max_overshoot_pct:g} %")
                hints.append(HINT_OVERSHOOT)
            if t_settle is None or t_settle > cfg.max_settling_seconds:
                issues.append(f"not settled: not in the {jv(joint, band)} band from {cfg.max_settling_seconds:g} s on "
                              f"through a {cfg.settling_tail_seconds:g} s tail (final error {jv(joint, final_err)})")
                if not dead:
                    hints.append(HINT_SETTLE)
            if oscillations > cfg.max_oscillations:
                issues.append(f"{oscillations} velocity sign changes > {cfg.max_oscillations}")
                hints.append(HINT_OSCILLATE)
            verdict = (Status.FAIL if cfg.step_fatal or exploded else Status.WARN) if issues else Status.PASS
            row = JointRow(
                joint=joint.name, path=joint.path, status=verdict, reason="; ".join(issues),
                measured={"overshoot_pct": overshoot, "settling_time_s": t_settle, "oscillations": oscillations,
                          "start": start, "target": target, "step": step, "step_scaled": scaled,
                          "final_error": final_err if positions else None, "follow": follow, "dead_drive": dead},
                limits={"max_overshoot_pct": cfg.max_overshoot_pct, "max_settling_seconds": cfg.max_settling_seconds,
                        "max_oscillations": cfg.max_oscillations, "settling_band": band, "lower": joint.lower,
                        "upper": joint.upper, "unit": unit(joint)},
                units=row_units(joint, positions=("start", "target", "step", "final_error", "settling_band", "lower",
                                                  "upper"),
                                overshoot_pct="%", max_overshoot_pct="%", settling_time_s="s", max_settling_seconds="s",
                                oscillations="", max_oscillations="", follow=""),
                fix_hints=list(dict.fromkeys(hints)),
            )
            ctx.joint_row(row)
            if issues:
                ctx.warn(f"{joint.name}: {row.reason}")
            if exploded:
                break
            yield from self._return(ctx, joint, idx, start, positions[-1] if positions else start, band)
        self._verdict(ctx, exploded)

    def _return(self, ctx, joint, idx, start, q_prev, band):
        """Drive back to the start before the next joint (bounded by the observation window)."""
        cfg = ctx.config
        ctx.label = f"joint {joint.name}: return"
        ctx.set_joint_target(joint.path, start)
        calm = 0
        for _ in range(int(round(min(cfg.test_duration_seconds, cfg.max_settling_seconds) / ctx.dt))):
            yield
            q = float(ctx.joint_positions()[idx])
            v, q_prev = position_rate(q_prev, q, ctx.dt, joint.is_angular), q
            calm = calm + 1 if (abs(v) < cfg.settled_velocity_threshold and abs(q - start) <= band) else 0
            if calm >= cfg.capture_settled_grace_frames or not math.isfinite(q):
                break

    def _verdict(self, ctx, exploded: bool) -> None:
        cfg = ctx.config
        rows = ctx.result.joints
        poor = [r for r in rows if r.status is not Status.PASS]
        tested = len(rows)
        ctx.metric("joints_passed", tested - len(poor))
        ctx.metric("joints_poor", len(poor))
        ctx.metric("joints_dead_drive", sum(1 for r in rows if r.measured.get("dead_drive")))
        ctx.metric("max_overshoot_pct", max((r.measured["overshoot_pct"] for r in rows), default=0.0), unit="%")
        ctx.metric("max_oscillations", max((r.measured["oscillations"] for r in rows), default=0))
        settle_times = [r.measured["settling_time_s"] for r in rows]
        ctx.metric("max_settling_time_s", None if any(t is None for t in settle_times) else max(settle_times, default=0.0),
                   unit="s")
        scaled = [r.joint for r in rows if r.measured.get("step_scaled")]
        ctx.metric("steps_scaled", len(scaled))
        note = f" (step scaled to fit the range: {', '.join(scaled)})" if scaled else ""
        if poor:
            detail = "; ".join(f"{r.joint}: {r.reason}" for r in poor[:4])
            status = Status.FAIL if (cfg.step_fatal or exploded) else Status.WARN
            ctx.finish(status, f"{len(poor)} of {tested} joints have a poor step response: {detail}{note}",
                       [h for r in poor for h in r.fix_hints])
        else:
            ctx.finish(Status.PASS, f"{tested} joints settled within {cfg.max_settling_seconds:g} s without excessive "
                                    f"overshoot or oscillation{note}")
