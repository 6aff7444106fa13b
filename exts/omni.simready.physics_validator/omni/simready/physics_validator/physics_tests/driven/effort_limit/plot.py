"""effort_limit's plot: the loaded joint's largest deflection for each of the 12 force directions against
the deflection it may show (break_tolerance x its range)."""

from __future__ import annotations

import numpy as np

from ....core.results import TestResult
from ....plotting.common import (
    FAIL_COLOR, MAX_PANELS, caption, failing_first, fmt_scaled, grid, joint_groups, joint_unit, note, num,
    recorded, rows_by_joint, scale, shared_legend, title_for,
)
from .config import EffortLimitConfig


BAR_COLOR = "#6f8fb8"


def _deflection_limit(row, break_tolerance: float) -> float | None:
    """The deflection a joint may show under the load: its row's deflection_tolerance, else break_tolerance x range."""
    if row is None:
        return None
    limit = num(row.limits.get("deflection_tolerance"))
    if limit is not None:
        return limit
    lower, upper = num(row.limits.get("lower")), num(row.limits.get("upper"))
    return break_tolerance * (upper - lower) if lower is not None and upper is not None else None


def _other_joint_moved(row, joint: str) -> tuple[str | None, float]:
    """(the other joint the load moved most, how far) when a joint row says it was not the loaded one."""
    if row is None:
        return None, 0.0
    other, value = row.measured.get("most_deflected_joint"), num(row.measured.get("max_deflection_any_joint"))
    if not other or other == joint or value is None or value <= (num(row.measured.get("max_deflection"), 0.0) or 0.0):
        return None, 0.0
    return str(other), value


def effort_limit_plot(result: TestResult, series: dict):
    joints = joint_groups(series, ("deflection",), prefix="effort/")
    if not joints:
        return []
    rows = rows_by_joint(result)
    directions = 12
    frames = num(result.metrics.get("frames_per_direction"))
    config = EffortLimitConfig.from_report(result.config)
    physics_fps, break_tolerance = config.physics_fps, config.break_tolerance
    order = failing_first(joints, rows)
    shown = order[:MAX_PANELS]
    figure, axes = grid(len(shown), height=2.2)
    for ax, joint in zip(axes, shown):
        row = rows.get(joint)
        t, deflection = recorded(series, f"effort/{joint}/time"), recorded(series, f"effort/{joint}/deflection")
        if t is None or not len(t):
            ax.set_visible(False)
            continue
        span = frames / physics_fps if frames else (t[-1] - t[0] + 1e-9) / directions
        index = np.clip(((t - t[0]) / span + 1e-6).astype(int), 0, directions - 1)
        worst = np.array([np.nanmax(deflection[index == d]) if np.any(index == d) else np.nan for d in range(directions)])
        if row is not None and row.measured.get("most_deflected_joint") in (None, joint):
            direction = int(num(row.measured.get("worst_direction"), 0))
            exact = num(row.measured.get("max_deflection"))  # every step; the series is decimated
            if 1 <= direction <= directions and exact is not None:
                worst[direction - 1] = max(np.nan_to_num(worst[direction - 1]), exact)
        threshold = _deflection_limit(row, break_tolerance)
        unit = joint_unit(row, "max_deflection")
        factor, label = scale(unit, threshold if threshold is not None else float(np.nanmax(worst)))
        label = label or "rad or m"
        colors = [FAIL_COLOR if threshold is not None and w > threshold else BAR_COLOR for w in worst]
        positive = worst[np.isfinite(worst) & (worst > 0)]
        floor = (float(positive.min()) / 3.0 if positive.size else (threshold or 1.0) * 1e-6) * factor
        ax.bar(np.arange(1, directions + 1), np.maximum(np.nan_to_num(worst) * factor, floor), color=colors, width=0.7,
               label="loaded joint's largest deflection")
        if threshold is not None:
            ax.axhline(threshold * factor, color=FAIL_COLOR, ls="--", lw=1.2, label="deflection limit (break_tolerance × range)")
        text = f"largest {fmt_scaled(np.nanmax(worst), factor, label)}" + (
            f" (limit {fmt_scaled(threshold, factor, label)})" if threshold is not None else "")
        other, other_value = _other_joint_moved(row, joint)
        top = max(float(np.nanmax(worst)) if np.any(np.isfinite(worst)) else 0.0, threshold or 0.0) * factor
        # the load moved another joint more: the series hold the loaded joint only, the row says the rest
        if other and row is not None:
            direction = int(num(row.measured.get("worst_direction"), 1))
            ax.plot([direction], [other_value * factor], marker="v", color=FAIL_COLOR, ms=7, ls="none",
                    label="another joint's largest deflection")
            other_limit = _deflection_limit(rows.get(other), break_tolerance)
            limit = f" (limit {fmt_scaled(other_limit, factor, label)})" if other_limit is not None else ""
            text += f"\n{other} moved {fmt_scaled(other_value, factor, label)}{limit} in direction {direction}"
            top = max(top, other_value * factor)
        note(ax, text)
        if top > 0 and top / max(float(np.nanmin(np.maximum(worst, 0))) * factor, floor) > 100:
            ax.set_yscale("log")
            ax.set_ylim(floor, top * 3)
        ax.set_xticks(range(1, directions + 1))
        ax.set_xlabel("force direction", fontsize=7)
        ax.set_ylabel(f"deflection ({label})", fontsize=7)
        title_for(ax, joint, row)
    figure.tight_layout()
    shared_legend(figure, axes)
    return [(figure, caption("effort_limit: largest deflection per force direction against break_tolerance × range",
                             len(shown), len(joints)))]
