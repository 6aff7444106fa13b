"""full_range_sweep's plot: tracking error (measured - commanded) with each hold window shaded and
±rest_tolerance; the zero-return tolerance at the end, in a panel beside it showing the final hold at the band's own
scale (a ±0.57° band is a hairline on a ±15° axis), so nothing of the main plot is covered."""

from __future__ import annotations

import numpy as np

from ....core.results import TestResult
from ....plotting.common import (
    MAX_PANELS, PASS_COLOR, caption, failing_first, fmt_scaled, grid, joint_groups, joint_unit,
    note, num, recorded, rows_by_joint, scale, shared_legend, status_color, title_for,
)
from .config import FullRangeSweepConfig


HOLDS = (("max_target", "hold max"), ("min_target", "hold min"), ("zero_target", "hold zero"))
ZERO_BAND_COLOR = "#e07b00"  # the zero-return band: its own colour, shaded in the inset
INSET_SCALE = 4.0  # the inset spans this many zero-return tolerances (or the final error, if larger)


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
    config = FullRangeSweepConfig.from_report(result.config)  # each row carries its own; these for a row without
    tolerance, zero_tolerance = config.rest_tolerance_rad, config.zero_return_tolerance_rad
    figure, axes = grid(len(shown))
    for ax, joint in zip(axes, shown):
        row = rows.get(joint)
        t, q, target = recorded(series, f"{joint}/time"), recorded(series, f"{joint}/q"), recorded(series, f"{joint}/target")
        row_tol = num(row.limits.get("rest_tolerance"), tolerance) if row else tolerance
        row_zero = num(row.limits.get("zero_return_tolerance"), zero_tolerance) if row else zero_tolerance
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
        ax.axhline(row_zero * factor, color=ZERO_BAND_COLOR, ls=":", lw=1, label="±zero_return_tolerance (end, right panel)")
        ax.axhline(-row_zero * factor, color=ZERO_BAND_COLOR, ls=":", lw=1)
        ax.plot(t, error, color=status_color(row), lw=1.4, label="measured − commanded")
        if len(t):
            ax.plot(t[-1], error[-1], "o", color=status_color(row), ms=4)
        worst = [f"{name} {fmt_scaled(row.measured.get(key), factor, label)}"
                 for key, name in (("hold_error_max", "at max"), ("hold_error_min", "at min"), ("zero_error", "end"))
                 if row is not None and num(row.measured.get(key)) is not None]
        if worst:
            note(ax,
                 "error " + " · ".join(worst) + f"  (limits {fmt_scaled(row_tol, factor, label)}, end "
                                                f"{fmt_scaled(row_zero, factor, label)})")
        span = max(3.0 * row_tol * factor, min(1.3 * worst_hold, 25.0 * row_tol * factor))
        ax.set_ylim(-span, span)
        ax.set_xlabel("time (s)", fontsize=7)
        ax.set_ylabel(f"tracking error ({label})", fontsize=7)
        title_for(ax, joint, row)
        _zero_inset(ax, t, error, target, row, row_zero * factor, label)
    figure.tight_layout()
    shared_legend(figure, axes)
    return [(figure, caption("full_range_sweep: tracking error near each hold (shaded) against ±rest_tolerance",
                             len(shown), len(joints)))]


def _zero_inset(ax, t: np.ndarray, error: np.ndarray, target: np.ndarray, row, band: float, label: str) -> None:
    """The final hold at zero at the zero-return band's own scale: the band shaded, the final error marked."""
    zero = num(row.limits.get("zero_target")) if row is not None else None
    if zero is None or not len(t) or band <= 0:
        return
    runs = [r for r in _runs(np.abs(target - zero) <= 1e-9 * max(1.0, abs(zero))) if r[1] - r[0] >= 1]
    if not runs:
        return
    first, last = runs[-1]
    window = error[first: last + 1]
    span = max(INSET_SCALE * band, 1.2 * float(np.nanmax(np.abs(window[-max(1, len(window) // 4):]))))
    from mpl_toolkits.axes_grid1 import make_axes_locatable

    inset = make_axes_locatable(ax).append_axes("right", size="28%", pad=0.28)
    inset.axhspan(-band, band, color=ZERO_BAND_COLOR, alpha=0.35, lw=0)
    inset.axhline(0.0, color="#999999", lw=0.5)
    inset.plot(t[first: last + 1], window, color=status_color(row), lw=1.2)
    inset.plot(t[last], error[last], "o", color=status_color(row), ms=3)
    inset.set_ylim(-span, span)
    inset.tick_params(labelsize=5, length=2, pad=1)
    inset.set_xlabel("time (s)", fontsize=6)
    inset.set_ylabel(f"error ({label})", fontsize=6, labelpad=1)
    inset.set_title(f"end, ±{band:.3g}{label if label in ('°', '') else ' ' + label}", fontsize=6, pad=2, color=ZERO_BAND_COLOR)
