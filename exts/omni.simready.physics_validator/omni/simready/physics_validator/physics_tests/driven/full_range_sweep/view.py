"""How reports show full_range_sweep: failed joints and the explosion watch beside their thresholds, rows' hold
and zero-return errors beside their tolerances, and the tracking-error plot."""

from ....core.test_view import JudgedMetric, TestView
from .plot import full_range_sweep_plot

VIEW = TestView(
    judged=(JudgedMetric("joints_failed", "zero"),
            JudgedMetric("bbox_max_excursion", "max", threshold_metric="reach_allowance")),
    deciding=("joints_failed", "bbox_max_excursion", "bbox_max_ratio"),
    metric_units={"bbox_baseline_volume": "m³", "bbox_max_excursion": "m", "reach_allowance": "m"},
    row_limits={"zero_error": "zero_return_tolerance", "hold_error_max": "rest_tolerance",
                "hold_error_min": "rest_tolerance"},
    row_positions=frozenset({"hold_error_max", "hold_error_min", "zero_error", "lower", "upper", "max_target",
                             "min_target", "zero_target", "rest_tolerance", "zero_return_tolerance"}),
    plot=full_range_sweep_plot,
)
