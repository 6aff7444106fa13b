"""Verdict codes: what machines read of a verdict; reasons stay sentences for people.

Every verdict and every joint row carries a stable code. Each test declares its own as a `VerdictCode`
enum in its folder (`physics_tests/<family>/<test>/codes.py`); the codes below are the framework's own,
given when a test could not decide (it raised, hung, or the asset could not be read). Reports, hints and
`fix` act on codes, so a reworded reason never changes what they do.
"""

from __future__ import annotations

from enum import Enum


class VerdictCode(str, Enum):
    """Base of every test's code enum: the value is the code written to the JSON report."""

    def __str__(self) -> str:
        return self.value


class CommonCode(VerdictCode):
    """Codes the framework gives, whatever the test."""

    NO_VERDICT = "NO_VERDICT"  # the test ended without deciding (ERROR)
    TEST_RAISED = "TEST_RAISED"  # the test or the engine raised while running (ERROR)
    HANG = "HANG"  # a physics step took longer than the watchdog (ERROR)
    NO_DECISION_IN_TIME = "NO_DECISION_IN_TIME"  # still stepping after max_test_seconds (ERROR)
    ENGINE_UNAVAILABLE = "ENGINE_UNAVAILABLE"  # the engine could not be created (ERROR)
    WORKER_CRASHED = "WORKER_CRASHED"  # the worker process running the test died (ERROR)
    RUN_LOST = "RUN_LOST"  # the executor lost the asset, e.g. a cluster node died (ERROR)
    ABORTED = "ABORTED"  # the live run was stopped from outside (timeline, stage closed) (ERROR)
    ASSET_CONTENT = "ASSET_CONTENT"  # broken authored values: NaN mass, zero-volume collider... (PRECHECK_FAILURE)
    UNLOADABLE = "UNLOADABLE"  # the asset cannot be opened or read (PRECHECK_FAILURE)


def code_value(code: "str | Enum | None") -> str:
    """The string a code is written as (an enum member's value, a plain string as it is, None as '')."""
    if code is None:
        return ""
    return code.value if isinstance(code, Enum) else str(code)
