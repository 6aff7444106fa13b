"""How reports show ground_drop: the metrics its verdict is decided on, each beside its threshold, and its plot."""

from ....core.test_view import JudgedMetric, TestView
from .config import GroundDropConfig
from .plot import ground_drop_plot

VIEW = TestView(
    judged=(
        JudgedMetric("touched", "true"),
        JudgedMetric("max_penetration", "max", threshold_metric="sink_allowance"),  # within floor_margin, by the asset's size
        JudgedMetric("penetrated", "false"),
        JudgedMetric("max_rest_deviation", "max", threshold_label="rest_tolerance_m",
                     threshold_of=lambda config: GroundDropConfig.from_report(config).rest_tolerance_m),
        JudgedMetric("settle_seconds_after_contact", "max", "rest_detection_max_seconds"),
        JudgedMetric("rested", "true"),
        JudgedMetric("diverged", "false"),
    ),
    deciding=("touched", "penetrated", "max_penetration", "rested", "diverged", "max_rest_deviation",
              "settle_seconds_after_contact"),
    metric_units={
        "max_penetration": "m", "max_rest_deviation": "m", "initial_z_min": "m", "bbox_height": "m",
        "effective_fall": "m", "floor_level": "m", "sink_allowance": "m", "final_z_min": "m", "touch_time": "s", "rest_time": "s",
        "settle_seconds_after_contact": "s",
    },
    plot=ground_drop_plot,
)
