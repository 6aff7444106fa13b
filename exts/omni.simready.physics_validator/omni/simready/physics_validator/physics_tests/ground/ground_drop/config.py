"""ground_drop's settings: the spec's defaults (docs/tests/ground_drop.md), each with its unit."""

from typing import Literal

from pydantic import Field

from ....core.config import TestConfig

# The drop-height rule of each version: (bounding-box heights above the floor, the rule's name for people).
DROP_RULES = {"3.2.0": 2.0, "spec_8x": 8.0}


def unit(name: str) -> dict:
    return {"unit": name}


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
    ground_static_friction: float = Field(0.5, ge=0, description="Floor static friction coefficient.")
    ground_dynamic_friction: float = Field(0.4, ge=0, description="Floor dynamic friction coefficient.")
    ground_restitution: float = Field(0.0, ge=0, le=1, description="Floor restitution; the spec fixes 0.")

    @property
    def rest_tolerance(self) -> float:
        """The rest tolerance in m (its old name, kept for the code that reads it)."""
        return self.rest_tolerance_m
