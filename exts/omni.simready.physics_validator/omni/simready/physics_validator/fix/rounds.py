"""Before/after: what a re-run with the fix layer fixed, broke and left failing, and the next round's plan.

"Broken" is strict: a test that was PASS before and is anything else with the layer, or a joint row that was
PASS before and is FAIL or WARN with it. A layer with anything broken is never accepted.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

from ..core.status import Status
from .diagnose import FAILING

if TYPE_CHECKING:
    from ..core.results import AssetResult
    from .overlaps import OverlapTrial
    from .rules import Proposal

FORWARD_COMPAT = "Author physxJointAxis"  # the isaacsim-5 carry-over warning of a legacy spelling (engines/physx/legacy.py)


@dataclass
class Round:
    """One proposed layer and what its re-run said."""

    index: int
    proposals: dict[str, "Proposal"]  # joint path -> proposal (changed ones)
    migrate: dict[str, list[str]]  # joint path -> legacy attributes carried per axis
    layer: Path
    composed: Path
    negate: dict[str, list[str]] = field(default_factory=dict)  # joint path -> why its axis is negated (fix/jaw_axis.py)
    filtered: "OverlapTrial | None" = None  # rest overlaps the layer filters (fix/overlaps.py), with why
    after: "AssetResult | None" = None
    fixed: list[str] = field(default_factory=list)  # tests FAIL/WARN -> PASS
    improved: list[str] = field(default_factory=list)  # tests FAIL -> WARN
    judged: list[str] = field(default_factory=list)  # tests SKIP -> PASS: drives added where there were none
    unblocked: list[str] = field(default_factory=list)  # tests PRECHECK_FAILURE -> PASS: the layer let them run (jaw drives)
    broken: list[str] = field(default_factory=list)  # tests PASS -> anything else
    regressed: list[tuple[str, str]] = field(default_factory=list)  # (test, joint path) rows PASS -> FAIL/WARN
    worsened: list[tuple[str, str]] = field(default_factory=list)  # (test, joint path) rows WARN -> FAIL
    # (test, joint path) rows better: FAIL/WARN/SKIP/not judged -> PASS, FAIL -> WARN (a joint improved even where its
    # test's verdict did not change: joint by joint, a robot is not left with nothing where part of it is fixed)
    gained: list[tuple[str, str]] = field(default_factory=list)
    remaining: list[tuple[str, str]] = field(default_factory=list)  # (test, joint path) rows still FAIL/WARN
    # (test, joint) failing rows of a test that could not judge the joint before (SKIP): the first drives made a
    # verdict that fails. Worse than a SKIP, unless `fix` names the joint with a measured cause (`unnamed` empty)
    worse: list[tuple[str, str]] = field(default_factory=list)
    unnamed: list[tuple[str, str]] = field(default_factory=list)  # the `worse` rows on joints `fix` did not name
    # (test, joint) rows PASS -> FAIL/WARN on a joint whose maxForce had to rise because its measured load exceeds the
    # authored one: the raise comes first (a drive that cannot hold its load moves nothing the tests judge), and what
    # it exposes is named, not reverted
    exposed: list[tuple[str, str]] = field(default_factory=list)
    warnings_removed: int = 0
    kept_from: int = 0  # a round of only the joints round `kept_from` showed improving without breaking anything

    @property
    def clean(self) -> bool:
        """Nothing that passed fails, and nothing that could not be judged now fails on a joint `fix` did not name."""
        return self.after is not None and not self.broken and not self.regressed and not self.unnamed

    @property
    def worth(self) -> bool:
        return bool(self.fixed or self.improved or self.judged or self.unblocked or self.warnings_removed or self.gained)

    def score(self) -> tuple:
        return (len(self.fixed) + len(self.judged) + len(self.unblocked), len(self.improved), len(self.gained),
                self.warnings_removed, -len(self.remaining), -len(self.proposals), self.index)


def set_aside_exposed(rnd: Round, needs_force: set[str], path_of) -> None:
    """Move the regressed (PASS -> FAIL/WARN) and worsened (WARN -> FAIL) rows on joints in `needs_force` (joint paths
    whose load exceeds their authored maxForce) to `exposed`, and a broken test whose every row that got worse is such
    a row out of `broken` (a WARN for a drive too weak to move its joint, a FAIL once it can). `path_of` maps a row's
    joint (path or name) to its path."""
    rnd.exposed = [(t, j) for t, j in rnd.regressed + rnd.worsened if path_of(j) in needs_force]
    rnd.regressed = [item for item in rnd.regressed if item not in rnd.exposed]
    rnd.worsened = [item for item in rnd.worsened if item not in rnd.exposed]
    assert rnd.after is not None  # compared once it ran
    for test in list(rnd.broken):
        worse = [item for item in rnd.exposed + rnd.regressed + rnd.worsened if item[0] == test]
        if worse and all(item in rnd.exposed for item in worse):
            rnd.broken.remove(test)


def rows(result: "AssetResult") -> dict[tuple[str, str], Status]:
    """(test, joint path or name) -> the row's verdict."""
    out = {}
    for test in result.tests:
        for row in test.joints:
            out[(test.name, row.path or row.joint)] = row.status
    return out


