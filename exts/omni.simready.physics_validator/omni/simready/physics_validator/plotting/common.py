"""What every plot of the HTML report shares: matplotlib (Agg), series as arrays, panel grids, the order
of the joints (failing first), verdict colours, and units for people (radians drawn in degrees, small
lengths in mm: the same rule as core.quantities.for_people)."""

from __future__ import annotations

import json
import math
from pathlib import Path

import numpy as np

from ..core.results import TestResult
from ..core.status import severity

MAX_PANELS = 9  # joints per figure, failing ones first; the caption says how many were left out
PASS_COLOR, FAIL_COLOR, WARN_COLOR, BAND_COLOR = "#2e9d4f", "#cc2929", "#c77c00", "#8fb3e8"
LIMIT_COLOR, TARGET_COLOR = "#23467a", "#777777"
DEGREES = 180.0 / math.pi


def pyplot():
    import matplotlib

    matplotlib.use("Agg", force=True)
    import matplotlib.pyplot as plt

    return plt


def arr(series: dict, key: str) -> np.ndarray | None:
    values = series.get(key)
    if values is None:
        return None
    return np.asarray([np.nan if v is None else v for v in values], dtype=float)


def recorded(series: dict, key: str) -> np.ndarray:
    """`arr` of a series the caller knows was recorded (a key of `series`, or one `joint_groups` required)."""
    return np.asarray([np.nan if v is None else v for v in series[key]], dtype=float)


def num(value, default=None):
    if isinstance(value, bool):
        return default
    try:
        value = float(value)
    except (TypeError, ValueError):
        return default
    return value if math.isfinite(value) else default


def load_json(path: str | None):
    if not path:
        return None
    try:
        return json.loads(Path(path).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None


def joint_groups(series: dict, required: tuple[str, ...], prefix: str = "") -> list[str]:
    """Joint names having `<prefix><joint>/time` and every `<prefix><joint>/<required>` series."""
    names = []
    for key in series:
        if key.startswith(prefix) and key.endswith("/time"):
            joint = key[len(prefix): -len("/time")]
            if joint and all(f"{prefix}{joint}/{r}" in series for r in required):
                names.append(joint)
    return names


def rows_by_joint(result: TestResult) -> dict:
    return {row.joint: row for row in result.joints}


def failing_first(joints: list[str], rows: dict) -> list[str]:
    """Joints ordered worst verdict first (their recorded order otherwise)."""
    def rank(item):
        index, joint = item
        row = rows.get(joint)
        return (severity(row.status) if row is not None else 9, index)

    return [j for _, j in sorted(enumerate(joints), key=rank)]


def status_color(row) -> str:
    if row is None:
        return "#444444"
    value = row.status.value
    return PASS_COLOR if value == "PASS" else FAIL_COLOR if value in ("FAIL", "ERROR") else WARN_COLOR


def grid(count: int, height: float = 2.3, width: float = 4.0):
    plt = pyplot()
    cols = count if count <= 3 else 2 if count == 4 else 3
    rows = math.ceil(count / cols)
    figure, axes = plt.subplots(rows, cols, figsize=(width * cols, height * rows + 0.5), squeeze=False)
    flat = list(axes.ravel())
    for ax in flat[count:]:
        ax.set_visible(False)
    return figure, flat


def joint_unit(row, key: str = "") -> str:
    """The SI unit of a joint row's position values: JointRow.units, else the row's "unit" limit ("rad/s" -> "rad")."""
    if row is None:
        return ""
    units = getattr(row, "units", None) or {}
    if key and key in units:
        return units[key]
    unit = str(row.limits.get("unit") or units.get("position") or "")
    return unit[:-2] if unit.endswith("/s") else unit


def scale(unit: str, magnitude: float = 0.0) -> tuple[float, str]:
    """(factor, label) to draw SI values in `unit` for people: rad -> degrees, small lengths -> mm."""
    if unit == "rad":
        return DEGREES, "°"
    if unit == "rad/s":
        return DEGREES, "°/s"
    if unit == "m":
        return (1000.0, "mm") if magnitude < 0.1 else (1.0, "m")
    if unit == "m/s":
        return (1000.0, "mm/s") if magnitude < 0.1 else (1.0, "m/s")
    return 1.0, unit


def caption(text: str, shown: int, total: int) -> str:
    if total > shown:
        return f"{text} (the {shown} worst of {total} joints; every joint is in the table)"
    return text


def title_for(ax, joint: str, row) -> None:
    status = row.status.value if row is not None else ""
    ax.set_title(f"{joint} · {status}" if status else joint, fontsize=8.5, color=status_color(row))
    ax.tick_params(labelsize=7)
    ax.grid(alpha=0.3)


def shared_legend(figure, axes) -> None:
    """One legend above all panels: every kind of line any panel draws, once."""
    found: dict = {}
    for ax in axes:
        for handle, label in zip(*ax.get_legend_handles_labels()):
            found.setdefault(label, handle)
    if found:
        figure.legend(list(found.values()), list(found), loc="lower center", bbox_to_anchor=(0.5, 1.0),
                      ncol=min(len(found), 6), fontsize=7.5, frameon=False)


def note(ax, text: str, where: str = "top") -> None:
    """A panel's own numbers (its measured values against their limits), inside the axes (top left or bottom right)."""
    x, y, ha, va = (0.02, 0.96, "left", "top") if where == "top" else (0.98, 0.04, "right", "bottom")
    ax.text(x, y, text, transform=ax.transAxes, ha=ha, va=va, fontsize=6.5,
            bbox={"boxstyle": "round,pad=0.25", "fc": "white", "ec": "#cccccc", "alpha": 0.85})


def fmt_scaled(value, factor: float, label: str = "") -> str:
    """An SI value scaled for people, with its unit ("117°", "12 mm")."""
    value = num(value)
    if value is None:
        return "n/a"
    space = "" if label.startswith("°") or not label else " "
    return f"{value * factor:.3g}{space}{label}"
