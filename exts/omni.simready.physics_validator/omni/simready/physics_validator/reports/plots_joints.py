"""The driven-joint tests' plots: per joint (failing joints first), the quantity its verdict is decided on,
in degrees (revolute) or mm / m (prismatic), against the threshold that judges it.

- full_range_sweep: tracking error (measured - commanded) with each hold window shaded and
  ±rest_tolerance; the zero-return tolerance at the end;
- drive_gain_validation: the step response with the settling band (settling_tolerance, 5 % of the step),
  the overshoot limit, the measured overshoot and the settling time;
- velocity_limit: |velocity| against the limit and limit x (1 + tolerance);
- effort_limit: the joint's largest deflection for each of the 12 force directions against
  break_tolerance x its range.
"""

from __future__ import annotations

import numpy as np

from ..core.results import TestResult
from .plot_common import (
    FAIL_COLOR, LIMIT_COLOR, MAX_PANELS, PASS_COLOR, TARGET_COLOR, arr, caption, failing_first, grid, joint_groups,
    joint_unit, note, num, rows_by_joint, scale, shared_legend, status_color, title_for,
)

BAR_COLOR = "#6f8fb8"
HOLDS = (("max_target", "hold max"), ("min_target", "hold min"), ("zero_target", "hold zero"))


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


def _fmt(value, factor: float, label: str = "") -> str:
    """An SI value scaled for people, with its unit ("117°", "12 mm")."""
    value = num(value)
    if value is None:
        return "n/a"
    space = "" if label.startswith("°") or not label else " "
    return f"{value * factor:.3g}{space}{label}"


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


def full_range_sweep(result: TestResult, series: dict):
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
        worst = [f"{name} {_fmt(row.measured.get(key), factor, label)}"
                 for key, name in (("hold_error_max", "at max"), ("hold_error_min", "at min"), ("zero_error", "end"))
                 if row is not None and num(row.measured.get(key)) is not None]
        if worst:
            note(ax, "error " + " · ".join(worst) + f"  (limits {_fmt(row_tol, factor, label)}, end {_fmt(zero_tolerance, factor, label)})")
        span = max(3.0 * row_tol * factor, min(1.3 * worst_hold, 25.0 * row_tol * factor))
        ax.set_ylim(-span, span)
        ax.set_xlabel("time (s)", fontsize=7)
        ax.set_ylabel(f"tracking error ({label})", fontsize=7)
        title_for(ax, joint, row)
    figure.tight_layout()
    shared_legend(figure, axes)
    return [(figure, caption("full_range_sweep: tracking error near each hold (shaded) against ±rest_tolerance",
                             len(shown), len(joints)))]


def drive_gain_validation(result: TestResult, series: dict):
    joints = joint_groups(series, ("q", "target"))
    if not joints:
        return []
    rows = rows_by_joint(result)
    cfg = result.config
    overshoot_limit = num(cfg.get("max_overshoot_pct"), 50.0)
    tolerance = num(cfg.get("settling_tolerance"), 0.05)
    order = failing_first(joints, rows)
    shown = order[:MAX_PANELS]
    figure, axes = grid(len(shown))
    for ax, joint in zip(axes, shown):
        row = rows.get(joint)
        t, q, target = arr(series, f"{joint}/time"), arr(series, f"{joint}/q"), arr(series, f"{joint}/target")
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


def velocity_limit(result: TestResult, series: dict):
    joints = joint_groups(series, ("abs_velocity",))
    if not joints:
        return []
    rows = rows_by_joint(result)
    tolerance = num(result.config.get("tolerance_percent"), 0.05)
    order = failing_first(joints, rows)
    shown = order[:MAX_PANELS]
    figure, axes = grid(len(shown))
    for ax, joint in zip(axes, shown):
        row = rows.get(joint)
        t, speed, limit = arr(series, f"{joint}/time"), arr(series, f"{joint}/abs_velocity"), arr(series, f"{joint}/limit")
        unit = (row.limits.get("unit") if row else None) or "rad/s"
        factor, label = scale(unit, float(np.nanmax(limit)) if limit is not None and np.any(np.isfinite(limit)) else 1.0)
        ax.plot(t, speed * factor, color=status_color(row), lw=1.5, label="|velocity|")
        if limit is not None and np.any(np.isfinite(limit)):
            ax.plot(t, limit * factor, color=LIMIT_COLOR, lw=1, label="limit")
            ax.plot(t, limit * (1 + tolerance) * factor, color=FAIL_COLOR, ls=":", lw=1.2,
                    label=f"limit × {1 + tolerance:g} (fails above)")
        if row is not None and num(row.measured.get("peak_velocity")) is not None:
            note(ax, f"peak {_fmt(row.measured.get('peak_velocity'), factor, label)} "
                     f"(allowed {_fmt(row.limits.get('allowed'), factor, label)})")
        ax.set_xlabel("time (s)", fontsize=7)
        ax.set_ylabel(f"|velocity| ({label})", fontsize=7)
        title_for(ax, joint, row)
    figure.tight_layout()
    shared_legend(figure, axes)
    return [(figure, caption("velocity_limit: |velocity| per joint against its limit and the tolerance line",
                             len(shown), len(joints)))]


def effort_limit(result: TestResult, series: dict):
    joints = joint_groups(series, ("deflection",), prefix="effort/")
    if not joints:
        return []
    rows = rows_by_joint(result)
    directions = 12
    frames = num(result.metrics.get("frames_per_direction"))
    physics_fps = num(result.config.get("physics_fps"), 240.0)
    break_tolerance = num(result.config.get("break_tolerance"), 0.1)
    order = failing_first(joints, rows)
    shown = order[:MAX_PANELS]
    figure, axes = grid(len(shown), height=2.2)
    for ax, joint in zip(axes, shown):
        row = rows.get(joint)
        t, deflection = arr(series, f"effort/{joint}/time"), arr(series, f"effort/{joint}/deflection")
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
        text = f"largest {_fmt(np.nanmax(worst), factor, label)}" + (
            f" (limit {_fmt(threshold, factor, label)})" if threshold is not None else "")
        other, other_value = _other_joint_moved(row, joint)
        top = max(float(np.nanmax(worst)) if np.any(np.isfinite(worst)) else 0.0, threshold or 0.0) * factor
        if other:  # the load moved another joint more: the series hold the loaded joint only, the row says the rest
            direction = int(num(row.measured.get("worst_direction"), 1))
            ax.plot([direction], [other_value * factor], marker="v", color=FAIL_COLOR, ms=7, ls="none",
                    label="another joint's largest deflection")
            other_limit = _deflection_limit(rows.get(other), break_tolerance)
            limit = f" (limit {_fmt(other_limit, factor, label)})" if other_limit is not None else ""
            text += f"\n{other} moved {_fmt(other_value, factor, label)}{limit} in direction {direction}"
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