def compare(before: "AssetResult", rnd: Round) -> None:
    after = rnd.after
    assert after is not None  # compared once it ran
    b_tests = {t.name: t for t in before.tests}
    for test in after.tests:
        old = b_tests.get(test.name)
        if old is None:
            continue
        if old.status in FAILING and test.status == Status.PASS:
            rnd.fixed.append(test.name)
        elif old.status == Status.SKIP and test.status == Status.PASS:
            rnd.judged.append(test.name)
        elif old.status == Status.PRECHECK_FAILURE and test.status == Status.PASS:
            rnd.unblocked.append(test.name)
        elif old.status == Status.FAIL and test.status == Status.WARN:
            rnd.improved.append(test.name)
        elif old.status == Status.PASS and test.status != Status.PASS:
            rnd.broken.append(test.name)
        elif old.status == Status.WARN and test.status in (Status.FAIL, Status.ERROR, Status.PRECHECK_FAILURE):
            rnd.broken.append(test.name)
        elif old.status == Status.SKIP and test.status in (Status.ERROR, Status.PRECHECK_FAILURE):
            rnd.broken.append(test.name)  # no row to name: the layer made the test unable to decide
        elif old.status == Status.SKIP and test.status in FAILING:
            rnd.worse += [(test.name, row.path or row.joint) for row in test.joints if row.status in FAILING]
        rnd.warnings_removed += max(0, _compat(old) - _compat(test))
    b_rows, a_rows = rows(before), rows(after)
    for key, status in a_rows.items():
        if status in FAILING:
            (rnd.regressed if b_rows.get(key) == Status.PASS else rnd.remaining).append(key)
            if status == Status.FAIL and b_rows.get(key) == Status.WARN:
                rnd.worsened.append(key)
        if better(b_rows.get(key), status):
            rnd.gained.append(key)


def better(before: Status | None, after: Status) -> bool:
    """A joint row that got better: anything (not judged included) -> PASS but PASS, or FAIL -> WARN."""
    return (after == Status.PASS and before != Status.PASS) or (after == Status.WARN and before == Status.FAIL)


def ledger(before: "AssetResult", rnd: Round, path_of) -> dict[str, tuple[set[str], set[str]]]:
    """Per joint the round changed: (the tests whose row of that joint got better, those whose row got worse), the
    re-run against the verdicts as authored. Better: FAIL/WARN/SKIP/not judged -> PASS, FAIL -> WARN. Worse: PASS ->
    FAIL/WARN, WARN -> FAIL, and a row that could not be judged before failing on a joint `fix` did not name; a row
    the maxForce its load needs exposed (`exposed`) is named, not worse."""
    assert rnd.after is not None  # a round that ran
    out: dict[str, tuple[set[str], set[str]]] = {p: (set(), set()) for p in rnd.proposals}
    b_rows = rows(before)
    unnamed = set(rnd.unnamed)
    for key, after in rows(rnd.after).items():
        test, joint = key
        path = path_of(joint)
        if path not in out or key in rnd.exposed:
            continue
        old = b_rows.get(key)
        gains, worse = out[path]
        if better(old, after):
            gains.add(test)
        elif (old == Status.PASS and after in FAILING) or (old == Status.WARN and after == Status.FAIL) or key in unnamed:
            worse.add(test)
    return out


def _compat(result) -> int:
    return sum(1 for w in result.warnings if FORWARD_COMPAT in w)


def best_round(rounds: list[Round]) -> Round | None:
    """The clean round that fixed most (then: improved most, fewest changes, latest), if it improved anything."""
    clean = [r for r in rounds if r.clean and r.worth]
    return max(clean, key=Round.score) if clean else None


def verdict_of(result: "AssetResult | None", test: str, joint_path: str, joint_name: str) -> Status | None:
    if result is None:
        return None
    for t in result.tests:
        if t.name != test:
            continue
        for row in t.joints:
            if joint_path in (row.path, row.joint) or row.joint == joint_name:
                return row.status
    return None
