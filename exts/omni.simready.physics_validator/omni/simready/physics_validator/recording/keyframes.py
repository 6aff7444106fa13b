"""Which recorded poses the replay keeps: those a straight line between the kept ones would miss.

A body holding a waypoint or lying at rest needs two samples, not two hundred. A viewer interpolates translations
linearly and rotations spherically (slerp) between the kept samples; a sample is dropped only when that interpolation
passes within `POSITION_TOLERANCE_M` and `ROTATION_TOLERANCE_RAD` of it. The split is Ramer-Douglas-Peucker's (every
dropped sample is within the tolerance, not only the one tested), run level by level over all segments at once with
numpy: a few milliseconds for a body's thousand frames. What is lost is stated in the replay's extras.
"""

from __future__ import annotations

import math

import numpy as np

POSITION_TOLERANCE_M = 0.0002  # 0.2 mm
ROTATION_TOLERANCE_RAD = math.radians(0.05)


def continuous(quats: np.ndarray) -> np.ndarray:
    """Unit quaternions (N, 4) with each one's sign chosen nearest the previous (q and -q are the same rotation): an
    interpolation between neighbours then takes the short way round."""
    quats = np.array(quats, float)
    norms = np.linalg.norm(quats, axis=1, keepdims=True)
    good = norms[:, 0] > 1e-12
    quats[good] /= norms[good]
    quats[~good] = [1.0, 0.0, 0.0, 0.0]
    if len(quats) > 1:
        flips = np.sum(quats[1:] * quats[:-1], axis=1) < 0.0  # each against its neighbour as recorded
        sign = np.cumprod(np.where(np.concatenate([[False], flips]), -1.0, 1.0))
        quats *= sign[:, None]
    return quats


def slerp(start: np.ndarray, end: np.ndarray, share: np.ndarray) -> np.ndarray:
    """Spherical interpolation from unit quaternions `start` to `end` (K, 4 each) at the fractions `share` (K,): what a
    glTF viewer draws between two rotation samples (linear where they are within 1e-6 rad)."""
    cos = np.clip(np.sum(start * end, axis=1), -1.0, 1.0)
    angle = np.arccos(cos)[:, None]
    share = share[:, None]
    small = angle < 1e-6
    sine = np.where(small, 1.0, np.sin(angle))
    out = np.where(small, start + share * (end - start),
                   (np.sin((1.0 - share) * angle) * start + np.sin(share * angle) * end) / sine)
    return out / np.maximum(np.linalg.norm(out, axis=1, keepdims=True), 1e-12)


def keyframes(times: np.ndarray, positions: np.ndarray, quats: np.ndarray,
              position_tolerance: float = POSITION_TOLERANCE_M, rotation_tolerance: float = ROTATION_TOLERANCE_RAD
              ) -> np.ndarray:
    """Sorted indices of the samples to keep (the first and the last always); `quats` continuous (see above)."""
    count = len(times)
    if count <= 2:
        return np.arange(count)
    keep = np.zeros(count, bool)
    keep[0] = keep[-1] = True
    every = np.arange(count)
    while True:
        kept = np.flatnonzero(keep)
        inside = every[~keep]
        if not len(inside):
            break
        right = np.searchsorted(kept, inside)  # each dropped sample's segment: kept[right - 1] .. kept[right]
        first, last = kept[right - 1], kept[right]
        span = times[last] - times[first]
        share = np.where(span > 0, (times[inside] - times[first]) / np.where(span > 0, span, 1.0), 0.5)
        position_error = np.linalg.norm(positions[first] + share[:, None] * (positions[last] - positions[first])
                                        - positions[inside], axis=1)
        between = slerp(quats[first], quats[last], share)
        rotation_error = 2.0 * np.arccos(np.clip(np.abs(np.sum(between * quats[inside], axis=1)), 0.0, 1.0))
        worst = np.maximum(position_error / position_tolerance, rotation_error / rotation_tolerance)
        # per segment, its worst sample: sorted by segment, then by error descending; the first of each segment
        order = np.lexsort((-worst, right))
        leaders = order[np.concatenate([[True], right[order][1:] != right[order][:-1]])]
        split = leaders[worst[leaders] > 1.0]
        if not len(split):
            break
        keep[inside[split]] = True
    return np.flatnonzero(keep)
