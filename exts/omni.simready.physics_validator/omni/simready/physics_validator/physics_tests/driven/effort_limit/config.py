"""effort_limit's settings (docs/tests/effort_limit.md), each with its unit, and what they make of one joint in SI
(`thresholds_for`): the test's load phase, its rows, its plot and `fix` judge a joint by that one object."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from pydantic import Field

from ....core.setting_units import unit
from ..base import DrivenJointConfig
from ..load_point import deflection_tolerance

if TYPE_CHECKING:
    from ....core.asset_model import JointInfo


@dataclass(frozen=True)
class LoadThresholds:
    """One joint under the test load, SI."""

    force: float  # N at the joint's child body, from each of the 12 directions
    deflection: float  # how far the joint may give way from its held pose (rad or m): break_tolerance x its judged range


class EffortLimitConfig(DrivenJointConfig):
    capture_fps: float = Field(8.0, gt=0, description="Video frames per simulated second.", json_schema_extra=unit("Hz"))
    settle_seconds: float = Field(0.3, ge=0, description="Longest hold of the configuration before loading; "
                                                        "it ends once every joint is at rest (s).",
                                  json_schema_extra=unit("s"))
    force_magnitude_newtons: float = Field(10.0, ge=0, description="External force at each joint's child body (N).",
                                           json_schema_extra=unit("N"))
    test_duration_seconds: float = Field(2.0, gt=0, description="Load time per joint, spread over the 12 directions (s).",
                                         json_schema_extra=unit("s"))
    break_tolerance: float = Field(0.10, ge=0,
                                   description="Fail: a driven joint deflected from its held pose, or any joint beyond its "
                                               "limits, by more than this x its range.",
                                   json_schema_extra=unit("fraction"))
    max_judged_revolute_range_deg: float = Field(180.0, gt=0,
                                                 description="The deflection allowance counts a revolute range at most this "
                                                             "wide, and an unlimited revolute joint's range as this (deg).",
                                                 json_schema_extra=unit("deg"))
    unlimited_prismatic_range_m: float = Field(1.0, gt=0,
                                               description="The deflection allowance counts a prismatic range at most this long, "
                                                           "and an unlimited prismatic joint's range as this (m).",
                                               json_schema_extra=unit("m"))
    recovery_seconds: float = Field(0.5, ge=0,
                                    description="Unloaded time after each joint's load, for the drives to pull back; after a "
                                                "load nothing gave way to, it ends once every joint is at rest (s).",
                                    json_schema_extra=unit("s"))
    stop_on_first_break: bool = Field(True,
                                      description="Stop the test at the first failing joint (avoids cascading instability).")

    def thresholds_for(self, joint: "JointInfo | None") -> LoadThresholds:
        """The load and the deflection allowance of `joint` (None, a DOF the asset model does not know: no allowance)."""
        return LoadThresholds(self.force_magnitude_newtons, deflection_tolerance(
            joint, self.break_tolerance, self.si("max_judged_revolute_range_deg"), self.si("unlimited_prismatic_range_m")))
