"""joint_movement's settings (docs/tests/joint_movement.md)."""

from pydantic import Field

from ....core.config import TestConfig


class JointMovementConfig(TestConfig):
    drive_seconds: float = Field(2.0, gt=0, description="How long each joint is driven, alone (s).")
    travel_seconds: float = Field(1.0, gt=0, description="Each joint's commanded speed would cover its whole travel to the "
                                                         "open end in this time (s), never slower than the baseline.")
    baseline_speed_deg: float = Field(45.0, gt=0, description="Slowest revolute drive speed, and the speed of a joint "
                                                              "without limits (deg/s).")
    baseline_speed_m: float = Field(0.05, gt=0, description="Slowest prismatic drive speed, and the speed of a joint "
                                                            "without limits (m/s).")
    probe_frequency_hz: float = Field(4.0, gt=0, description="Natural frequency of the probe's drive on the joint's estimated "
                                                              "inertia (Hz; critically damped): how closely it follows the "
                                                              "moving command.")
    force_factor: float = Field(4.0, ge=1, description="The probe drive's force cap is this x its stiffness x the joint's "
                                                       "travel to the open end (or a turn).")
    friction_lag_fraction: float = Field(0.25, gt=0, le=1, description="Where the joint authors friction, the probe's "
                                                                      "stiffness pushes through it at a lag of this x "
                                                                      "the clear travel (2.5 deg, 5 mm).")
    min_travel_fraction: float = Field(0.5, gt=0, le=1, description="A joint passes once its bodies moved this fraction "
                                                                    "of its expected travel (the distance to its open end, "
                                                                    "or what its speed covers in the window) ...")
    clear_travel_deg: float = Field(10.0, gt=0, description="... or this much (deg), whichever is less: a revolute joint "
                                                            "that turned 10 deg is free.")
    clear_travel_m: float = Field(0.02, gt=0, description="... or this much (m) for a prismatic joint.")
    bbox_explode_ratio: float = Field(10.0, gt=1, description="FAIL when the asset's AABB volume exceeds this x its baseline, "
                                                               "where no reach bound exists (an unlimited prismatic joint).")
