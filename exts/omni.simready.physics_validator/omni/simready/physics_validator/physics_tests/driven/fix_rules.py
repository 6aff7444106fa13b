"""What `fix` may do about the driven-joint tests' failures, shared: a failing joint row is a drive-tuning job,
except an explosion, which masses, inertias or limits cause and no drive value cures. Each test's fix_rules.py
refines this."""

from ...core.fix_rules import FixRules
from .codes import DRIVE_LESS, DrivenCode

EXPLODED_WHY = ("the simulation exploded: masses, inertias or limits, not drive values (a stiffer drive would not help; "
                "check every body's mass and inertia)")


class DrivenFixRules(FixRules):
    result_not_fixable = None  # judged row by row
    not_fixable = {"EXPLODED": ("exploded", EXPLODED_WHY)}
    adds_drives_on = frozenset({DrivenCode.NOTHING_TO_TEST.value})  # every driven joint passive or actuator-only
    drive_less = DRIVE_LESS
