"""state_accuracy's plot: each joint's position against its five waypoints, with the step-scaled tolerance band."""

from ..tracking_plot import tracking_plot


def state_accuracy_plot(result, series: dict):
    return tracking_plot(result, series, "state_accuracy: position against the commanded waypoints, with the tolerance band")
