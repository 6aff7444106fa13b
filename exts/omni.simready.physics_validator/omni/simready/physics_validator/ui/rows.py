"""The verdict table: one row per test, under it one per joint and per excluded joint, with fix hints;
and how a one-joint re-run's result enters the table (narrowed, or merged into the previous result)."""

from __future__ import annotations

from dataclasses import dataclass, field

from ..core.results import JointRow, TestResult
from ..core.status import Status, worst


@dataclass
class VerdictRow:
    """One line of the verdict table: a test (level 0) or one of its joints (level 1)."""

    test: str
    name: str
    status: str
    detail: str = ""
    measured: str = ""
    limits: str = ""
    fix_hints: list[str] = field(default_factory=list)
    joint: str | None = None  # joint path for joint rows
    level: int = 0
    kind: str = "test"  # test, joint, excluded
    children: list["VerdictRow"] = field(default_factory=list)
    findings: list[str] = field(default_factory=list)  # the plausibility findings that explain it (plausibility_panel)

    @property
    def can_rerun_joint(self) -> bool:
        return self.kind == "joint" and bool(self.joint)


def format_values(values: dict) -> str:
    parts = []
    for key, value in values.items():
        if isinstance(value, float):
            parts.append(f"{key}={value:.4g}")
        else:
            parts.append(f"{key}={value}")
    return ", ".join(parts)


def rows_from_results(results: list[TestResult]) -> list[VerdictRow]:
    """The verdict table: each test, under it each joint row and each excluded joint."""
    rows = []
    for result in results:
        row = VerdictRow(
            test=result.name,
            name=result.name,
            status=result.status.value,
            detail=result.reason,
            measured=format_values(result.metrics),
            fix_hints=list(result.fix_hints),
        )
        for joint in result.joints:
            row.children.append(
                VerdictRow(
                    test=result.name,
                    name=joint.joint,
                    status=joint.status.value,
                    detail=joint.reason,
                    measured=format_values(joint.measured),
                    limits=format_values(joint.limits),
                    fix_hints=list(joint.fix_hints),
                    joint=joint.path or joint.joint,
                    level=1,
                    kind="joint",
                )
            )
        for excluded in result.excluded_joints:
            row.children.append(
                VerdictRow(
                    test=result.name,
                    name=excluded.joint,
                    status="EXCLUDED",
                    detail=excluded.why,
                    joint=excluded.path or excluded.joint,
                    level=1,
                    kind="excluded",
                )
            )
        rows.append(row)
    return rows


def narrow_to_joint(result: TestResult, joint: str) -> TestResult:
    """A re-run of one joint keeps only that joint's row; its status becomes the test's."""
    narrowed = result.model_copy(deep=True)
    narrowed.joints = [r for r in result.joints if joint in (r.path, r.joint)]
    narrowed.excluded_joints = [e for e in result.excluded_joints if joint in (e.path, e.joint)]
    if narrowed.joints and result.status not in (Status.ERROR, Status.PRECHECK_FAILURE):
        narrowed.status = narrowed.joints[0].status
        narrowed.reason = narrowed.joints[0].reason
    return narrowed


def merge_joint_result(previous: TestResult, rerun: TestResult, joint: str) -> TestResult:
    """Put a joint's re-run row into the previous result. The test status is re-derived from the
    rows only when it was derived from them before (a test-level verdict is left as it was)."""
    merged = previous.model_copy(deep=True)
    was_row_derived = bool(previous.joints) and worst(r.status for r in previous.joints) == previous.status
    new_rows = [r for r in rerun.joints if joint in (r.path, r.joint)]
    if not new_rows:
        merged.warnings.append(f"re-run of joint {joint}: {rerun.status.value} {rerun.reason}".strip())
        return merged
    replaced: list[JointRow] = []
    for row in merged.joints:
        replaced.append(new_rows[0] if joint in (row.path, row.joint) else row)
    if not any(joint in (r.path, r.joint) for r in merged.joints):
        replaced.append(new_rows[0])
    merged.joints = replaced
    if was_row_derived:
        status = worst(r.status for r in merged.joints)  # never None: merged.joints holds the new row
        if status is not None:
            merged.status = status
    return merged
