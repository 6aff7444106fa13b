"""state_accuracy's settings (docs/tests/state_accuracy.md), each with its unit, and what they make of one joint in SI
(`thresholds_for`): the test's run, its rows, its plot and `fix` all judge a joint by that one object."""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import TYPE_CHECKING

from pydantic import Field

from ....core.setting_units import unit
from ..base import DrivenJointConfig
from ..tracking import capped_tolerance, home_position, step_size, step_waypoints

if TYPE_CHECKING:
    from ....core.asset_model import JointInfo


@dataclass(frozen=True)
class WaypointThresholds:
    """One joint's plan and tolerance, SI (rad for a revolute joint, m for a prismatic one)."""

    home: float  # where the steps start and return to
    step: float  # min(max_step, step_range_fraction x range)
    margin: float  # how far inside the limits the waypoints stay
    tolerance: float  # min(position_tolerance, step_tolerance_fraction x step)
    waypoints: tuple[float, ...]  # home, +step, home, -step, home (cut at the margins)


class StateAccuracyConfig(DrivenJointConfig):
    settle_seconds: float = Field(0.5, ge=0, description="Physics time at the authored targets before the first joint (s).",
                                  json_schema_extra=unit("s"))
    gravity: float = Field(0.0, ge=0, description="Scene gravity (m/s²); NVIDIA's test runs without it to judge command "
                                                  "tracking, not gravity compensation.", json_schema_extra=unit("m/s²"))
    max_step_deg: float = Field(15.0, gt=0, description="Largest step of a revolute joint (deg).", json_schema_extra=unit("deg"))
    max_step_m: float = Field(0.05, gt=0, description="Largest step of a prismatic joint (m); the spec names degrees only.",
                              json_schema_extra=unit("m"))
    step_range_fraction: float = Field(0.10, gt=0, le=0.5, description="The step is at most this fraction of the joint's range.",
                                       json_schema_extra=unit("fraction"))
    limit_margin_deg: float = Field(2.86, ge=0, description="Revolute waypoints stay this far inside the limits (deg; "
                                                            "NVIDIA's 0.05 rad).", json_schema_extra=unit("deg"))
    limit_margin_fraction: float = Field(0.05, ge=0, lt=0.5, description="Prismatic waypoints stay this fraction of the range "
                                                                           "inside the limits.",
                                         json_schema_extra=unit("fraction"))
    motion_seconds: float = Field(0.5, gt=0,
                                  description="The command is ramped (smoothstep) to each waypoint over this time (s).",
                                  json_schema_extra=unit("s"))
    waypoint_seconds: float = Field(3.0, gt=0, description="Time from each command to the measurement, ramp included (s).",
                                    json_schema_extra=unit("s"))
    position_tolerance_deg: float = Field(5.0, gt=0, description="Largest error at a revolute waypoint (deg).",
                                          json_schema_extra=unit("deg"))
    position_tolerance_m: float = Field(0.005, gt=0, description="Largest error at a prismatic waypoint (m).",
                                        json_schema_extra=unit("m"))
    step_tolerance_fraction: float = Field(0.25, gt=0, lt=1, description="The tolerance is also at most this fraction of the "
                                                                        "step, so a joint that stays put always fails.",
                                           json_schema_extra=unit("fraction"))
    settled_frames: int = Field(24, ge=1, description="Frames in the band, too slow to leave it, that end a waypoint early.")

    def thresholds_for(self, joint: "JointInfo") -> WaypointThresholds:
        """The joint's waypoints and tolerance. The test commands only joints with limits; for one without (what `fix`
        may ask about) the same rules over an unbounded range: the step is max_step, no margin."""
        lower, upper = joint.limits or (-math.inf, math.inf)
        angular = joint.is_angular
        margin = self.si("limit_margin_deg") if angular else self.limit_margin_fraction * (upper - lower)
        margin = min(margin, (upper - lower) / 4) if joint.has_limits else 0.0
        step = step_size(lower, upper, self.joint_si("max_step_deg", "max_step_m", angular), self.step_range_fraction)
        tolerance = capped_tolerance(self.joint_si("position_tolerance_deg", "position_tolerance_m", angular),
                                     self.step_tolerance_fraction, step)
        target = joint.drive.target_position if joint.drive is not None else None
        home = home_position(target, lower, upper, margin)
        return WaypointThresholds(home, step, margin, tolerance, tuple(step_waypoints(home, step, lower, upper, margin)))
