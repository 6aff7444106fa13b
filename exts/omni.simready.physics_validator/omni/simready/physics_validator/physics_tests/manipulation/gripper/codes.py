"""The gripper tests' verdict codes (gripper_close_lift_sphere and _cube give the same)."""

from ....core.codes import VerdictCode


class GripperCode(VerdictCode):
    OK = "OK"  # PASS: closed on the object, lifted, shook and released it
    NO_GRIPPER_SITE = "NO_GRIPPER_SITE"  # NOT_APPLICABLE (no gripper claimed) or SKIP (a gripper without a site)
    INCOMPLETE_SITE = "INCOMPLETE_SITE"  # PRECHECK_FAILURE: a site without forward axis, grip line, maxOpening or body
    NO_JAW_DRIVE = "NO_JAW_DRIVE"  # PRECHECK_FAILURE: no driven jaw joint downstream of the site's body
    UNSUPPORTED_TOPOLOGY = "UNSUPPORTED_TOPOLOGY"  # SKIP: more than two independent jaw joints (a hand)
    NO_RIG = "NO_RIG"  # SKIP: the engine simulates a stage open elsewhere, not the test's rig
    JAW_REVERSED = "JAW_REVERSED"  # FAIL: a jaw's lower limit closes the fingers and its upper opens them (FET028: lower = open)
    OPEN_NOT_REACHED = "OPEN_NOT_REACHED"  # FAIL: a jaw did not reach its open limit
    CLOSED_ON_NOTHING = "CLOSED_ON_NOTHING"  # FAIL: the jaws closed to their limit without the object between them
    OBJECT_PUSHED_AWAY = "OBJECT_PUSHED_AWAY"  # FAIL: after the close the object is not between the jaws
    NOT_LIFTED = "NOT_LIFTED"  # FAIL: the gripper rose and the object stayed on the floor (never held)
    DROPPED = "DROPPED"  # FAIL: the object fell out during the lift, hold or shake
    SLIPPED = "SLIPPED"  # FAIL: the object moved in the grip by more than max_slip
    NOT_RELEASED = "NOT_RELEASED"  # FAIL: opened again, the jaws did not let it fall
    GANTRY_SHORT = "GANTRY_SHORT"  # ERROR: the test's gantry lifted less than min_gantry_lift (the rig, not the asset)
