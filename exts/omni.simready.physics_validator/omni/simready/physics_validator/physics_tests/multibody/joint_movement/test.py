"""joint_movement (FET_004): every movable joint, pushed toward its open end, moves its bodies.

Scene: gravity off, no floor, the base pinned (engine-side; free loose parts are held where they are authored).
Every selected joint gets a drive of the test's own (probe.py: critically damped on its estimated inertia, holding it
at rest). One joint at a time, its command moves toward its open end at a speed that would cover the travel in
travel_seconds, for drive_seconds, the others held; the engine is reset before the next. What moved is measured on
the bodies, not the joint reading: the child's pose relative to its parent (rotation angle for revolute joints,
translation for prismatic), as NVIDIA's JointTracker does. Each joint must move min(min_travel_fraction x its
expected travel, clear_travel): NVIDIA passes the asset when any one joint moves 1 deg (or 2 % of its child's
bounding-box diagonal). Spec: docs/tests/joint_movement.md.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import TYPE_CHECKING, Generator, Iterator

import numpy as np

from ....core.plausibility.codes import JOINT_FINDINGS
from ....core.context import TestContext
from ....core.geometry import quat_conj, quat_mul, rotate
from ....core.plugin import PhysicsTest, Precheck
from ....core.quantities import joint_value, listed
from ....core.results import JointRow
from ....core.scene import SceneSpec
from ....core.status import Status
from ...driven.base import scenery_note
from ...driven.bbox_watch import BoxWatch
from ...driven.kinematics import moved_bodies, reach_allowance
from ...driven.selection import report_selection
from .codes import JointMovementCode as Code
from .config import JointMovementConfig
from .fix_rules import FIX_RULES
from .hints import HINTS
from .probe import Probe, movable_joints, plan_probe
from .view import VIEW

if TYPE_CHECKING:
    from ....core.asset_model import AssetModel, JointInfo

Ctx = TestContext[JointMovementConfig]  # the context of this test: ctx.config is a JointMovementConfig

MEASURE_EVERY = 4  # steps between two readings of the bodies' poses (60 Hz at 240 Hz)
SETTLE_SECONDS = 0.25  # a joint authored outside its limits is held at rest this long before its start pose is taken:
# the Allegro thumb authored at 0 deg, 15 deg below its lower limit, snapped to it and counted that as travel


@dataclass
class Tracker:
    """One joint's bodies: the child's pose in its parent's frame at the start, and the most it has moved since."""

    probe: Probe
    joint: "JointInfo"
    child: str | None
    parent: str | None
    start: tuple[np.ndarray, np.ndarray] | None = None
    travel: float = 0.0  # largest rotation (rad) or translation (m) of the child relative to its parent
    progress: float = 0.0  # largest joint-coordinate motion toward the open end (rad or m)


