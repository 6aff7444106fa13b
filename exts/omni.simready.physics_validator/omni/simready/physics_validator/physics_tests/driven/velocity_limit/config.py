"""velocity_limit's settings (docs/tests/velocity_limit.md), each with its unit."""

from pydantic import Field

from ..base import DrivenJointConfig


def unit(name: str) -> dict:
    return {"unit": name}


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

    @property
    def tolerance_percent(self) -> float:
        """The allowed overshoot as a fraction (its old name, kept for the code that reads it)."""
        return self.tolerance_fraction
