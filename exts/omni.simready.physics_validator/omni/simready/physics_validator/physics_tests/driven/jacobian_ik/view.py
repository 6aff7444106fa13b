"""How reports show jacobian_ik: the pass rate beside its minimum, unreachable targets read as reached (none), each
joint's lag beside the blocked-joint line, and the plot."""

from ....core.test_view import JudgedMetric, TestView
from .plot import jacobian_ik_plot

VIEW = TestView(
    judged=(
        JudgedMetric("pass_rate", "min", "min_pass_rate"),
        JudgedMetric("unreachable_reached", "zero"),
    ),
    deciding=("pass_rate", "targets_reached", "max_position_error", "max_orientation_error"),
    metric_units={"max_position_error": "m", "max_orientation_error": "rad", "reach": "m",
                  "home_kinematics_error": "m"},
    row_limits={"max_lag": "blocked_lag"},
    row_positions=frozenset({"max_lag", "blocked_lag"}),
    plot=jacobian_ik_plot,
)
