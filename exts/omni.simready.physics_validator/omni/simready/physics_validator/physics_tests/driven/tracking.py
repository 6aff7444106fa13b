"""Position tracking shared by state_accuracy and multi_joint_coordination: where the joints are sent, how a command
is paced, and the tolerance a reached position is judged by.

The tolerance rule is why these tests prove something: NVIDIA's are absolute (5 deg, 1 deg, and the same numbers in
metres for prismatic joints), so a joint whose whole commanded move is smaller than the tolerance passes without
moving at all. Here every tolerance is also capped by a fraction of the move or of the range, and a joint that moved
less than a tenth of the way is a dead drive. Pure functions: no engine.
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING

from .motion import ease

if TYPE_CHECKING:
    from ...core.asset_model import JointInfo


def judged_limits(joint: "JointInfo") -> tuple[float, float]:
    """(lower, upper) in SI of a joint these tests selected for its limits (require_limits: `has_limits`)."""
    limits = joint.limits
    if limits is None:
        raise ValueError(f"joint {joint.path} was selected for its limits but has none")
    return limits


def capped_tolerance(absolute: float, fraction: float, scale: float) -> float:
    """min(absolute, fraction x scale): never wider than a fraction of the move (or range) it judges."""
    return min(float(absolute), float(fraction) * abs(float(scale)))


def home_position(target: float | None, lower: float, upper: float, margin: float) -> float:
    """Where a joint's steps start and return to: its authored drive target (0 without one), kept `margin` inside its
    limits (NVIDIA commands 0 even where 0 lies outside the range, which no drive can reach)."""
    home = 0.0 if target is None or not math.isfinite(target) else float(target)
    lo, hi = lower + margin, upper - margin
    if lo > hi:
        return (lower + upper) / 2
    return min(max(home, lo), hi)


def step_size(lower: float, upper: float, max_step: float, range_fraction: float) -> float:
    """The spec's step: min(max_step, range_fraction x range)."""
    return min(float(max_step), float(range_fraction) * (float(upper) - float(lower)))


def step_waypoints(home: float, step: float, lower: float, upper: float, margin: float) -> list[float]:
    """home, +step, home, -step, home; a step that would leave [lower + margin, upper - margin] is cut there."""
    lo, hi = lower + margin, upper - margin
    up, down = min(home + step, hi), max(home - step, lo)
    return [home, max(up, home), home, min(down, home), home]


def range_target(lower: float, upper: float, margin_ratio: float, factor: float) -> float:
    """`factor` of the way through a range kept `margin_ratio` of it inside each limit (multi_joint_coordination)."""
    margin = (upper - lower) * margin_ratio
    span = (upper - lower) - 2 * margin
    if span <= 0:
        return (lower + upper) / 2
    return lower + margin + span * factor


def coordination_range(lower: float, upper: float, home: float, widest: float) -> tuple[float, float]:
    """The part of a joint's range multi_joint_coordination's target fractions apply to: the whole range, or, when it
    is wider than `widest` (a revolute joint's +-360 deg), a window `widest` wide centred on its home pose, clipped
    into the limits. 0.6 of a UR5 shoulder's 720 deg folds the arm into itself; near home the pose stays sound."""
    if upper - lower <= widest:
        return lower, upper
    return max(lower, home - widest / 2), min(upper, home + widest / 2)


def ramp(start: float, end: float, frame: int, frames: int) -> float:
    """The paced command at frame 0..frames-1 (smoothstep, NVIDIA's trajectory): the last frame commands `end`."""
    return start + (end - start) * ease("smoothstep", (frame + 1) / max(frames, 1))


def settled_for_good(error: float, velocity: float, time_left: float, tolerance: float) -> bool:
    """In the band and too slow to leave it before the window ends (extrapolated): the window may end early."""
    return math.isfinite(error) and math.isfinite(velocity) and abs(error) + abs(velocity) * time_left <= tolerance
