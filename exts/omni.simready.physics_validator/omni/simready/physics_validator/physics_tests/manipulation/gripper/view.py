"""How reports show the gripper tests: the slip beside max_slip, the release fall beside min_fall, and the plot."""

from ....core.test_view import JudgedMetric, TestView
from .plot import gripper_plot

VIEW = TestView(
    judged=(
        JudgedMetric("max_slip", "max", "max_slip"),
        JudgedMetric("released_fall", "min", "min_fall"),
    ),
    deciding=("max_slip", "lift_follow_error", "released_fall", "gantry_lift"),
    metric_units={"object_size": "m", "object_mass": "kg", "max_slip": "m", "released_fall": "m", "gantry_lift": "m",
                  "lift_follow_error": "m", "open_error": "m", "descent": "m", "object_off_axis": "m",
                  "fingers_at_lower": "m", "fingers_at_upper": "m", "object_highest": "m"},
    plot=gripper_plot,
)
