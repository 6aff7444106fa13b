"""drive_gain_validation (FET_022): the authored drive gains give a stable, settling step response.

Each driven joint steps by step_magnitude_deg toward a side of its range with room for the step and
its allowed overshoot (scaled down, and reported, when neither side has); overshoot %, settling (entering
the 5 % band and staying in it through a tail after the window) and reversals larger than a fraction of
the step are measured. Poor tuning is a WARN unless step_fatal is set; a joint that moves less than 10 %
of the step is a dead drive. The joint is driven back to its start before the next one.
Spec: docs/tests/drive_gain_validation.md.
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
    BBOX_CHECK_EVERY, DEAD_DRIVE_FRACTION, DrivenJointTest, SeriesRecorder, dead_drive_story, exploded_story,
    explosion_watch, jv, position_rate, progress, row_units, settle, unit,
)
from ..bbox_watch import BoxWatch
from ..codes import DrivenCode
from ..step_response import count_reversals, overshoot_pct, settling_time, step_target
from .codes import DriveGainValidationCode as Code
from .config import DriveGainValidationConfig
from .fix_rules import FIX_RULES
from .hints import HINTS
from .view import VIEW


@dataclass
class StepRecord:
    """One joint's step: the command and what the joint did (positions sampled every step after it)."""

    start: float
    target: float
    scaled: bool
    band: float
    end: int  # frames in the judged window (shortened once the joint provably settled)
    times: list[float] = field(default_factory=list)
    positions: list[float] = field(default_factory=list)
    exploded: str = ""  # why the scene blew up during the step ('' when it did not)

    @property
    def step(self) -> float:
        return self.target - self.start


Ctx = TestContext[DriveGainValidationConfig]  # the context of this test: ctx.config is a DriveGainValidationConfig


