"""slope_drop's settings (docs/tests/slope_drop.md)."""

from pydantic import Field

from ....core.config import TestConfig


class SlopeDropConfig(TestConfig):
    slope_angle_deg: float = Field(45.0, gt=0, lt=90, description="Ramp angle (deg); the ramp descends toward +Y.")
    slope_static_friction: float = Field(0.5, ge=0, description="Static friction of the ramp and the floor.")
    slope_dynamic_friction: float = Field(0.4, ge=0, description="Dynamic friction of the ramp and the floor.")
    slope_restitution: float = Field(0.0, ge=0, le=1, description="Restitution of the ramp and the floor.")
    minimum_slope_length: float = Field(2.0, gt=0, description="Shortest ramp along the slope (m); it is also at least 6x "
                                                               "the asset's largest horizontal extent.")
    minimum_slope_clearance: float = Field(0.1, ge=0, description="Start height of the asset's bottom above the highest "
                                                                  "ramp point under it (m).")
    top_margin: float = Field(0.05, ge=0, description="The asset starts this far downhill of the ramp's top edge (m).")
    floor_level: float = Field(0.0, description="Floor height (m).")
    floor_margin: float = Field(0.1, ge=0, description="Floor penetration tolerance after sliding (m).")
    slope_contact_tolerance: float = Field(0.02, gt=0, description="Closest approach of the collision geometry to the ramp "
                                                                   "plane that counts as contact (m).")
    slope_penetration_tolerance: float = Field(0.02, gt=0, description="Deepest the collision geometry may go under the "
                                                                       "ramp plane (m); the larger of this and "
                                                                       "penetration_size_fraction x the asset's size.")
    penetration_size_fraction: float = Field(0.05, ge=0, lt=1, description="Penetration allowance scaled to the asset's "
                                                                           "largest extent.")
    maximum_slope_separation: float = Field(0.05, gt=0, description="Gap between the collision geometry and the ramp plane "
                                                                    "that counts as leaving the ramp (m).")
    separation_confirmation_seconds: float = Field(0.1, gt=0, description="How long the gap must last to be a launch (s).")
    min_downhill_travel: float = Field(0.05, gt=0, description="Distance its centre must move down the slope, counted from "
                                                               "slide_check_delay after first contact (m).")
    slide_check_delay: float = Field(0.5, ge=0, description="Downhill travel counts from this long after first contact "
                                                            "(s), so the landing's own momentum does not pass for sliding.")
    post_slide_seconds: float = Field(3.0, ge=0, description="After the downhill motion is proved, the floor is watched "
                                                             "this long (s).")
    simulation_seconds: float = Field(10.0, gt=0, description="Hard cap on simulated time (s).")
