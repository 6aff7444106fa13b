"""How reports show state_accuracy: the worst error as a fraction of its tolerance, rows' errors beside their
tolerance, and the tracking plot."""

from ....core.test_view import JudgedMetric, TestView
from .plot import state_accuracy_plot

VIEW = TestView(
    judged=(
        JudgedMetric("joints_failed", "zero"),
        JudgedMetric("max_error_ratio", "max", threshold_label="1 (each joint's tolerance)", threshold_of=lambda config: 1.0),
    ),
    metric_units={"max_error_revolute": "rad", "max_error_prismatic": "m"},
    row_limits={"max_error": "tolerance"},
    row_positions=frozenset({"max_error", "home", "step", "tolerance", "lower", "upper",
                             "error_1", "error_2", "error_3", "error_4", "error_5"}),
    plot=state_accuracy_plot,
)
