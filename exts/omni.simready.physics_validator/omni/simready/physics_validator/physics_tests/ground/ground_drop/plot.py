"""ground_drop's plot: the quantities its verdict is decided on.

- **rest deviation**: how far the bounding box's centre and its corners moved within the trailing rest window
  (2 s), against `rest_tolerance_m` (2 cm), from first contact on; the rest checks' start and deadline, and the
  window that decided (the rest window on a PASS, the last window otherwise) shaded;
- **lowest point near the floor**: bounds min z against the touch band (floor + floor_margin) and the penetration
  limit the verdict applied (floor - sink_allowance, the metric; floor_margin in reports without it), and over the
  whole run.

The deviation comes from the test's `rest/time`, `rest/centre_deviation`, `rest/corner_deviation` series
when it records them, else it is recomputed from the per-frame bounds in the video's timeline (the capture
rate), else from the `bbox_min_z` / `bbox_center_z` series (vertical only, said on the axis).
"""

from __future__ import annotations

import numpy as np

from ....core.results import TestResult
from ....plotting.common import BAND_COLOR, FAIL_COLOR, LIMIT_COLOR, PASS_COLOR, arr, load_json, num, pyplot
from .config import GroundDropConfig


def window_deviation(times: np.ndarray, lo: np.ndarray, hi: np.ndarray, hold: float) -> tuple[np.ndarray, np.ndarray]:
    """(centre, corner) deviation per sample over the trailing `hold` seconds, as the test's RestWindow
    measures it (displacement from the latest box, Euclidean; NaN until the window is full)."""
    n = len(times)
    centre = np.full(n, np.nan)
    corner = np.full(n, np.nan)
    mid = (lo + hi) / 2.0
    start = 0
    for i in range(n):
        while times[i] - times[start] > hold + 1e-9:
            start += 1
        if times[i] - times[0] < hold - 1e-6:
            continue
        dlo = np.abs(lo[start: i + 1] - lo[i])
        dhi = np.abs(hi[start: i + 1] - hi[i])
        corner[i] = float(np.sqrt((np.maximum(dlo, dhi) ** 2).sum(axis=1)).max())
        centre[i] = float(np.linalg.norm(mid[start: i + 1] - mid[i], axis=1).max())
    return centre, corner


def _deviation(result: TestResult, series: dict, hold: float):
    """(times, centre, corner, note) from the best source available."""
    t, centre, corner = arr(series, "rest/time"), arr(series, "rest/centre_deviation"), arr(series, "rest/corner_deviation")
    if t is not None and centre is not None and corner is not None and len(t):
        return t, centre, corner, ""
    timeline = load_json(result.artifacts.get("timeline")) or {}
    frames = [f for f in timeline.get("frames", []) if f.get("bounds_min") and f.get("bounds_max")]
    if len(frames) > 2:
        t = np.array([f["sim_time"] for f in frames], float)
        lo = np.array([[np.nan if v is None else v for v in f["bounds_min"]] for f in frames], float)
        hi = np.array([[np.nan if v is None else v for v in f["bounds_max"]] for f in frames], float)
        centre, corner = window_deviation(t, lo, hi, hold)
        return t, centre, corner, f" (at the video's {timeline.get('fps', 0):.0f} Hz)"
    t, z, zc = arr(series, "time"), arr(series, "bbox_min_z"), arr(series, "bbox_center_z")
    if t is None or z is None or zc is None or not len(t):
        return None
    lo = np.stack([np.zeros_like(z), np.zeros_like(z), z], axis=1)
    hi = np.stack([np.zeros_like(z), np.zeros_like(z), 2 * zc - z], axis=1)
    centre, corner = window_deviation(t, lo, hi, hold)
    return t, centre, corner, " (vertical only)"


