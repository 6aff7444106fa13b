"""What `fix` may do about ground_drop's failures: nothing. Collision, mass and settling are not drive values."""

from ....core.fix_rules import FixRules


class GroundDropFixRules(FixRules):
    result_not_fixable = ("not_drive", "judges collision, mass and settling, which no drive value changes")


FIX_RULES = GroundDropFixRules()
