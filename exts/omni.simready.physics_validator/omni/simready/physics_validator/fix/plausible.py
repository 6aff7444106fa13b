"""What physics can explain of a joint's measured effort, from the masses the runtime gave the bodies the joint moves.

A drive holding a joint at rest balances gravity (plus joint friction): no more than every moved body's weight at its
farthest reach from the axis (`geometry.gravity_bound`, N·m; N for a prismatic joint)

    G = g Σ m_i r_i  (+ f)

A holding effort past BOUND_FACTOR x G is not gravity. At a sweep endpoint it is a push (something holds the joint:
probe.py calls it blocked); anywhere else it is a probe that blew up or a model defect (masses, inertias, a collider
that overlaps another at that pose): never a load for an actuator to carry. So a need no mass explains is named
(`implausible_need`, with its numbers), is never reported as "needs X, rated Y", and never sizes a maxForce, not even
with `--raise-max-force`:

    plausible need  P = m (BOUND_FACTOR G + F r + I a_sweep)

with m the force margin (escalated), F r effort_limit's test load at its lever arm, I a_sweep the sweep's inertial
load. BOUND_FACTOR (1.5) is the stated margin for dynamics: the probe reads the mean over two periods of a lightly
damped ring-down, and a load that rings at rest reads up to that much more than its weight.

A reading is **exploded** (no load at all explains it) when it is not finite, or when the joint is off its waypoint
and the reading is past EXPLODED_FACTOR x the larger of G and what a probe drive reads on a joint that reached its
waypoint (K_probe x the off-waypoint tolerance). The second term keeps a joint whose moved bodies the runtime gives
no mass (G = 0; a ViperX wrist link read 0.000182 N·m) from being called exploded for a reading at its waypoint.
"""

from __future__ import annotations

import math

BOUND_FACTOR = 1.5  # a holding effort past 1.5x the weight of everything the joint moves (at its farthest) is no load of gravity
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
    """The holding efforts (pose -> N·m or N) past BOUND_FACTOR x the gravity bound: no mass the joint moves explains them."""
    if not math.isfinite(bound):
        return {}
    return {pose: load for pose, load in loads.items() if load > BOUND_FACTOR * bound + MIN_BOUND}


def plausible_need(bound: float, test_load: float, inertia: float, sweep_accel: float, margin: float) -> float:
    """The most effort a drive of this joint can need by its masses: margin x (BOUND_FACTOR G + F r + I a_sweep)."""
    if not math.isfinite(bound):
        return math.inf
    return margin * (BOUND_FACTOR * bound + test_load + inertia * sweep_accel)

