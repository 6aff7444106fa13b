"""ground_stability's settings: NVIDIA's 2.0.0 defaults, ours beside them (docs/tests/ground_stability.md), each with
its unit, and what they make of one run in SI and physics frames (`thresholds_for`): the rest watch, the mass rules,
the metrics and the plot judge by that one object."""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import ClassVar

from pydantic import Field

from ....core.config import TestConfig
from ....core.setting_units import unit


@dataclass(frozen=True)
class StabilityThresholds:
    """One run judged in SI (m, rad) and in physics frames."""

    rest_tolerance: float  # bounds centre, bounds corners and every moving body's origin, over the window (m)
    rotation_tolerance: float  # every moving body's orientation over the window (rad)
    window_frames: int  # the rest window
    deadline_frames: int  # the upright release's window must end within this many frames of release
    tilted_deadline_frames: int  # the tilted release's
    tail_frames: int  # simulated after a phase's verdict, only when something shows the motion
    tilt: float  # the tilted release's angle about the world X axis (rad); 0: no tilted release
    com_outside_fraction: float  # a centre of mass further outside its colliders' box than this x the box's largest extent
    min_inertia_ratio: float  # inertia (trace) below this x its shape's at the same mass is too small
    max_inertia_ratio: float  # above this x, a release that does not settle is blamed on the inertia
    divergence: float  # a coordinate past this (m) has exploded
    fps: float  # physics frames per simulated second


class GroundStabilityConfig(TestConfig):
    floor_level: float = Field(0.0, description="Floor height (m).", json_schema_extra=unit("m"))
    floor_margin: float = Field(0.1, ge=0, description="The bounds' bottom starts this far above the floor (m), upright "
                                                       "and tilted.", json_schema_extra=unit("m"))
    ground_static_friction: float = Field(0.5, ge=0, description="Floor static friction coefficient.",
                                          json_schema_extra=unit("ratio"))
    ground_dynamic_friction: float = Field(0.4, ge=0, description="Floor dynamic friction coefficient.",
                                           json_schema_extra=unit("ratio"))
    ground_restitution: float = Field(0.0, ge=0, le=1, description="Floor restitution; NVIDIA's test fixes 0.",
                                      json_schema_extra=unit("ratio"))
    rest_tolerance_m: float = Field(
        0.01, gt=0, description="Most the bounds' centre, their corners and each moving body's origin may move over the "
                                "rest window (m).", json_schema_extra=unit("m"))
    rotation_tolerance_deg: float = Field(
        0.5, gt=0, description="Most each moving body may turn over the rest window (deg); NVIDIA declares 0.01 deg "
                               "and never applies it.", json_schema_extra=unit("deg"))
    rest_detection_hold_seconds: float = Field(2.0, gt=0, description="Length of the rest window (s).",
                                               json_schema_extra=unit("s"))
    rest_detection_max_seconds: float = Field(
        5.0, gt=0, description="The upright release's rest window must end within this long of release (s).",
        json_schema_extra=unit("s"))
    tilt_angle_deg: float = Field(
        30.0, ge=0, le=90, description="The second release: the asset turned this far about the world X axis through its "
                                       "bounds' centre (deg); 0 = upright only, as NVIDIA's.",
        json_schema_extra=unit("deg"))
    tilted_rest_max_seconds: float = Field(
        5.0, gt=0, description="The tilted release's rest window must end within this long of release (s).",
        json_schema_extra=unit("s"))
    com_outside_fraction: float = Field(
        0.25, ge=0, description="A body whose centre of mass (as the runtime built it) lies further outside its colliders' "
                                "box than this fraction of the box's largest extent fails.",
        json_schema_extra=unit("fraction"))
    min_inertia_ratio: float = Field(
        0.1, ge=0, description="A body whose inertia (trace, as the runtime built it) is below this fraction of what its "
                               "colliders give at the same mass fails.", json_schema_extra=unit("ratio"))
    max_inertia_ratio: float = Field(
        10.0, gt=0, description="A release that does not settle is blamed on the inertia of a body above this multiple "
                                "of what its colliders give.", json_schema_extra=unit("ratio"))
    simulate_after_result_seconds: float = Field(
        0.5, ge=0, description="Tail simulated after each release's verdict, for the video or the live viewport (s); none "
                               "when nothing shows the motion.", json_schema_extra=unit("s"))
    capture_fps: float = Field(30.0, gt=0, description="Video frames per simulated second.", json_schema_extra=unit("Hz"))

    DIVERGENCE_M: ClassVar[float] = 1e6  # a bounds or pose coordinate past this (m) has exploded

    def thresholds_for(self) -> StabilityThresholds:
        """The thresholds of a run (they depend on no joint or size: the tolerances are NVIDIA's absolute ones)."""
        fps = self.physics_fps

        def frames(seconds: float) -> int:
            return max(1, int(round(seconds * fps)))

        return StabilityThresholds(
            rest_tolerance=self.rest_tolerance_m, rotation_tolerance=self.si("rotation_tolerance_deg"),
            window_frames=frames(self.rest_detection_hold_seconds), deadline_frames=frames(self.rest_detection_max_seconds),
            tilted_deadline_frames=frames(self.tilted_rest_max_seconds),
            tail_frames=int(round(self.simulate_after_result_seconds * fps)), tilt=math.radians(self.tilt_angle_deg),
            com_outside_fraction=self.com_outside_fraction, min_inertia_ratio=self.min_inertia_ratio,
            max_inertia_ratio=self.max_inertia_ratio, divergence=self.DIVERGENCE_M, fps=fps)