def ground_drop_plot(result: TestResult, series: dict):
    t, z = arr(series, "time"), arr(series, "bbox_min_z")
    if t is None or z is None or len(t) == 0:
        return []
    plt = pyplot()
    cfg, metrics = GroundDropConfig.from_report(result.config), result.metrics
    floor = num(metrics.get("floor_level"), cfg.floor_level)
    margin, tolerance = cfg.floor_margin, cfg.rest_tolerance_m
    sink = num(metrics.get("sink_allowance"), margin)  # the penetration limit the verdict applied
    hold, delay, limit = cfg.rest_detection_hold_seconds, cfg.penetration_check_seconds, cfg.rest_detection_max_seconds
    touch, rest = num(metrics.get("touch_time")), num(metrics.get("rest_time"))
    t_end = float(np.nanmax(t)) if np.any(np.isfinite(t)) else 1.0
    figure, (ax_dev, ax_floor, ax_all) = plt.subplots(1, 3, figsize=(12.0, 3.3), gridspec_kw={"width_ratios": [5, 4, 3]})

    # 1. rest deviation (mm) from first contact on
    ax_dev.set_title("rest: movement within the last %g s" % hold, fontsize=9)
    ax_dev.set_xlabel("time (s)")
    deviation = _deviation(result, series, hold) if touch is not None else None
    if deviation is None:
        ax_dev.text(0.5, 0.5, "never touched the floor:\nno rest check" if touch is None else "no bounds recorded",
                    ha="center", va="center", transform=ax_dev.transAxes, fontsize=9, color=FAIL_COLOR)
        ax_dev.set_yticks([])
    else:
        td, centre, corner, note = deviation
        mm = 1000.0
        checks = touch + delay
        early = (td >= touch) & (td <= checks + 1e-9)  # drawn faint: the test does not judge yet
        judged = td >= checks
        ax_dev.axhspan(0, tolerance * mm, color=PASS_COLOR, alpha=0.12)
        ax_dev.axhline(tolerance * mm, color=FAIL_COLOR, ls="--", lw=1.2, label=f"rest_tolerance_m {tolerance * mm:g} mm")
        for mask, alpha, suffix in ((early, 0.35, None), (judged, 1.0, "")):
            ax_dev.plot(td[mask], corner[mask] * mm, color="#d46a00", lw=1.5, alpha=alpha,
                        label=None if suffix is None else "corners (worst)")
            ax_dev.plot(td[mask], centre[mask] * mm, color=LIMIT_COLOR, lw=1.3, alpha=alpha,
                        label=None if suffix is None else "centre")
        decided = rest if rest is not None else t_end
        index = int(np.argmin(np.abs(td - decided)))
        if np.isfinite(corner[index]):
            ax_dev.plot([td[index]], [corner[index] * mm], "o", color=PASS_COLOR if rest is not None else FAIL_COLOR, ms=5)
            ax_dev.annotate(f"{'at rest' if rest is not None else 'last window'}: corners {corner[index] * mm:.3g} mm, "
                            f"centre {centre[index] * mm:.3g} mm", (td[index], corner[index] * mm),
                            textcoords="offset points", xytext=(-4, 10), ha="right", fontsize=6.5,
                            bbox={"boxstyle": "round,pad=0.2", "fc": "white", "ec": "#cccccc", "alpha": 0.9})
        ax_dev.axvline(checks, color="#888", ls=":", lw=1, label=f"checks start (contact + {delay:g} s)")
        if touch + limit <= t_end + 1e-9:
            ax_dev.axvline(touch + limit, color=FAIL_COLOR, ls=":", lw=1, label=f"deadline (contact + {limit:g} s)")
        if rest is not None:
            ax_dev.axvspan(rest - hold, rest, color=PASS_COLOR, alpha=0.22, label="rest window (at rest)")
        else:
            ax_dev.axvspan(max(touch, t_end - hold), t_end, color=FAIL_COLOR, alpha=0.12, label="last window (not at rest)")
        peak = float(np.nanmax(corner[judged])) if np.any(judged & np.isfinite(corner)) else tolerance
        ax_dev.set_ylim(0, max(3.0 * tolerance, min(1.15 * peak, 8.0 * tolerance)) * mm)
        ax_dev.set_xlim(touch, t_end)
        ax_dev.set_ylabel("movement in the window (mm)" + note, fontsize=8)
        ax_dev.legend(fontsize=6.5, loc="upper left", framealpha=0.85)
    ax_dev.grid(alpha=0.3)

    # 2. the lowest point near the floor (mm)
    mm = 1000.0
    ax_floor.set_title("lowest point near the floor", fontsize=9)
    ax_floor.axhspan(-margin * mm, margin * mm, color=BAND_COLOR, alpha=0.3, label=f"floor ± floor_margin ({margin * mm:g} mm)")
    ax_floor.axhline(0, color=LIMIT_COLOR, lw=1, label="floor")
    ax_floor.axhline(-sink * mm, color=FAIL_COLOR, ls="--", lw=1, label=f"penetration limit ({sink * mm:.3g} mm)")
    ax_floor.plot(t, (z - floor) * mm, color="#d46a00", lw=1.5, label="bounds min z")
    if touch is not None:
        ax_floor.axvline(touch, color="#555", ls="--", lw=1, label=f"first contact {touch:.2f} s")
    ax_floor.set_ylim(-2.5 * margin * mm, 2.5 * margin * mm)
    ax_floor.set_xlim(float(np.nanmin(t)), t_end)
    ax_floor.set_xlabel("time (s)")
    ax_floor.set_ylabel("height above the floor (mm)", fontsize=8)
    ax_floor.legend(fontsize=6.5, loc="upper right")
    ax_floor.grid(alpha=0.3)

    # 3. the whole fall (m)
    ax_all.set_title("whole run", fontsize=9)
    ax_all.axhline(0, color=LIMIT_COLOR, lw=1)
    ax_all.plot(t, z - floor, color="#d46a00", lw=1.5)
    ax_all.set_xlabel("time (s)")
    ax_all.set_ylabel("height above the floor (m)", fontsize=8)
    ax_all.grid(alpha=0.3)
    figure.tight_layout()
    return [(figure,
             "ground_drop: movement in the rest window against rest_tolerance_m, and the lowest point against the floor band")]
