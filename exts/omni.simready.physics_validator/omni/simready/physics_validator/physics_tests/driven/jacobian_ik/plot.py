"""jacobian_ik's plots: the end effector's distance to each target against the position tolerance, and each joint's
position against its command."""

from __future__ import annotations

from ....core.results import TestResult
from ....plotting.common import FAIL_COLOR, arr, pyplot
from ..tracking_plot import tracking_plot
from .config import JacobianIkConfig


def jacobian_ik_plot(result: TestResult, series: dict):
    figures = []
    t, error = arr(series, "time"), arr(series, "position_error")
    if t is not None and error is not None and len(t):
        plt = pyplot()
        cfg = JacobianIkConfig.from_report(result.config)
        figure, ax = plt.subplots(figsize=(7.0, 2.8))
        ax.plot(t, error * 100.0, color="#1f77b4", lw=1.2, label="end effector to its target")
        ax.axhline(cfg.position_tolerance * 100.0, color=FAIL_COLOR, ls="--", lw=1, label="position_tolerance")
        ax.set_xlabel("time (s)")
        ax.set_ylabel("distance (cm)")
        ax.legend(fontsize=7)
        ax.grid(alpha=0.3)
        figure.tight_layout()
        figures.append((figure, "jacobian_ik: the end effector's distance to each target in turn"))
    return figures + tracking_plot(result, series, "jacobian_ik: each joint of the chain against its command")
