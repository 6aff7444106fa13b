"""joint_movement's settings (docs/tests/joint_movement.md)."""

from pydantic import Field

from ....core.config import TestConfig


class JointMovementConfig(TestConfig):
    drive_seconds: float = Field(2.0, gt=0, description="How long the velocity drives push (s).")
    travel_seconds: float = Field(1.0, gt=0, description="Each joint's drive speed would cover its whole travel to the "
                                                         "open end in this time (s), never slower than the baseline.")
    baseline_speed_deg: float = Field(45.0, gt=0, description="Slowest revolute drive speed, and the speed of a joint "
                                                              "without limits (deg/s).")
    baseline_speed_m: float = Field(0.05, gt=0, description="Slowest prismatic drive speed, and the speed of a joint "
                                                            "without limits (m/s).")
    response_seconds: float = Field(0.05, gt=0, description="Time constant of the velocity drive: damping = the joint's "
                                                            "estimated inertia / this (s).")
    force_factor: float = Field(10.0, ge=1, description="The drive's force cap is this x the force it needs at rest "
                                                        "(damping x speed).")
    min_travel_fraction: float = Field(0.5, gt=0, le=1, description="A joint passes once its bodies moved this fraction "
                                                                    "of its expected travel (the distance to its open end, "
                                                                    "or what its speed covers in the window).")
    bbox_explode_ratio: float = Field(10.0, gt=1, description="FAIL when the asset's AABB volume exceeds this x its baseline.")
