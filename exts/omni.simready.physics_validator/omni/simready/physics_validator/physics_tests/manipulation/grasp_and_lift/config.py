"""grasp_and_lift's settings (docs/tests/grasp_and_lift.md; NVIDIA's 1.3.0 timings), each with its unit, and what
they make of one prop in SI (`thresholds_for`): the rig, the phases and the rows read that one object."""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import ClassVar

from pydantic import Field

from ....core.config import TestConfig
from ....core.setting_units import unit

G = 9.81  # m/s^2


@dataclass(frozen=True)
class GraspThresholds:
    """One prop's jaw and its judging, SI (N, m, s, rad)."""

    jaw_force: float  # N per jaw: safety x weight / (2 x design friction), within [min_jaw_force, max_jaw_force]
    force_capped: bool  # the prop is heavier than max_jaw_force holds at design_friction
    lift: float  # m
    position_tolerance: float  # m
    max_slip: float  # m
    floor_band: float  # m: a body's bottom this close to the floor during a hold has dropped
    min_rise: float  # m
    min_fall: float  # m (the larger of this and the body's height)
    max_line_slope: float  # rad from horizontal
    pads_touching: float  # m: the pads' inner faces this close touch each other (PADS_TOUCHING_GAP)


class GraspConfig(TestConfig):
    # The pads touch each other when their inner faces are this close (m): a contact's tolerance (PhysX's rest offset is
    # 0; the squeeze presses closed pads 0.0x mm into each other), fixed, not scaled with the prop: an 8 mm fin between
    # them keeps them 8 mm apart
    PADS_TOUCHING_GAP: ClassVar[float] = 0.0005
    grip_safety: float = Field(2.0, gt=0, description="The jaws squeeze this many times the force that holds the "
                                                      "prop's mass (as the runtime computed it) at design_friction.",
                               json_schema_extra=unit("ratio"))
    design_friction: float = Field(0.5, gt=0, description="The friction a prop's surface should at least have (plastic, "
                                                          "wood, metal); the jaw force assumes it.",
                                   json_schema_extra=unit("ratio"))
    max_jaw_force: float = Field(235.0, gt=0, description="The most a jaw squeezes (N; a Robotiq 2F-85's maximum grip "
                                                          "force): a prop heavier than that holds is too heavy to grasp.",
                                 json_schema_extra=unit("N"))
    min_jaw_force: float = Field(5.0, gt=0, description="The least a jaw squeezes (N).", json_schema_extra=unit("N"))
    pad_friction: float = Field(1.0, ge=0, description="Friction of the test's pads (a rubber pad); combined by 'min', so "
                                                       "on PhysX the prop's own friction decides up to it.",
                                json_schema_extra=unit("ratio"))
    settle_seconds: float = Field(1.0, ge=0, description="The prop settles on the floor this long before each line (s).",
                                  json_schema_extra=unit("s"))
    position_seconds: float = Field(2.0, gt=0, description="The jaws get this long to reach the grasp line (NVIDIA's) (s).",
                                    json_schema_extra=unit("s"))
    position_tolerance: float = Field(0.005, gt=0, description="... within this (NVIDIA's) (m).",
                                      json_schema_extra=unit("m"))
    close_speed: float = Field(0.04, gt=0, description="The jaws close at most this fast (NVIDIA's) (m/s).",
                               json_schema_extra=unit("m/s"))
    close_settle_seconds: float = Field(0.3, ge=0, description="Held closed before the lift (NVIDIA's) (s).",
                                        json_schema_extra=unit("s"))
    open_margin: float = Field(0.01, ge=0, description="The pads open this far outside the grasp line's ends (m).",
                               json_schema_extra=unit("m"))
    lift_factor: float = Field(2.0, gt=0, description="Lift: this many times the body's longest edge (NVIDIA's) ...",
                               json_schema_extra=unit("ratio"))
    lift_min: float = Field(0.3, gt=0, description="... at least this (m) ...", json_schema_extra=unit("m"))
    lift_max: float = Field(0.5, gt=0, description="... at most this (m).", json_schema_extra=unit("m"))
    lift_seconds: float = Field(1.0, gt=0, description="Lift duration, smoothstep (s).", json_schema_extra=unit("s"))
    min_rise: float = Field(0.02, gt=0, description="The body rises at least this during the lift (NVIDIA's) (m).",
                            json_schema_extra=unit("m"))
    hold_seconds: float = Field(1.0, ge=0, description="Each hold (NVIDIA's) (s).", json_schema_extra=unit("s"))
    floor_band: float = Field(0.02, ge=0, description="A body this close to the floor during a hold dropped (m).",
                              json_schema_extra=unit("m"))
    shake_radius: float = Field(0.01, ge=0, description="Horizontal circle of the shake (NVIDIA's) (m).",
                                json_schema_extra=unit("m"))
    shake_frequency: float = Field(2.0, gt=0, description="(Hz).", json_schema_extra=unit("Hz"))
    shake_seconds: float = Field(1.5, ge=0, description="(s).", json_schema_extra=unit("s"))
    shake_ramp_seconds: float = Field(0.25, ge=0, description="The shake eases in and out over this (s).",
                                      json_schema_extra=unit("s"))
    max_slip: float = Field(0.01, gt=0, description="The most the grasp line's midpoint may move in the jaws' frame "
                                                    "from the close to the end of the second hold (m; NVIDIA: a 10 cm "
                                                    "drop, a 5 cm separation).", json_schema_extra=unit("m"))
    open_seconds: float = Field(0.5, gt=0, description="(s).", json_schema_extra=unit("s"))
    fall_seconds: float = Field(3.0, gt=0, description="The body gets this long to fall after the release (s).",
                                json_schema_extra=unit("s"))
    min_fall: float = Field(0.05, gt=0, description="It falls at least this, or its height if larger (m).",
                            json_schema_extra=unit("m"))
    max_line_slope_deg: float = Field(45.0, gt=0, le=90, description="Grasp lines steeper than this are not exercised "
                                                                     "by the top-down jaw (deg).",
                                      json_schema_extra=unit("deg"))
    gantry_stiffness: float = Field(5e4, gt=0, description="(N/m; NVIDIA's).", json_schema_extra=unit("N/m"))
    gantry_max_force: float = Field(1e4, gt=0, description="(N; NVIDIA's).", json_schema_extra=unit("N"))

    def thresholds_for(self, mass: float, longest_edge: float) -> GraspThresholds:
        """The jaw and the judging of a prop of `mass` (kg) whose grasped body's longest edge is `longest_edge` (m)."""
        needed = self.grip_safety * mass * G / (2.0 * self.design_friction)
        force = min(self.max_jaw_force, max(self.min_jaw_force, needed))
        lift = min(self.lift_max, max(self.lift_min, self.lift_factor * longest_edge))
        return GraspThresholds(force, needed > self.max_jaw_force, lift, self.position_tolerance, self.max_slip,
                               self.floor_band, self.min_rise, self.min_fall, math.radians(self.max_line_slope_deg),
                               self.PADS_TOUCHING_GAP)
