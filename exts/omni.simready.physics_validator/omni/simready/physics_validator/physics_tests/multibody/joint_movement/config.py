"""joint_movement's settings (docs/tests/joint_movement.md), each with its unit, and what they make of one joint in SI
(`thresholds_for`): the probe's plan, the test's rows and its plot judge a joint by that one object."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, ClassVar

from pydantic import Field

from ....core.config import TestConfig
from ....core.setting_units import unit

if TYPE_CHECKING:
    from ....core.asset_model import JointInfo


@dataclass(frozen=True)
class TravelThresholds:
    """One joint's probe speed floor and the travel it must show, SI (rad, rad/s for a revolute joint; m, m/s for a
    prismatic one)."""

    baseline_speed: float  # slowest probe speed, and the speed of a joint without limits
    clear_travel: float  # a joint that moved this far is free, whatever its expected travel
    min_travel_fraction: float  # ... or this fraction of its expected travel, whichever is less
    stuck_fraction: float  # under this fraction of the required travel the joint is stuck, not short

    def required(self, expected_travel: float) -> float:
        """The travel a joint expected to cover `expected_travel` must show: min(fraction x expected, clear)."""
        return min(self.min_travel_fraction * expected_travel, self.clear_travel)


class JointMovementConfig(TestConfig):
    # a joint whose bodies moved less than this fraction of the required travel is stuck (STUCK), not short (SHORT_TRAVEL)
    stuck_fraction: ClassVar[float] = 0.1

    drive_seconds: float = Field(2.0, gt=0, description="How long each joint is driven, alone (s).",
                                 json_schema_extra=unit("s"))
    travel_seconds: float = Field(1.0, gt=0, description="Each joint's commanded speed would cover its whole travel to the "
                                                         "open end in this time (s), never slower than the baseline.",
                                  json_schema_extra=unit("s"))
    baseline_speed_deg: float = Field(45.0, gt=0, description="Slowest revolute drive speed, and the speed of a joint "
                                                              "without limits (deg/s).", json_schema_extra=unit("deg/s"))
    baseline_speed_m: float = Field(0.05, gt=0, description="Slowest prismatic drive speed, and the speed of a joint "
                                                            "without limits (m/s).", json_schema_extra=unit("m/s"))
    probe_frequency_hz: float = Field(4.0, gt=0, description="Natural frequency of the probe's drive on the joint's estimated "
                                                              "inertia (Hz; critically damped): how closely it follows the "
                                                              "moving command.", json_schema_extra=unit("Hz"))
    force_factor: float = Field(4.0, ge=1, description="The probe drive's force cap is this x its stiffness x the joint's "
                                                       "travel to the open end (or a turn).", json_schema_extra=unit("x"))
    friction_lag_fraction: float = Field(0.25, gt=0, le=1, description="Where the joint authors friction, the probe's "
                                                                      "stiffness pushes through it at a lag of this x "
                                                                      "the clear travel (2.5 deg, 5 mm).",
                                         json_schema_extra=unit("fraction"))
    min_travel_fraction: float = Field(0.5, gt=0, le=1, description="A joint passes once its bodies moved this fraction "
                                                                    "of its expected travel (the distance to its open end, "
                                                                    "or what its speed covers in the window) ...",
                                       json_schema_extra=unit("fraction"))
    clear_travel_deg: float = Field(10.0, gt=0, description="... or this much (deg), whichever is less: a revolute joint "
                                                            "that turned 10 deg is free.", json_schema_extra=unit("deg"))
    clear_travel_m: float = Field(0.02, gt=0, description="... or this much (m) for a prismatic joint.",
                                  json_schema_extra=unit("m"))
    bbox_explode_ratio: float = Field(10.0, gt=1, description="FAIL when the asset's AABB volume exceeds this x its baseline, "
                                                               "where no reach bound exists (an unlimited prismatic joint).",
                                      json_schema_extra=unit("x"))

    def thresholds_for(self, joint: "JointInfo") -> TravelThresholds:
        angular = joint.is_angular
        return TravelThresholds(self.joint_si("baseline_speed_deg", "baseline_speed_m", angular),
                                self.joint_si("clear_travel_deg", "clear_travel_m", angular), self.min_travel_fraction,
                                self.stuck_fraction)
