"""slope_drop's plot: the collision geometry's distance to the ramp plane (contact, sinking, launch) and the distance
moved down the slope, against their thresholds."""

from __future__ import annotations

from ....core.results import TestResult
from ....plotting.common import FAIL_COLOR, LIMIT_COLOR, PASS_COLOR, arr, num, pyplot
from .config import SlopeDropConfig


def slope_drop_plot(result: TestResult, series: dict):
    t, gap, downhill = arr(series, "time"), arr(series, "ramp_gap"), arr(series, "downhill")
    if t is None or gap is None or not len(t):
        return []
    plt = pyplot()
    cfg, metrics = SlopeDropConfig.from_report(result.config), result.metrics
    cm = 100.0
    figure, (ax_gap, ax_down) = plt.subplots(1, 2, figsize=(10.0, 3.2))
    sink = num(metrics.get("ramp_penetration_allowance"), cfg.slope_penetration_tolerance)  # the allowance applied
    ax_gap.axhspan(-sink * cm, cfg.slope_contact_tolerance * cm, color=PASS_COLOR, alpha=0.15, label="contact band")
    ax_gap.axhline(-sink * cm, color=FAIL_COLOR, ls="--", lw=1, label="sinking limit")
    ax_gap.axhline(cfg.maximum_slope_separation * cm, color=LIMIT_COLOR, ls=":", lw=1,
                   label="launch gap")
    ax_gap.plot(t, gap * cm, color="#d46a00", lw=1.4, label="lowest point above the ramp plane")
    ax_gap.set_ylim(-4 * sink * cm, max(4 * sink * cm, 20.0))
    ax_gap.set_xlabel("time (s)")
    ax_gap.set_ylabel("distance to the ramp plane (cm)", fontsize=8)
    ax_gap.legend(fontsize=6.5)
    ax_gap.grid(alpha=0.3)
    if downhill is not None:
        ax_down.plot(t, downhill * cm, color="#1f77b4", lw=1.4, label="moved down the slope since contact")
    ax_down.axhline(cfg.min_downhill_travel * cm, color=FAIL_COLOR, ls="--", lw=1,
                    label="min_downhill_travel")
    ax_down.set_xlabel("time (s)")
    ax_down.set_ylabel("downhill travel (cm)", fontsize=8)
    ax_down.legend(fontsize=6.5)
    ax_down.grid(alpha=0.3)
    figure.tight_layout()
    return [(figure, "slope_drop: the collision geometry's distance to the ramp, and the distance moved down it")]
