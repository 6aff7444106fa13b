"""velocity_limit's plot: |velocity| per joint against its limit and limit x (1 + tolerance)."""

from __future__ import annotations

import numpy as np

from ....core.results import TestResult
from ....plotting.common import (
    FAIL_COLOR, LIMIT_COLOR, MAX_PANELS, arr, caption, failing_first, fmt_scaled, grid, joint_groups, note, num,
    recorded, rows_by_joint, scale, shared_legend, status_color, title_for,
)
from .config import VelocityLimitConfig


def velocity_limit_plot(result: TestResult, series: dict):
    joints = joint_groups(series, ("abs_velocity",))
    if not joints:
        return []
    rows = rows_by_joint(result)
    ratio = VelocityLimitConfig.from_report(result.config).allowed_ratio()  # 1 + tolerance_fraction
    order = failing_first(joints, rows)
    shown = order[:MAX_PANELS]
    figure, axes = grid(len(shown))
    for ax, joint in zip(axes, shown):
        row = rows.get(joint)
        t, speed, limit = recorded(series, f"{joint}/time"), recorded(series, f"{joint}/abs_velocity"), arr(series,
                                                                                                            f"{joint}/limit")
        unit = (row.limits.get("unit") if row else None) or "rad/s"
        factor, label = scale(unit, float(np.nanmax(limit)) if limit is not None and np.any(np.isfinite(limit)) else 1.0)
        ax.plot(t, speed * factor, color=status_color(row), lw=1.5, label="|velocity|")
        if limit is not None and np.any(np.isfinite(limit)):
            ax.plot(t, limit * factor, color=LIMIT_COLOR, lw=1, label="limit")
            ax.plot(t, limit * ratio * factor, color=FAIL_COLOR, ls=":", lw=1.2,
                    label=f"limit × {ratio:g} (fails above)")
        if row is not None and num(row.measured.get("peak_velocity")) is not None:
            note(ax, f"peak {fmt_scaled(row.measured.get('peak_velocity'), factor, label)} "
                     f"(allowed {fmt_scaled(row.limits.get('allowed'), factor, label)})")
        ax.set_xlabel("time (s)", fontsize=7)
        ax.set_ylabel(f"|velocity| ({label})", fontsize=7)
        title_for(ax, joint, row)
    figure.tight_layout()
    shared_legend(figure, axes)
    return [(figure, caption("velocity_limit: |velocity| per joint against its limit and the tolerance line",
                             len(shown), len(joints)))]