class JointMovementTest(PhysicsTest[JointMovementConfig]):
    name = "joint_movement"
    version = "2.2.0"
    features = ("FET_004_ROBOT_PHYSX", "FET_004_ROBOT_NEWTON", "FET_004_PHYSX", "FET_004_NEWTON", "FET_004_STANDARD")
    summary = "Every movable joint, pushed by a velocity drive toward its open end, moves its bodies most of the way."
    Config = JointMovementConfig
    codes = (Code,)
    hints = HINTS
    view = VIEW
    fix_rules = FIX_RULES
    scene_reads_runtime_model = True  # the probe drives are sized from the bodies' masses as the runtime computed them
    plausibility = JOINT_FINDINGS  # a massless link it moves names the cause of its joint's FAIL (docs/plausibility.md)

    def precheck(self, asset: "AssetModel", config: JointMovementConfig) -> Precheck | None:
        if not any(j.is_dof and j.enabled for j in asset.joints.values()):
            return Precheck(Status.NOT_APPLICABLE, "no revolute or prismatic joint: nothing of the asset can articulate",
                            code=Code.NO_MOVABLE_JOINT)
        return None

    def scene(self, asset: "AssetModel", config: JointMovementConfig) -> SceneSpec:
        probes = {j.path: plan_probe(asset, j, config).drive for j in movable_joints(asset).tested}
        return SceneSpec(physics_fps=config.physics_fps, gravity=0.0, ground=None, pin_base=True, drive_overrides=probes)

    def run(self, ctx: Ctx) -> Iterator[None]:
        cfg = ctx.config
        selection = movable_joints(ctx.asset, ctx.dof_joints)
        report_selection(ctx, selection)
        if scenery_note(ctx.asset):
            ctx.warn(scenery_note(ctx.asset))
        if not selection.tested:
            ctx.finish(Status.SKIP, f"no joint to move: {selection.summary()}", code=Code.NOTHING_TO_MOVE)
            return
        trackers = [self._tracker(ctx, j, plan_probe(ctx.asset, j, cfg)) for j in selection.tested]
        # the reach bound, as the driven tests judge: a pendulum turned from hanging to level grows its thin box's volume
        # past any ratio (the acrobot, the inverted double pendulum and pb_pendulum5 read as exploded)
        watch = BoxWatch(ctx.bounds(), cfg.bbox_explode_ratio, reach_allowance(ctx.asset))
        exploded = False
        for number, tracker in enumerate(trackers):
            if number:
                ctx.reset()  # every joint starts from the authored pose, the others at rest
            exploded = yield from self._probe(ctx, tracker, watch)
            ctx.joint_row(self._row(tracker, cfg, (watch.tripped or "a body pose went NaN") if exploded else ""))
            if exploded:
                break
        self._verdict(ctx, exploded)

    def _probe(self, ctx: Ctx, tracker: Tracker, watch: BoxWatch) -> Generator[None, None, bool]:
        """Move one joint's command toward its open end for drive_seconds; True if the simulation exploded."""
        cfg = ctx.config
        ctx.label = f"joint {tracker.joint.name}: settle"
        for _ in range(int(round(SETTLE_SECONDS / ctx.dt)) if tracker.probe.snaps else 0):  # outside its limits: snap first
            ctx.set_joint_target(tracker.joint.path, tracker.probe.rest)
            yield
        ctx.label = f"joint {tracker.joint.name}: toward its open end"
        self._measure(ctx, [tracker])
        for frame in range(1, int(round(cfg.drive_seconds / ctx.dt)) + 1):
            ctx.set_joint_target(tracker.joint.path, tracker.probe.command(frame * ctx.dt))
            yield
            if frame % MEASURE_EVERY == 0 and (not self._measure(ctx, [tracker]) or watch.exploded(ctx.bounds())):
                return True
        return False

    # -- phases --------------------------------------------------------------------------------------------------
    @staticmethod
    def _tracker(ctx: Ctx, joint: "JointInfo", probe: Probe) -> Tracker:
        moving = set(moved_bodies(ctx.asset, joint))
        child = joint.body1 if joint.body1 in moving or joint.body0 not in moving else joint.body0
        parent = joint.body0 if child == joint.body1 else joint.body1
        return Tracker(probe, joint, child, parent)

    @staticmethod
    def _measure(ctx: Ctx, trackers: list[Tracker]) -> bool:
        """Update every tracker from the bodies' poses and the joint readings; False on a NaN pose."""
        poses = ctx.body_poses()
        q = ctx.joint_positions()
        for tracker in trackers:
            relative = _relative_pose(poses, tracker.child, tracker.parent)
            if relative is None:
                continue
            pos, quat = relative
            if not (np.all(np.isfinite(pos)) and np.all(np.isfinite(quat))):
                return False
            if tracker.start is None:
                tracker.start = relative
                continue
            if tracker.joint.is_angular:
                delta = quat_mul(quat_conj(tracker.start[1]), quat)
                moved = 2.0 * math.acos(min(1.0, abs(float(delta[0]))))
            else:
                moved = float(np.linalg.norm(pos - tracker.start[0]))
            tracker.travel = max(tracker.travel, moved)
            value = float(q[ctx.dof_index(tracker.joint.path)])
            if math.isfinite(value):
                tracker.progress = max(tracker.progress, (value - tracker.probe.rest) * tracker.probe.direction)
        return True

    def _row(self, tracker: Tracker, cfg: JointMovementConfig, exploded: str) -> JointRow:
        """One joint's row; `exploded`: what the explosion watch saw ('' when it did not trip)."""
        joint, probe = tracker.joint, tracker.probe
        thresholds = cfg.thresholds_for(joint)
        clear, required = thresholds.clear_travel, thresholds.required(probe.expected_travel)
        ratio = tracker.travel / required if required > 0 else math.inf
        angular = joint.is_angular

        def say(value):
            return joint_value(value, angular)

        if exploded:
            code, reason = Code.EXPLODED, f"simulation exploded: {exploded}"
        elif ratio < thresholds.stuck_fraction:
            code = Code.STUCK
            toward = "its open end" if probe.open_end is not None and not joint.is_locked else "positive values"
            reason = (f"stuck: its bodies moved {say(tracker.travel)} of the {say(probe.expected_travel)} a command at "
                      f"{joint_value(probe.speed, angular, True)} toward {toward} should "
                      f"give{_why_stuck(joint) or _friction_note(probe, angular)}")
        elif ratio < 1.0:
            code = Code.SHORT_TRAVEL
            reason = (f"short travel: its bodies moved {say(tracker.travel)}, less than the {say(required)} required "
                      f"({cfg.min_travel_fraction:.0%} of the {say(probe.expected_travel)} expected, at most "
                      f"{say(clear)}){_friction_note(probe, angular)}")
        else:
            code, reason = Code.OK, ""
        unit = "rad" if angular else "m"
        return JointRow(
            joint=joint.name, path=joint.path, status=Status.PASS if code is Code.OK else Status.FAIL, codes=[code],
            reason=reason,
            measured={"travel": tracker.travel, "travel_ratio": ratio, "joint_progress": tracker.progress,
                      "speed": probe.speed, "direction": probe.direction, "inertia": probe.inertia,
                      "friction": probe.friction},
            limits={"required_travel": required, "expected_travel": probe.expected_travel, "lower": joint.lower,
                    "upper": joint.upper, "open_end": probe.open_end, "unit": unit},
            units={"travel": unit, "joint_progress": unit, "required_travel": unit, "expected_travel": unit,
                   "lower": unit, "upper": unit, "open_end": unit, "speed": f"{unit}/s", "travel_ratio": "",
                   "direction": "", "inertia": "kg m^2" if angular else "kg", "friction": "N m" if angular else "N"},
        )

    def _verdict(self, ctx: Ctx, exploded: bool) -> None:
        rows = ctx.result.joints
        failed = [r for r in rows if r.status is not Status.PASS]
        ratios = [r.number("travel_ratio") for r in rows]
        ctx.metric("joints_moved", len(rows) - len(failed))
        ctx.metric("joints_failed", len(failed))
        ctx.metric("min_travel_ratio", min(ratios, default=None))
        if failed:
            detail = listed([f"{r.joint}: {r.reason}" for r in failed], 4, "; ")
            ctx.finish(Status.FAIL, f"{len(failed)} of {len(rows)} joints did not move: {detail}" + _also(ctx.asset),
                       [h for r in failed for h in r.fix_hints], code=Code.EXPLODED if exploded else Code.JOINTS_FAILED)
        else:
            ctx.finish(Status.PASS, f"all {len(rows)} joints moved their bodies toward their open ends (the least "
                                    f"{min(ratios, default=0.0):.1f}x the travel required)", code=Code.OK)


