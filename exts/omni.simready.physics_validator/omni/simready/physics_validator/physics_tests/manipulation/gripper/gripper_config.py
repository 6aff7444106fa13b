"""Settings the two gripper tests share (NVIDIA's FET028 1.4.0 defaults unless the docs page says otherwise), each with
its unit, and what they make of one gripper in SI (`thresholds_for`); each test's config.py sets its payload share."""

from __future__ import annotations

import math
from dataclasses import dataclass

from pydantic import Field

from ....core.config import TestConfig
from ....core.setting_units import unit


@dataclass(frozen=True)
class GripThresholds:
    """One gripper's object and its judging, SI (m, kg, s, physics steps)."""

    object_size: float  # m: sphere diameter or cube edge
    object_mass: float  # kg
    payload_from_heuristic: bool  # no maxPayload authored: NVIDIA's 50 kg per metre of opening
    max_slip: float  # m: the object's move in the gripper's frame from the end of the close
    drop_height: float  # m above the floor: lower and it dropped
    min_fall: float  # m: after the release it falls at least this far
    open_tolerance: float  # rad or m: a jaw within this of its open limit is open
    min_gantry_lift: float  # m: less and the rig failed (ERROR), not the grip
    stall_window: int  # steps: a jaw that moved less than stall_eps over this many steps stalled
    stall_eps: float
    engage_eps: float  # rad or m: a close counts as stalled only once it moved this far
    limit_fraction: float  # of a jaw's travel: this close to a limit, it is at it (opened; closed on nothing)
    convention_min_shift: float  # m: the fingers moved this far between the limits, or the convention is not told


