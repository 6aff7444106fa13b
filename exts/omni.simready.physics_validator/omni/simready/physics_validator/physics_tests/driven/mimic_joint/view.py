"""How reports show mimic_joint: the worst slope error beside the gear-ratio tolerance, rows' couplings beside their
authored values, and the follower-against-reference plot."""

from ....core.test_view import JudgedMetric, TestView
from .plot import mimic_joint_plot

VIEW = TestView(
    judged=(
        JudgedMetric("pairs_failed", "zero"),
        JudgedMetric("max_slope_error", "max", "gear_ratio_tolerance"),
    ),
    deciding=("pairs_failed", "max_slope_error", "max_rest_error"),
    row_limits={"measured_slope": "authored_slope", "rest_error": "offset_tolerance", "slope_error": "slope_tolerance"},
    row_positions=frozenset({"rest_error", "image_lower", "image_upper", "authored_intercept", "offset_tolerance",
                             "lower", "upper", "reference_sweep"}),
    plot=mimic_joint_plot,
)
