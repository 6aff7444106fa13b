"""mimic_joint's plot: each follower against its reference over the sweep, beside the authored relation, with the
follower's limits."""

from __future__ import annotations

import numpy as np

from ....core.results import TestResult
from ....plotting.common import (
    LIMIT_COLOR, MAX_PANELS, TARGET_COLOR, caption, failing_first, grid, joint_groups, note, num,
    recorded, rows_by_joint, scale, shared_legend, status_color, title_for,
)


def mimic_joint_plot(result: TestResult, series: dict):
    joints = joint_groups(series, ("reference", "follower", "expected"))
    if not joints:
        return []
    rows = rows_by_joint(result)
    shown = failing_first(joints, rows)[:MAX_PANELS]
    figure, axes = grid(len(shown), height=2.8, width=3.6)
    for ax, joint in zip(axes, shown):
        row = rows.get(joint)
        r, f, e = (recorded(series, f"{joint}/{key}") for key in ("reference", "follower", "expected"))
        f_unit = (row.units.get("lower") if row else "") or "rad"
        r_unit = (row.units.get("reference_sweep") if row else "") or "rad"
        fx, f_label = scale(f_unit, float(np.nanmax(np.abs(f))) if len(f) else 0.0)
        rx, r_label = scale(r_unit, float(np.nanmax(np.abs(r))) if len(r) else 0.0)
        order = np.argsort(r)
        ax.plot(r[order] * rx, e[order] * fx, color=TARGET_COLOR, ls="--", lw=1.1, label="authored relation")
        ax.plot(r * rx, f * fx, ".", ms=2, color=status_color(row), label="follower (measured)")
        for key in ("lower", "upper"):
            bound = num(row.limits.get(key)) if row else None
            if bound is not None:
                ax.axhline(bound * fx, color=LIMIT_COLOR, ls=":", lw=1, label="follower limits")
        if row is not None:
            measured, authored = num(row.measured.get("measured_slope")), num(row.limits.get("authored_slope"))
            note(ax, f"slope {measured if measured is not None else float('nan'):.3g} (authored "
                     f"{authored if authored is not None else float('nan'):.3g})", where="bottom")
            if row.status.value == "FAIL":
                ax.set_facecolor((1, 0.96, 0.96))
        ax.set_xlabel(f"reference {row.measured.get('reference', '') if row else ''} ({r_label})", fontsize=7)
        ax.set_ylabel(f"follower ({f_label})", fontsize=7)
        title_for(ax, joint, row)
    figure.tight_layout()
    shared_legend(figure, axes)
    return [(figure, caption("mimic_joint: each follower against its reference over the sweep, and the authored relation",
                             len(shown), len(joints)))]



