"""ground_drop's settings: the spec's defaults (docs/tests/ground_drop.md), each with its unit, and what they make of
one asset in SI (`thresholds_for`, from its box at release): the drop watch, the metrics and the plot judge by that one
object."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from pydantic import Field

from ....core.config import TestConfig
from ....core.setting_units import unit

# The drop-height rule of each version: (bounding-box heights above the floor, the rule's name for people).
DROP_RULES = {"3.2.0": 2.0, "spec_8x": 8.0}


@dataclass(frozen=True)
class DropThresholds:
    """One asset's drop judged in SI (world z in m) and in physics frames."""

    touch_height: float  # the bounds' bottom at or below this is in contact: floor_level + floor_margin
    sink_allowance: float  # how far below the floor the asset may reach: a fraction of its smallest extent, within
    # [min_penetration_allowance, floor_margin]
    floor_level: float
    rest_tolerance: float  # movement of the box's centre and corners allowed over the rest window (m)
    penetration_delay_frames: int  # rest detection begins this long after contact
    rest_deadline_frames: int  # at rest within this long of contact
    rest_window_frames: int  # the continuous rest window

    @property
    def penetration_height(self) -> float:
        """The bounds' bottom below this has sunk into the floor."""
        return self.floor_level - self.sink_allowance


class GroundDropConfig(TestConfig):
    renamed = {"rest_tolerance": ("rest_tolerance_m",)}

    drop_rule: Literal["3.2.0", "spec_8x"] = Field(
        "3.2.0", description="Drop height rule: \"3.2.0\" (NVIDIA's current test: 2x the bounding-box height) or "
                             "\"spec_8x\" (the spec's 8x, NVIDIA's until 3.1.0).")
    drop_height_factor: float = Field(0.0, ge=0, description="Drop height as a multiple of the bounding-box height; "
                                                             "0 = the drop rule's (2 or 8).",
                                      json_schema_extra=unit("x"))
    minimum_drop_distance: float = Field(
        0.1, ge=0, description="Least fall (m) of the bounds' bottom above the touch band (floor + floor_margin), so "
                               "small assets start clear of it.",
        json_schema_extra=unit("m"))
    floor_level: float = Field(0.0, description="Floor height (m).", json_schema_extra=unit("m"))
    floor_margin: float = Field(0.1, ge=0,
                                description="Contact band above the floor, and the most the asset may sink below it (m).",
                                json_schema_extra=unit("m"))
    penetration_size_fraction: float = Field(0.5, gt=0,
                                             description="The asset may sink at most this fraction of its smallest bounding-box "
                                                         "extent (capped by floor_margin).",
                                             json_schema_extra=unit("fraction"))
    min_penetration_allowance: float = Field(0.005, ge=0,
                                             description="The sink allowance is never below this (m), whatever the asset's size.",
                                             json_schema_extra=unit("m"))
    penetration_check_seconds: float = Field(
        1.0, ge=0, description="Delay after first contact before rest detection begins (s); penetration is checked every frame.",
        json_schema_extra=unit("s"),
    )
    rest_tolerance_m: float = Field(0.02, gt=0, description="Maximum movement of bbox centre and corners in the hold window (m).",
                                    json_schema_extra=unit("m"))
    rest_detection_hold_seconds: float = Field(2.0, gt=0, description="Length of the continuous rest window (s).",
                                               json_schema_extra=unit("s"))
    rest_detection_max_seconds: float = Field(8.0, gt=0, description="Time allowed from first contact to rest (s).",
                                              json_schema_extra=unit("s"))
    simulation_seconds: float = Field(10.0, gt=0, description="Hard cap on simulated time (s).", json_schema_extra=unit("s"))
    simulate_after_result_seconds: float = Field(0.5, ge=0,
                                                 description="Tail simulated after the verdict, for the video or the live "
                                                             "viewport (s); none when nothing shows the motion.",
                                                 json_schema_extra=unit("s"))
    ground_static_friction: float = Field(0.5, ge=0, description="Floor static friction coefficient.",
                                          json_schema_extra=unit("ratio"))
    ground_dynamic_friction: float = Field(0.4, ge=0, description="Floor dynamic friction coefficient.",
                                           json_schema_extra=unit("ratio"))
    ground_restitution: float = Field(0.0, ge=0, le=1, description="Floor restitution; the spec fixes 0.",
                                      json_schema_extra=unit("ratio"))

    def thresholds_for(self, lo, hi) -> DropThresholds:
        """The thresholds of an asset whose box at release is (`lo`, `hi`) (world, m)."""
        smallest = float(min(hi[i] - lo[i] for i in range(3)))
        allowance = min(self.floor_margin, max(self.min_penetration_allowance, self.penetration_size_fraction * smallest))
        fps = self.physics_fps
        return DropThresholds(self.floor_level + self.floor_margin, allowance, self.floor_level, self.rest_tolerance_m,
                              int(round(self.penetration_check_seconds * fps)), int(round(self.rest_detection_max_seconds * fps)),
                              max(1, int(round(self.rest_detection_hold_seconds * fps))))
