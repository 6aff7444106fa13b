"""Commanded joint motions of the sweep and velocity tests: easing profiles, sweep waypoints, far targets.

Pure functions, so the exact commanded trajectory is unit-testable and identical on every engine.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

EASE_PROFILES = ("smoothstep", "smootherstep", "linear")


def ease(profile: str, t: float) -> float:
    """Normalised progress 0..1 for normalised time t in 0..1."""
    t = min(1.0, max(0.0, t))
    if profile == "linear":
        return t
    if profile == "smootherstep":
        return t * t * t * (t * (6 * t - 15) + 10)
    if profile == "smoothstep":
        return t * t * (3 - 2 * t)
    raise ValueError(f"unknown interpolation profile '{profile}' (known: {', '.join(EASE_PROFILES)})")


# Peak speed of each profile relative to the average speed (distance / duration).
PEAK_SPEED_FACTOR = {"linear": 1.0, "smoothstep": 1.5, "smootherstep": 1.875}
# smoothstep's peak acceleration, x distance / duration² (s = 3t² - 2t³: s'' = 6 at the ends)
PEAK_ACCELERATION_FACTOR = 6.0


@dataclass(frozen=True)
class Segment:
    name: str  # to_max, to_min, to_zero
    start: float
    end: float
    frames: int

    def target(self, frame: int, profile: str) -> float:
        """Commanded position at frame 0..frames-1 (the last frame commands the end point)."""
        return self.start + (self.end - self.start) * ease(profile, (frame + 1) / self.frames)


@dataclass(frozen=True)
class SweepPlan:
    lower: float  # the swept window (the authored range, or a max_sweep_range window of it)
    upper: float
    max_target: float
    min_target: float
    zero_target: float
    segments: tuple[Segment, ...]
    pause_frames: int


def sweep_plan(
    lower: float,
    upper: float,
    start: float,
    *,
    fps: float,
    speed_scale: float,
    pause_seconds: float,
    margin_ratio: float,
    max_sweep_range: float,
    velocity_limit: float | None = None,
    profile: str = "smoothstep",
) -> SweepPlan:
    """Waypoints max -> min -> zero inside the authored range and the frames each segment takes.

    A range wider than `max_sweep_range` is swept over a window of that width around zero (shifted
    to fit). Endpoints sit `margin_ratio` of the range inside the limits. A segment lasts
    1/speed_scale s, longer when a velocity limit is known so that the profile's peak speed stays
    at speed_scale x the limit.
    """
    lo, hi = float(lower), float(upper)
    if hi - lo > max_sweep_range:
        centre = min(max(0.0, lo + max_sweep_range / 2), hi - max_sweep_range / 2)
        lo, hi = centre - max_sweep_range / 2, centre + max_sweep_range / 2
    margin = margin_ratio * (hi - lo)
    max_target, min_target = hi - margin, lo + margin
    if lower <= 0.0 <= upper:
        zero_target = 0.0
    else:
        zero_target = min_target if abs(min_target) < abs(max_target) else max_target

    def frames_for(a: float, b: float) -> int:
        seconds = 1.0 / speed_scale
        if velocity_limit is not None and math.isfinite(velocity_limit) and velocity_limit > 0:
            seconds = max(seconds, PEAK_SPEED_FACTOR.get(profile, 1.5) * abs(b - a) / (speed_scale * velocity_limit))
        return max(1, int(round(seconds * fps)))

    segments = (
        Segment("to_max", start, max_target, frames_for(start, max_target)),
        Segment("to_min", max_target, min_target, frames_for(max_target, min_target)),
        Segment("to_zero", min_target, zero_target, frames_for(min_target, zero_target)),
    )
    return SweepPlan(lo, hi, max_target, min_target, zero_target, segments, max(1, int(round(pause_seconds * fps))))


def range_scaled_tolerance(tolerance: float, swept_range: float, fraction: float) -> float:
    """A sweep tolerance never wider than `fraction` of the swept range (min of the two).

    The spec's 0.10 rad / 0.01 rad are absolute; on a 5 cm prismatic finger or a 4 deg revolute joint they are
    wider than the whole motion, so a joint that never moves would pass. With fraction < 0.4 (the endpoints sit
    at 10 % margins, so one of them is at least 40 % of the range from any start) a joint that stays where it
    started always fails a hold.
    """
    return min(float(tolerance), float(fraction) * max(float(swept_range), 0.0))


def hold_failed(errors, tolerance: float) -> bool:
    """Rest-window rule: the hold fails when more than half of the pause frames are off by more than tolerance."""
    errors = np.abs(np.asarray(errors, dtype=float))
    if errors.size == 0:
        return False
    bad = np.count_nonzero(~(errors <= tolerance))  # NaN counts as off
    return bad > errors.size / 2


class ConvergenceCounter:
    """Consecutive in-tolerance frames; any miss resets the count (Newton zero-return loop)."""

    def __init__(self, tolerance: float, needed: int):
        self.tolerance, self.needed, self.count = tolerance, needed, 0

    def update(self, error: float) -> bool:
        self.count = self.count + 1 if abs(error) <= self.tolerance else 0
        return self.count >= self.needed


def far_target(current: float, lower: float | None, upper: float | None, velocity_limit: float, duration: float,
               margin_ratio: float = 0.05) -> float:
    """A position target the joint can only reach quickly by exceeding its velocity limit.

    With both limits: the opposite end of the range, `margin_ratio` inside it (anchor rule).
    Without: far enough that the capped joint is still moving when the window ends, away from a limit authored on one
    side only (`JointInfo.one_sided`: an upper limit alone sends it down).
    """
    if lower is not None and upper is not None and math.isfinite(lower) and math.isfinite(upper) and upper > lower:
        span = upper - lower
        middle = (lower + upper) / 2 + 1e-9 * span  # a start on the middle (within noise) goes to the upper end
        return upper - margin_ratio * span if current <= middle else lower + margin_ratio * span
    only_upper = upper is not None and math.isfinite(upper) and not (lower is not None and math.isfinite(lower))
    return current + (-1.0 if only_upper else 1.0) * 2.0 * velocity_limit * duration
