"""How reports show ground_stability: the metrics its verdict is decided on, each beside its threshold, and its plot."""

import math

from ....core.test_view import JudgedMetric, TestView
from .config import GroundStabilityConfig
from .plot import ground_stability_plot


def _rotation_tolerance(config: dict) -> float:
    return math.radians(GroundStabilityConfig.from_report(config).rotation_tolerance_deg)


VIEW = TestView(
    judged=(
        JudgedMetric("com_outside", "max", threshold_metric="com_outside_limit"),
        JudgedMetric("inertia_ratio_min", "min", "min_inertia_ratio"),
        JudgedMetric("diverged", "false"),
        JudgedMetric("upright_rested", "true"),
        JudgedMetric("upright_rest_time", "max", "rest_detection_max_seconds"),
        JudgedMetric("upright_position_deviation", "max", "rest_tolerance_m"),
        JudgedMetric("upright_rotation_deviation", "max", threshold_label="rotation_tolerance_deg",
                     threshold_of=_rotation_tolerance),
        JudgedMetric("tilted_rested", "true"),
        JudgedMetric("tilted_rest_time", "max", "tilted_rest_max_seconds"),
        JudgedMetric("tilted_position_deviation", "max", "rest_tolerance_m"),
        JudgedMetric("tilted_rotation_deviation", "max", threshold_label="rotation_tolerance_deg",
                     threshold_of=_rotation_tolerance),
    ),
    deciding=("upright_rested", "upright_rest_time", "tilted_rested", "tilted_rest_time", "upright_rotation_deviation",
              "tilted_rotation_deviation", "com_outside", "inertia_ratio_min", "diverged"),
    metric_units={
        "upright_rest_time": "s", "tilted_rest_time": "s", "upright_position_deviation": "m",
        "tilted_position_deviation": "m", "upright_rotation_deviation": "rad", "tilted_rotation_deviation": "rad",
        "com_outside": "m", "com_outside_limit": "m", "initial_z_min": "m", "bbox_height": "m", "tilt_angle": "rad",
        "inertia_ratio_min": "x", "inertia_ratio_max": "x",
    },
    plot=ground_stability_plot,
)
