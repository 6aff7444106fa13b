"""ik_target_reach's verdict codes (besides the driven family's prechecks)."""

from ....core.codes import VerdictCode


class IkTargetReachCode(VerdictCode):
    GRIPPER = "GRIPPER"  # NOT_APPLICABLE: a gripper, no arm
    LULA_UNAVAILABLE = "LULA_UNAVAILABLE"  # SKIP: Lula (and a robot descriptor) exist only inside Isaac Sim
