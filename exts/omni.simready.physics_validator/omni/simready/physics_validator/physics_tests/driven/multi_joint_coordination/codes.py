"""multi_joint_coordination's own codes (the family's are in driven/codes.py)."""

from ....core.codes import VerdictCode


class MultiJointCoordinationCode(VerdictCode):
    TOO_FEW_JOINTS = "TOO_FEW_JOINTS"  # SKIP: fewer than two driven joints with limits: nothing to coordinate
    NOT_CONVERGED = "NOT_CONVERGED"  # a row: at the end of an iteration the joint was farther than its tolerance
