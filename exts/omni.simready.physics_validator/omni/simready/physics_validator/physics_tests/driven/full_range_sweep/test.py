"""full_range_sweep (FET_022): every driven joint reaches and holds both authored endpoints and returns to zero.

Each joint with both limits is swept alone max -> min -> zero with an eased profile, holds each
endpoint for the pause window, and must end within the zero-return tolerance of zero (its home: the
endpoint nearest 0 when the range excludes 0); the whole asset's bounding box is watched every frame
(`BoxWatch.step`: the exact box where the engine's cheaper outer box could be past the line).
Both tolerances are capped at a fraction of the joint's range, so a joint that never moves cannot pass,
and a joint that moves less than 10 % of the way to an endpoint is a dead drive.
Spec: docs/tests/full_range_sweep.md.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Iterator

from ....core.context import TestContext
from ....core.quantities import listed
from ....core.results import JointRow
from ....core.status import Status
from ..base import (
    DEAD_DRIVE_FRACTION, DrivenJointTest, SeriesRecorder, dead_drive_story, exploded_story, explosion_watch, jv,
    progress, row_units, settle, unit,
)
from ..bbox_watch import BoxWatch
from ..codes import DrivenCode
from ..motion import ConvergenceCounter, SweepPlan, hold_failed
from .codes import FullRangeSweepCode as Code
from .config import FullRangeSweepConfig, SweepThresholds
from .fix_rules import FIX_RULES
from .hints import HINTS
from .view import VIEW


@dataclass
class JointSweep:
    """One joint's sweep and tolerances (its thresholds, SI) and what it found, segment by segment."""

    thresholds: SweepThresholds
    findings: list[tuple[str, str]] = field(default_factory=list)  # (code, sentence) in the order found
    hold_err: dict[str, float] = field(default_factory=dict)  # segment -> worst hold error
    follow: dict[str, float] = field(default_factory=dict)  # segment -> furthest progress toward its end point
    dead: str | None = None  # the dead-drive sentence, once seen
    exploded_at: str | None = None  # the segment during which the bounding box exploded
    zero_errors: list[float] = field(default_factory=list)  # |error| at zero, every frame from the zero hold on
    zero_settled: bool = False  # in the zero-return band for zero_settled_frames frames in a row

    @property
    def plan(self) -> SweepPlan:
        return self.thresholds.plan

    @property
    def rest_tol(self) -> float:
        return self.thresholds.rest_tolerance

    @property
    def zero_tol(self) -> float:
        return self.thresholds.zero_return_tolerance


Ctx = TestContext[FullRangeSweepConfig]  # the context of this test: ctx.config is a FullRangeSweepConfig


