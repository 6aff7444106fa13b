"""What `fix` may do about slope_drop's failures: nothing. Collision geometry, materials and masses decide them."""

from ....core.fix_rules import FixRules


class SlopeDropFixRules(FixRules):
    result_not_fixable = ("not_drive", "judges collision geometry, friction and mass, which no drive value changes")


FIX_RULES = SlopeDropFixRules()
