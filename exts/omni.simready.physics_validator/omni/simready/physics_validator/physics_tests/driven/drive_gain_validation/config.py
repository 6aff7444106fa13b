"""drive_gain_validation's settings (docs/tests/drive_gain_validation.md), each with its unit."""

from pydantic import Field

from ..base import DrivenJointConfig


def unit(name: str) -> dict:
    return {"unit": name}


class DriveGainValidationConfig(DrivenJointConfig):
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
