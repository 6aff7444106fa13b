"""ground_stability's plot: what decided each release. For the upright and the tilted release, the worst movement over
the trailing rest window (the bounds' centre and corners, every moving body's origin; cm) against rest_tolerance_m,
and the worst turn of a moving body (deg) against rotation_tolerance_deg, from release; the deadline by which a rest
window must end, and the window that held (shaded) when one did. The series are the test's own (`time`, `release`,
`position_deviation`, `rotation_deviation`: NaN until the window is full), on log axes from 1 % of the tolerance."""

from __future__ import annotations

import numpy as np

from ....core.results import TestResult
from ....plotting.common import DEGREES, FAIL_COLOR, LIMIT_COLOR, PASS_COLOR, arr, num, pyplot
from .config import GroundStabilityConfig

RELEASES = ("upright", "tilted")
FLOOR = 0.01  # the log axis starts at 1 % of the tolerance


def ground_stability_plot(result: TestResult, series: dict):
    t, which = arr(series, "time"), arr(series, "release")
    moved, turned = arr(series, "position_deviation"), arr(series, "rotation_deviation")
    if t is None or which is None or moved is None or turned is None or not len(t):
        return []
    plt = pyplot()
    cfg, metrics = GroundStabilityConfig.from_report(result.config), result.metrics
    shown = [k for k in range(len(RELEASES)) if np.any(which == k)]
    figure, axes = plt.subplots(2, len(shown), figsize=(5.2 * len(shown), 4.6), squeeze=False)
    deadlines = {0: cfg.rest_detection_max_seconds, 1: cfg.tilted_rest_max_seconds}
    for column, k in enumerate(shown):
        mask = which == k
        name = RELEASES[k]
        rested, rest = metrics.get(f"{name}_rested"), num(metrics.get(f"{name}_rest_time"))
        colour = PASS_COLOR if rested else FAIL_COLOR
        for row, (values, limit, scale, label) in enumerate((
                (moved, cfg.rest_tolerance_m, 100.0, "moved over the window (cm)"),
                (turned, cfg.rotation_tolerance_deg / DEGREES, DEGREES, "turned over the window (deg)"))):
            ax = axes[row][column]
            floor = limit * scale * FLOOR  # log axis: a body at rest reads 0; it is drawn at the floor
            shown_values = np.clip(values[mask] * scale, floor, None)
            ax.plot(t[mask], shown_values, color=colour, lw=1.4)
            ax.axhline(limit * scale, color=LIMIT_COLOR, ls="--", lw=1, label="tolerance")
            ax.axvline(deadlines[k], color=FAIL_COLOR, ls=":", lw=1, label="deadline")
            if rest is not None:
                ax.axvspan(rest - cfg.rest_detection_hold_seconds, rest, color=PASS_COLOR, alpha=0.12, label="rest window")
            ax.set_yscale("log")
            top = np.nanmax(shown_values) if np.any(np.isfinite(shown_values)) else limit * scale
            ax.set_ylim(floor, max(top, limit * scale) * 3.0)
            ax.set_xlim(0.0, max(deadlines[k], float(np.nanmax(t[mask]))) * 1.04)
            ax.set_ylabel(label, fontsize=8)
            ax.grid(alpha=0.3)
            if row == 0:
                tilt = f" {cfg.tilt_angle_deg:g}°" if k else ""
                ax.set_title(f"released {name}{tilt}: " + (f"at rest at {rest:.2f} s" if rest is not None else "not at rest"),
                             fontsize=9)
                ax.legend(fontsize=6.5, loc="upper right")
            else:
                ax.set_xlabel("time since release (s)")
    figure.tight_layout()
    return [(figure, "ground_stability: movement and turn over the trailing rest window against their tolerances, per release")]
