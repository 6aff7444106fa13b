"""Step-response quality of one joint: overshoot, settling time, velocity sign changes.

Pure numpy on sampled series, so drive_gain_validation's verdict logic is unit-testable
without an engine (and identical on every engine).
"""

from __future__ import annotations

import numpy as np


def overshoot_pct(positions, start: float, target: float) -> float:
    """Peak excursion beyond the target, as % of the step magnitude (0 when it never passes it)."""
    step = target - start
    q = np.asarray(positions, dtype=float)
    if abs(step) < 1e-12 or q.size == 0:
        return 0.0
    beyond = (q.max() - target) if step > 0 else (target - q.min())
    return max(0.0, float(beyond) / abs(step) * 100.0)


def settling_time(times, positions, target: float, band: float) -> float | None:
    """Time of the first sample of the trailing run inside |q - target| <= band; None if the last sample is outside."""
    t = np.asarray(times, dtype=float)
    q = np.asarray(positions, dtype=float)
    if q.size == 0:
        return None
    inside = np.abs(q - target) <= band
    if not inside[-1]:
        return None
    outside = np.flatnonzero(~inside)
    first_in = 0 if outside.size == 0 else int(outside[-1]) + 1
    return float(t[first_in])


def count_reversals(positions, min_swing: float) -> int:
    """Velocity sign changes of a position series, counting only swings of at least `min_swing`.

    A reversal counts when the joint has moved back by more than `min_swing` from its last extreme (a
    hysteresis on position), so solver jitter at rest never counts and the threshold scales with the step.
    """
    q = np.asarray(positions, dtype=float)
    q = q[np.isfinite(q)]
    if q.size < 2:
        return 0
    count, direction, extreme = 0, 0, q[0]
    for value in q[1:]:
        if direction == 0:  # not yet moved by a full swing from the start
            if abs(value - q[0]) > min_swing:
                direction, extreme = (1 if value > q[0] else -1), value
        elif direction * (value - extreme) > 0:  # still going the same way: a new extreme
            extreme = value
        elif abs(value - extreme) > min_swing:  # turned back by more than a swing: a reversal
            count, direction, extreme = count + 1, -direction, value
    return count


def step_target(current: float, lower: float | None, upper: float | None, magnitude: float,
                overshoot_room: float = 0.0) -> tuple[float, bool]:
    """(target, scaled): a step that leaves room for `overshoot_room` x step beyond the target before a limit.

    `current + magnitude` if the upper side has room for the step and its overshoot, else `current - magnitude`
    if the lower side has; otherwise the step is scaled down toward the side with more room so that its
    overshoot still fits (never a step onto a hard limit, where overshoot could not show).
    """
    lo = -np.inf if lower is None else lower
    hi = np.inf if upper is None else upper
    need = magnitude * (1.0 + overshoot_room)
    room_up, room_down = hi - current, current - lo
    if room_up >= need:
        return current + magnitude, False
    if room_down >= need:
        return current - magnitude, False
    if room_up >= room_down:
        return current + max(room_up, 0.0) / (1.0 + overshoot_room), True
    return current - max(room_down, 0.0) / (1.0 + overshoot_room), True
