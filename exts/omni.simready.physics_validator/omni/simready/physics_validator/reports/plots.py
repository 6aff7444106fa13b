"""Plots for the HTML report (matplotlib, Agg backend: no display).

One function per test shows what its verdict is about, drawn from the test's recorded series
(`TestResult.series`) with the thresholds from its effective config and joint rows:
ground_drop bbox min z with floor +/- margin and the rest window; full_range_sweep commanded vs
measured per joint; drive_gain_validation step response with overshoot and settling bands;
velocity_limit |velocity| against limit x (1 + tolerance); effort_limit deflection per force
direction. Any other test (or a test whose series do not fit) gets generic time plots, grouped
by the series-name prefix before the last "/".
"""

from __future__ import annotations

import math
from pathlib import Path
from typing import Callable

import numpy as np

from ..core.results import TestResult

MAX_PANELS = 24  # joints per figure; beyond this the report says how many were left out
PASS_COLOR, FAIL_COLOR, BAND_COLOR = "#2e9d4f", "#cc2929", "#8fb3e8"


def _pyplot():
    import matplotlib

    matplotlib.use("Agg", force=True)
    import matplotlib.pyplot as plt

    return plt


def write_plots(result: TestResult, series: dict[str, list[float]], out_dir: Path, stem: str) -> list[dict]:
    """Draw the plots for one test result; [{"path": png, "title": caption}]."""
    if not series:
        return []
    out_dir.mkdir(parents=True, exist_ok=True)
    plotter: Callable = SPECIFIC.get(result.name, _generic)
    try:
        figures = plotter(result, series)
    except Exception:  # noqa: BLE001 - unexpected series shape: fall back to the generic view
        figures = []
    if not figures:
        figures = _generic(result, series)
    plt = _pyplot()
    out = []
    for index, (figure, title) in enumerate(figures):
        path = out_dir / f"{stem}-{index}.png"
        figure.savefig(path, dpi=90, bbox_inches="tight")
        plt.close(figure)
        out.append({"path": path, "title": title})
    return out


# -- helpers --------------------------------------------------------------------------------------

def _arr(series: dict, key: str) -> np.ndarray | None:
    values = series.get(key)
    if values is None:
        return None
    return np.asarray([np.nan if v is None else v for v in values], dtype=float)


def _num(value, default=None):
    try:
        value = float(value)
    except (TypeError, ValueError):
        return default
    return value if math.isfinite(value) else default


def _joint_groups(series: dict, required: tuple[str, ...], prefix: str = "") -> list[str]:
    """Joint names having `<prefix><joint>/time` and every `<prefix><joint>/<required>` series."""
    names = []
    for key in series:
        if key.startswith(prefix) and key.endswith("/time"):
            joint = key[len(prefix): -len("/time")]
            if joint and all(f"{prefix}{joint}/{r}" in series for r in required):
                names.append(joint)
    return names


def _grid(count: int, height: float = 2.2):
    plt = _pyplot()
    cols = 1 if count == 1 else 2 if count <= 4 else 3
    rows = math.ceil(count / cols)
    figure, axes = plt.subplots(rows, cols, figsize=(4.2 * cols, height * rows + 0.4), squeeze=False)
    flat = list(axes.ravel())
    for ax in flat[count:]:
        ax.set_visible(False)
    return figure, flat


def _rows_by_joint(result: TestResult) -> dict:
    return {row.joint: row for row in result.joints}


def _status_color(row) -> str:
    if row is None:
        return "#444444"
    return PASS_COLOR if row.status.value == "PASS" else FAIL_COLOR if row.status.value in ("FAIL", "ERROR") else "#c77c00"


# -- per test -------------------------------------------------------------------------------------

