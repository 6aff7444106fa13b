"""state_accuracy (FET_022): each driven joint holds the positions it is commanded to, out and back.

Per joint, five waypoints: home, home + step, home, home - step, home, where home is the joint's drive target kept
inside its limits and step = min(max_step, step_range_fraction x range). Each command is ramped (smoothstep) over
motion_seconds and measured waypoint_seconds after it was given (earlier once the joint is in the band and too slow
to leave it). A waypoint passes within min(position_tolerance, step_tolerance_fraction x step): never wider than a
quarter of the step, so a joint that does not move cannot pass. Scene: pinned base, gravity `gravity` (0: NVIDIA's
choice, command tracking rather than gravity compensation). Spec: docs/tests/state_accuracy.md.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Iterator

from ....core.context import TestContext
from ....core.quantities import listed
from ....core.results import JointRow
from ....core.scene import SceneSpec
from ....core.status import Status
from ..base import (
    EXPLODED_WORDS, scenery_note, explosion_watch,
    BBOX_CHECK_EVERY, DEAD_DRIVE_FRACTION, DrivenJointTest, SeriesRecorder, dead_drive_story, jv, position_rate,
    progress, row_units, settle, unit,
)
from ..bbox_watch import BoxWatch
from ..codes import DrivenCode
from ..tracking import ramp, settled_for_good
from .codes import StateAccuracyCode as Code
from .config import StateAccuracyConfig, WaypointThresholds
from .fix_rules import FIX_RULES
from .hints import HINTS
from .view import VIEW

if TYPE_CHECKING:
    from ....core.asset_model import JointInfo

Ctx = TestContext[StateAccuracyConfig]  # the context of this test: ctx.config is a StateAccuracyConfig


@dataclass
class JointPlan:
    """What one joint is asked to do (its thresholds: waypoints and tolerance, SI) and what it did at each waypoint."""

    thresholds: WaypointThresholds
    reached: list[float] = field(default_factory=list)  # position at each measurement
    follow: list[float] = field(default_factory=list)  # fraction of each commanded move covered (best)
    exploded: bool = False

    @property
    def step(self) -> float:
        return self.thresholds.step

    @property
    def tolerance(self) -> float:
        return self.thresholds.tolerance

    @property
    def waypoints(self) -> tuple[float, ...]:
        return self.thresholds.waypoints

    def errors(self) -> list[float]:
        return [abs(q - w) if math.isfinite(q) else math.inf for q, w in zip(self.reached, self.waypoints)]


class StateAccuracyTest(DrivenJointTest[StateAccuracyConfig]):
    name = "state_accuracy"
    version = "1.2.0"
    features = ("FET_022_PHYSX", "FET_022_NEWTON", "FET_022_ISAAC")
    summary = "Each driven joint reaches and holds home, +step, home, -step, home within a step-scaled tolerance."
    Config = StateAccuracyConfig
    codes = (DrivenCode, Code)
    hints = HINTS
    view = VIEW
    fix_rules = FIX_RULES
    require_limits = True

    def scene(self, asset, config: StateAccuracyConfig) -> SceneSpec:
        return SceneSpec(physics_fps=config.physics_fps, gravity=config.gravity, ground=None, pin_base=True)

    def run(self, ctx: Ctx) -> Iterator[None]:
        cfg = ctx.config
        selection = self.select(ctx)
        if scenery_note(ctx.asset):
            ctx.warn(scenery_note(ctx.asset))
        if not selection.tested:
            self.skip_nothing_to_test(ctx, selection, "no driven joint with limits to command")
            return
        yield from settle(ctx, cfg.settle_seconds)
        watch = explosion_watch(ctx)  # the reach bound: a flat box opening its flaps is no explosion
        series = SeriesRecorder(ctx)
        for joint in selection.tested:
            plan = JointPlan(cfg.thresholds_for(joint))
            yield from self._visit(ctx, joint, plan, watch, series)
            ctx.joint_row(self._row(joint, plan))
            if plan.exploded:
                break
        self._verdict(ctx)

    # -- phases --------------------------------------------------------------------------------------------------
    def _visit(self, ctx: Ctx, joint: "JointInfo", plan: JointPlan, watch: BoxWatch,
               series: SeriesRecorder) -> Iterator[None]:
        """Command each waypoint in turn and measure where the joint is when its window ends."""
        cfg = ctx.config
        idx = ctx.dof_index(joint.path)
        ramp_frames = max(1, int(round(cfg.motion_seconds / ctx.dt)))
        window = max(ramp_frames, int(round(cfg.waypoint_seconds / ctx.dt)))
        for number, waypoint in enumerate(plan.waypoints, start=1):
            ctx.label = f"joint {joint.name}: waypoint {number}/{len(plan.waypoints)}"
            start = q_prev = float(ctx.joint_positions()[idx])
            best, calm, q = 0.0, 0, start
            for frame in range(window):
                target = ramp(start, waypoint, frame, ramp_frames) if frame < ramp_frames else waypoint
                ctx.set_joint_target(joint.path, target)
                yield
                q = float(ctx.joint_positions()[idx])
                series.sample(joint.name, q=q, target=target)
                v, q_prev = position_rate(q_prev, q, ctx.dt, joint.is_angular), q
                if abs(waypoint - start) > 1e-12:
                    best = max(best, progress(start, q, waypoint))
                if not math.isfinite(q) or (frame % BBOX_CHECK_EVERY == 0 and watch.exploded(ctx.bounds())):
                    plan.exploded = True
                    break
                time_left = (window - frame - 1) * ctx.dt
                calm = calm + 1 if frame >= ramp_frames and settled_for_good(q - waypoint, v, time_left, plan.tolerance) else 0
                if calm >= cfg.settled_frames:
                    break
            plan.reached.append(q)
            plan.follow.append(best if abs(waypoint - start) > plan.tolerance else 1.0)
            if plan.exploded:
                return

    def _row(self, joint: "JointInfo", plan: JointPlan) -> JointRow:
        errors = plan.errors()
        worst = max(errors, default=math.nan)
        findings: list[tuple[str, str]] = []
        if plan.exploded:
            findings.append((DrivenCode.EXPLODED.value, EXPLODED_WORDS))
        elif min(plan.follow, default=1.0) < DEAD_DRIVE_FRACTION:
            findings.append((DrivenCode.DEAD_DRIVE.value,
                             dead_drive_story(joint, max(min(plan.follow), 0.0) * plan.step, plan.step, "to a waypoint")))
        off = [i for i, e in enumerate(errors) if not e <= plan.tolerance]
        if off and not plan.exploded:
            i = max(off, key=lambda k: errors[k])
            findings.append((Code.OFF_TARGET.value,
                             f"off target at waypoint {i + 1} of {len(plan.waypoints)}: {jv(joint, errors[i])} from "
                             f"{jv(joint, plan.waypoints[i])} > tolerance {jv(joint, plan.tolerance)}"))
        measured = {"max_error": worst, "error_ratio": worst / plan.tolerance if plan.tolerance > 0 else math.inf,
                    "home": plan.thresholds.home, "step": plan.step, "min_follow": min(plan.follow, default=0.0)}
        measured.update({f"error_{i + 1}": e for i, e in enumerate(errors)})
        return JointRow(
            joint=joint.name, path=joint.path, status=Status.FAIL if findings else Status.PASS,
            codes=[c for c, _ in findings] or [DrivenCode.OK], reason="; ".join(t for _, t in findings),
            measured=measured,
            limits={"tolerance": plan.tolerance, "lower": joint.lower, "upper": joint.upper, "unit": unit(joint)},
            units=row_units(joint, positions=("max_error", "home", "step", "tolerance", "lower", "upper",
                                              *(f"error_{i + 1}" for i in range(len(errors)))),
                            error_ratio="", min_follow=""),
        )

    def _verdict(self, ctx: Ctx) -> None:
        rows = ctx.result.joints
        failed = [r for r in rows if r.status is not Status.PASS]
        ratios = [r.number("error_ratio") for r in rows]
        ctx.metric("joints_passed", len(rows) - len(failed))
        ctx.metric("joints_failed", len(failed))
        ctx.metric("joints_dead_drive", sum(1 for r in rows if DrivenCode.DEAD_DRIVE.value in r.codes))
        ctx.metric("max_error_ratio", max(ratios, default=0.0))
        revolute = [r.number("max_error") for r in rows if r.limits.get("unit") == "rad"]
        prismatic = [r.number("max_error") for r in rows if r.limits.get("unit") == "m"]
        if revolute:
            ctx.metric("max_error_revolute", max(revolute), unit="rad")
        if prismatic:
            ctx.metric("max_error_prismatic", max(prismatic), unit="m")
        if failed:
            detail = listed([f"{r.joint}: {r.reason}" for r in failed], 4, "; ")
            ctx.finish(Status.FAIL,
                       f"{len(failed)} of {len(rows)} joints did not hold their commanded positions: {detail}" + _also(ctx.asset),
                       [h for r in failed for h in r.fix_hints], code=DrivenCode.JOINTS_FAILED)
        else:
            worst = max(ratios, default=0.0)
            ctx.finish(Status.PASS, f"{len(rows)} joints reached all 5 waypoints; the worst error is {worst:.0%} of its "
                                    "tolerance", code=DrivenCode.OK)


def _also(asset) -> str:
    note = scenery_note(asset)
    return f"; {note}" if note else ""
