"""slope_drop's settings (docs/tests/slope_drop.md), each with its unit, and what they make of one asset in SI
(`thresholds_for`, from its size): the slope watch, the metrics and the plot judge by that one object."""

from __future__ import annotations

from dataclasses import dataclass

from pydantic import Field

from ....core.config import TestConfig
from ....core.setting_units import unit


@dataclass(frozen=True)
class SlopeThresholds:
    """One asset on the ramp, judged in SI (m, distances to the ramp plane; world z for the floor) and frames."""

    sink_allowance: float  # deepest under the ramp plane: max(slope_penetration_tolerance, fraction x largest extent)
    contact_gap: float  # closest approach to the ramp plane that counts as contact
    launch_gap: float  # a gap this wide, held launch_frames, is a launch
    launch_frames: int
    slide_delay: float  # downhill travel counts from this long after contact (s)
    min_downhill: float  # its centre must move this far down the slope
    floor_z: float  # after sliding the bounds' bottom below this went through the floor: floor_level - floor_margin
    post_slide_frames: int  # the floor is watched this long after the slide is proved


class SlopeDropConfig(TestConfig):
    slope_angle_deg: float = Field(45.0, gt=0, lt=90, description="Ramp angle (deg); the ramp descends toward +Y.",
                                   json_schema_extra=unit("deg"))
    slope_static_friction: float = Field(0.5, ge=0, description="Static friction of the ramp and the floor.",
                                         json_schema_extra=unit("ratio"))
    slope_dynamic_friction: float = Field(0.4, ge=0, description="Dynamic friction of the ramp and the floor.",
                                          json_schema_extra=unit("ratio"))
    slope_restitution: float = Field(0.0, ge=0, le=1, description="Restitution of the ramp and the floor.",
                                     json_schema_extra=unit("ratio"))
    minimum_slope_length: float = Field(2.0, gt=0, description="Shortest ramp along the slope (m); it is also at least 6x "
                                                               "the asset's largest horizontal extent.",
                                        json_schema_extra=unit("m"))
    minimum_slope_clearance: float = Field(0.1, ge=0, description="Start height of the asset's bottom above the highest "
                                                                  "ramp point under it (m).", json_schema_extra=unit("m"))
    top_margin: float = Field(0.05, ge=0, description="The asset starts this far downhill of the ramp's top edge (m).",
                              json_schema_extra=unit("m"))
    floor_level: float = Field(0.0, description="Floor height (m).", json_schema_extra=unit("m"))
    floor_margin: float = Field(0.1, ge=0, description="Floor penetration tolerance after sliding (m).",
                                json_schema_extra=unit("m"))
    slope_contact_tolerance: float = Field(0.02, gt=0, description="Closest approach of the collision geometry to the ramp "
                                                                   "plane that counts as contact (m).",
                                           json_schema_extra=unit("m"))
    slope_penetration_tolerance: float = Field(0.02, gt=0, description="Deepest the collision geometry may go under the "
                                                                       "ramp plane (m); the larger of this and "
                                                                       "penetration_size_fraction x the asset's size.",
                                               json_schema_extra=unit("m"))
    penetration_size_fraction: float = Field(0.05, ge=0, lt=1, description="Penetration allowance scaled to the asset's "
                                                                           "largest extent.",
                                             json_schema_extra=unit("fraction"))
    maximum_slope_separation: float = Field(0.05, gt=0, description="Gap between the collision geometry and the ramp plane "
                                                                    "that counts as leaving the ramp (m).",
                                            json_schema_extra=unit("m"))
    separation_confirmation_seconds: float = Field(0.1, gt=0, description="How long the gap must last to be a launch (s).",
                                                   json_schema_extra=unit("s"))
    min_downhill_travel: float = Field(0.05, gt=0, description="Distance its centre must move down the slope, counted from "
                                                               "slide_check_delay after first contact (m).",
                                       json_schema_extra=unit("m"))
    slide_check_delay: float = Field(0.5, ge=0, description="Downhill travel counts from this long after first contact "
                                                            "(s), so the landing's own momentum does not pass for sliding.",
                                     json_schema_extra=unit("s"))
    post_slide_seconds: float = Field(3.0, ge=0, description="After the downhill motion is proved, the floor is watched "
                                                             "this long (s).", json_schema_extra=unit("s"))
    simulation_seconds: float = Field(10.0, gt=0, description="Hard cap on simulated time (s).", json_schema_extra=unit("s"))

    def thresholds_for(self, size: float) -> SlopeThresholds:
        """The thresholds of an asset whose largest extent is `size` (m)."""
        fps = self.physics_fps
        return SlopeThresholds(max(self.slope_penetration_tolerance, self.penetration_size_fraction * size),
                               self.slope_contact_tolerance, self.maximum_slope_separation,
                               max(1, int(round(self.separation_confirmation_seconds * fps))), self.slide_check_delay,
                               self.min_downhill_travel, self.floor_level - self.floor_margin,
                               int(round(self.post_slide_seconds * fps)))
