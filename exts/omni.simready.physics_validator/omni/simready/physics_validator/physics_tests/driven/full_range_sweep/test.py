"""full_range_sweep (FET022): every driven joint reaches and holds both authored endpoints and returns to zero.

Each joint with both limits is swept alone max -> min -> zero with an eased profile, holds each
endpoint for the pause window, and must end within the zero-return tolerance of zero (its home: the
endpoint nearest 0 when the range excludes 0); the whole asset's bounding box is watched every frame.
Both tolerances are capped at a fraction of the joint's range, so a joint that never moves cannot pass,
and a joint that moves less than 10 % of the way to an endpoint is a dead drive.
Spec: docs/tests/full_range_sweep.md.
"""

from __future__ import annotations

import math
from typing import Iterator

from pydantic import Field

from .bbox_watch import BoxWatch
from ...core.context import TestContext
from .motion import EASE_PROFILES, ConvergenceCounter, hold_failed, range_scaled_tolerance, sweep_plan
from ...core.results import JointRow
from ...core.status import Status
from .base import (
    ADD_DRIVE_HINT, DEAD_DRIVE_FRACTION, HINT_DEAD_DRIVE, DrivenJointConfig, DrivenJointTest, SeriesRecorder,
    dead_drive_story, fmt, jv, progress, row_units, settle, unit,
)

HINT_REACH = (
    "Joint cannot reach a limit: raise driveStiffness and driveMaxForce on its UsdPhysics.DriveAPI (or its direct "
    "NewtonActuator), and check that collision geometry does not block the joint before the authored limit."
)
HINT_ZERO = ("Joint cannot return to its home position: raise driveDamping to dissipate energy, or lower "
             "sweep_speed_scale.")
HINT_HOLD = "Rest-hold failure: drive stiffness or damping is too low to hold the joint at the commanded limit."
HINT_EXPLODE = (
    "Bounding box exploded: check the articulation is rooted correctly, every body has valid mass and inertia, "
    "and the joint limits are physically possible (very stiff drives > 5e4 can also destabilise the solver)."
)


