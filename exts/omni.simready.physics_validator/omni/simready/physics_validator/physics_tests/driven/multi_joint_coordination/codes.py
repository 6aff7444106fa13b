"""multi_joint_coordination's own codes (the family's are in driven/codes.py)."""

from ....core.codes import VerdictCode


class MultiJointCoordinationCode(VerdictCode):
    # NOT_APPLICABLE: fewer than two independently movable joints (mimic followers move with their reference)
    ONE_MOVABLE_JOINT = "ONE_MOVABLE_JOINT"
    TOO_FEW_JOINTS = "TOO_FEW_JOINTS"  # SKIP: movable joints enough, but fewer than two driven ones with limits
    NOT_CONVERGED = "NOT_CONVERGED"  # a row: at the end of an iteration the joint was farther than its tolerance
