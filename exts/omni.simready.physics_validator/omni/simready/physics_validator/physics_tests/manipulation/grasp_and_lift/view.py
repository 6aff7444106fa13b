"""How reports show grasp_and_lift: the lines held (one at least), each line's slip beside max_slip."""

from ....core.test_view import JudgedMetric, TestView

VIEW = TestView(
    judged=(JudgedMetric("lines_held", "min", threshold_label="1 line", threshold_of=lambda config: 1.0),),
    deciding=("lines_held", "min_line_slip", "jaw_force"),
    metric_units={"prop_mass": "kg", "jaw_force": "N", "min_line_slip": "m"},
    row_limits={"max_slip": "max_slip"},
)
