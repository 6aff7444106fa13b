"""full_range_sweep's settings (docs/tests/full_range_sweep.md), each with its unit. A revolute joint is judged by the
`_rad` tolerances, a prismatic one by the `_m` ones."""

import math

from pydantic import Field

from ..base import DrivenJointConfig
from ..motion import EASE_PROFILES


def unit(name: str) -> dict:
    return {"unit": name}


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

    def rest_tolerance_for(self, angular: bool) -> float:
        """The endpoint hold tolerance of a revolute (rad) or prismatic (m) joint, before the range cap."""
        return self.rest_tolerance_rad if angular else self.rest_tolerance_m

    def zero_return_tolerance_for(self, angular: bool) -> float:
        """The zero-return tolerance of a revolute (rad) or prismatic (m) joint, before the range cap."""
        return self.zero_return_tolerance_rad if angular else self.zero_return_tolerance_m
