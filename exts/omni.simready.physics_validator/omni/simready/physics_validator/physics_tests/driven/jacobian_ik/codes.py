"""jacobian_ik's verdict codes (besides the driven family's: OK, NO_DOF_JOINT, NO_ARTICULATION, NO_COLLIDER, EXPLODED ...)."""

from ....core.codes import VerdictCode


class JacobianIkCode(VerdictCode):
    GRIPPER = "GRIPPER"  # NOT_APPLICABLE: a gripper (isaac:robotType, or a gripper site with one independent joint)
    NO_END_EFFECTOR = "NO_END_EFFECTOR"  # SKIP: no robotLinks, and several tips equally deep that no site chooses between
    CHAIN_OUTSIDE_ARTICULATION = "CHAIN_OUTSIDE_ARTICULATION"  # SKIP: driven joints hang on the arm outside its articulation
    NO_JACOBIAN = "NO_JACOBIAN"  # SKIP: the engine gives no articulation Jacobian
    CHAIN_NOT_DRIVEN = "CHAIN_NOT_DRIVEN"  # SKIP: a joint between the base and the end effector cannot be commanded
    NO_CLEAR_POSE = "NO_CLEAR_POSE"  # SKIP: every sampled pose brings two of the arm's links together
    KINEMATICS_DISAGREE = "KINEMATICS_DISAGREE"  # ERROR: the joint frames do not place the end effector where the runtime does
    TARGETS_MISSED = "TARGETS_MISSED"  # FAIL: fewer reachable targets reached than min_pass_rate
    UNREACHABLE_REACHED = "UNREACHABLE_REACHED"  # FAIL: a target beyond the arm's reach read as reached
    JOINT_BLOCKED = "JOINT_BLOCKED"  # a row: the joint stopped short of its command where a target was missed
