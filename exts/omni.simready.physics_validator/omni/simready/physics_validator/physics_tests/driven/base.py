"""What the seven driven-joint tests share: prechecks, the carrier-fixture scene, selection, settling, series.

All run on a pinned base with no ground (anchor §2.0: arms get no floor; the base is held by an engine-side carrier
fixture, never written to the asset), gravity on (state_accuracy: its `gravity` setting, 0 by default).
velocity_limit, full_range_sweep, drive_gain_validation, effort_limit and state_accuracy move one joint at a time,
mimic_joint one mimic pair at a time, multi_joint_coordination every joint at once.
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING, Iterator, TypeVar


import numpy as np
from pydantic import Field

from ...core.config import TestConfig
from ...core.plausibility.codes import JOINT_FINDINGS
from .selection import (
    JointSelection, articulation_precheck, built_articulation_precheck, report_selection, select_driven_joints,
)
from ...core.plugin import PhysicsTest
from ...core.quantities import for_people, joint_unit, joint_value
from ...core.scene import SceneSpec
from ...core.status import Status
from ...core.units import StageFrame
from .bbox_watch import BoxWatch
from .codes import DrivenCode
from .kinematics import reach_allowance

if TYPE_CHECKING:
    from ...core.asset_model import AssetModel, JointInfo
    from ...core.context import TestContext

# velocity_limit, drive_gain_validation and effort_limit check the bounding box every N steps (anchor
# rule; NaN joint states are caught every step); full_range_sweep watches it every step (spec) at the engine's pace
# (bbox_watch.BoxWatch.step).
BBOX_CHECK_EVERY = 20

# Record one time-series sample every N physics steps (60 Hz at 240 Hz): plots stay compact.
SERIES_EVERY = 4

class DrivenJointConfig(TestConfig):
    """Settings every driven-joint test has."""

    joints: list[str] = Field(
        default_factory=list,
        description="Only these joints (prim names or paths); empty = every driven joint. QA uses it to re-run one joint.",
    )
    bbox_explode_ratio: float = Field(
        10.0, gt=1, description="Fail (break, for effort_limit) when the asset's AABB volume exceeds this x its baseline.",
        json_schema_extra={"unit": "x"},
    )


DrivenConfigT = TypeVar("DrivenConfigT", bound=DrivenJointConfig)


class DrivenJointTest(PhysicsTest[DrivenConfigT]):
    """Base of the seven driven-joint tests (not registered itself)."""

    require_limits = False
    require_velocity_limit = False
    require_position_control = True  # velocity drives are left out (velocity_limit drives them by velocity)
    # runtime-readback properties whose runtime value can decide a driven verdict (core/readback_links.py): the drive,
    # and the joint friction that can hold it off (an armature's effect depends on the link inertia: not linked)
    readback = {**{f"joint:{p}": None for p in ("stiffness", "damping", "max_force", "static_friction", "dynamic_friction",
                                               "viscous_friction")},
                "body:articulation_root": None}  # the link the runtime roots the articulation at: the one the tests hold
    plausibility = JOINT_FINDINGS  # a finding on what a joint moves, or on its range, names the cause of its row's FAIL

    def precheck(self, asset: "AssetModel", config: DrivenConfigT):
        return articulation_precheck(asset)

    def precheck_built(self, authored: "AssetModel", ctx: "TestContext[DrivenConfigT]"):
        return built_articulation_precheck(authored, ctx.asset, ctx.engine.name)

    def scene(self, asset: "AssetModel", config: DrivenConfigT) -> SceneSpec:
        return driven_scene(config.physics_fps)

    # -- helpers used inside run() -----------------------------------------------------------------
    def select(self, ctx: "TestContext[DrivenConfigT]") -> JointSelection:
        """Select, report the exclusions (rows + counts) and return the selection."""
        selection = select_driven_joints(
            ctx.asset,
            require_limits=self.require_limits,
            require_velocity_limit=self.require_velocity_limit,
            require_position_control=self.require_position_control,
            simulated=ctx.dof_joints,
            simulated_actuator_schemas=ctx.engine_capabilities.simulated_actuator_schemas,
            only=getattr(ctx.config, "joints", None),
        )
        unknown = set(getattr(ctx.config, "joints",
                              None) or ()) - {j.name for j in ctx.asset.joints.values()} - set(ctx.asset.joints)
        if unknown:
            ctx.warn(f"joint filter names no joint of this asset: {', '.join(sorted(unknown))}")
        report_selection(ctx, selection)
        return selection

    def skip_nothing_to_test(self, ctx: "TestContext", selection: JointSelection, what: str,
                             code=DrivenCode.NOTHING_TO_TEST) -> None:
        ctx.finish(Status.SKIP, f"{what}: {selection.summary()}", code=code)


def explosion_watch(ctx: "TestContext[DrivenConfigT]") -> BoxWatch:
    """The explosion watch from the current pose: the bounds now, the asset's reach, the spec's volume ratio."""
    return BoxWatch(ctx.bounds(), ctx.config.bbox_explode_ratio, reach_allowance(ctx.asset))


# a row's words for an explosion where the watch's own story is not at hand
EXPLODED_WORDS = "simulation exploded (a NaN state, or its bounding box past the explosion watch's bound)"


def exploded_story(watch: BoxWatch) -> str:
    """The reason's words for an explosion: what the watch saw, or a NaN joint state when it saw nothing."""
    return f"simulation exploded: {watch.tripped or 'the joint state went NaN'}"


