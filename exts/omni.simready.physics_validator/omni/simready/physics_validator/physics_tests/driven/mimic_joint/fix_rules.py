"""What `fix` may do about mimic_joint's failures: a reference whose drive cannot sweep it is a drive-tuning job;
a coupling that is wrong (sign, ratio, offset, limits) or not simulated is not a drive value's to fix."""

from ..fix_rules import EXPLODED_WHY, DrivenFixRules

COUPLING_WHY = ("the mimic coupling itself (its gearing sign or ratio, its offset, or the joints' limits), which no drive "
                "value changes")


class MimicJointFixRules(DrivenFixRules):
    not_fixable = {
        "EXPLODED": ("exploded", EXPLODED_WHY),
        "NOT_FOLLOWING": ("mimic", COUPLING_WHY),
        "WRONG_DIRECTION": ("mimic", COUPLING_WHY),
        "GEAR_MISMATCH": ("mimic", COUPLING_WHY),
        "OFFSET_MISMATCH": ("mimic", COUPLING_WHY),
        "LIMITS_INCOMPATIBLE": ("mimic", COUPLING_WHY),
        "COUPLING_REJECTED": ("mimic", "the mimic coupling's reference, which no drive value changes"),
    }


FIX_RULES = MimicJointFixRules()
