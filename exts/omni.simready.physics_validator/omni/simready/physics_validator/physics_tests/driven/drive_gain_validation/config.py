"""drive_gain_validation's settings (docs/tests/drive_gain_validation.md)."""

from pydantic import Field

from ..base import DrivenJointConfig


class DriveGainValidationConfig(DrivenJointConfig):
    settle_seconds: float = Field(1.0, ge=0, description="Physics time at the authored targets before the first joint.")
    step_magnitude_deg: float = Field(30.0, gt=0, description="Step size for revolute joints (deg).")
    prismatic_step_m: float = Field(0.05, gt=0, description="Step size for prismatic joints (m); the spec names degrees only.")
    test_duration_seconds: float = Field(5.0, gt=0, description="Longest observation window per joint (s).")
    max_overshoot_pct: float = Field(50.0, ge=0, description="Overshoot allowed, % of the step.")
    max_settling_seconds: float = Field(5.0, gt=0, description="The joint must be in the settling band, and stay there, by this time (s).")
    max_oscillations: int = Field(20, ge=0, description="Velocity sign changes (reversals) allowed in the window.")
    settling_tolerance: float = Field(0.05, gt=0, lt=1, description="Settling band, fraction of the step magnitude.")
    settling_tail_seconds: float = Field(0.5, ge=0, description="Observed after the window: the joint must stay in the band (s).")
    oscillation_threshold: float = Field(0.001, gt=0, lt=1, description="A reversal counts when the joint swings back by more than this fraction of the step.")
    step_fatal: bool = Field(False, description="Poor step response fails the test (default: warning).")
    settled_velocity_threshold: float = Field(0.05, gt=0, description="|v| below this counts as stopped when driving back to the start (rad/s or m/s).")
    capture_settled_grace_frames: int = Field(24, ge=1, description="Calm, in-band frames that end a window early (then the tail).")
