"""One finding record from its code: the rule's requirement, severity and fix filled in once (codes.RULES)."""

from __future__ import annotations

from ..results import PlausibilityFinding
from .codes import RULES, PlausibilityCode


def finding(code: PlausibilityCode, **fields) -> PlausibilityFinding:
    rule = RULES[code]
    return PlausibilityFinding(code=code.value, requirement=rule.requirement, severity=rule.severity, fix=rule.fix,
                               **fields)
