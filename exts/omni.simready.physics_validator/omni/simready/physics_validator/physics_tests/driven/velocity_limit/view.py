"""How reports show velocity_limit: the deciding metrics beside their thresholds, rows' peaks beside the
allowed speed, and the |velocity| plot."""

from ....core.test_view import JudgedMetric, TestView
from .config import VelocityLimitConfig
from .plot import velocity_limit_plot

VIEW = TestView(
    judged=(
        JudgedMetric("joints_failed", "zero"),
        JudgedMetric("max_velocity_ratio", "max", threshold_label="1 + tolerance_fraction",
                     threshold_of=lambda config: VelocityLimitConfig.from_report(config).allowed_ratio()),
    ),
    row_limits={"peak_velocity": "allowed", "peak": "allowed", "peak_displacement_rate": "allowed"},
    row_positions=frozenset({"target", "travel"}),
    row_rates=frozenset({"peak_velocity", "velocity_limit", "allowed", "peak_displacement_rate", "peak"}),
    plot=velocity_limit_plot,
)
