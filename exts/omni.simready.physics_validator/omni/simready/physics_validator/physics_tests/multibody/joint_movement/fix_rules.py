"""What `fix` may do about joint_movement's failures: nothing. The test drives every joint with a velocity drive of its
own, so the asset's drive values are not what it judges: a joint that does not move is held by its limits, its
geometry or its bodies."""

from ....core.fix_rules import FixRules


class JointMovementFixRules(FixRules):
    result_not_fixable = ("not_drive", "drives every joint with its own velocity drive: limits, geometry or bodies "
                                       "hold a joint that does not move, not drive values")


FIX_RULES = JointMovementFixRules()