class DriveGainValidationTest(DrivenJointTest[DriveGainValidationConfig]):
    name = "drive_gain_validation"
    version = "1.1.0"
    features = ("FET_022_PHYSX", "FET_022_NEWTON", "FET_022_ISAAC")
    summary = "A step on each driven joint settles without excessive overshoot or oscillation (WARN unless step_fatal)."
    Config = DriveGainValidationConfig
    codes = (DrivenCode, Code)
    hints = HINTS
    view = VIEW
    fix_rules = FIX_RULES

    def run(self, ctx: Ctx) -> Iterator[None]:
        cfg = ctx.config
        selection = self.select(ctx)
        if not selection.tested:
            self.skip_nothing_to_test(ctx, selection, "no driven joint to step")
            return
        yield from settle(ctx, cfg.settle_seconds, until_rest=True)
        watch = explosion_watch(ctx)
        series = SeriesRecorder(ctx)
        exploded = False
        for joint in selection.tested:
            idx = ctx.dof_index(joint.path)
            record = yield from self._step(ctx, joint, idx, watch, series)
            row = self._row(ctx, joint, record)
            ctx.joint_row(row)
            if row.status is not Status.PASS:
                ctx.warn(f"{joint.name}: {row.reason}")
            if record.exploded:
                exploded = True
                break
            yield from self._return(ctx, joint, idx, record.start, record.positions[-1] if record.positions else record.start,
                                    record.band)
        self._verdict(ctx, exploded)

    def _step(self, ctx: Ctx, joint, idx: int, watch: BoxWatch, series: SeriesRecorder):
        """Command the step and sample the joint through the window and the tail; returns a StepRecord."""
        cfg = ctx.config
        start = float(ctx.joint_positions()[idx])
        thresholds = cfg.thresholds_for(joint)
        magnitude = thresholds.magnitude
        # Room for the step and the overshoot the threshold allows (and a margin), so overshoot can show.
        target, scaled = step_target(start, joint.lower, joint.upper, magnitude, thresholds.room)
        window = int(round(min(cfg.test_duration_seconds, cfg.max_settling_seconds) / ctx.dt))
        record = StepRecord(start, target, scaled, thresholds.band(target - start), window)
        if scaled:
            ctx.warn(f"{joint.name}: step scaled to {jv(joint, abs(record.step))} (its range leaves no room for a "
                     f"{jv(joint, magnitude)} step and its {cfg.max_overshoot_pct:g} % overshoot on either side)")
        ctx.label = f"joint {joint.name}: step {'+' if record.step >= 0 else '-'}"
        ctx.set_joint_target(joint.path, target)
        tail = int(round(cfg.settling_tail_seconds / ctx.dt))
        name = joint.name  # looked up once: this loop runs every step
        t0, calm, frame = ctx.time, 0, 0
        while frame < record.end + tail:
            yield
            frame += 1
            q = float(ctx.joint_positions()[idx])
            record.times.append(ctx.time - t0)
            record.positions.append(q)
            series.sample(name, q=q, target=target)
            v = position_rate(record.positions[-2] if len(record.positions) > 1 else start, q, ctx.dt, joint.is_angular)
            if not (math.isfinite(q) and math.isfinite(v)) or (
                frame % BBOX_CHECK_EVERY == 0 and watch.exploded(ctx.bounds())
            ):
                record.exploded = exploded_story(watch)
                break
            # Early end of the window only when the joint is in the band and too slow to leave it before the
            # window and the tail are over (extrapolated); the tail is always observed.
            left = max(record.end - frame, 0) * ctx.dt + cfg.settling_tail_seconds
            calm = calm + 1 if abs(q - target) + abs(v) * left <= record.band else 0
            if frame < record.end and calm >= cfg.capture_settled_grace_frames:
                record.end = frame
        return record

    def _row(self, ctx: Ctx, joint, record: StepRecord) -> JointRow:
        """The joint's verdict from its step record."""
        cfg = ctx.config
        start, target, step, band, positions = record.start, record.target, record.step, record.band, record.positions
        in_window = [q for t, q in zip(record.times, positions) if t <= record.end * ctx.dt + 1e-9]
        overshoot = overshoot_pct(positions, start, target)
        t_settle = settling_time(record.times, positions, target, band)
        if t_settle is not None and t_settle > record.end * ctx.dt + 1e-9:
            t_settle = None  # entered the band only during the tail
        oscillations = count_reversals([start] + in_window, cfg.thresholds_for(joint).reversal(step))
        follow = max((progress(start, q, target) for q in positions), default=0.0)
        final_err = abs(positions[-1] - target) if positions else math.nan
        findings: list[tuple[str, str]] = []
        if record.exploded:
            findings.append((DrivenCode.EXPLODED.value, record.exploded))
        dead = not record.exploded and follow < DEAD_DRIVE_FRACTION
        if dead:
            findings.append((DrivenCode.DEAD_DRIVE.value, dead_drive_story(joint, max(follow, 0.0) * abs(step), step,
                                                                            "by the step")))
        if overshoot > cfg.max_overshoot_pct:
            findings.append((Code.OVERSHOOT.value, f"overshoot {overshoot:.1f} % > {cfg.max_overshoot_pct:g} %"))
        if t_settle is None or t_settle > cfg.max_settling_seconds:
            findings.append((Code.NOT_SETTLED.value,
                             f"not settled: not in the {jv(joint, band)} band from {cfg.max_settling_seconds:g} s on "
                             f"through a {cfg.settling_tail_seconds:g} s tail (final error {jv(joint, final_err)})"))
        if oscillations > cfg.max_oscillations:
            findings.append((Code.OSCILLATION.value, f"{oscillations} velocity sign changes > {cfg.max_oscillations}"))
        poor = Status.FAIL if cfg.step_fatal or record.exploded else Status.WARN
        return JointRow(
            joint=joint.name, path=joint.path, status=poor if findings else Status.PASS,
            codes=[code for code, _ in findings] or [DrivenCode.OK], reason="; ".join(text for _, text in findings),
            measured={"overshoot_pct": overshoot, "settling_time_s": t_settle, "oscillations": oscillations,
                      "start": start, "target": target, "step": step, "step_scaled": record.scaled,
                      "final_error": final_err if positions else None, "follow": follow, "dead_drive": dead},
            limits={"max_overshoot_pct": cfg.max_overshoot_pct, "max_settling_seconds": cfg.max_settling_seconds,
                    "max_oscillations": cfg.max_oscillations, "settling_band": band, "lower": joint.lower,
                    "upper": joint.upper, "unit": unit(joint)},
            units=row_units(joint, positions=("start", "target", "step", "final_error", "settling_band", "lower",
                                              "upper"),
                            overshoot_pct="%", max_overshoot_pct="%", settling_time_s="s", max_settling_seconds="s",
                            oscillations="", max_oscillations="", follow=""),
        )

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
            detail = listed([f"{r.joint}: {r.reason}" for r in poor], 4, "; ")
            status = Status.FAIL if (cfg.step_fatal or exploded) else Status.WARN
            ctx.finish(status, f"{len(poor)} of {tested} joints have a poor step response: {detail}{note}",
                       [h for r in poor for h in r.fix_hints], code=DrivenCode.JOINTS_FAILED)
        else:
            ctx.finish(Status.PASS, f"{tested} joints settled within {cfg.max_settling_seconds:g} s without excessive "
                                    f"overshoot or oscillation{note}", code=DrivenCode.OK)
