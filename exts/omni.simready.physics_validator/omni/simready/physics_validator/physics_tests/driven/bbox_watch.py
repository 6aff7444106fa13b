"""Whole-asset bounding-box explode check shared by the joint tests (anchor `check_bbox_explode`)."""

from __future__ import annotations

import math

import numpy as np

from ...core.geometry import aabb_volume


class BoxWatch:
    """Fails when the current AABB volume exceeds ratio x the baseline volume, or goes non-finite.

    A baseline volume <= 1e-9 m^3 (flat or empty asset) disables the volume rule; NaN still trips it.
    `worst_ratio` is the largest ratio seen so far; `window_ratio` the largest since `new_window()` (one joint).
    """

    def __init__(self, baseline: tuple[np.ndarray, np.ndarray], ratio: float):
        self.ratio = ratio
        self.baseline_volume = aabb_volume(*baseline) if np.all(np.isfinite(baseline)) else float("nan")
        self.worst_ratio = 1.0
        self.window_ratio = 1.0

    def new_window(self) -> None:
        """Start a new per-joint window: `window_ratio` restarts at 1 (the whole-run `worst_ratio` is kept)."""
        self.window_ratio = 1.0

    def exploded(self, bounds: tuple[np.ndarray, np.ndarray]) -> bool:
        lo, hi = bounds
        dx, dy, dz = (np.asarray(hi, float) - np.asarray(lo, float)).tolist()  # plain floats: runs every step
        volume = max(dx, 0.0) * max(dy, 0.0) * max(dz, 0.0)
        isfinite = math.isfinite  # no generator: this runs every step
        if not (isfinite(volume) and isfinite(dx) and isfinite(dy) and isfinite(dz)):
            self.worst_ratio = self.window_ratio = float("inf")
            return True
        if not math.isfinite(self.baseline_volume) or self.baseline_volume <= 1e-9:
            return False
        ratio = volume / self.baseline_volume
        self.worst_ratio = max(self.worst_ratio, ratio)
        self.window_ratio = max(self.window_ratio, ratio)
        return ratio > self.ratio
