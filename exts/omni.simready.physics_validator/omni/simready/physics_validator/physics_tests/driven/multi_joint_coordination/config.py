"""multi_joint_coordination's settings (docs/tests/multi_joint_coordination.md)."""

from pydantic import Field

from ..base import DrivenJointConfig


class MultiJointCoordinationConfig(DrivenJointConfig):
    settle_seconds: float = Field(1.0, ge=0, description="Physics time at the authored targets before the first iteration (s).")
    num_iterations: int = Field(3, ge=1, description="How many configurations the joints are commanded to, one after another.")
    target_factors: list[float] = Field(default_factory=lambda: [0.3, 0.6, 0.5],
                                        description="Each iteration's target as a fraction of each joint's range (cycled).")
    target_margin_ratio: float = Field(0.10, ge=0, lt=0.5,
                                       description="Targets stay this fraction of the range inside the limits.")
    motion_seconds: float = Field(2.0, gt=0,
                                  description="All targets are ramped (smoothstep) from the current pose over this time (s).")
    max_settling_seconds: float = Field(8.0, gt=0, description="Time from each command, ramp included, by which every joint "
                                                               "must be within tolerance (s).")
    hold_seconds: float = Field(0.25, gt=0, description="Every joint within tolerance this long, continuously, ends an "
                                                       "iteration early (s); otherwise it is judged at max_settling_seconds.")
    position_tolerance_deg: float = Field(1.0, gt=0, description="Largest final error of a revolute joint (deg).")
    position_tolerance_m: float = Field(0.002, gt=0, description="Largest final error of a prismatic joint (m); the spec "
                                                                 "names degrees only.")
    max_judged_revolute_range_deg: float = Field(
        180.0, gt=0, description="A revolute joint with a wider range gets its targets in a window this wide centred on "
                                 "its home pose (its drive target, inside its limits), clipped into its limits (deg).")
    range_tolerance_fraction: float = Field(0.05, gt=0, lt=1, description="The tolerance is also at most this fraction of "
                                                                          "the joint's range.")
