"""ground_stability's verdict codes."""

from ....core.codes import VerdictCode


class GroundStabilityCode(VerdictCode):
    OK = "OK"  # PASS: released upright (and tilted), every moving part came to rest in time
    WORLD_ANCHORED = "WORLD_ANCHORED"  # NOT_APPLICABLE: joints hold every body to the world
    NO_RIGID_BODY = "NO_RIGID_BODY"  # PRECHECK_FAILURE
    NO_COLLIDER = "NO_COLLIDER"  # PRECHECK_FAILURE: no collider on any rigid body
    KINEMATIC_BODY = "KINEMATIC_BODY"  # FAIL (before stepping): a kinematic part stays put: its rest proves nothing
    # FAIL (before stepping): a part the runtime builds static (rigidBodyEnabled = false) or leaves gravity off
    DOES_NOT_FALL = "DOES_NOT_FALL"
    DIVERGED = "DIVERGED"  # FAIL: bounds or poses NaN or exploded
    NOT_AT_REST = "NOT_AT_REST"  # FAIL: released upright, a part still moved or turned past the deadline
    TILTED_NOT_AT_REST = "TILTED_NOT_AT_REST"  # FAIL: released tilted, a part still moved or turned past the deadline
    # FAIL: a body's centre of mass (as the runtime built it) lies outside its colliders' box
    COM_OUTSIDE_BODY = "COM_OUTSIDE_BODY"
    # FAIL: a body's inertia (as the runtime built it) is a small fraction of what its shape gives at its mass
    INERTIA_TOO_SMALL = "INERTIA_TOO_SMALL"
    # FAIL: a release did not settle, and the body's inertia is many times what its shape gives (a placeholder)
    INERTIA_TOO_LARGE = "INERTIA_TOO_LARGE"
