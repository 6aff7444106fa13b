"""grasp_and_lift's verdict codes."""

from ....core.codes import VerdictCode


class GraspCode(VerdictCode):
    OK = "OK"  # PASS: at least one grasp line held through lift, hold, shake and hold, then released (a verdict or a line)
    NO_GRASP_LINES = "NO_GRASP_LINES"  # SKIP: no grasp_identifier_* curve on the asset
    NOT_A_PROP = "NOT_A_PROP"  # NOT_APPLICABLE: no lines on a robot or mechanism (a DOF joint, a gripper site, a robot type)
    NO_RIGID_BODY = "NO_RIGID_BODY"  # PRECHECK_FAILURE: grasp lines but nothing that moves
    NO_RIG = "NO_RIG"  # SKIP: the engine simulates a stage open elsewhere, not the test's rig
    ALL_LINES_FAILED = "ALL_LINES_FAILED"  # FAIL: no grasp line held (each line's code in its row)
    NOT_REACHED = "NOT_REACHED"  # a line: the jaws did not get to it within 5 mm in time
    PADS_MET = "PADS_MET"  # a line: the pads closed on each other (nothing of the body between them at the line)
    NOT_LIFTED = "NOT_LIFTED"  # a line: the body did not rise with the jaws
    DROPPED = "DROPPED"  # a line: the body fell out or sank to the floor during a hold or the shake
    SLIPPED = "SLIPPED"  # a line: the body moved in the jaws by more than max_slip
    NOT_RELEASED = "NOT_RELEASED"  # a line: opened, the jaws did not let the body fall
    VERTICAL_LINE = "VERTICAL_LINE"  # a line: steeper than 45 degrees, not exercised by the top-down jaw
