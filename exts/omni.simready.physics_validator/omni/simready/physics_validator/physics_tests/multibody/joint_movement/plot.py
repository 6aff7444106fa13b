"""joint_movement's plot: how far each joint's bodies moved against the travel it needed (the deciding quantity)."""

from __future__ import annotations

import numpy as np

from ....core.results import TestResult
from ....plotting.common import DEGREES, FAIL_COLOR, LIMIT_COLOR, PASS_COLOR, num, pyplot


def joint_movement_plot(result: TestResult, series: dict):
    rows = [r for r in result.joints if num(r.limits.get("required_travel")) is not None]
    if not rows:
        return []
    plt = pyplot()
    figure, ax = plt.subplots(figsize=(min(12.0, 2.0 + 0.6 * len(rows)), 3.2))
    names = [r.joint for r in rows]
    factor = [DEGREES if r.limits.get("unit") == "rad" else 1000.0 for r in rows]
    travel = np.array([num(r.measured.get("travel"), 0.0) * f for r, f in zip(rows, factor)])
    required = np.array([num(r.limits.get("required_travel"), 0.0) * f for r, f in zip(rows, factor)])
    expected = np.array([num(r.limits.get("expected_travel"), 0.0) * f for r, f in zip(rows, factor)])
    x = np.arange(len(rows))
    colors = [PASS_COLOR if r.status.value == "PASS" else FAIL_COLOR for r in rows]
    ax.bar(x, travel, color=colors, label="bodies moved")
    ax.scatter(x, required, marker="_", s=400, color=LIMIT_COLOR, label="required (min_travel_fraction x expected)")
    ax.scatter(x, expected, marker="_", s=400, color="#999999", label="expected travel")
    ax.set_xticks(x, names, rotation=30, ha="right", fontsize=7)
    ax.set_ylabel("travel (° revolute, mm prismatic)", fontsize=8)
    ax.legend(fontsize=7)
    ax.grid(alpha=0.3, axis="y")
    figure.tight_layout()
    return [(figure, "joint_movement: how far each joint's bodies moved against the travel it needed")]
