"""What `fix` may do about ground_stability's failures: an inertia far from its shape's is `fix --shape-inertia`'s (the
plausibility checks' proposal, the colliders' solid at the runtime mass, proved by the re-run); the rest (settling, a
centre of mass outside the body) is no drive value and no inertia: the hints say what to change."""

from __future__ import annotations

from typing import TYPE_CHECKING

from ....core.codes import code_value
from ....core.fix_rules import FixRules
from ....core.status import Status
from .codes import GroundStabilityCode as Code

if TYPE_CHECKING:
    from ....core.results import TestResult

SHAPE_INERTIA = frozenset({Code.INERTIA_TOO_LARGE.value, Code.INERTIA_TOO_SMALL.value})


class GroundStabilityFixRules(FixRules):
    result_not_fixable = ("not_drive", "judges settling, centre of mass and inertia, which no drive value changes")

    def fix_flags(self, result: "TestResult") -> list[str] | None:
        """`--shape-inertia` for a failure an inertia far from its shape's decided; nothing `fix` changes otherwise."""
        if result.status == Status.FAIL and code_value(result.code) in SHAPE_INERTIA:
            return ["--shape-inertia"]
        return None


FIX_RULES = GroundStabilityFixRules()
