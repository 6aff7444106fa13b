"""slope_drop's verdict codes."""

from ....core.codes import VerdictCode


class SlopeDropCode(VerdictCode):
    OK = "OK"  # PASS: touched the ramp, moved downhill, stayed on it, did not sink into ramp or floor
    WORLD_ANCHORED = "WORLD_ANCHORED"  # NOT_APPLICABLE: a joint holds it to the world
    NO_RIGID_BODY = "NO_RIGID_BODY"  # PRECHECK_FAILURE
    NO_COLLIDER = "NO_COLLIDER"  # PRECHECK_FAILURE: no collider on any rigid body
    DIVERGED = "DIVERGED"  # FAIL: NaN or exploded bounds
    NO_CONTACT = "NO_CONTACT"  # FAIL: never reached the ramp
    SANK_INTO_RAMP = "SANK_INTO_RAMP"  # FAIL: its collision geometry went deeper into the ramp than the tolerance
    LAUNCHED = "LAUNCHED"  # FAIL: after contact it left the ramp's surface for longer than the confirmation time
    NO_SLIDE = "NO_SLIDE"  # FAIL: touched the ramp but moved less than min_downhill_travel down it
    PENETRATED_FLOOR = "PENETRATED_FLOOR"  # FAIL: after sliding, sank below the floor margin
