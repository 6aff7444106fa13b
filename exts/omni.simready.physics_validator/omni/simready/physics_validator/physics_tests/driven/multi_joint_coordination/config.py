"""multi_joint_coordination's settings (docs/tests/multi_joint_coordination.md), each with its unit, and what they make
of one joint in SI (`thresholds_for`): the test's run, its rows, its plot and `fix` judge a joint by that one object."""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import TYPE_CHECKING

from pydantic import Field

from ....core.setting_units import unit
from ..base import DrivenJointConfig
from ..motion import PEAK_SPEED_FACTOR
from ..tracking import capped_tolerance, coordination_range, home_position, range_target

SMOOTHSTEP_PEAK = PEAK_SPEED_FACTOR["smoothstep"]  # a smoothstep ramp's peak speed over its mean speed

if TYPE_CHECKING:
    from ....core.asset_model import JointInfo


@dataclass(frozen=True)
class CoordinationThresholds:
    """One joint's targets and tolerance, SI (rad for a revolute joint, m for a prismatic one)."""

    tolerance: float  # min(position_tolerance, range_tolerance_fraction x range)
    span: tuple[float, float]  # the (lower, upper) its target fractions apply to (coordination_range)
    targets: tuple[float, ...]  # each iteration's target


class MultiJointCoordinationConfig(DrivenJointConfig):
    settle_seconds: float = Field(1.0, ge=0, description="Physics time at the authored targets before the first iteration (s).",
                                  json_schema_extra=unit("s"))
    num_iterations: int = Field(3, ge=1, description="How many configurations the joints are commanded to, one after another.")
    target_factors: list[float] = Field(default_factory=lambda: [0.3, 0.6, 0.5],
                                        description="Each iteration's target as a fraction of each joint's range (cycled).",
                                        json_schema_extra=unit("fraction"))
    target_margin_ratio: float = Field(0.10, ge=0, lt=0.5,
                                       description="Targets stay this fraction of the range inside the limits.",
                                       json_schema_extra=unit("fraction"))
    motion_seconds: float = Field(2.0, gt=0,
                                  description="All targets are ramped (smoothstep) from the current pose over this time (s).",
                                  json_schema_extra=unit("s"))
    max_settling_seconds: float = Field(8.0, gt=0, description="Time from each command, ramp included, by which every joint "
                                                               "must be within tolerance (s).", json_schema_extra=unit("s"))
    hold_seconds: float = Field(0.25, gt=0, description="Every joint within tolerance this long, continuously, ends an "
                                                       "iteration early (s); otherwise it is judged at max_settling_seconds.",
                                json_schema_extra=unit("s"))
    position_tolerance_deg: float = Field(1.0, gt=0, description="Largest final error of a revolute joint (deg).",
                                          json_schema_extra=unit("deg"))
    position_tolerance_m: float = Field(0.002, gt=0, description="Largest final error of a prismatic joint (m); the spec "
                                                                 "names degrees only.", json_schema_extra=unit("m"))
    max_judged_revolute_range_deg: float = Field(
        180.0, gt=0, description="A revolute joint with a wider range gets its targets in a window this wide centred on "
                                 "its home pose (its drive target, inside its limits), clipped into its limits (deg).",
        json_schema_extra=unit("deg"))
    range_tolerance_fraction: float = Field(0.05, gt=0, lt=1, description="The tolerance is also at most this fraction of "
                                                                          "the joint's range.",
                                            json_schema_extra=unit("fraction"))

    def timing(self, moves: "list[tuple[float, float | None]]") -> tuple[float, float]:
        """(ramp, window) of one iteration in s, for each joint's (move, velocity cap): the targets ramp (smoothstep)
        over motion_seconds, longer when a cap would hold a joint back (the ramp's peak speed, 1.5 x move / ramp, above
        the cap), so that no joint is asked to outrun its cap; the window keeps the time it gives after the ramp
        (max_settling_seconds - motion_seconds). Uncapped: (motion_seconds, max_settling_seconds), as NVIDIA's 8 s."""
        needed = [SMOOTHSTEP_PEAK * abs(move) / cap for move, cap in moves if cap is not None and 0 < cap < math.inf]
        ramp = max([self.motion_seconds, *needed])
        return ramp, max(self.max_settling_seconds, ramp + self.max_settling_seconds - self.motion_seconds)

    def factor(self, iteration: int) -> float:
        """The target fraction of iteration `iteration` (0-based; the list is cycled, the middle without one)."""
        return self.target_factors[iteration % len(self.target_factors)] if self.target_factors else 0.5

    def thresholds_for(self, joint: "JointInfo") -> CoordinationThresholds:
        """The joint's targets and tolerance. The test commands only joints with limits; for one without (what `fix`
        may ask about) the tolerance over an unbounded range, position_tolerance, and no targets."""
        lower, upper = joint.limits or (-math.inf, math.inf)
        tolerance = capped_tolerance(self.joint_si("position_tolerance_deg", "position_tolerance_m", joint.is_angular),
                                     self.range_tolerance_fraction, upper - lower)
        if not joint.has_limits:
            return CoordinationThresholds(tolerance, (lower, upper), ())
        span = (lower, upper)
        if joint.is_angular:
            home = home_position(joint.drive.target_position if joint.drive is not None else None, lower, upper, 0.0)
            span = coordination_range(lower, upper, home, self.si("max_judged_revolute_range_deg"))
        targets = tuple(range_target(*span, self.target_margin_ratio, self.factor(i)) for i in range(self.num_iterations))
        return CoordinationThresholds(tolerance, span, targets)
