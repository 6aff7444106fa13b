"""Each plausibility finding beside the verdicts it explains: a finding on a body or joint explains a failing row of
the joint that moves it (structure.moving_joints) in every test that declares the finding's code among what can decide
its verdicts (`PhysicsTest.plausibility`), and a failing verdict of such a test with no rows when the body moves free.
The row carries the finding's code after its own (`JointRow.codes`), its reason and the verdict's name it, the fix comes
first among the hints, and the runtime's own record of it (a warning every test carried) leaves the tests' warnings:
it is the finding's. A code that qualifies a pass (a sweep over a 0.7 deg range) is named beside a PASS row too. Pure
logic over the records; idempotent (run after every test, and again when a worker's results are gathered): a row that
carries the code is done."""

from __future__ import annotations

from ..plugin import TestRegistry
from ..results import AssetResult, JointRow, PlausibilityFinding, TestResult
from ..status import Status
from .codes import RULES, PlausibilityCode

FAILING = (Status.FAIL, Status.WARN)
# "cause" where the runtime cannot use the value as authored (severity error), "possible cause" where it can
CAUSE = " — {what} ({code}): {message}"
NOTE = " — note ({code}): {message}"  # beside a PASS the finding qualifies (it proves less than it says)


def link(result: AssetResult, registry: TestRegistry) -> None:
    block = result.plausibility
    if block is None:
        return
    for found in block.findings:
        found.explains = []
    for test in result.tests:
        declared = declared_codes(registry, test.name)
        for found in block.findings:
            if found.code in declared:
                _link_test(test, found)
            if found.runtime_record:  # the runtime's record is the finding's, not a warning of every test
                test.warnings = [w for w in test.warnings if found.runtime_record not in w]


def explained(test: TestResult, found: PlausibilityFinding) -> tuple[list[JointRow], bool]:
    """(the rows of `test` the finding explains, whether it explains the test's verdict with no rows: a body that moves
    free), for a test that declares the finding's code: a failing row of a joint that moves what it is about, or a
    PASS row it qualifies."""
    qualifies = RULES[PlausibilityCode(found.code)].qualifies_pass
    rows = [r for r in test.joints if r.path in found.joints
            and (r.status in FAILING or (qualifies and r.status == Status.PASS))]
    return rows, not test.joints and not found.joints and test.status in FAILING


def _link_test(test: TestResult, found: PlausibilityFinding) -> None:
    what = "cause" if found.severity == "error" else "possible cause"
    cause = CAUSE.format(what=what, code=found.code, message=found.message)
    rows, free = explained(test, found)
    fresh = False
    for row in rows:
        found.explains.append(f"{test.name} {row.status.value}: {row.joint}")
        failing = row.status in FAILING
        fresh |= _name_on_row(row, found, cause if failing else NOTE.format(code=found.code, message=found.message),
                              failing)
    if free:
        found.explains.append(f"{test.name} {test.status.value}")
        fresh = found.fix not in test.fix_hints
    if fresh and (free or any(r.status in FAILING for r in rows)):
        test.reason += cause
        if found.fix:
            test.fix_hints.insert(0, found.fix)


def _name_on_row(row: JointRow, found: PlausibilityFinding, text: str, failing: bool) -> bool:
    """Name the finding on the row once (its code joins the row's codes); True when it was not named before."""
    if found.code in row.codes:
        return False
    row.codes.append(found.code)
    row.reason += text
    if failing and found.fix:
        row.fix_hints.insert(0, found.fix)
    return True


def declared_codes(registry: TestRegistry, name: str) -> frozenset[str]:
    """The plausibility codes that can decide test `name`'s verdicts (`PhysicsTest.plausibility`)."""
    try:
        return frozenset(registry.get(name).plausibility)
    except Exception:  # noqa: BLE001 - a test this registry does not know links nothing
        return frozenset()
