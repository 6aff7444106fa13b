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


class ExclusionCode(str, Enum):
    """Why a test left a joint out (`TestResult.excluded_joints[].code`): machines read these, the sentence beside
    each (`ExcludedJoint.why`) is for people. The value is what the JSON report holds; its lower-case form names the
    count metric (`joints_excluded_<code>`)."""

    DISABLED = "DISABLED"  # physics:jointEnabled = false
    UNSUPPORTED_TYPE = "UNSUPPORTED_TYPE"  # a multi-axis joint (D6, spherical)
    MIMIC_FOLLOWER = "MIMIC_FOLLOWER"  # moves with its mimic reference
    LOOP_CLOSING = "LOOP_CLOSING"  # closes a kinematic loop (excludeFromArticulation)
    LOCKED = "LOCKED"  # lowerLimit >= upperLimit
    PASSIVE = "PASSIVE"  # no drive with stiffness or damping > 0, no actuator targets it
    VELOCITY_DRIVE = "VELOCITY_DRIVE"  # a velocity drive, in a test that commands positions
    ACTUATOR_ONLY = "ACTUATOR_ONLY"  # driven only by an actuator prim this engine does not simulate
    NOT_SIMULATED = "NOT_SIMULATED"  # the engine does not simulate it as a degree of freedom
    NO_LIMITS = "NO_LIMITS"  # no finite lower and upper limit, in a test that needs both
    NO_VELOCITY_LIMIT = "NO_VELOCITY_LIMIT"  # no velocity limit, in the test that judges one
    NOT_REQUESTED = "NOT_REQUESTED"  # not in the run's joint filter (config key `joints`)
    NO_REFERENCE = "NO_REFERENCE"  # a mimic follower whose reference is not an enabled revolute or prismatic joint

    def __str__(self) -> str:
        return self.value

    @property
    def metric(self) -> str:
        """The count metric of this exclusion: `joints_excluded_<code, lower case>`."""
        return f"joints_excluded_{self.value.lower()}"


def code_value(code: "str | Enum | None") -> str:
    """The string a code is written as (an enum member's value, a plain string as it is, None as '')."""
    if code is None:
        return ""
    return code.value if isinstance(code, Enum) else str(code)
