"""The gripper tests' plot: the object's slip in the grip against max_slip, and its height with the gantry's travel."""

from __future__ import annotations

from ....core.results import TestResult
from ....plotting.common import FAIL_COLOR, arr, pyplot
from .gripper_config import GripperConfig


def gripper_plot(result: TestResult, series: dict):
    t, slip, z, gantry = (arr(series, k) for k in ("time", "slip", "object_z", "gantry"))
    if t is None or slip is None or not len(t):
        return []
    plt = pyplot()
    cfg = GripperConfig.from_report(result.config)
    figure, (ax_slip, ax_z) = plt.subplots(1, 2, figsize=(10.0, 3.0))
    ax_slip.plot(t, slip * 100.0, color="#1f77b4", lw=1.3, label="object's move in the grip")
    ax_slip.axhline(cfg.max_slip * 100.0, color=FAIL_COLOR, ls="--", lw=1, label="max_slip")
    ax_slip.set_xlabel("time (s)")
    ax_slip.set_ylabel("slip (cm)")
    ax_slip.legend(fontsize=7)
    ax_slip.grid(alpha=0.3)
    if z is not None:
        ax_z.plot(t, z * 100.0, color="#d46a00", lw=1.3, label="object centre height")
    if gantry is not None:
        ax_z.plot(t, gantry * 100.0, color="#777777", lw=1.0, ls=":", label="gantry travel")
    ax_z.set_xlabel("time (s)")
    ax_z.set_ylabel("cm")
    ax_z.legend(fontsize=7)
    ax_z.grid(alpha=0.3)
    figure.tight_layout()
    return [(figure, f"{result.name}: the object in the grip through the lift, hold and shake")]
