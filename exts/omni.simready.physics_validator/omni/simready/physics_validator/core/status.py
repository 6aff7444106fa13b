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


# Worst first: the one order every roll-up, sort and table of verdicts uses (`severity`).
SEVERITY_ORDER = [
    Status.ERROR,
    Status.PRECHECK_FAILURE,
    Status.FAIL,
    Status.WARN,
    Status.PASS,
    Status.SKIP,
    Status.NOT_APPLICABLE,
]


def severity(status) -> int:
    """The rank of `status` in SEVERITY_ORDER (0 = worst); a label such as "PASS*" ranks as its status."""
    return SEVERITY_ORDER.index(Status(str(getattr(status, "value", status)).rstrip("*")))


def worst(statuses) -> Status | None:
    """The most severe status in `statuses` (None when empty)."""
    found = set(statuses)
    for status in SEVERITY_ORDER:
        if status in found:
            return status
    return None


# The asset headline when a test that applies could not run (a SKIP) and nothing failed or warned: the asset is
# not a passed asset, whatever did pass (a robot imported without drives: its driven-joint tests SKIP).
INCOMPLETE = "INCOMPLETE"


def asset_verdict(statuses, fail_on_skip: bool = False) -> str:
    """An asset's headline from its tests' verdicts: the worst, except that PASS needs every test that applies to
    have run. PASS beside a SKIP reads INCOMPLETE; with `fail_on_skip` a SKIP fails the run, so it outranks PASS
    and WARN and the headline reads SKIP. NOT_APPLICABLE tests do not concern the asset and count for nothing.
    '' when there is no verdict."""
    found = {Status(s) for s in statuses}
    order = list(SEVERITY_ORDER)
    if fail_on_skip:
        order.remove(Status.SKIP)
        order.insert(order.index(Status.WARN), Status.SKIP)
    top = next((s for s in order if s in found), None)
    if top is None:
        return ""
    if top is Status.PASS and Status.SKIP in found:
        return INCOMPLETE
    return top.value


class ExitCode(int, Enum):
    """CLI exit codes: documented in docs/cli.md."""

    OK = 0
    FAILED = 1
    USAGE = 2
    ERROR = 3


class UsageError(ValueError):
    """A command-line problem the user must fix before anything runs (exit code 2): said as one line, no traceback."""


def exit_code_for(statuses, fail_on_skip: bool = False) -> ExitCode:
    """The worst verdict as an exit code; with `fail_on_skip` a SKIP (nothing validated) counts as a failure."""
    statuses = list(statuses)
    if any(s == Status.ERROR for s in statuses):
        return ExitCode.ERROR
    if any(s.is_failure for s in statuses):
        return ExitCode.FAILED
    if fail_on_skip and any(s == Status.SKIP for s in statuses):
        return ExitCode.FAILED
    return ExitCode.OK


# Warnings about the tool's own output (no video, replay, timeline or series written: a full disk, no renderer) say
# nothing about the asset.
TOOL_WARNING_PREFIXES = ("video:", "replay:", "timeline:", "series:")


def asset_warnings(result) -> list[str]:
    """The warnings of a test result that are about the asset (recording problems left out)."""
    return [w for w in (getattr(result, "warnings", None) or []) if not str(w).startswith(TOOL_WARNING_PREFIXES)]


def verdict_label(result) -> str:
    """The verdict as shown in tables: "PASS*" for a PASS carrying warnings about the asset, else the status.

    The one place that decides the marker, for the console, the HTML grid and JUnit properties alike.
    """
    status = Status(result.status)
    if status is Status.PASS and asset_warnings(result):
        return "PASS*"
    return status.value


def verdict_text(result) -> str:
    """The verdict in words: "PASS with 8 warnings" for a marked PASS, else the status."""
    label = verdict_label(result)
    if label != "PASS*":
        return label
    count = len(asset_warnings(result))
    return f"PASS with {count} warning{'s' if count != 1 else ''}"
