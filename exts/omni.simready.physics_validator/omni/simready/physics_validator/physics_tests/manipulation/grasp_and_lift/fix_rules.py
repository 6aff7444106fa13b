"""What `fix` may do about grasp_and_lift's failures: nothing. Masses, friction and colliders decide them."""

from ....core.fix_rules import FixRules


class GraspFixRules(FixRules):
    result_not_fixable = ("not_drive", "judges a prop's mass, friction and colliders, which no drive value changes")


FIX_RULES = GraspFixRules()
