"""What `fix` may do about a test's failures, declared by the test (its folder's fix_rules.py), by code.

`fix` (above the tests) reads only these rules and the verdict codes: it never matches a reason or names a
test. For each failing joint row the rules say whether drive values (stiffness, damping, maxForce) can fix
it, whether the velocity-spelling migration does, or why nothing `fix` changes can (a cause code and a
sentence). They also say what the re-run will judge a joint by (`JointAllowance`), so a proposal is sized
against the same tolerances the test applies.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Callable, Mapping, Union

from .codes import code_value

if TYPE_CHECKING:
    from .asset_model import JointInfo
    from .config import TestConfig
    from .results import JointRow, TestResult

Why = Union[str, Callable[["JointRow"], str]]


@dataclass
class JointAllowance:
    """For one joint: where the selected tests take it and how far a load may deflect it there (SI)."""

    hold: float  # the held target (authored drive target clamped into the limits)
    ends: dict[str, float] = field(default_factory=dict)  # endpoints a test drives it to: "max", "min"
    ends_test: str = ""  # the test those endpoints are its (named when one is blocked)
    fps: float = 240.0  # physics rate of the test that drives it to its endpoints
    deflections: list[tuple[str, str, float]] = field(default_factory=list)  # (pose, what, tolerance)
    effort_tolerance: float = math.nan  # deflection allowed under a test load
    effort_force: float = 0.0  # that test load (N)
    load_test: str = ""  # the test applying it
    sweep_accel: float = 0.0  # peak commanded acceleration (rad/s^2 or m/s^2)
    unit_suspect: bool = False  # revolute range < 1°: limits authored in radians, read as degrees


@dataclass(frozen=True)
class RowAction:
    """What `fix` does about one failing row: tune the joint's drive (`tune`), leave it to the velocity-spelling
    migration (`migrate`), or nothing, for the cause and reason given (`cause`, `why`)."""

    kind: str  # "tune", "migrate", "negate_axis" (the joint's axis turned: fix/jaw_axis.py), "not_fixable"
    cause: str = ""
    why: str = ""


class FixRules:
    """Default: nothing `fix` changes addresses this test (a test with no drive to tune)."""

    tunes: frozenset[str] = frozenset()  # row codes drive values can fix
    migrated: frozenset[str] = frozenset()  # row codes the per-axis velocity spelling fixes (when authored legacy)
    negates_axis: frozenset[str] = frozenset()  # row codes a negated joint axis fixes (a jaw's limits the reverse way)
    not_fixable: Mapping[str, tuple[str, Why]] = {}  # row code -> (cause, why); after `migrated` when migratable
    tune_on_skip: Mapping[str, str] = {}  # SKIP row code -> why: tuned so the re-run judges the joint
    exclusions_not_fixable: Mapping[str, tuple[str, str]] = {}  # excluded-joint code of a SKIP result -> (cause, why)
    # A failing result of a test whose failures drive values never fix: (cause, what the test judges); None = judge rows
    result_not_fixable: tuple[str, str] | None = ("not_drive", "judges what no drive value changes")
    blocked_endpoint_explains = False  # a joint blocked at one of this test's endpoints fails it through no drive
    adds_drives_on: frozenset[str] = frozenset()  # SKIP verdict codes `fix --add-drives` can turn into a judged run
    drive_less: frozenset[str] = frozenset()  # excluded-joint codes of a joint with no drive to tune (--add-drives adds one)

    def row_action(self, row: "JointRow", migratable: bool) -> RowAction:
        codes = [code_value(c) for c in (row.codes or [row.code])]
        if migratable and any(c in self.migrated for c in codes):
            return RowAction("migrate")
        if any(c in self.negates_axis for c in codes):
            return RowAction("negate_axis")
        for code in codes:
            if code in self.not_fixable:
                cause, why = self.not_fixable[code]
                return RowAction("not_fixable", cause, why(row) if callable(why) else why)
        return RowAction("tune")

    def fix_flags(self, result: "TestResult") -> list[str] | None:
        """The `simready-physics fix` flags that address this non-passing result ([] = plain `fix`), or None when
        nothing `fix` changes does: decided from the verdict's and rows' codes, like everything `fix` does."""
        from .status import Status

        if result.status == Status.SKIP:
            drive_less = any(code_value(e.code) in self.drive_less for e in result.excluded_joints)
            return ["--add-drives"] if code_value(result.code) in self.adds_drives_on and drive_less else None
        if result.status not in (Status.FAIL, Status.WARN) or self.result_not_fixable is not None:
            return None
        failing = [r for r in result.joints if r.status in (Status.FAIL, Status.WARN)]
        return [] if any(self.row_action(r, migratable=True).kind != "not_fixable" for r in failing) else None

    def more_joints_to_tune(self, test: str, row: "JointRow") -> list[tuple[str, str]]:
        """(joint name, why) of other joints a failing row implicates (e.g. the joint a load moved most)."""
        return []

    def allowance(self, test: str, joint: "JointInfo", config: "TestConfig", out: JointAllowance) -> None:
        """Add what this test judges `joint` by to `out` (nothing by default)."""


NO_FIX_RULES = FixRules()


def not_fixable_result(rules: FixRules, result: "TestResult") -> tuple[str, str] | None:
    """(cause, why) when a failing result is beyond drive values as a whole, else None."""
    if rules.result_not_fixable is None:
        return None
    cause, judges = rules.result_not_fixable
    return cause, f"{result.name} {judges}: {result.reason}"
