"""mimic_joint's settings (docs/tests/mimic_joint.md)."""

from pydantic import Field

from ..base import DrivenJointConfig


class MimicJointConfig(DrivenJointConfig):
    settle_seconds: float = Field(1.0, ge=0, description="Physics time at the authored targets before the first pair (s).")
    sweep_margin_ratio: float = Field(0.10, ge=0, lt=0.5, description="The reference is swept this fraction of its range "
                                                                      "inside its limits.")
    approach_seconds: float = Field(1.0, gt=0, description="The reference is ramped to the sweep's start over this time (s), "
                                                           "not judged.")
    sweep_seconds: float = Field(2.0, gt=0, description="Both legs of the sweep, start -> far end -> start (s).")
    hold_seconds: float = Field(0.5, ge=0,
                                description="Hold at each end of the sweep before the coupling is measured at rest (s).")
    gear_ratio_tolerance: float = Field(0.10, gt=0, lt=1, description="Largest |measured - authored| slope, as a fraction of "
                                                                      "the authored slope (sign included).")
    offset_tolerance_deg: float = Field(2.0, gt=0, description="Largest distance at rest of a revolute follower from the "
                                                               "authored relation (deg).")
    offset_tolerance_m: float = Field(0.002, gt=0, description="Largest distance at rest of a prismatic follower from the "
                                                               "authored relation (m).")
    offset_span_fraction: float = Field(0.10, gt=0, lt=1, description="The offset tolerance is also at most this fraction "
                                                                      "of the follower's expected travel.")
    limits_tolerance_fraction: float = Field(0.02, ge=0, lt=1, description="How far (fraction of the follower's range) the "
                                                                           "coupling may take the follower past its limits "
                                                                           "over the reference's range.")
