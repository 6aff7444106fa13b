"""The plot state_accuracy and multi_joint_coordination share: each joint's position against its commanded target,
with the tolerance band the verdict judges it by around the target."""

from __future__ import annotations

from ...core.results import TestResult
from ...plotting.common import (
    MAX_PANELS, PASS_COLOR, TARGET_COLOR, caption, failing_first, grid, joint_groups, joint_unit, note, num,
    recorded, rows_by_joint, scale, shared_legend, status_color, title_for,
)


def tracking_plot(result: TestResult, series: dict, title: str):
    """Panels of `<joint>/q` against `<joint>/target` over time, the band ±`tolerance` (the row's limit) shaded."""
    joints = joint_groups(series, ("q", "target"))
    if not joints:
        return []
    rows = rows_by_joint(result)
    shown = failing_first(joints, rows)[:MAX_PANELS]
    figure, axes = grid(len(shown))
    for ax, joint in zip(axes, shown):
        row = rows.get(joint)
        t, q, target = recorded(series, f"{joint}/time"), recorded(series, f"{joint}/q"), recorded(series, f"{joint}/target")
        tolerance = num(row.limits.get("tolerance"), 0.0) if row else 0.0
        span = float(abs(target).max()) if len(target) else 0.0
        factor, label = scale(joint_unit(row, "tolerance"), max(span, tolerance))
        ax.fill_between(t, (target - tolerance) * factor, (target + tolerance) * factor, color=PASS_COLOR, alpha=0.18,
                        label="tolerance band")
        ax.plot(t, target * factor, color=TARGET_COLOR, ls="--", lw=1.1, label="commanded target")
        ax.plot(t, q * factor, color=status_color(row), lw=1.4, label="position")
        worst = num(row.measured.get("max_error")) if row else None
        if worst is not None:
            note(ax, f"worst error {worst * factor:.3g} {label} (tolerance {tolerance * factor:.3g} {label})", where="bottom")
        ax.set_xlabel("time (s)", fontsize=7)
        ax.set_ylabel(f"position ({label})", fontsize=7)
        title_for(ax, joint, row)
    figure.tight_layout()
    shared_legend(figure, axes)
    return [(figure, caption(title, len(shown), len(joints)))]
