"""What `fix` may do about velocity_limit's failures: carry a legacy velocity spelling to the per-axis one the
runtime parses; nothing else. The cap (or the actuator that presses it) is the author's choice, and stiffer or
stronger drives would only press it harder."""

from ....core.codes import ExclusionCode
from ..codes import DrivenCode
from ..fix_rules import EXPLODED_WHY, DrivenFixRules
from .codes import VelocityLimitCode as Code


def _cap_is_authors(row) -> str:
    return (f"{row.reason}: the cap (or the actuator that presses it) is the author's choice; stiffer or stronger "
            "drives would press it harder")


class VelocityLimitFixRules(DrivenFixRules):
    migrated = frozenset({Code.OVERSPEED_UNPARSED_SPELLING.value})
    not_fixable = {
        DrivenCode.EXPLODED.value: ("exploded", EXPLODED_WHY),
        Code.OVERSPEED.value: ("velocity_cap_exceeded", _cap_is_authors),
        Code.OVERSPEED_NEWTON_ONLY.value: ("velocity_cap_exceeded", _cap_is_authors),
        Code.OVERSPEED_UNPARSED_SPELLING.value: ("velocity_cap_exceeded", _cap_is_authors),
        Code.OVERSPEED_UNCAPPED_RUNTIME.value: ("velocity_cap_exceeded", _cap_is_authors),
        Code.OVERSPEED_OUTSIDE_ARTICULATION.value: ("outside_articulation", _cap_is_authors),
    }
    exclusions_not_fixable = {
        ExclusionCode.NO_VELOCITY_LIMIT.value: ("no_velocity_limit", "no velocity limit authored: the cap is the actuator's, "
                                                                     "which the author must choose "
                                                                     "(physxJointAxis:<axis>:maxJointVelocity)"),
    }


FIX_RULES = VelocityLimitFixRules()
