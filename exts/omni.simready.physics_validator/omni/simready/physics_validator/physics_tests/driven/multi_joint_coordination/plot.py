"""multi_joint_coordination's plot: each joint's position against the targets all joints were sent to together."""

from ..tracking_plot import tracking_plot


def multi_joint_coordination_plot(result, series: dict):
    return tracking_plot(result, series, "multi_joint_coordination: every joint against its target, commanded together")