def _why_stuck(joint: "JointInfo") -> str:
    """What the asset authors that holds a stuck joint, when it is plain from the asset: equal limits, a zero speed cap."""
    if joint.is_locked:
        return " (its limits are equal: it is locked)"
    if joint.velocity_limit == 0:
        source = f" {joint.velocity_limit_source}" if joint.velocity_limit_source else ""
        return f" (its velocity limit{source} is 0: it cannot move)"
    return ""


def _friction_note(probe: Probe, angular: bool) -> str:
    """The authored joint friction the probe pushed through, when there is any (it may be what holds the joint)."""
    if probe.friction <= 0:
        return ""
    unit = "N·m" if angular else "N"
    return (f" (the asset authors {probe.friction:.3g} {unit} of joint friction; the probe pushed up to "
            f"{probe.drive.max_force:.3g} {unit})")


def _relative_pose(poses, child: str | None, parent: str | None):
    """The child's pose in its parent's frame (the world frame when the parent is the world); None when unknown."""
    if child is None or child not in poses:
        return None
    pos, quat = (np.asarray(v, float) for v in poses[child])
    if parent is None or parent not in poses:
        return pos, quat
    p_pos, p_quat = (np.asarray(v, float) for v in poses[parent])
    inverse = quat_conj(p_quat)
    return rotate(inverse, pos - p_pos), quat_mul(inverse, quat)


def _also(asset) -> str:
    note = scenery_note(asset)
    return f"; {note}" if note else ""
