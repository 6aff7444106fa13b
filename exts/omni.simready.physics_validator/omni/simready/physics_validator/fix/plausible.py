"""What physics can explain of a joint's measured effort, from the masses the runtime gave the bodies the joint moves.

A drive holding a joint at rest balances gravity (plus joint friction): no more than every moved body's weight at its
farthest reach from the axis (`geometry.gravity_bound`, N·m; N for a prismatic joint)

    G = g Σ m_i r_i  (+ f)

At its own sweep endpoint, a holding effort past BOUND_FACTOR (1.5) x G is a push: something holds the joint (probe.py
calls it blocked). At any pose, one past IMPLAUSIBLE_FACTOR (4) x G is more than any mass and lever arm of the asset
explain, with a stated margin for dynamics (the probe reads the mean of a lightly damped ring-down over two periods)
and for the contacts of the tests' own configurations, which a drive does hold through (the xArm 7's joint4 and joint5
hold 2.0x and 2.2x at joint3's endpoint): a probe that blew up or a model defect (masses, inertias, a collider that
overlaps another at that pose), never a load for an actuator to carry. Such a need is named (`implausible_need`, with
its numbers), is never reported as "needs X, rated Y", and never sizes a maxForce, not even with `--raise-max-force`:

    plausible need  P = m (IMPLAUSIBLE_FACTOR G + F r + I a_sweep)

with m the force margin (escalated), F r effort_limit's test load at its lever arm, I a_sweep the sweep's inertial load.

A reading is **exploded** (no load at all explains it) when it is not finite, or when the joint is off its waypoint
and the reading is past EXPLODED_FACTOR x the larger of G and what a probe drive reads on a joint that reached its
waypoint (K_probe x the off-waypoint tolerance). The second term keeps a joint whose moved bodies the runtime gives
no mass (G = 0; a ViperX wrist link read 0.000182 N·m) from being called exploded for a reading at its waypoint.
"""

from __future__ import annotations

import math

BOUND_FACTOR = 1.5  # at its own sweep endpoint, a holding effort past 1.5x the weight of what the joint moves is a push
# past 4x that weight (at its farthest reach), at any pose, no mass of the asset explains a holding effort: the stated
# margin for dynamics and for the contacts of the tests' own configurations (the xArm 7's joint4 holds 2.0x, its joint5
# 2.2x at joint3's max endpoint, which the sweep and the coordination tests hold them through; the TALOS arm read 10x,
# 86x and 236x)
IMPLAUSIBLE_FACTOR = 4.0
EXPLODED_FACTOR = 1000.0  # past 1000x that (or NaN): the probe blew up (Kinova Gen3 joint_2 read 6.9e10 N·m)
MIN_BOUND = 1e-6  # N·m or N: a reading below this is noise, never a push


def exploded(error: float, load: float, bound: float, stiffness: float, tolerance: float) -> bool:
    """Whether a probe reading (target - q `error`, |holding effort| `load`) is past anything a load explains: not
    finite, or off the waypoint (`tolerance`) with a load past EXPLODED_FACTOR x max(the gravity bound, the most a
    probe of `stiffness` reads at that tolerance)."""
    if not (math.isfinite(error) and math.isfinite(load)):
        return True
    return abs(error) > tolerance and load > EXPLODED_FACTOR * max(bound, stiffness * tolerance)


def pushed(load: float, bound: float) -> bool:
    """Whether a joint at a sweep endpoint is held there by more than its weight: something pushes it."""
    return load > BOUND_FACTOR * bound + MIN_BOUND


def implausible_loads(loads: dict[str, float], bound: float) -> dict[str, float]:
    """The holding efforts (pose -> N·m or N) past IMPLAUSIBLE_FACTOR x the gravity bound: no mass the joint moves
    explains them."""
    if not math.isfinite(bound):
        return {}
    return {pose: load for pose, load in loads.items() if load > IMPLAUSIBLE_FACTOR * bound + MIN_BOUND}


def plausible_need(bound: float, test_load: float, inertia: float, sweep_accel: float, margin: float) -> float:
    """The most effort a drive of this joint can need by its masses: margin x (IMPLAUSIBLE_FACTOR G + F r + I a_sweep)."""
    if not math.isfinite(bound):
        return math.inf
    return margin * (IMPLAUSIBLE_FACTOR * bound + test_load + inertia * sweep_accel)

