"""full_range_sweep's plot: tracking error (measured - commanded) with each hold window shaded and
±rest_tolerance; the zero-return tolerance at the end."""

from __future__ import annotations

import numpy as np

from ....core.results import TestResult
from ....plotting.common import (
    LIMIT_COLOR, MAX_PANELS, PASS_COLOR, arr, caption, failing_first, fmt_scaled, grid, joint_groups, joint_unit,
    note, num, rows_by_joint, scale, shared_legend, status_color, title_for,
)


HOLDS = (("max_target", "hold max"), ("min_target", "hold min"), ("zero_target", "hold zero"))


def _runs(mask: np.ndarray) -> list[tuple[int, int]]:
    """(first, last) index of each run of True."""
    runs, start = [], None
    for i, flag in enumerate(mask):
        if flag and start is None:
            start = i
        elif not flag and start is not None:
            runs.append((start, i - 1))
            start = None
    if start is not None:
        runs.append((start, len(mask) - 1))
    return runs


def full_range_sweep_plot(result: TestResult, series: dict):
    joints = joint_groups(series, ("q", "target"))
    if not joints:
        return []
    rows = rows_by_joint(result)
    order = failing_first(joints, rows)
    shown = order[:MAX_PANELS]
    tolerance = num(result.config.get("rest_tolerance"), 0.1)
    zero_tolerance = num(result.config.get("zero_return_tolerance"), 0.01)
    figure, axes = grid(len(shown))
    for ax, joint in zip(axes, shown):
        row = rows.get(joint)
        t, q, target = arr(series, f"{joint}/time"), arr(series, f"{joint}/q"), arr(series, f"{joint}/target")
        row_tol = num(row.limits.get("rest_tolerance"), tolerance) if row else tolerance
        factor, label = scale(joint_unit(row, "hold_error_max"), row_tol)
        error = (q - target) * factor
        worst_hold = 0.0
        holds: dict[float, list[str]] = {}  # one shaded window per target (home can be a swept endpoint)
        for key, name in HOLDS:
            value = num(row.limits.get(key)) if row else None
            if value is not None:
                holds.setdefault(value, []).append(name.split()[1])
        for value, names in holds.items():
            for first, last in _runs(np.abs(target - value) <= 1e-9 * max(1.0, abs(value))):
                if last - first < 1:
                    continue
                ax.axvspan(t[first], t[last], color="#f2d16b", alpha=0.35, lw=0)
                ax.text((t[first] + t[last]) / 2, 0.02, "=".join(names), transform=ax.get_xaxis_transform(),
                        ha="center", va="bottom", fontsize=6, color="#7a5b00")
                worst_hold = max(worst_hold, float(np.nanmax(np.abs(error[first: last + 1]))))
        ax.axhspan(-row_tol * factor, row_tol * factor, color=PASS_COLOR, alpha=0.15, label="±rest_tolerance (holds)")
        ax.axhline(zero_tolerance * factor, color=LIMIT_COLOR, ls=":", lw=1, label="±zero_return_tolerance (end)")
        ax.axhline(-zero_tolerance * factor, color=LIMIT_COLOR, ls=":", lw=1)
        ax.plot(t, error, color=status_color(row), lw=1.4, label="measured − commanded")
        if len(t):
            ax.plot(t[-1], error[-1], "o", color=status_color(row), ms=4)
        worst = [f"{name} {fmt_scaled(row.measured.get(key), factor, label)}"
                 for key, name in (("hold_error_max", "at max"), ("hold_error_min", "at min"), ("zero_error", "end"))
                 if row is not None and num(row.measured.get(key)) is not None]
        if worst:
            note(ax, "error " + " · ".join(worst) + f"  (limits {fmt_scaled(row_tol, factor, label)}, end {fmt_scaled(zero_tolerance, factor, label)})")
        span = max(3.0 * row_tol * factor, min(1.3 * worst_hold, 25.0 * row_tol * factor))
        ax.set_ylim(-span, span)
        ax.set_xlabel("time (s)", fontsize=7)
        ax.set_ylabel(f"tracking error ({label})", fontsize=7)
        title_for(ax, joint, row)
    figure.tight_layout()
    shared_legend(figure, axes)
    return [(figure, caption("full_range_sweep: tracking error near each hold (shaded) against ±rest_tolerance",
                             len(shown), len(joints)))]
