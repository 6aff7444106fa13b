"""drive_gain_validation's settings (docs/tests/drive_gain_validation.md), each with its unit, and what they make of
one joint in SI (`thresholds_for`): the test's run, its rows, its plot and `fix` judge a step by that one object."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, ClassVar

from pydantic import Field

from ....core.setting_units import unit
from ..base import DrivenJointConfig

if TYPE_CHECKING:
    from ....core.asset_model import JointInfo


@dataclass(frozen=True)
class StepThresholds:
    """One joint's step and what judges it, SI (rad for a revolute joint, m for a prismatic one)."""

    magnitude: float  # the step asked for (scaled down when the range leaves no room for it)
    room: float  # fraction of the step the range must leave beyond the target (the allowed overshoot, and a margin)
    max_overshoot: float  # overshoot allowed, fraction of the step
    settling_fraction: float  # the settling band, fraction of the step
    reversal_fraction: float  # a reversal counts when the joint swings back by more than this fraction of the step

    def band(self, step: float) -> float:
        """The settling band of a step of `step` (the step actually taken)."""
        return self.settling_fraction * abs(step)

    def reversal(self, step: float) -> float:
        return self.reversal_fraction * abs(step)


class DriveGainValidationConfig(DrivenJointConfig):
    # room for the step and its allowed overshoot, plus this fraction of the step, so an overshoot can show
    overshoot_room_margin: ClassVar[float] = 0.1

    settle_seconds: float = Field(1.0, ge=0, description="Longest settle at the authored targets before the first joint; "
                                                        "it ends once every joint is at rest (s).",
                                  json_schema_extra=unit("s"))
    step_magnitude_deg: float = Field(30.0, gt=0,
                                      description="Step size for revolute joints (deg).", json_schema_extra=unit("deg"))
    prismatic_step_m: float = Field(0.05, gt=0, description="Step size for prismatic joints (m); the spec names degrees only.",
                                    json_schema_extra=unit("m"))
    test_duration_seconds: float = Field(5.0, gt=0, description="Longest observation window per joint (s).",
                                         json_schema_extra=unit("s"))
    max_overshoot_pct: float = Field(50.0, ge=0, description="Overshoot allowed, % of the step.", json_schema_extra=unit("%"))
    max_settling_seconds: float = Field(5.0, gt=0,
                                        description="The joint must be in the settling band, and stay there, by this time (s).",
                                        json_schema_extra=unit("s"))
    max_oscillations: int = Field(20, ge=0, description="Velocity sign changes (reversals) allowed in the window.")
    settling_tolerance: float = Field(0.05, gt=0, lt=1, description="Settling band, fraction of the step magnitude.",
                                      json_schema_extra=unit("fraction"))
    settling_tail_seconds: float = Field(0.5, ge=0, description="Observed after the window: the joint must stay in the band (s).",
                                         json_schema_extra=unit("s"))
    oscillation_threshold: float = Field(0.001, gt=0, lt=1,
                                         description="A reversal counts when the joint swings back by more than this fraction of "
                                                     "the step.",
                                         json_schema_extra=unit("fraction"))
    step_fatal: bool = Field(False, description="Poor step response fails the test (default: warning).")
    settled_velocity_threshold: float = Field(0.05, gt=0,
                                              description="|v| below this counts as stopped when driving back to the start "
                                                          "(rad/s or m/s).",
                                              json_schema_extra=unit("rad/s or m/s"))
    capture_settled_grace_frames: int = Field(24, ge=1,
                                              description="Calm, in-band frames that end a window early (then the tail).")

    def thresholds_for(self, joint: "JointInfo") -> StepThresholds:
        max_overshoot = self.si("max_overshoot_pct")
        return StepThresholds(self.joint_si("step_magnitude_deg", "prismatic_step_m", joint.is_angular),
                              max_overshoot + self.overshoot_room_margin, max_overshoot, self.settling_tolerance,
                              self.oscillation_threshold)