def _ground_drop(result: TestResult, series: dict):
    t, z = _arr(series, "time"), _arr(series, "bbox_min_z")
    if t is None or z is None or len(t) == 0:
        return []
    plt = _pyplot()
    cfg, metrics = result.config, result.metrics
    floor = _num(metrics.get("floor_level"), _num(cfg.get("floor_level"), 0.0))
    margin = _num(cfg.get("floor_margin"), 0.1)
    figure, (ax, zoom) = plt.subplots(1, 2, figsize=(10.5, 3.2), gridspec_kw={"width_ratios": [3, 2]})
    t_end = float(np.nanmax(t)) if np.any(np.isfinite(t)) else 1.0
    touch = _num(metrics.get("touch_time"))
    rest = _num(metrics.get("rest_time"))
    for axis in (ax, zoom):
        axis.axhspan(floor - margin, floor + margin, color=BAND_COLOR, alpha=0.35, label=f"floor ± margin ({margin:g} m)")
        axis.axhline(floor, color="#23467a", lw=1, label="floor")
        axis.plot(t, z, color="#d46a00", lw=1.6, label="bbox min z")
        if touch is not None:
            axis.axvline(touch, color="#555", ls="--", lw=1, label=f"first contact {touch:.2f} s")
            delay = _num(cfg.get("penetration_check_seconds"), 1.0)
            limit = _num(cfg.get("rest_detection_max_seconds"), 8.0)
            if touch + delay <= t_end:
                axis.axvline(touch + delay, color="#888", ls=":", lw=1, label=f"rest checks start (+{delay:g} s)")
            if touch + limit <= t_end:
                axis.axvline(touch + limit, color=FAIL_COLOR, ls=":", lw=1, label=f"rest deadline (+{limit:g} s)")
        if rest is not None:
            hold = _num(cfg.get("rest_detection_hold_seconds"), 2.0)
            axis.axvspan(rest - hold, rest, color=PASS_COLOR, alpha=0.18, label=f"rest window ({hold:g} s)")
        axis.set_xlim(float(np.nanmin(t)), t_end)
        axis.set_xlabel("time (s)")
        axis.grid(alpha=0.3)
    ax.set_ylabel("bbox min z (m)")
    ax.set_title("whole run", fontsize=8)
    zoom.set_ylim(floor - 2.5 * margin, floor + 2.5 * margin)
    zoom.set_title("near the floor", fontsize=8)
    ax.legend(fontsize=7, loc="upper right")
    figure.tight_layout()
    return [(figure, "Bounding-box minimum z over time, with the floor band and the rest window")]


def _full_range_sweep(result: TestResult, series: dict):
    joints = _joint_groups(series, ("q", "target"))
    if not joints:
        return []
    rows = _rows_by_joint(result)
    shown = joints[:MAX_PANELS]
    figure, axes = _grid(len(shown))
    for ax, joint in zip(axes, shown):
        t = _arr(series, f"{joint}/time")
        ax.plot(t, _arr(series, f"{joint}/target"), color="#777", ls="--", lw=1.2, label="commanded")
        ax.plot(t, _arr(series, f"{joint}/q"), color=_status_color(rows.get(joint)), lw=1.5, label="measured")
        row = rows.get(joint)
        if row is not None:
            for key in ("lower", "upper"):
                value = _num(row.limits.get(key))
                if value is not None:
                    ax.axhline(value, color=BAND_COLOR, lw=1)
        ax.set_title(joint, fontsize=8)
        ax.tick_params(labelsize=7)
        ax.grid(alpha=0.3)
    axes[0].legend(fontsize=7)
    figure.tight_layout()
    return [(figure, _caption("Commanded vs measured position per joint (limits as blue lines)", joints))]


def _drive_gain_validation(result: TestResult, series: dict):
    joints = _joint_groups(series, ("q", "target"))
    if not joints:
        return []
    rows = _rows_by_joint(result)
    cfg = result.config
    overshoot_pct = _num(cfg.get("max_overshoot_pct"), 50.0)
    tolerance = _num(cfg.get("settling_tolerance"), 0.05)
    shown = joints[:MAX_PANELS]
    figure, axes = _grid(len(shown))
    for ax, joint in zip(axes, shown):
        t = _arr(series, f"{joint}/time")
        q = _arr(series, f"{joint}/q")
        target = _arr(series, f"{joint}/target")
        t = t - t[0] if len(t) else t
        row = rows.get(joint)
        goal = _num(row.measured.get("target")) if row else None
        start = _num(row.measured.get("start")) if row else None
        goal = goal if goal is not None else float(target[-1])
        start = start if start is not None else float(q[0])
        step = goal - start
        band = _num(row.limits.get("settling_band")) if row else None
        band = band if band is not None else tolerance * abs(step)
        ax.axhspan(goal - band, goal + band, color=PASS_COLOR, alpha=0.18, label="settling band")
        ax.axhline(goal + step * overshoot_pct / 100.0, color=FAIL_COLOR, ls=":", lw=1,
                   label=f"overshoot limit {overshoot_pct:g} %")
        ax.plot(t, target, color="#777", ls="--", lw=1.2, label="target")
        ax.plot(t, q, color=_status_color(row), lw=1.5, label="position")
        ax.set_title(joint, fontsize=8)
        ax.tick_params(labelsize=7)
        ax.grid(alpha=0.3)
    axes[0].legend(fontsize=6)
    figure.tight_layout()
    return [(figure, _caption("Step response per joint with the settling band and the overshoot limit", joints))]


