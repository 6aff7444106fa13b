"""ground_drop's verdict codes."""

from ....core.codes import VerdictCode


class GroundDropCode(VerdictCode):
    OK = "OK"  # PASS: touched, did not sink, came to rest in time
    WORLD_ANCHORED = "WORLD_ANCHORED"  # NOT_APPLICABLE: joints hold every body to the world
    NO_RIGID_BODY = "NO_RIGID_BODY"  # PRECHECK_FAILURE
    NO_COLLIDER = "NO_COLLIDER"  # PRECHECK_FAILURE: no collider on any rigid body
    DIVERGED = "DIVERGED"  # FAIL: bounds NaN or exploded
    PENETRATED = "PENETRATED"  # FAIL: sank below the floor margin after touching
    NEVER_TOUCHED = "NEVER_TOUCHED"  # FAIL: never reached the floor
    HELD_UP_BY_SCENERY = "HELD_UP_BY_SCENERY"  # FAIL: never touched; static colliders of its own moved with it
    COLLISIONS_DISABLED = "COLLISIONS_DISABLED"  # FAIL: fell through or never touched, every collider disabled
    NOT_AT_REST = "NOT_AT_REST"  # FAIL: touched but kept moving past the deadline
    KINEMATIC_BODY = "KINEMATIC_BODY"  # FAIL (before stepping): a kinematic part does not fall with the rest
    # FAIL (before stepping): a part the runtime builds static (rigidBodyEnabled = false) or leaves gravity off
    # (physxRigidBody:disableGravity): it would hang where it is released
    DOES_NOT_FALL = "DOES_NOT_FALL"
