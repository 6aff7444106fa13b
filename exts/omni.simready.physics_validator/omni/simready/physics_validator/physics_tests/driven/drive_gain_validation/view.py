"""How reports show drive_gain_validation: the step-response metrics beside their limits and the step plot."""

from ....core.test_view import JudgedMetric, TestView
from .plot import drive_gain_validation_plot

VIEW = TestView(
    judged=(
        JudgedMetric("joints_poor", "zero"),
        JudgedMetric("max_overshoot_pct", "max", "max_overshoot_pct"),
        JudgedMetric("max_settling_time_s", "max", "max_settling_seconds"),
        JudgedMetric("max_oscillations", "max", "max_oscillations"),
    ),
    deciding=("joints_poor", "max_overshoot_pct", "max_oscillations", "max_settling_time_s"),
    metric_units={"max_overshoot_pct": "%", "max_settling_time_s": "s"},
    row_limits={"settling_time_s": "max_settling_seconds", "final_error": "settling_band"},
    row_positions=frozenset({"start", "target", "step", "final_error", "settling_band", "lower", "upper"}),
    plot=drive_gain_validation_plot,
)