def scenery_note(asset: "AssetModel") -> str:
    """Static colliders the asset carries (an MJCF scene's floor plane): with the base pinned where it is authored, a
    robot's foot resting on its own floor cannot move down (the gym hopper's leg: FAIL with its floor, PASS without)."""
    from ...core.quantities import listed

    static = [c for c in asset.static_colliders if c.collides]
    if not static:
        return ""
    return (f"the asset carries scenery its moving bodies may meet (it moves with the asset): static "
            f"collider{'s' if len(static) > 1 else ''} {listed([f'{c.path} ({c.shape})' for c in static], 3)} (an asset "
            f"should not carry its ground)")


def driven_scene(physics_fps: float) -> SceneSpec:
    """The scene every driven-joint test runs in (and `fix` measures in): gravity on, no ground, the base pinned."""
    return SceneSpec(physics_fps=physics_fps, gravity=9.81, ground=None, pin_base=True)


# At rest: every joint slower than its rest speed (REST_SPEED rad/s or m/s, at most REST_RANGE_FRACTION of its range
# a second; its reported velocity and its position's change) for REST_FRAMES steps in a row (0.1 s at 240 Hz).
# Waiting out the rest of a settle window would move no joint by more than 1 % of its range (1 mrad or 1 mm at most),
# against tolerances of 10 % of the range.
REST_SPEED = 1e-3
REST_RANGE_FRACTION = 0.01
REST_FRAMES = 24


class RestWatch:
    """Counts the steps in a row at which every joint was at rest (NaN positions of joints an engine does not
    simulate are ignored; a state that is all NaN never is at rest)."""

    def __init__(self, ctx: "TestContext"):
        self.ctx, self.calm = ctx, 0
        self.previous = np.asarray(ctx.joint_positions(), float)
        joints = [ctx.asset.joints.get(path) for path in ctx.dof_joints]
        spans = [j.upper - j.lower if j is not None and j.has_limits and j.upper is not None and j.lower is not None
                 else math.inf for j in joints]
        self.speed = np.array([min(REST_SPEED, REST_RANGE_FRACTION * span) for span in spans], float)

    def update(self) -> bool:
        """After a step: True once the joints have been at rest REST_FRAMES steps in a row."""
        q = np.asarray(self.ctx.joint_positions(), float)
        rate = np.abs(q - self.previous) / self.ctx.dt
        self.previous = q
        speed = np.fmax(rate, np.abs(np.asarray(self.ctx.joint_velocities(), float)))
        known = ~np.isnan(speed)
        calm = bool(known.any()) and bool(np.all(speed[known] < self.speed[known]))
        self.calm = self.calm + 1 if calm else 0
        return self.calm >= REST_FRAMES


def settle(ctx: "TestContext", seconds: float, until_rest: bool = False) -> Iterator[None]:
    """Step with the drive targets so the robot starts from rest: `seconds`, or with `until_rest` until it is at rest
    (`RestWatch`), at most `seconds` (the spec's settle time is the cap: a robot already at rest starts sooner)."""
    ctx.label = "settle"
    rest = RestWatch(ctx) if until_rest else None
    for _ in range(int(round(seconds / ctx.dt))):
        yield
        if rest is not None and rest.update():
            return


def unit(joint: "JointInfo") -> str:
    return "rad" if joint.is_angular else "m"


def fmt(value: float, digits: int = 4) -> str:
    return "nan" if value is None or not math.isfinite(value) else f"{value:.{digits}g}"


