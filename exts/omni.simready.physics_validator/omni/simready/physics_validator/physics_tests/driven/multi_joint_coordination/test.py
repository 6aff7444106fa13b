"""multi_joint_coordination (FET_022): every driven joint, commanded at once, reaches its target and holds it.

Each iteration sends all selected joints together to target_factors[i] of their ranges (kept target_margin_ratio
inside the limits), ramping the commands over motion_seconds; a revolute range wider than max_judged_revolute_range_deg
counts as a window that wide centred on the joint's home (drive target), clipped into the limits: NVIDIA's 0.6 of a
UR5's +-360 deg folds the arm into itself. An iteration ends once every joint has stayed within
its tolerance for hold_seconds, or at max_settling_seconds; each joint is judged by its error at that moment, not by
having passed through the band once (NVIDIA's counts a joint converged the first frame it is within tolerance, so a
joint swinging through its target passes). Tolerance: min(position_tolerance, range_tolerance_fraction x range).
Scene: the driven family's (pinned base, gravity on). Spec: docs/tests/multi_joint_coordination.md.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Generator, Iterator

from ....core.context import TestContext
from ....core.plugin import Precheck
from ....core.quantities import listed
from ....core.results import JointRow
from ....core.status import Status
from ..base import (
    EXPLODED_WORDS, scenery_note, explosion_watch,
    BBOX_CHECK_EVERY, DEAD_DRIVE_FRACTION, DrivenJointTest, SeriesRecorder, dead_drive_story, jv, progress, row_units,
    settle, unit,
)
from ..bbox_watch import BoxWatch
from ..codes import DrivenCode
from ..tracking import ramp
from .codes import MultiJointCoordinationCode as Code
from .config import CoordinationThresholds, MultiJointCoordinationConfig
from .fix_rules import FIX_RULES
from .hints import HINTS
from .view import VIEW

if TYPE_CHECKING:
    from ....core.asset_model import AssetModel, JointInfo

Ctx = TestContext[MultiJointCoordinationConfig]  # the context of this test: ctx.config is a MultiJointCoordinationConfig


@dataclass
class JointTrack:
    """One joint across the iterations: its thresholds (targets, tolerance), each iteration's final error and how far
    it followed."""

    joint: "JointInfo"
    index: int
    thresholds: CoordinationThresholds
    cap: float | None = None  # the velocity cap the engine enforces (else the authored one), rad/s or m/s
    errors: list[float] = field(default_factory=list)
    follow: list[float] = field(default_factory=list)  # fraction of each commanded move covered (1 when there was none)
    moves: list[float] = field(default_factory=list)  # each iteration's commanded move (signed)
    settle_times: list[float] = field(default_factory=list)  # when it last entered the band, per iteration (s)

    @property
    def tolerance(self) -> float:
        return self.thresholds.tolerance


class MultiJointCoordinationTest(DrivenJointTest[MultiJointCoordinationConfig]):
    name = "multi_joint_coordination"
    version = "1.2.0"
    features = ("FET_022_PHYSX", "FET_022_NEWTON", "FET_022_ISAAC")
    summary = "All driven joints commanded together each reach and hold their targets within a range-scaled tolerance."
    Config = MultiJointCoordinationConfig
    codes = (DrivenCode, Code)
    hints = HINTS
    view = VIEW
    fix_rules = FIX_RULES
    require_limits = True

    def precheck(self, asset: "AssetModel", config: MultiJointCoordinationConfig) -> Precheck | None:
        """Coordination needs two joints that move on their own: with fewer the test does not concern the asset
        (NOT_APPLICABLE); with enough joints of which fewer than two are driven it applies and cannot run (SKIP)."""
        movable = [j.name for j in asset.joints.values() if j.is_dof and j.enabled and not j.is_mimic_follower]
        if len(movable) == 1:
            return Precheck(Status.NOT_APPLICABLE, f"one movable joint ({movable[0]}): nothing to coordinate",
                            code=Code.ONE_MOVABLE_JOINT)
        return super().precheck(asset, config)

    def run(self, ctx: Ctx) -> Iterator[None]:
        cfg = ctx.config
        selection = self.select(ctx)
        if scenery_note(ctx.asset):
            ctx.warn(scenery_note(ctx.asset))
        if not selection.tested:
            self.skip_nothing_to_test(ctx, selection, "no driven joint with limits to command")
            return
        if len(selection.tested) < 2:
            ctx.finish(Status.SKIP, f"only one driven joint with limits ({selection.tested[0].name}): nothing to "
                                    "coordinate", code=Code.TOO_FEW_JOINTS)
            return
        yield from settle(ctx, cfg.settle_seconds)
        watch = explosion_watch(ctx)  # the reach bound: a flat box opening its flaps is no explosion
        tracks = [JointTrack(j, ctx.dof_index(j.path), cfg.thresholds_for(j), self._cap(ctx, j)) for j in selection.tested]
        series = SeriesRecorder(ctx)
        exploded = False
        for iteration in range(cfg.num_iterations):
            exploded = yield from self._iteration(ctx, tracks, iteration, watch, series)
            if exploded:
                break
        for track in tracks:
            ctx.joint_row(self._row(track, exploded, cfg))
        self._verdict(ctx, tracks)

    def _iteration(self, ctx: Ctx, tracks: list[JointTrack], iteration: int, watch: BoxWatch,
                   series: SeriesRecorder) -> Generator[None, None, bool]:
        """Ramp every joint to its target, hold, and record each one's error when the iteration ends; True if the
        simulation exploded."""
        cfg = ctx.config
        ctx.label = f"iteration {iteration + 1}: all joints to {cfg.factor(iteration):.0%} of their range"
        starts = ctx.joint_positions()
        goals = [t.thresholds.targets[iteration] for t in tracks]
        begin = [float(starts[t.index]) for t in tracks]
        best = [0.0] * len(tracks)
        entered: list[float | None] = [None] * len(tracks)
        ramp_seconds, window_seconds = cfg.timing([(goals[k] - begin[k], t.cap) for k, t in enumerate(tracks)])
        if window_seconds > cfg.max_settling_seconds:  # stretched for a velocity cap: said, as the window it judged by
            ctx.metric("stretched_window", max(window_seconds, float(ctx.result.metrics.get("stretched_window") or 0.0)),
                       unit="s")
        ramp_frames = max(1, int(round(ramp_seconds / ctx.dt)))
        window = max(ramp_frames, int(round(window_seconds / ctx.dt)))
        hold = max(1, int(round(cfg.hold_seconds / ctx.dt)))
        t0, in_band_all = ctx.time, 0
        for frame in range(window):
            for k, track in enumerate(tracks):
                target = ramp(begin[k], goals[k], frame, ramp_frames) if frame < ramp_frames else goals[k]
                ctx.set_joint_target(track.joint.path, target)
            yield
            q = ctx.joint_positions()
            inside = 0
            for k, track in enumerate(tracks):
                value = float(q[track.index])
                series.sample(track.joint.name, q=value, target=goals[k] if frame >= ramp_frames else
                              ramp(begin[k], goals[k], frame, ramp_frames))
                if not math.isfinite(value):
                    continue
                best[k] = max(best[k], progress(begin[k], value, goals[k]))
                if abs(value - goals[k]) <= track.tolerance:
                    inside += 1
                    entered[k] = entered[k] if entered[k] is not None else ctx.time - t0
                else:
                    entered[k] = None
            if not all(math.isfinite(float(q[t.index])) for t in tracks) or (
                    frame % BBOX_CHECK_EVERY == 0 and watch.exploded(ctx.bounds())):
                return True
            in_band_all = in_band_all + 1 if frame >= ramp_frames and inside == len(tracks) else 0
            if in_band_all >= hold:
                break
        q = ctx.joint_positions()
        for k, track in enumerate(tracks):
            track.errors.append(abs(float(q[track.index]) - goals[k]))
            moved = abs(goals[k] - begin[k]) > track.tolerance
            track.follow.append(best[k] if moved else 1.0)
            track.moves.append(goals[k] - begin[k])
            settled = entered[k]
            track.settle_times.append(settled if settled is not None else math.nan)
        return False

    @staticmethod
    def _cap(ctx: Ctx, joint: "JointInfo") -> float | None:
        """The velocity cap that slows the joint: what the engine enforces, or the authored one when it cannot say."""
        enforced = ctx.enforced_velocity_limit(joint.path)
        return enforced if enforced is not None else joint.velocity_limit

    def _row(self, track: JointTrack, exploded: bool, cfg: MultiJointCoordinationConfig) -> JointRow:
        joint = track.joint
        worst = max(track.errors, default=math.inf)
        findings: list[tuple[str, str]] = []
        if exploded:
            findings.append((DrivenCode.EXPLODED.value, EXPLODED_WORDS))
        elif track.follow and min(track.follow) < DEAD_DRIVE_FRACTION:
            i = track.follow.index(min(track.follow))
            move = track.moves[i]
            findings.append((DrivenCode.DEAD_DRIVE.value,
                             dead_drive_story(joint, max(track.follow[i], 0.0) * abs(move), move, "to its target")))
        late = [i for i, e in enumerate(track.errors) if not e <= track.tolerance]
        if late and not exploded:
            i = max(late, key=lambda k: track.errors[k])
            findings.append((Code.NOT_CONVERGED.value,
                             f"not converged in iteration {i + 1}: {jv(joint, track.errors[i])} from its target after "
                             f"{cfg.max_settling_seconds:g} s > tolerance {jv(joint, track.tolerance)}"))
        measured = {"max_error": worst, "error_ratio": worst / track.tolerance if track.tolerance > 0 else math.inf,
                    "min_follow": min(track.follow, default=0.0),
                    "slowest_convergence_s": max(track.settle_times, default=math.nan)}
        measured.update({f"error_{i + 1}": e for i, e in enumerate(track.errors)})
        return JointRow(
            joint=joint.name, path=joint.path, status=Status.FAIL if findings else Status.PASS,
            codes=[c for c, _ in findings] or [DrivenCode.OK], reason="; ".join(t for _, t in findings),
            measured=measured,
            limits={"tolerance": track.tolerance, "lower": joint.lower, "upper": joint.upper, "unit": unit(joint),
                    "target_lower": track.thresholds.span[0], "target_upper": track.thresholds.span[1]},
            units=row_units(joint, positions=("max_error", "tolerance", "lower", "upper", "target_lower", "target_upper",
                                              *(f"error_{i + 1}" for i in range(len(track.errors)))),
                            error_ratio="", min_follow="", slowest_convergence_s="s"),
        )

    def _verdict(self, ctx: Ctx, tracks: list[JointTrack]) -> None:
        rows = ctx.result.joints
        failed = [r for r in rows if r.status is not Status.PASS]
        ratios = [r.number("error_ratio") for r in rows]
        ctx.metric("joints_passed", len(rows) - len(failed))
        ctx.metric("joints_failed", len(failed))
        ctx.metric("joints_dead_drive", sum(1 for r in rows if DrivenCode.DEAD_DRIVE.value in r.codes))
        ctx.metric("iterations", max((len(t.errors) for t in tracks), default=0))
        ctx.metric("max_error_ratio", max(ratios, default=0.0))
        for kind, unit_name in (("revolute", "rad"), ("prismatic", "m")):
            values = [r.number("max_error") for r in rows if r.limits.get("unit") == unit_name]
            if values:
                ctx.metric(f"max_error_{kind}", max(values), unit=unit_name)
        times = [t for track in tracks for t in track.settle_times if math.isfinite(t)]
        ctx.metric("slowest_convergence_s", max(times) if times else None, unit="s")
        if failed:
            detail = listed([f"{r.joint}: {r.reason}" for r in failed], 4, "; ")
            ctx.finish(Status.FAIL, f"{len(failed)} of {len(rows)} joints did not reach and hold their targets when "
                                    f"commanded together: {detail}" + _also(ctx.asset),
                       [h for r in failed for h in r.fix_hints], code=DrivenCode.JOINTS_FAILED)
        else:
            ctx.finish(Status.PASS, f"{len(rows)} joints commanded together reached and held their targets in every "
                                    f"iteration; the worst final error is {max(ratios, default=0.0):.0%} of its tolerance",
                       code=DrivenCode.OK)


def _also(asset) -> str:
    note = scenery_note(asset)
    return f"; {note}" if note else ""
