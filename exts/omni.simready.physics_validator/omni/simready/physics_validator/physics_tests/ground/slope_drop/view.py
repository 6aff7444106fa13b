"""How reports show slope_drop: the metrics its verdict is decided on, each beside its threshold, and its plot."""

from ....core.test_view import JudgedMetric, TestView
from .plot import slope_drop_plot

VIEW = TestView(
    judged=(
        JudgedMetric("touched_ramp", "true"),
        JudgedMetric("sank_into_ramp", "false"),
        JudgedMetric("launched", "false"),
        JudgedMetric("slid", "true"),
        JudgedMetric("penetrated_floor", "false"),
    ),
    deciding=("touched_ramp", "downhill_travel", "max_ramp_penetration", "max_ramp_gap", "min_floor_z"),
    metric_units={"contact_time": "s", "slide_time": "s", "downhill_travel": "m", "uphill_travel": "m",
                  "max_ramp_penetration": "m", "ramp_penetration_allowance": "m", "max_ramp_gap": "m",
                  "min_floor_z": "m", "start_z_min": "m", "ramp_length": "m", "slope_angle_deg": "deg"},
    plot=slope_drop_plot,
)
