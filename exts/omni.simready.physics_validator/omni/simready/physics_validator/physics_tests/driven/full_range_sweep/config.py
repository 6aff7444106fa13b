"""full_range_sweep's settings (docs/tests/full_range_sweep.md)."""

import math

from pydantic import Field

from ..base import DrivenJointConfig
from ..motion import EASE_PROFILES


class FullRangeSweepConfig(DrivenJointConfig):
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
    zero_settled_seconds: float = Field(0.1, gt=0, description="The return to zero passes once the joint stays within the zero-return tolerance this long without a break, the pause at zero included (s).")
    zero_max_settle_seconds: float = Field(2.0, ge=0, description="Longest extra hold at zero after the pause, waiting for the joint to settle in the band (s); it ends once the joint has settled.")
