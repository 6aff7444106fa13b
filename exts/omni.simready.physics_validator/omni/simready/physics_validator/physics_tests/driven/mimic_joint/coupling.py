"""What mimic_joint measures of one pair: the fitted slope of follower against reference, the coupling's image of the
reference's range, and the distance from the authored relation. Pure numpy: no engine."""

from __future__ import annotations

import math

import numpy as np


def fitted_slope(reference, follower) -> float:
    """Least-squares d follower / d reference over the samples (NaN when the reference did not move)."""
    r = np.asarray(reference, float)
    f = np.asarray(follower, float)
    keep = np.isfinite(r) & np.isfinite(f)
    r, f = r[keep], f[keep]
    if r.size < 2:
        return math.nan
    spread = float(((r - r.mean()) ** 2).sum())
    if spread <= 1e-18:
        return math.nan
    return float(((r - r.mean()) * (f - f.mean())).sum() / spread)


def image(slope: float, intercept: float, lower: float, upper: float) -> tuple[float, float]:
    """Where the relation follower = intercept + slope x reference takes the follower over [lower, upper]."""
    a, b = intercept + slope * lower, intercept + slope * upper
    return min(a, b), max(a, b)


def outside(low: float, high: float, lower: float | None, upper: float | None, tolerance: float) -> float:
    """How far [low, high] reaches past [lower, upper] (0 when inside, or when the follower has no limits)."""
    if lower is None or upper is None or not (math.isfinite(lower) and math.isfinite(upper)):
        return 0.0
    return max(0.0, lower - tolerance - low, high - upper - tolerance)


def relation_error(reference: float, follower: float, slope: float, intercept: float) -> float:
    """|follower - (intercept + slope x reference)|: how far the follower is from the authored relation."""
    return abs(follower - (intercept + slope * reference))
