"""The verdict set shared by every test, report and front end."""

from __future__ import annotations

from enum import Enum


class Status(str, Enum):
    PASS = "PASS"
    FAIL = "FAIL"
    WARN = "WARN"
    SKIP = "SKIP"
    NOT_APPLICABLE = "NOT_APPLICABLE"
    PRECHECK_FAILURE = "PRECHECK_FAILURE"
    ERROR = "ERROR"

    @property
    def is_failure(self) -> bool:
        """FAIL and PRECHECK_FAILURE mean the asset does not conform (exit code 1)."""
        return self in (Status.FAIL, Status.PRECHECK_FAILURE)

    @property
    def is_skipped(self) -> bool:
        """SKIP and NOT_APPLICABLE: nothing was validated. Never counted as a pass."""
        return self in (Status.SKIP, Status.NOT_APPLICABLE)


# Worst first: used to roll several statuses up into one.
SEVERITY_ORDER = [
    Status.ERROR,
    Status.PRECHECK_FAILURE,
    Status.FAIL,
    Status.WARN,
    Status.PASS,
    Status.SKIP,
    Status.NOT_APPLICABLE,
]


def worst(statuses) -> Status | None:
    """The most severe status in `statuses` (None when empty)."""
    found = set(statuses)
    for status in SEVERITY_ORDER:
        if status in found:
            return status
    return None


class ExitCode(int, Enum):
    """CLI exit codes: documented in docs/cli.md."""

    OK = 0
    FAILED = 1
    USAGE = 2
    ERROR = 3


def exit_code_for(statuses) -> ExitCode:
    statuses = list(statuses)
    if any(s == Status.ERROR for s in statuses):
        return ExitCode.ERROR
    if any(s.is_failure for s in statuses):
        return ExitCode.FAILED
    return ExitCode.OK