def jv(joint: "JointInfo", value, rate: bool = False) -> str:
    """A joint position (or, rate=True, velocity) for people: degrees for revolute joints, m/mm for prismatic."""
    return joint_value(value, joint.is_angular, rate)


def row_units(joint: "JointInfo", positions=(), rates=(), **others: str) -> dict[str, str]:
    """JointRow.units: the SI unit of each measured/limits key (positions and rates of this joint, plus others)."""
    units = {key: joint_unit(joint.is_angular) for key in positions}
    units.update({key: joint_unit(joint.is_angular, rate=True) for key in rates})
    units.update(others)
    return units


# -- dead drives: one rule and one story for all seven tests --------------------------------------------------
# A drive is dead where it was asked to move its joint and moved it less than this fraction of the way:
# toward a sweep endpoint, a step target, a far velocity target, or back to the held pose once a load is released.
DEAD_DRIVE_FRACTION = 0.10

def progress(start: float, position: float, target: float) -> float:
    """Fraction of the way from `start` to `target` covered at `position` (1 = there; negative = the wrong way)."""
    span = target - start
    if not math.isfinite(position) or abs(span) < 1e-12:
        return 0.0 if abs(span) >= 1e-12 else 1.0
    return (position - start) / span


def drive_note(joint: "JointInfo") -> str:
    """The authored drive as people read it: 'driveMaxForce 0 N·m, driveStiffness 34.9 N·m/°, driveDamping ...'."""
    drive = joint.drive
    if drive is None:
        return "no UsdPhysics.DriveAPI"
    force_unit = "N·m" if joint.is_angular else "N"
    per = "°" if joint.is_angular else "m"
    scale = 1.0 / StageFrame().joint_gain_scale(joint.is_angular)  # SI -> as USD authors it (per degree), stage in SI
    max_force = "unlimited" if not math.isfinite(drive.max_force) else for_people(drive.max_force, force_unit)
    return (f"driveMaxForce {max_force}, driveStiffness {fmt(drive.stiffness * scale, 3)} {force_unit}/{per}, "
            f"driveDamping {fmt(drive.damping * scale, 3)} {force_unit}·s/{per}")


def dead_drive_story(joint: "JointInfo", moved: float, commanded: float, toward: str) -> str:
    """The sentence every driven-joint test uses for a dead drive, so one asset reads the same in all of them: what it
    moved, and the most the drive pulls with over the commanded move (stiffness x move, at most maxForce), the number
    whatever holds the joint is measured against."""
    return (f"dead drive: {joint.name} moved {jv(joint, moved)} of the {jv(joint, abs(commanded))} commanded {toward} "
            f"(< {DEAD_DRIVE_FRACTION:.0%}; {drive_pull(joint, abs(commanded))}; {drive_note(joint)})")


def drive_pull(joint: "JointInfo", move: float) -> str:
    """'the drive pulls with at most 1.14 N·m over it': stiffness x `move`, capped by maxForce, in people's units."""
    drive = joint.drive
    if drive is None:
        return "no drive pulls it"
    unit = "N·m" if joint.is_angular else "N"
    pull = min(drive.stiffness * move, drive.max_force)
    capped = " (its maxForce)" if math.isfinite(drive.max_force) and drive.stiffness * move >= drive.max_force else ""
    return f"the drive pulls with at most {for_people(pull, unit)} over it{capped}"


class SeriesRecorder:
    """Decimated time series per joint (`<joint>/time`, `<joint>/q`, ...) for the HTML plots."""

    def __init__(self, ctx: "TestContext", every: int = SERIES_EVERY):
        self.ctx, self.every, self.frame = ctx, every, 0

    def sample(self, prefix: str, **values: float) -> None:
        if self.frame % self.every == 0:
            self.ctx.record(f"{prefix}/time", self.ctx.time)
            for name, value in values.items():
                self.ctx.record(f"{prefix}/{name}", value)
        self.frame += 1


def position_rate(previous: float, current: float, dt: float, angular: bool) -> float:
    """Joint velocity as the position change over the last step (wrapped for revolute joints).

    PhysX (TGS, position iterations) can report a velocity that differs from how fast the joint actually
    moved during the step (light, stiff joints; gravity-loaded joints at a velocity cap). drive_gain_validation
    counts reversals on positions; velocity_limit judges the larger of this rate and the reported velocity.
    """
    delta = current - previous
    if angular and math.isfinite(delta):
        delta = (delta + math.pi) % (2 * math.pi) - math.pi
    return delta / dt
