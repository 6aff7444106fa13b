"""The explosion watch the driven-joint tests share: has the asset come apart?

The spec's rule compares the bounding box's volume with its baseline (> 10x: exploded). A flat or thin start pose
fools it: a healthy lid opening from flat grows its box's volume more than tenfold. So the watch judges instead how
far the box has moved outward beyond where it started (its `excursion`), against the farthest any point of the asset
can move with its bases pinned and its joints intact (`kinematics.reach_allowance`: twice the moving bodies' extents
plus the prismatic travel). Only a part that broke loose, or a solver blow-up, gets farther. A non-finite box is an
explosion too. When the reach is unbounded (a prismatic joint without limits) the spec's volume rule decides.
The volume ratio is still measured and reported.

full_range_sweep's watch (`step`) runs at the engine's pace instead of posing every collider every step: its
caller checks the swept joint's position is finite every step (a NaN state is seen at once, as before); the box is
looked at every OUTER_EVERY steps, first through the engine's cheaper box that holds the exact one
(`TestContext.outer_bounds`: a step whose outer box is within the line cannot have exploded), the exact box only
where the outer one could be past the line and every EXACT_EVERY steps (the reported maxima are the exact boxes').
An explosion is seen at most OUTER_EVERY - 1 steps later than by an every-step exact watch: a box that flew apart
stays apart, so the verdict is the same; the segment named in the reason may be the next one when it blew up in the
last frames of a segment.
"""

from __future__ import annotations

import math

import numpy as np

from ...core.geometry import aabb_volume
from ...core.quantities import for_people

OUTER_EVERY = 4  # `step` looks at the box this often (60 Hz at 240 Hz)
EXACT_EVERY = 20  # and takes the exact box at least this often (12 Hz, as the other tests' BBOX_CHECK_EVERY)


class BoxWatch:
    """`exploded(bounds)` per step; `worst_ratio` / `window_ratio`: the largest volume ratio so far / since
    `new_window()` (one joint); `worst_excursion` / `window_excursion` the same for the outward excursion (m)."""

    def __init__(self, baseline: tuple[np.ndarray, np.ndarray], ratio: float, reach: float = math.inf):
        self.ratio = ratio
        self.reach = reach
        self.lo0, self.hi0 = (np.asarray(b, float) for b in baseline)
        self._lo0, self._hi0 = self.lo0.tolist(), self.hi0.tolist()
        finite = bool(np.all(np.isfinite(self.lo0)) and np.all(np.isfinite(self.hi0)))
        self.baseline_volume = aabb_volume(self.lo0, self.hi0) if finite else float("nan")
        self._finite = finite
        self.worst_ratio = self.window_ratio = 1.0
        self.worst_excursion = self.window_excursion = 0.0
        self.tripped = ""  # why the last exploded() call said so, for people ('' until then)
        self._steps = 0

    def new_window(self) -> None:
        """Start a new per-joint window (the whole-run maxima are kept)."""
        self.window_ratio = 1.0
        self.window_excursion = 0.0

    def step(self, ctx) -> bool:
        """Call every step: True when the asset exploded. Looks every OUTER_EVERY steps: the engine's outer box
        (ctx.outer_bounds), the exact one where that could be past the line and every EXACT_EVERY steps."""
        self._steps += 1
        if self._steps % OUTER_EVERY:
            return False
        if self._steps % EXACT_EVERY:
            outer = ctx.outer_bounds()
            if outer is not None and self._clear(outer):
                return False
        return self.exploded(ctx.bounds())

    def _clear(self, outer: tuple[np.ndarray, np.ndarray]) -> bool:
        """True when a box holding the exact one is finite and within the line, so the exact one is too."""
        (lx, ly, lz), (hx, hy, hz) = outer[0].tolist(), outer[1].tolist()  # plain floats: a few per step
        if not (self._finite and all(map(math.isfinite, (lx, ly, lz, hx, hy, hz)))):
            return False
        if math.isfinite(self.reach):
            (ax, ay, az), (bx, by, bz) = self._lo0, self._hi0
            return max(ax - lx, ay - ly, az - lz, hx - bx, hy - by, hz - bz) <= self.reach
        volume = max(hx - lx, 0.0) * max(hy - ly, 0.0) * max(hz - lz, 0.0)
        return (volume / self.baseline_volume if self.baseline_volume > 1e-9 else 1.0) <= self.ratio

    def exploded(self, bounds: tuple[np.ndarray, np.ndarray]) -> bool:
        lo, hi = np.asarray(bounds[0], float), np.asarray(bounds[1], float)
        dx, dy, dz = (hi - lo).tolist()  # plain floats: runs every step
        volume = max(dx, 0.0) * max(dy, 0.0) * max(dz, 0.0)
        isfinite = math.isfinite  # no generator: this runs every step
        if not (isfinite(volume) and isfinite(dx) and isfinite(dy) and isfinite(dz)):
            self.worst_ratio = self.window_ratio = float("inf")
            self.worst_excursion = self.window_excursion = float("inf")
            self.tripped = "its bounding box went non-finite (NaN)"
            return True
        excursion = max(float(np.max(self.lo0 - lo)), float(np.max(hi - self.hi0)), 0.0)
        self.worst_excursion = max(self.worst_excursion, excursion)
        self.window_excursion = max(self.window_excursion, excursion)
        ratio = volume / self.baseline_volume if self.baseline_volume > 1e-9 else 1.0
        self.worst_ratio = max(self.worst_ratio, ratio)
        self.window_ratio = max(self.window_ratio, ratio)
        if isfinite(self.reach):
            if excursion > self.reach:
                self.tripped = (f"its bounding box reached {for_people(excursion, 'm')} beyond where it started, past the "
                                f"{for_people(self.reach, 'm')} any part can reach with its joints intact")
                return True
            return False
        if ratio > self.ratio:
            self.tripped = f"its bounding box volume reached {ratio:.4g} x its baseline (> {self.ratio:g})"
            return True
        return False