def _velocity_limit(result: TestResult, series: dict):
    joints = _joint_groups(series, ("abs_velocity",))
    if not joints:
        return []
    rows = _rows_by_joint(result)
    tolerance = _num(result.config.get("tolerance_percent"), 0.05)
    shown = joints[:MAX_PANELS]
    figure, axes = _grid(len(shown))
    for ax, joint in zip(axes, shown):
        t = _arr(series, f"{joint}/time")
        speed = _arr(series, f"{joint}/abs_velocity")
        limit = _arr(series, f"{joint}/limit")
        ax.plot(t, speed, color=_status_color(rows.get(joint)), lw=1.5, label="|velocity|")
        if limit is not None and np.any(np.isfinite(limit)):
            ax.plot(t, limit, color="#23467a", lw=1, label="limit")
            ax.plot(t, limit * (1 + tolerance), color=FAIL_COLOR, ls=":", lw=1, label=f"limit x {1 + tolerance:g}")
        ax.set_title(joint, fontsize=8)
        ax.tick_params(labelsize=7)
        ax.grid(alpha=0.3)
    axes[0].legend(fontsize=7)
    figure.tight_layout()
    return [(figure, _caption("|velocity| per joint against its limit and the tolerance line", joints))]


def _effort_limit(result: TestResult, series: dict):
    joints = _joint_groups(series, ("deflection",), prefix="effort/")
    if not joints:
        return []
    plt = _pyplot()
    rows = _rows_by_joint(result)
    directions = 12
    frames = _num(result.metrics.get("frames_per_direction"))
    physics_fps = _num(result.config.get("physics_fps"), 240.0)
    matrix = np.full((len(joints), directions), np.nan)
    traces = plt.subplots(figsize=(8.4, 3.0))
    figure_t, ax_t = traces
    for i, joint in enumerate(joints):
        t = _arr(series, f"effort/{joint}/time")
        deflection = _arr(series, f"effort/{joint}/deflection")
        if len(t) == 0:
            continue
        ax_t.plot(t, deflection, lw=1.2, color=_status_color(rows.get(joint)) if len(joints) == 1 else None, label=joint)
        span = frames / physics_fps if frames else (t[-1] - t[0] + 1e-9) / directions
        index = np.clip(((t - t[0]) / span + 1e-6).astype(int), 0, directions - 1)
        for d in range(directions):
            sel = deflection[index == d]
            if len(sel):
                matrix[i, d] = np.nanmax(sel)
    ax_t.set_xlabel("time (s)")
    ax_t.set_ylabel("deflection (rad or m)")
    ax_t.grid(alpha=0.3)
    if len(joints) <= 10:
        ax_t.legend(fontsize=6, ncol=2)
    figure_t.tight_layout()
    figure_h, ax_h = plt.subplots(figsize=(8.4, 0.5 + 0.32 * len(joints)))
    image = ax_h.imshow(matrix, aspect="auto", cmap="magma_r")
    ax_h.set_yticks(range(len(joints)), joints, fontsize=7)
    ax_h.set_xticks(range(directions), [str(d + 1) for d in range(directions)], fontsize=7)
    ax_h.set_xlabel("force direction")
    figure_h.colorbar(image, ax=ax_h, label="max deflection")
    figure_h.tight_layout()
    return [(figure_h, "Largest deflection of each joint per force direction"),
            (figure_t, "Deflection of the loaded joint over time (12 directions in turn)")]


def _generic(result: TestResult, series: dict):
    """Every series against its group's `time` (or sample index), one panel per group."""
    groups: dict[str, list[str]] = {}
    for key in series:
        prefix, _, name = key.rpartition("/")
        if name != "time":
            groups.setdefault(prefix, []).append(key)
    groups = {k: v for k, v in groups.items() if v}
    if not groups:
        return []
    names = sorted(groups)[:MAX_PANELS]
    figure, axes = _grid(len(names))
    for ax, prefix in zip(axes, names):
        time_key = f"{prefix}/time" if prefix else "time"
        t = _arr(series, time_key)
        for key in groups[prefix]:
            y = _arr(series, key)
            x = t if t is not None and len(t) == len(y) else np.arange(len(y))
            ax.plot(x, y, lw=1.2, label=key.rpartition("/")[2])
        ax.set_title(prefix or result.name, fontsize=8)
        ax.tick_params(labelsize=7)
        ax.grid(alpha=0.3)
        ax.legend(fontsize=6)
    figure.tight_layout()
    return [(figure, _caption("Recorded series", sorted(groups)))]


def _caption(text: str, items: list[str]) -> str:
    if len(items) > MAX_PANELS:
        return f"{text} (first {MAX_PANELS} of {len(items)})"
    return text


SPECIFIC: dict[str, Callable] = {
    "ground_drop": _ground_drop,
    "full_range_sweep": _full_range_sweep,
    "drive_gain_validation": _drive_gain_validation,
    "velocity_limit": _velocity_limit,
    "effort_limit": _effort_limit,
}