class FullRangeSweepTest(DrivenJointTest):
    name = "full_range_sweep"
    version = "1.5.0"
    features = ("FET_022_PHYSX", "FET_022_NEWTON", "FET_022_ISAAC")
    summary = "Each driven joint reaches and holds both authored limits and returns to zero; the articulation stays stable."
    require_limits = True

    class Config(DrivenJointConfig):
        capture_fps: float = Field(8.0, gt=0, description="Video frames per simulated second.")
        settle_seconds: float = Field(1.0, ge=0, description="Physics time at the authored targets before the first joint.")
        sweep_margin_ratio: float = Field(0.10, ge=0, lt=0.5, description="Endpoints sit this fraction of the range inside the limits.")
        interpolation_profile: str = Field("smoothstep", description=f"Easing of each segment: {', '.join(EASE_PROFILES)}.")
        sweep_speed_scale: float = Field(0.8, gt=0, description="Segment time 1/scale s (peak speed <= scale x velocity limit).")
        pause_at_limits_seconds: float = Field(0.15, ge=0, description="Hold window at each waypoint (s).")
        rest_check_enabled: bool = Field(True, description="Check the hold at the max and min endpoints.")
        rest_tolerance: float = Field(0.10, gt=0, description="Hold error allowed at an endpoint (rad or m) for most of the pause; capped by rest_range_fraction.")
        rest_range_fraction: float = Field(0.10, gt=0, lt=0.4, description="The hold tolerance is at most this fraction of the joint's swept range.")
        rest_check_fatal: bool = Field(True, description="A hold failure fails the joint (false: warning; diagnostic runs only).")
        zero_return_tolerance: float = Field(0.01, gt=0, description="Final error allowed at the zero waypoint (rad or m); capped by zero_range_fraction.")
        zero_range_fraction: float = Field(0.01, gt=0, lt=0.4, description="The zero-return tolerance is at most this fraction of the joint's swept range.")
        max_sweep_range: float = Field(2 * math.pi, gt=0, description="Wider ranges are swept over a window this wide.")
        newton_zero_consecutive_frames: int = Field(8, ge=1, description="Newton: in-tolerance frames that end the zero hold.")
        newton_zero_max_settling_seconds: float = Field(2.0, ge=0, description="Newton: longest zero hold (s).")

    def run(self, ctx: TestContext) -> Iterator[None]:
        cfg = ctx.config
        selection = self.select(ctx)
        if not selection.tested:
            self.skip_nothing_to_test(ctx, selection, "no driven joint with both limits to sweep", [ADD_DRIVE_HINT])
            return
        yield from settle(ctx, cfg.settle_seconds)
        baseline = ctx.bounds()
        watch = BoxWatch(baseline, cfg.bbox_explode_ratio)
        ctx.metric("bbox_baseline_volume", watch.baseline_volume, unit="m³")
        series = SeriesRecorder(ctx)
        newton = getattr(ctx.engine, "name", "") == "newton"
        failed, exploded_at = [], None

        for joint in selection.tested:
            idx = ctx.dof_index(joint.path)
            start = float(ctx.joint_positions()[idx])
            plan = sweep_plan(
                joint.lower, joint.upper, start, fps=1.0 / ctx.dt, speed_scale=cfg.sweep_speed_scale,
                pause_seconds=cfg.pause_at_limits_seconds, margin_ratio=cfg.sweep_margin_ratio,
                max_sweep_range=cfg.max_sweep_range, velocity_limit=joint.velocity_limit,
                profile=cfg.interpolation_profile,
            )
            swept = plan.upper - plan.lower
            rest_tol = range_scaled_tolerance(cfg.rest_tolerance, swept, cfg.rest_range_fraction)
            zero_tol = range_scaled_tolerance(cfg.zero_return_tolerance, swept, cfg.zero_range_fraction)
            watch.new_window()
            errors: list[str] = []
            hints: list[str] = []
            hold_err, follow = {}, {}
            dead = None
            for seg in plan.segments:
                ctx.label = f"joint {joint.name}: {seg.name}"
                q = seg_start = float(ctx.joint_positions()[idx])
                best = 0.0  # furthest progress toward the segment's end point (fraction of the way)
                for frame in range(seg.frames):
                    target = seg.target(frame, cfg.interpolation_profile)
                    ctx.set_joint_target(joint.path, target)
                    yield
                    q = float(ctx.joint_positions()[idx])
                    best = max(best, progress(seg_start, q, seg.end))
                    series.sample(joint.name, q=q, target=target)
                    if watch.exploded(ctx.bounds()) or not math.isfinite(q):
                        exploded_at = seg.name
                        break
                if exploded_at:
                    break
                pause = []
                ctx.label = f"joint {joint.name}: hold {seg.name[3:]}"
                for _ in range(plan.pause_frames if cfg.rest_check_enabled or seg.name == "to_zero" else 0):
                    ctx.set_joint_target(joint.path, seg.end)  # re-commanded every frame (needed on Newton)
                    yield
                    q = float(ctx.joint_positions()[idx])
                    best = max(best, progress(seg_start, q, seg.end))
                    series.sample(joint.name, q=q, target=seg.end)
                    pause.append(q - seg.end)
                    if watch.exploded(ctx.bounds()) or not math.isfinite(q):
                        exploded_at = seg.name
                        break
                if exploded_at:
                    break
                commanded = seg.end - seg_start
                follow[seg.name] = best
                if dead is None and abs(commanded) > rest_tol and best < DEAD_DRIVE_FRACTION:
                    dead = dead_drive_story(joint, max(best, 0.0) * abs(commanded), commanded,
                                            f"toward the {seg.name[3:]} endpoint {jv(joint, seg.end)}")
                if seg.name != "to_zero" and cfg.rest_check_enabled:
                    worst = max((abs(e) for e in pause), default=0.0)
                    hold_err[seg.name] = worst
                    if hold_failed(pause, rest_tol):
                        msg = (f"did not reach and hold {seg.name[3:]} endpoint {jv(joint, seg.end)}: error "
                               f"{jv(joint, worst)} > rest tolerance {jv(joint, rest_tol)} for most of the pause")
                        if cfg.rest_check_fatal:
                            errors.append(msg)
                            hints += [HINT_REACH, HINT_HOLD]
                        else:
                            ctx.warn(f"{joint.name}: {msg}")
            if newton and not exploded_at:
                # Newton rings after the range reversal: keep the zero target until it converges (bounded).
                counter = ConvergenceCounter(zero_tol, cfg.newton_zero_consecutive_frames)
                ctx.label = f"joint {joint.name}: converge to zero"
                for _ in range(int(round(cfg.newton_zero_max_settling_seconds / ctx.dt))):
                    ctx.set_joint_target(joint.path, plan.zero_target)
                    yield
                    if counter.update(float(ctx.joint_positions()[idx]) - plan.zero_target):
                        break
            final = float(ctx.joint_positions()[idx])
            zero_err = abs(final - plan.zero_target)
            if exploded_at:
                errors.append(f"bounding box exploded during {exploded_at} "
                              f"(volume {fmt(watch.worst_ratio)} x baseline > {fmt(cfg.bbox_explode_ratio)})")
                hints = [HINT_EXPLODE]
            elif not zero_err <= zero_tol:
                errors.append(f"did not return to {home_text(joint, plan.zero_target)}: error {jv(joint, zero_err)} "
                              f"> zero-return tolerance {jv(joint, zero_tol)}")
                hints.append(HINT_ZERO)
            if dead and not exploded_at:
                errors.insert(0, dead)
                hints = [HINT_DEAD_DRIVE] + [h for h in hints if h not in (HINT_REACH, HINT_HOLD)]
            row = JointRow(
                joint=joint.name, path=joint.path, status=Status.FAIL if errors else Status.PASS,
                reason="; ".join(errors),
                measured={"hold_error_max": hold_err.get("to_max"), "hold_error_min": hold_err.get("to_min"),
                          "zero_error": zero_err, "bbox_ratio": watch.window_ratio,
                          "follow_max": follow.get("to_max"), "follow_min": follow.get("to_min"),
                          "dead_drive": bool(dead)},
                limits={"lower": joint.lower, "upper": joint.upper, "max_target": plan.max_target,
                        "min_target": plan.min_target, "zero_target": plan.zero_target,
                        "rest_tolerance": rest_tol, "zero_return_tolerance": zero_tol, "unit": unit(joint)},
                units=row_units(joint, positions=("hold_error_max", "hold_error_min", "zero_error", "lower", "upper",
                                                  "max_target", "min_target", "zero_target", "rest_tolerance",
                                                  "zero_return_tolerance"),
                                bbox_ratio="", follow_max="", follow_min=""),
                fix_hints=list(dict.fromkeys(hints)),
            )
            ctx.joint_row(row)
            if errors:
                failed.append(row)
            if exploded_at:
                break  # the scene is no longer trustworthy

        tested = len(ctx.result.joints)
        ctx.metric("joints_passed", tested - len(failed))
        ctx.metric("joints_failed", len(failed))
        ctx.metric("joints_dead_drive", sum(1 for r in ctx.result.joints if r.measured.get("dead_drive")))
        ctx.metric("bbox_max_ratio", watch.worst_ratio)
        if failed:
            detail = "; ".join(f"{r.joint}: {r.reason}" for r in failed[:4])
            ctx.finish(Status.FAIL, f"{len(failed)} of {tested} joints failed the sweep: {detail}",
                       [h for r in failed for h in r.fix_hints])
        else:
            ctx.finish(Status.PASS, f"{tested} joints reached and held both limits and returned to zero")


def home_text(joint, zero_target: float) -> str:
    """'zero' when 0 is in the range; else the home position used and why."""
    if joint.lower <= 0.0 <= joint.upper:
        return "zero"
    return (f"its home position {jv(joint, zero_target)} (its range [{jv(joint, joint.lower)}, {jv(joint, joint.upper)}] "
            "excludes 0; home is the swept endpoint nearest 0)")
