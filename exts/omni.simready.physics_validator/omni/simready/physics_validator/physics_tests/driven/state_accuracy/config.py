"""state_accuracy's settings (docs/tests/state_accuracy.md)."""

from pydantic import Field

from ..base import DrivenJointConfig


class StateAccuracyConfig(DrivenJointConfig):
    settle_seconds: float = Field(0.5, ge=0, description="Physics time at the authored targets before the first joint (s).")
    gravity: float = Field(0.0, ge=0, description="Scene gravity (m/s^2); NVIDIA's test runs without it to judge command "
                                                  "tracking, not gravity compensation.")
    max_step_deg: float = Field(15.0, gt=0, description="Largest step of a revolute joint (deg).")
    max_step_m: float = Field(0.05, gt=0, description="Largest step of a prismatic joint (m); the spec names degrees only.")
    step_range_fraction: float = Field(0.10, gt=0, le=0.5, description="The step is at most this fraction of the joint's range.")
    limit_margin_deg: float = Field(2.86, ge=0, description="Revolute waypoints stay this far inside the limits (deg; "
                                                            "NVIDIA's 0.05 rad).")
    limit_margin_fraction: float = Field(0.05, ge=0, lt=0.5, description="Prismatic waypoints stay this fraction of the range "
                                                                           "inside the limits.")
    motion_seconds: float = Field(0.5, gt=0,
                                  description="The command is ramped (smoothstep) to each waypoint over this time (s).")
    waypoint_seconds: float = Field(3.0, gt=0, description="Time from each command to the measurement, ramp included (s).")
    position_tolerance_deg: float = Field(5.0, gt=0, description="Largest error at a revolute waypoint (deg).")
    position_tolerance_m: float = Field(0.005, gt=0, description="Largest error at a prismatic waypoint (m).")
    step_tolerance_fraction: float = Field(0.25, gt=0, lt=1, description="The tolerance is also at most this fraction of the "
                                                                        "step, so a joint that stays put always fails.")
    settled_frames: int = Field(24, ge=1, description="Frames in the band, too slow to leave it, that end a waypoint early.")
