"""velocity_limit's settings (docs/tests/velocity_limit.md), each with its unit, and what they make of one joint in SI
(`thresholds_for`): the test's run, its rows, its plot and its report view judge a joint by that one object."""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import TYPE_CHECKING

from pydantic import Field

from ....core.setting_units import unit
from ..base import DrivenJointConfig

if TYPE_CHECKING:
    from ....core.asset_model import JointInfo


@dataclass(frozen=True)
class SpeedThresholds:
    """One joint's cap and what judges it, SI (rad/s for a revolute joint, m/s for a prismatic one)."""

    limit: float  # the authored cap
    allowed: float  # limit x (1 + tolerance_fraction): a faster peak fails
    exercised: float  # min_exercised_ratio: a peak below this fraction of the reachable cap verified nothing


class VelocityLimitConfig(DrivenJointConfig):
    renamed = {"tolerance_percent": ("tolerance_fraction",)}

    settle_seconds: float = Field(1.0, ge=0, description="Longest settle at the authored targets before the first joint; "
                                                        "it ends once every joint is at rest (s).",
                                  json_schema_extra=unit("s"))
    tolerance_fraction: float = Field(0.05, ge=0, description="Allowed overshoot of the limit, as a fraction (0.05 = 5 %; "
                                      "--set takes 5%).", json_schema_extra=unit("fraction"))
    test_duration_seconds: float = Field(2.0, gt=0, description="Observation window per joint and move (s).",
                                         json_schema_extra=unit("s"))
    settled_velocity_threshold: float = Field(0.05, gt=0, description="|v| below this counts as stopped (rad/s or m/s).",
                                              json_schema_extra=unit("rad/s or m/s"))
    capture_settled_grace_frames: int = Field(24, ge=1, description="Stopped frames after the motion that end a move early.")
    target_margin_ratio: float = Field(0.05, ge=0, lt=0.5,
                                       description="Target sits this fraction of the range inside the far limit.",
                                       json_schema_extra=unit("fraction"))
    min_exercised_ratio: float = Field(0.9, gt=0, le=1,
                                       description="A joint whose peak stays below this fraction of its cap was not exercised "
                                                   "(SKIP row).",
                                       json_schema_extra=unit("fraction"))

    blow_up_deg_per_step: float = Field(360.0, gt=0, description="A revolute joint whose peak would turn it more than "
                                        "this in one physics step blew up: its row is EXPLODED, not an overspeed "
                                        "(deg; a turn a step is 86,400 deg/s at 240 Hz).",
                                        json_schema_extra=unit("deg"))
    blow_up_metres_per_step: float = Field(1.0, gt=0, description="A prismatic joint whose peak would move it more than "
                                           "this in one physics step blew up (m; 240 m/s at 240 Hz).",
                                           json_schema_extra=unit("m"))

    def blown_up(self, joint: "JointInfo", peak: float, dt: float) -> bool:
        """A peak no drive reaches: the joint would cover more than blow_up_deg_per_step (revolute) or
        blow_up_metres_per_step (prismatic) in one step of dt seconds. The Kinova Gen3's 2F-85 knuckle read 6.9e22
        deg/s: a cap the author chose is not the question there."""
        per_step = math.radians(self.blow_up_deg_per_step) if joint.is_angular else self.blow_up_metres_per_step
        return not math.isfinite(peak) or peak * dt > per_step

    def allowed_ratio(self) -> float:
        """The fastest peak allowed, as a multiple of the cap: 1 + tolerance_fraction."""
        return 1.0 + self.tolerance_fraction

    def thresholds_for(self, joint: "JointInfo") -> SpeedThresholds:
        """The joint's cap (it must have one: the test selects only such joints) and what judges it."""
        limit = joint.velocity_limit if joint.velocity_limit is not None else math.nan
        return SpeedThresholds(limit, limit * (1.0 + self.tolerance_fraction), self.min_exercised_ratio)
