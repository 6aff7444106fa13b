"""drive_gain_validation's plot: the step response with the settling band (settling_tolerance, 5 % of the
step), the overshoot limit, the measured overshoot and the settling time."""

from __future__ import annotations


from ....core.results import TestResult
from ....plotting.common import (
    FAIL_COLOR, MAX_PANELS, PASS_COLOR, TARGET_COLOR, caption, failing_first, grid, joint_groups, joint_unit,
    note, num, recorded, rows_by_joint, scale, shared_legend, status_color, title_for,
)
from .config import DriveGainValidationConfig


def drive_gain_validation_plot(result: TestResult, series: dict):
    joints = joint_groups(series, ("q", "target"))
    if not joints:
        return []
    rows = rows_by_joint(result)
    cfg = DriveGainValidationConfig.from_report(result.config)
    overshoot_limit, tolerance = cfg.max_overshoot_pct, cfg.settling_tolerance
    order = failing_first(joints, rows)
    shown = order[:MAX_PANELS]
    figure, axes = grid(len(shown))
    for ax, joint in zip(axes, shown):
        row = rows.get(joint)
        t, q, target = recorded(series, f"{joint}/time"), recorded(series, f"{joint}/q"), recorded(series, f"{joint}/target")
        t = t - t[0] if len(t) else t
        goal = num(row.measured.get("target")) if row else None
        start = num(row.measured.get("start")) if row else None
        goal = goal if goal is not None else float(target[-1])
        start = start if start is not None else float(q[0])
        step = goal - start
        band = num(row.limits.get("settling_band")) if row else None
        band = band if band is not None else tolerance * abs(step)
        factor, label = scale(joint_unit(row, "target"), abs(step))
        ax.axhspan((goal - band) * factor, (goal + band) * factor, color=PASS_COLOR, alpha=0.2,
                   label=f"settling band ±{tolerance * 100:g} % of the step")
        ax.axhline((goal + step * overshoot_limit / 100.0) * factor, color=FAIL_COLOR, ls=":", lw=1.2,
                   label=f"overshoot limit {overshoot_limit:g} %")
        overshoot = num(row.measured.get("overshoot_pct")) if row else None
        if overshoot is not None and overshoot > 0:
            ax.axhline((goal + step * overshoot / 100.0) * factor, color="#d46a00", ls="--", lw=1, label="measured overshoot")
        settle = num(row.measured.get("settling_time_s")) if row else None
        if settle is not None:
            ax.axvline(settle, color="#555", ls="--", lw=1, label="settled")
        max_settle = num(row.limits.get("max_settling_seconds"), 0.0) if row else 0.0
        note(ax, f"overshoot {overshoot if overshoot is not None else float('nan'):.1f} % (≤ {overshoot_limit:g} %) · "
                 + (f"settled {settle:.2f} s" if settle is not None else "never settled") + f" (≤ {max_settle:g} s)",
             where="bottom")
        ax.plot(t, target * factor, color=TARGET_COLOR, ls="--", lw=1.1, label="target")
        ax.plot(t, q * factor, color=status_color(row), lw=1.5, label="position")
        ax.set_xlabel("time since the step (s)", fontsize=7)
        ax.set_ylabel(f"position ({label})", fontsize=7)
        title_for(ax, joint, row)
    figure.tight_layout()
    shared_legend(figure, axes)
    return [(figure, caption("drive_gain_validation: step response with the settling band and the overshoot limit",
                             len(shown), len(joints)))]
