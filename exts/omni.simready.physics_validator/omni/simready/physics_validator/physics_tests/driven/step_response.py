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


def count_sign_changes(velocities, deadband: float = 0.0) -> int:
    """Velocity sign changes; samples with |v| <= deadband carry no sign (solver jitter at rest is not an oscillation)."""
    signs = np.sign(np.asarray(velocities, dtype=float))
    signs[np.abs(velocities) <= deadband] = 0
    signs = signs[signs != 0]
    return int(np.count_nonzero(signs[1:] != signs[:-1]))


def step_target(current: float, lower: float | None, upper: float | None, magnitude: float) -> float:
    """`current + magnitude` if that stays within the limits, else `current - magnitude`, else the farther limit."""
    lo = -np.inf if lower is None else lower
    hi = np.inf if upper is None else upper
    if current + magnitude <= hi:
        return current + magnitude
    if current - magnitude >= lo:
        return current - magnitude
    return float(lo if abs(current - lo) > abs(hi - current) else hi)
