"""Plots for the HTML report (matplotlib, Agg backend: no display).

Each test draws the quantity its verdict was decided on with its own plot (its TestView's `plot`, in the
test's folder), from its recorded series (`TestResult.series` or series.json), in units for people with
labelled axes, against the threshold from its effective config and joint rows. A test without one (or whose
series do not fit it) gets generic time plots, grouped by the series-name prefix before the last "/".
"""

from __future__ import annotations

from pathlib import Path
from typing import Callable

import numpy as np

from ..core import out_writer
from ..core.results import TestResult
from ..core.test_view import GENERIC_VIEW, TestView
from ..plotting.common import arr, grid, pyplot, recorded

GENERIC_PANELS = 12


def write_plots(result: TestResult, series: dict[str, list[float]], out_dir: Path, stem: str,
                test_view: TestView = GENERIC_VIEW) -> list[dict]:
    """Draw the plots for one test result; [{"path": png, "title": caption}]."""
    if not series:
        return []
    out_writer.folder(out_dir)
    plotter: Callable = test_view.plot or generic
    try:
        figures = plotter(result, series)
    except Exception:  # noqa: BLE001 - unexpected series shape: fall back to the generic view
        figures = []
    if not figures:
        figures = generic(result, series)
    plt = pyplot()
    out = []
    for index, (figure, title) in enumerate(figures):
        path = out_dir / f"{stem}-{index}.png"
        try:
            with out_writer.replacing(path) as tmp:  # never through a link at `path`, never half a picture
                figure.savefig(tmp, format="png", dpi=80, bbox_inches="tight")
        finally:
            plt.close(figure)
        out.append({"path": path, "title": title})
    return out


def generic(result: TestResult, series: dict):
    """Every series against its group's `time` (or sample index), one panel per group."""
    groups: dict[str, list[str]] = {}
    for key in series:
        prefix, _, name = key.rpartition("/")
        if name != "time":
            groups.setdefault(prefix, []).append(key)
    groups = {k: v for k, v in groups.items() if v}
    if not groups:
        return []
    names = sorted(groups)[:GENERIC_PANELS]
    figure, axes = grid(len(names))
    for ax, prefix in zip(axes, names):
        time_key = f"{prefix}/time" if prefix else "time"
        t = arr(series, time_key)
        timed = False
        for key in groups[prefix]:
            y = recorded(series, key)
            timed = t is not None and len(t) == len(y)
            ax.plot(t if timed else np.arange(len(y)), y, lw=1.2, label=key.rpartition("/")[2])
        ax.set_title(prefix or result.name, fontsize=8)
        ax.set_xlabel("time (s)" if timed else "sample", fontsize=7)
        ax.set_ylabel("value (SI)", fontsize=7)
        ax.tick_params(labelsize=7)
        ax.grid(alpha=0.3)
        ax.legend(fontsize=6)
    figure.tight_layout()
    text = "Recorded series"
    if len(groups) > GENERIC_PANELS:
        text += f" (first {GENERIC_PANELS} of {len(groups)})"
    return [(figure, text)]
