"""How reports show joint_movement: the joints that did not move (the smallest travel ratio, travel / required, is
compared across engines), rows' travel beside the travel required, and the bar plot."""

from ....core.test_view import JudgedMetric, TestView
from .plot import joint_movement_plot

VIEW = TestView(
    judged=(JudgedMetric("joints_failed", "zero"),),
    deciding=("joints_failed", "joints_moved", "min_travel_ratio"),
    row_limits={"travel": "required_travel"},
    row_positions=frozenset({"travel", "joint_progress", "required_travel", "expected_travel", "lower", "upper",
                             "open_end"}),
    row_rates=frozenset({"speed"}),
    plot=joint_movement_plot,
)
