"""Fix hints chosen from verdict codes, never from the wording of a reason.

A test declares one `HintTable` (its folder's hints.py): for each code the hints to show, in order. A hint
is a sentence, or a function when it must name something of the asset: called with the joint row for a row's
hints (an attribute's spelling, an axis), with the test's `TestContext` for a verdict's (e.g. a USD snippet
for each joint that has no drive), and with None where neither is known; it returns "" to give no hint. Two rules cover the cases
where one finding changes the advice for another: a code's
hints are left out when a code that explains it is also present (`suppressed_by`: a dead drive explains a
missed endpoint), and an `exclusive` code's hints replace all others (an explosion makes the rest moot).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, AbstractSet, Callable, Iterable, Mapping, Union

from .codes import code_value

if TYPE_CHECKING:
    from .results import JointRow

Hint = Union[str, Callable[[object], str]]  # a function of the row, the TestContext (verdicts) or None


@dataclass(frozen=True)
class HintTable:
    by_code: Mapping[str, tuple[Hint, ...]] = field(default_factory=dict)
    suppressed_by: Mapping[str, AbstractSet[str]] = field(default_factory=dict)
    exclusive: frozenset[str] = frozenset()

    def __post_init__(self) -> None:  # enum members and strings alike: keys are code values
        object.__setattr__(self, "by_code", {code_value(k): tuple(v) for k, v in self.by_code.items()})
        object.__setattr__(self, "suppressed_by", {code_value(k): frozenset(code_value(c) for c in v)
                                                   for k, v in self.suppressed_by.items()})
        object.__setattr__(self, "exclusive", frozenset(code_value(c) for c in self.exclusive))

    def for_codes(self, codes: Iterable, row: "JointRow | object | None" = None) -> list[str]:
        """The hints for these codes, in code order, each once; `row` is what a hint function is called with."""
        present = [code_value(c) for c in codes]
        chosen = [c for c in present if c in self.exclusive] or present
        out: list[str] = []
        for code in chosen:
            if self.suppressed_by.get(code, frozenset()) & set(present):
                continue
            for hint in self.by_code.get(code, ()):
                text = hint(row) if callable(hint) else hint
                if text and text not in out:
                    out.append(text)
        return out
