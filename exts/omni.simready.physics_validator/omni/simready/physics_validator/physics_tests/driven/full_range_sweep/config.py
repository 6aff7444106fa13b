"""full_range_sweep's settings (docs/tests/full_range_sweep.md), each with its unit, and what they make of one joint in
SI (`thresholds_for`: its sweep plan and tolerances): the test's run, its rows, its plot and `fix` judge a joint by that
one object. A revolute joint is judged by the `_rad` tolerances, a prismatic one by the `_m` ones."""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import TYPE_CHECKING

from pydantic import Field

from ....core.setting_units import unit
from ..base import DrivenJointConfig
from ..motion import EASE_PROFILES, SweepPlan, range_scaled_tolerance, sweep_plan
from ..tracking import judged_limits

if TYPE_CHECKING:
    from ....core.asset_model import JointInfo


@dataclass(frozen=True)
class SweepThresholds:
    """One joint's sweep and what judges it, SI (rad for a revolute joint, m for a prismatic one)."""

    plan: SweepPlan  # endpoints, home, segments and pause frames
    rest_tolerance: float  # hold error allowed at an endpoint: min(rest_tolerance, rest_range_fraction x swept range)
    zero_return_tolerance: float  # final error allowed at home: min(zero_return_tolerance, zero_range_fraction x range)
    zero_settled_frames: int  # frames in a row the joint must stay within the zero-return tolerance


class FullRangeSweepConfig(DrivenJointConfig):
    renamed = {"rest_tolerance": ("rest_tolerance_rad", "rest_tolerance_m"),
               "zero_return_tolerance": ("zero_return_tolerance_rad", "zero_return_tolerance_m")}

    capture_fps: float = Field(8.0, gt=0, description="Video frames per simulated second.", json_schema_extra=unit("Hz"))
    settle_seconds: float = Field(1.0, ge=0, description="Longest settle at the authored targets before the first joint; "
                                                        "it ends once every joint is at rest (s).",
                                  json_schema_extra=unit("s"))
    sweep_margin_ratio: float = Field(0.10, ge=0, lt=0.5,
                                      description="Endpoints sit this fraction of the range inside the limits.",
                                      json_schema_extra=unit("fraction"))
    interpolation_profile: str = Field("smoothstep", description=f"Easing of each segment: {', '.join(EASE_PROFILES)}.")
    sweep_speed_scale: float = Field(0.8, gt=0, description="Segment time 1/scale s (peak speed <= scale x velocity limit).",
                                     json_schema_extra=unit("x"))
    pause_at_limits_seconds: float = Field(0.15, ge=0, description="Hold window at each waypoint (s).",
                                           json_schema_extra=unit("s"))
    rest_check_enabled: bool = Field(True, description="Check the hold at the max and min endpoints.")
    rest_tolerance_rad: float = Field(0.10, gt=0,
                                      description="Hold error allowed at an endpoint, revolute joints, for most of the "
                                      "pause; capped by rest_range_fraction.", json_schema_extra=unit("rad"))
    rest_tolerance_m: float = Field(0.10, gt=0,
                                    description="Hold error allowed at an endpoint, prismatic joints, for most of the "
                                    "pause; capped by rest_range_fraction.", json_schema_extra=unit("m"))
    rest_range_fraction: float = Field(0.10, gt=0, lt=0.4,
                                       description="The hold tolerance is at most this fraction of the joint's swept range.",
                                       json_schema_extra=unit("fraction"))
    rest_check_fatal: bool = Field(True, description="A hold failure fails the joint (false: warning; diagnostic runs only).")
    zero_return_tolerance_rad: float = Field(0.01, gt=0, description="Final error allowed at the zero waypoint, revolute joints; "
                                             "capped by zero_range_fraction.", json_schema_extra=unit("rad"))
    zero_return_tolerance_m: float = Field(0.01, gt=0, description="Final error allowed at the zero waypoint, prismatic joints; "
                                           "capped by zero_range_fraction.", json_schema_extra=unit("m"))
    zero_range_fraction: float = Field(0.01, gt=0, lt=0.4,
                                       description="The zero-return tolerance is at most this fraction of the joint's swept "
                                                   "range.",
                                       json_schema_extra=unit("fraction"))
    max_sweep_range: float = Field(2 * math.pi, gt=0, description="Wider ranges are swept over a window this wide (rad or m).",
                                   json_schema_extra=unit("rad or m"))
    zero_settled_seconds: float = Field(0.1, gt=0,
                                        description="The return to zero passes once the joint stays within the zero-return "
                                                    "tolerance this long without a break, the pause at zero included (s).",
                                        json_schema_extra=unit("s"))
    zero_max_settle_seconds: float = Field(2.0, ge=0,
                                           description="Longest extra hold at zero after the pause, waiting for the joint to "
                                                       "settle in the band (s); it ends once the joint has settled.",
                                           json_schema_extra=unit("s"))

    def thresholds_for(self, joint: "JointInfo", start: float, fps: float | None = None) -> SweepThresholds:
        """The sweep of `joint` (it must have both limits) from `start`, at `fps` physics steps a second (default
        physics_fps), and the tolerances it is judged by (capped by the swept range)."""
        fps = self.physics_fps if fps is None else fps
        lower, upper = judged_limits(joint)
        plan = sweep_plan(lower, upper, start, fps=fps, speed_scale=self.sweep_speed_scale,
                          pause_seconds=self.pause_at_limits_seconds, margin_ratio=self.sweep_margin_ratio,
                          max_sweep_range=self.max_sweep_range, velocity_limit=joint.velocity_limit,
                          profile=self.interpolation_profile)
        swept, angular = plan.upper - plan.lower, joint.is_angular
        rest = range_scaled_tolerance(self.joint_si("rest_tolerance_rad", "rest_tolerance_m", angular), swept,
                                      self.rest_range_fraction)
        zero = range_scaled_tolerance(self.joint_si("zero_return_tolerance_rad", "zero_return_tolerance_m", angular), swept,
                                      self.zero_range_fraction)
        return SweepThresholds(plan, rest, zero, max(1, int(round(self.zero_settled_seconds * fps))))