class FullRangeSweepTest(DrivenJointTest[FullRangeSweepConfig]):
    name = "full_range_sweep"
    version = "1.6.0"
    features = ("FET_022_PHYSX", "FET_022_NEWTON", "FET_022_ISAAC")
    summary = "Each driven joint reaches and holds both authored limits and returns to zero; the articulation stays stable."
    require_limits = True
    Config = FullRangeSweepConfig
    codes = (DrivenCode, Code)
    hints = HINTS
    view = VIEW
    fix_rules = FIX_RULES
    readback = {**DrivenJointTest.readback, "joint:lower": None, "joint:upper": None}  # the limits it sweeps to

    def run(self, ctx: Ctx) -> Iterator[None]:
        cfg = ctx.config
        selection = self.select(ctx)
        if not selection.tested:
            self.skip_nothing_to_test(ctx, selection, "no driven joint with both limits to sweep")
            return
        yield from settle(ctx, cfg.settle_seconds, until_rest=True)
        watch = explosion_watch(ctx)
        ctx.metric("bbox_baseline_volume", watch.baseline_volume, unit="m³")
        series = SeriesRecorder(ctx)
        for joint in selection.tested:
            sweep = yield from self._sweep_joint(ctx, joint, watch, series)
            ctx.joint_row(self._row(ctx, joint, sweep, watch))
            if sweep.exploded_at:
                break  # the scene is no longer trustworthy
        self._verdict(ctx, watch)

    def _sweep_joint(self, ctx: Ctx, joint, watch: BoxWatch, series: SeriesRecorder):
        """Sweep one joint through its plan (max -> min -> zero) and judge each segment; returns a JointSweep."""
        cfg = ctx.config
        idx = ctx.dof_index(joint.path)
        sweep = JointSweep(cfg.thresholds_for(joint, float(ctx.joint_positions()[idx]), fps=1.0 / ctx.dt))
        watch.new_window()
        for seg in sweep.plan.segments:
            seg_start = float(ctx.joint_positions()[idx])
            pause: list[float] = []
            best = yield from self._follow_segment(ctx, joint, idx, seg, seg_start, pause, sweep, watch, series)
            if sweep.exploded_at:
                break
            self._judge_segment(ctx, joint, seg, seg_start, best, pause, sweep)
            if seg.name == "to_zero":
                sweep.zero_errors = [abs(e) for e in pause]
        if not sweep.exploded_at:
            yield from self._settle_at_zero(ctx, joint, idx, sweep, watch, series)
        return sweep

    def _follow_segment(self, ctx, joint, idx, seg, seg_start, pause, sweep, watch, series):
        """Command the segment's ramp, then hold its end point; returns the furthest progress toward it (sets
        sweep.exploded_at when the bounding box exploded or the state went NaN)."""
        cfg = ctx.config
        ctx.label = f"joint {joint.name}: {seg.name}"
        name, profile = joint.name, cfg.interpolation_profile  # looked up once: this loop runs every step
        best = 0.0  # furthest progress toward the segment's end point (fraction of the way)
        for frame in range(seg.frames):
            target = seg.target(frame, profile)
            ctx.set_joint_target(joint.path, target)
            yield
            q = float(ctx.joint_positions()[idx])
            best = max(best, progress(seg_start, q, seg.end))
            series.sample(name, q=q, target=target)
            if watch.step(ctx) or not math.isfinite(q):
                sweep.exploded_at = seg.name
                return best
        ctx.label = f"joint {joint.name}: hold {seg.name[3:]}"
        for _ in range(sweep.plan.pause_frames if cfg.rest_check_enabled or seg.name == "to_zero" else 0):
            ctx.set_joint_target(joint.path, seg.end)  # re-commanded every frame (needed on Newton)
            yield
            q = float(ctx.joint_positions()[idx])
            best = max(best, progress(seg_start, q, seg.end))
            series.sample(name, q=q, target=seg.end)
            pause.append(q - seg.end)
            if watch.step(ctx) or not math.isfinite(q):
                sweep.exploded_at = seg.name
                return best
        return best

    def _judge_segment(self, ctx, joint, seg, seg_start, best, pause, sweep: JointSweep) -> None:
        """A dead drive (moved < 10 % of the way) and, at an endpoint, the hold error against the rest tolerance."""
        cfg = ctx.config
        commanded = seg.end - seg_start
        sweep.follow[seg.name] = best
        if sweep.dead is None and abs(commanded) > sweep.rest_tol and best < DEAD_DRIVE_FRACTION:
            sweep.dead = dead_drive_story(joint, max(best, 0.0) * abs(commanded), commanded,
                                          f"toward the {seg.name[3:]} endpoint {jv(joint, seg.end)}")
        if seg.name == "to_zero" or not cfg.rest_check_enabled:
            return
        worst = max((abs(e) for e in pause), default=0.0)
        sweep.hold_err[seg.name] = worst
        if hold_failed(pause, sweep.rest_tol):
            msg = (f"did not reach and hold {seg.name[3:]} endpoint {jv(joint, seg.end)}: error "
                   f"{jv(joint, worst)} > rest tolerance {jv(joint, sweep.rest_tol)} for most of the pause")
            if cfg.rest_check_fatal:
                sweep.findings.append((Code.ENDPOINT_NOT_HELD.value, msg))
            else:
                ctx.warn(f"{joint.name}: {msg}")

    def _settle_at_zero(self, ctx, joint, idx, sweep: JointSweep, watch: BoxWatch, series: SeriesRecorder):
        """Judge the return over a window, not one sample: the joint must come into the zero-return band and stay
        there for zero_settled_seconds without a break (the zero hold counts), holding zero for at most
        zero_max_settle_seconds more. A drive ringing around zero never settles, whatever phase a frame catches."""
        cfg = ctx.config
        counter = ConvergenceCounter(sweep.zero_tol, sweep.thresholds.zero_settled_frames)
        for error in sweep.zero_errors:
            sweep.zero_settled = counter.update(error)
        ctx.label = f"joint {joint.name}: settle at zero"
        for _ in range(int(round(cfg.zero_max_settle_seconds / ctx.dt))):
            if sweep.zero_settled:
                return
            ctx.set_joint_target(joint.path, sweep.plan.zero_target)
            yield
            q = float(ctx.joint_positions()[idx])
            series.sample(joint.name, q=q, target=sweep.plan.zero_target)
            sweep.zero_errors.append(abs(q - sweep.plan.zero_target))
            sweep.zero_settled = counter.update(q - sweep.plan.zero_target)
            if watch.step(ctx) or not math.isfinite(q):
                sweep.exploded_at = "settle at zero"
                return

    def _row(self, ctx, joint, sweep: JointSweep, watch: BoxWatch) -> JointRow:
        cfg, plan = ctx.config, sweep.plan
        window = sweep.zero_errors[-sweep.thresholds.zero_settled_frames:] or [
            abs(float(ctx.joint_positions()[ctx.dof_index(joint.path)]) - plan.zero_target)]
        zero_err = max(window)  # the deciding quantity: the error over the last window at zero
        findings = list(sweep.findings)
        if sweep.exploded_at:
            findings.append((DrivenCode.EXPLODED.value, f"{exploded_story(watch)} (during {sweep.exploded_at})"))
        elif not sweep.zero_settled:
            findings.append((Code.NOT_RETURNED.value, f"did not return to {home_text(joint, plan.zero_target)}: error "
                             f"up to {jv(joint, zero_err)} over its last {len(window)} frames > zero-return tolerance "
                             f"{jv(joint, sweep.zero_tol)} (never within it for {cfg.zero_settled_seconds:g} s without a break "
                             f"in {cfg.pause_at_limits_seconds + cfg.zero_max_settle_seconds:g} s)"))
        if sweep.dead and not sweep.exploded_at:
            findings.insert(0, (DrivenCode.DEAD_DRIVE.value, sweep.dead))
        codes = [code for code, _ in findings]
        if sweep.exploded_at:  # the deciding finding first
            codes = [DrivenCode.EXPLODED.value] + codes[:-1]
        return JointRow(
            joint=joint.name, path=joint.path, status=Status.FAIL if findings else Status.PASS,
            codes=codes or [DrivenCode.OK], reason="; ".join(text for _, text in findings),
            measured={"hold_error_max": sweep.hold_err.get("to_max"), "hold_error_min": sweep.hold_err.get("to_min"),
                      "zero_error": zero_err, "bbox_ratio": watch.window_ratio, "bbox_excursion": watch.window_excursion,
                      "follow_max": sweep.follow.get("to_max"), "follow_min": sweep.follow.get("to_min"),
                      "dead_drive": bool(sweep.dead)},
            limits={"lower": joint.lower, "upper": joint.upper, "max_target": plan.max_target,
                    "min_target": plan.min_target, "zero_target": plan.zero_target,
                    "rest_tolerance": sweep.rest_tol, "zero_return_tolerance": sweep.zero_tol, "unit": unit(joint)},
            units=row_units(joint, positions=("hold_error_max", "hold_error_min", "zero_error", "lower", "upper",
                                              "max_target", "min_target", "zero_target", "rest_tolerance",
                                              "zero_return_tolerance"),
                            bbox_ratio="", bbox_excursion="m", follow_max="", follow_min=""),
        )

    def _verdict(self, ctx, watch: BoxWatch) -> None:
        rows = ctx.result.joints
        failed = [r for r in rows if r.status is Status.FAIL]
        ctx.metric("joints_passed", len(rows) - len(failed))
        ctx.metric("joints_failed", len(failed))
        ctx.metric("joints_dead_drive", sum(1 for r in rows if r.measured.get("dead_drive")))
        ctx.metric("bbox_max_ratio", watch.worst_ratio)
        ctx.metric("bbox_max_excursion", watch.worst_excursion, unit="m")
        ctx.metric("reach_allowance", watch.reach, unit="m")
        if failed:
            detail = listed([f"{r.joint}: {r.reason}" for r in failed], 4, "; ")
            ctx.finish(Status.FAIL, f"{len(failed)} of {len(rows)} joints failed the sweep: {detail}",
                       [h for r in failed for h in r.fix_hints], code=DrivenCode.JOINTS_FAILED)
        else:
            ctx.finish(Status.PASS, f"{len(rows)} joints reached and held both limits and returned to zero",
                       code=DrivenCode.OK)


def home_text(joint, zero_target: float) -> str:
    """'zero' when 0 is in the range; else the home position used and why."""
    if joint.lower <= 0.0 <= joint.upper:
        return "zero"
    return (f"its home position {jv(joint, zero_target)} (its range [{jv(joint, joint.lower)}, {jv(joint, joint.upper)}] "
            "excludes 0; home is the swept endpoint nearest 0)")