class GripperConfig(TestConfig):
    object_size_fraction: float = Field(0.7, gt=0, lt=1, description="Object diameter or edge as a fraction of the "
                                                                      "site's maxOpening.",
                                        json_schema_extra=unit("fraction"))
    payload_mass_fraction: float = Field(0.5, gt=0, description="Object mass as a fraction of the site's maxPayload.",
                                         json_schema_extra=unit("fraction"))
    heuristic_payload_kg_per_m: float = Field(50.0, gt=0, description="Without maxPayload: payload per metre of opening "
                                                                      "(kg/m).", json_schema_extra=unit("kg/m"))
    heuristic_payload_min: float = Field(0.1, gt=0, description="... at least this (kg).", json_schema_extra=unit("kg"))
    heuristic_payload_max: float = Field(50.0, gt=0, description="... at most this (kg).", json_schema_extra=unit("kg"))
    object_friction: float = Field(2.0, ge=0, description="Static and dynamic friction of the object (NVIDIA's); its "
                                                          "material combines by 'min', so on PhysX the pads' own "
                                                          "friction decides.", json_schema_extra=unit("ratio"))
    spawn_clearance: float = Field(0.005, ge=0, description="The object starts this far above the floor (m).",
                                   json_schema_extra=unit("m"))
    approach_clearance: float = Field(0.03, ge=0, description="The gripper's lowest point starts this far above the "
                                                              "object (m).", json_schema_extra=unit("m"))
    floor_clearance: float = Field(0.002, ge=0, description="The descent stops with the gripper's lowest point this far "
                                                            "above the floor (m).", json_schema_extra=unit("m"))
    descent_speed: float = Field(0.1, gt=0, description="Gantry speed down to the grasp depth (m/s).",
                                 json_schema_extra=unit("m/s"))
    contact_shift: float = Field(0.003, gt=0, description="The object moved this far during the descent: contact, the "
                                                          "descent stops (m).", json_schema_extra=unit("m"))
    contact_backoff_fraction: float = Field(0.1, ge=0, description="After a contact the gantry backs up this fraction of "
                                                                   "maxOpening.", json_schema_extra=unit("fraction"))
    settle_seconds: float = Field(0.3, ge=0, description="Settling before the descent and after the close (s).",
                                  json_schema_extra=unit("s"))
    open_seconds: float = Field(1.5, gt=0, description="Time the jaws get to open (s).", json_schema_extra=unit("s"))
    open_tolerance: float = Field(0.025, gt=0, description="A jaw within this of its open limit is open (NVIDIA's 5 x "
                                                           "0.005), and within limit_fraction of its travel.",
                                  json_schema_extra=unit("rad or m"))
    close_seconds: float = Field(2.5, gt=0, description="Time the jaws get to close and stall (s).",
                                 json_schema_extra=unit("s"))
    stall_seconds: float = Field(0.035, gt=0, description="A jaw that moved less than stall_eps over this long stalled "
                                                            "(NVIDIA's 8 steps) (s).", json_schema_extra=unit("s"))
    stall_eps: float = Field(1e-3, gt=0, description="... (NVIDIA's).", json_schema_extra=unit("rad or m"))
    engage_eps: float = Field(2e-3, gt=0, description="A close stalls only after moving this far (NVIDIA's).",
                              json_schema_extra=unit("rad or m"))
    limit_fraction: float = Field(0.05, gt=0, lt=1, description="A jaw within this fraction of its travel from a limit "
                                                                "is at it: opened (open_tolerance caps it), or closed on "
                                                                "nothing.", json_schema_extra=unit("fraction"))
    convention_min_shift: float = Field(0.002, gt=0, description="Driven from one limit to the other, the fingers' "
                                                                 "colliders must move this far along the grip line for the "
                                                                 "test to tell which limit opens the jaw (m).",
                                        json_schema_extra=unit("m"))
    lift_height: float = Field(0.2, gt=0, description="Gantry lift (m).", json_schema_extra=unit("m"))
    lift_seconds: float = Field(1.0, gt=0, description="... over this long, smoothstep (s).", json_schema_extra=unit("s"))
    hold_seconds: float = Field(1.0, ge=0, description="Held after the lift (s).", json_schema_extra=unit("s"))
    shake_amplitude: float = Field(0.02, ge=0, description="Vertical shake amplitude (m).", json_schema_extra=unit("m"))
    shake_frequency: float = Field(2.0, gt=0, description="Shake frequency (Hz).", json_schema_extra=unit("Hz"))
    shake_seconds: float = Field(2.0, ge=0, description="Shake duration (s).", json_schema_extra=unit("s"))
    max_slip: float = Field(0.01, gt=0, description="The most the object may move in the gripper's frame from the end "
                                                    "of the close to the end of the shake (m; NVIDIA: 5 cm lift error, "
                                                    "3 cm shake slip).", json_schema_extra=unit("m"))
    drop_height: float = Field(0.02, ge=0, description="The object's bottom below this height after the lift: dropped "
                                                       "(m).", json_schema_extra=unit("m"))
    release_seconds: float = Field(1.0, gt=0, description="Time the object gets to fall after the jaws open (s).",
                                   json_schema_extra=unit("s"))
    min_fall: float = Field(0.05, gt=0, description="After the release the object falls at least this far (m).",
                            json_schema_extra=unit("m"))
    min_gantry_lift: float = Field(0.1, gt=0, description="The gantry must lift at least this far, or the rig failed "
                                                          "(ERROR) (m).", json_schema_extra=unit("m"))
    gantry_stiffness: float = Field(5e4, gt=0, description="The gantry drive's stiffness (N/m; NVIDIA's); its damping is "
                                                           "critical for the gripper and object it carries.",
                                    json_schema_extra=unit("N/m"))
    gantry_max_force: float = Field(1e4, gt=0, description="The gantry drive's force cap (N; NVIDIA's).",
                                    json_schema_extra=unit("N"))

    def payload(self, max_opening: float, max_payload: float | None) -> tuple[float, bool]:
        """(the object's mass in kg, whether NVIDIA's heuristic stood in for an authored maxPayload)."""
        if max_payload is not None and max_payload > 0:
            return self.payload_mass_fraction * max_payload, False
        rated = min(self.heuristic_payload_max, max(self.heuristic_payload_min, self.heuristic_payload_kg_per_m * max_opening))
        return self.payload_mass_fraction * rated, True

    def thresholds_for(self, max_opening: float, max_payload: float | None) -> GripThresholds:
        mass, heuristic = self.payload(max_opening, max_payload)
        return GripThresholds(self.object_size_fraction * max_opening, mass, heuristic, self.max_slip, self.drop_height,
                              self.min_fall, self.open_tolerance, self.min_gantry_lift,
                              max(1, int(math.ceil(self.stall_seconds * self.physics_fps))), self.stall_eps, self.engage_eps,
                              self.limit_fraction, self.convention_min_shift)
