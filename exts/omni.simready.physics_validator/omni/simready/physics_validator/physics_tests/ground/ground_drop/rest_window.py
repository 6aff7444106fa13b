"""The trailing rest window of ground_drop: did the bounding box's centre and every corner stay within tolerance?
Tracking corners as well as the centre catches an object that spins or rocks in place."""

from __future__ import annotations

import numpy as np


class RestWindow:
    """The last N bounding boxes, to ask: did the centre and every corner stay within tolerance?"""

    def __init__(self, frames: int):
        self.frames = frames
        self._lo = np.zeros((frames, 3))
        self._hi = np.zeros((frames, 3))
        self._count = 0

    def push(self, lo, hi) -> None:
        i = self._count % self.frames
        self._lo[i] = lo
        self._hi[i] = hi
        self._count += 1

    @property
    def full(self) -> bool:
        return self._count >= self.frames

    def _latest(self):
        i = (self._count - 1) % self.frames
        return self._lo[i], self._hi[i]

    def deviation(self) -> tuple[float, float]:
        """(worst corner displacement, worst centre displacement) from the latest box, Euclidean, m."""
        lo, hi = self._latest()
        dlo = np.abs(self._lo - lo)
        dhi = np.abs(self._hi - hi)
        corner = float(np.sqrt((np.maximum(dlo, dhi) ** 2).sum(axis=1)).max())
        centre = float(np.linalg.norm((self._lo + self._hi) / 2 - (lo + hi) / 2, axis=1).max())
        return corner, centre

    def at_rest(self, tolerance: float) -> bool:
        # Cheap reject first: while settling, the oldest box in the window is usually the one that moved most.
        oldest = self._count % self.frames
        lo, hi = self._latest()
        if max(np.abs(self._lo[oldest] - lo).max(), np.abs(self._hi[oldest] - hi).max()) > tolerance:
            return False
        corner, centre = self.deviation()
        return corner <= tolerance and centre <= tolerance

    def diagnosis(self, tolerance: float) -> str:
        if not self.full:
            return "rest window never filled"
        corner, centre = self.deviation()
        if centre <= tolerance < corner:
            return f"position stable but rotation not: corners moved {corner * 100:.1f} cm (spinning or rocking)"
        return (f"still moving: centre moved {centre * 100:.1f} cm, corners {corner * 100:.1f} cm in the last window "
                "(sliding or bouncing)")
