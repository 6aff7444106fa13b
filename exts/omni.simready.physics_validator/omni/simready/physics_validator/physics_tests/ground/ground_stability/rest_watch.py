"""What ground_stability decides from one release, frame by frame: pure, no engine.

NVIDIA's rule (2.0.0): over a trailing window of rest_detection_hold_seconds, every frame's bounds centre and both
bounds corners stay within rest_tolerance_m of the latest frame's, the window ending within the release's deadline.
Ours beside it: every moving body's origin within the same tolerance and its orientation within
rotation_tolerance_deg. A body that turns without changing the box (a ball rolling in place, a wheel spinning on its
axis), a part that moves inside the union box, or a body turning slowly on an edge (1 cm of corner travel is 11 deg
of a 5 cm cube) fails. Bounds or poses that are NaN or past the divergence limit have diverged (NaN compares as
"within tolerance" in NVIDIA's check).
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from .config import StabilityThresholds


@dataclass(frozen=True)
class WindowDeviation:
    """How far things moved over the trailing window, from the latest frame's: the worst of each kind."""

    centre: float  # the bounds' centre (m, Euclidean)
    corner: float  # the bounds' min and max corners (m, per axis, as NVIDIA's)
    body_position: float  # a moving body's origin (m, Euclidean)
    body_rotation: float  # a moving body's orientation (rad)
    moved: str  # the body that moved most against the tolerance ("" when none is tracked)
    turned: str  # the body that turned most

    @property
    def position(self) -> float:
        """The worst translation of any kind (m): what rest_tolerance_m judges."""
        return max(self.centre, self.corner, self.body_position)


def rotation_angles(latest: np.ndarray, quats: np.ndarray) -> np.ndarray:
    """The angle (rad) from each of `latest` (B, 4 wxyz) to the same body in every row of `quats` (N, B, 4): from the
    vector part of conj(latest) * q, exact at small angles (1 - cos loses them in float32 quaternions)."""
    w_l, v_l = latest[:, 0], latest[:, 1:]
    w, v = quats[..., 0], quats[..., 1:]
    vec = w_l[None, :, None] * v - w[..., None] * v_l[None] - np.cross(v_l[None], v)
    real = w_l[None] * w + np.einsum("bk,nbk->nb", v_l, v)
    return 2.0 * np.arctan2(np.linalg.norm(vec, axis=-1), np.abs(real))


class ReleaseWatch:
    """One release: feed every frame (`observe`) until `decided`; `rest_frame` is set when the window held."""

    def __init__(self, thresholds: StabilityThresholds, bodies: list[str], deadline_frames: int):
        self.thresholds = thresholds
        self.bodies = bodies
        self.deadline_frames = deadline_frames
        n, b = thresholds.window_frames, len(bodies)
        self._lo, self._hi = np.zeros((n, 3)), np.zeros((n, 3))
        self._pos, self._quat = np.zeros((n, b, 3)), np.zeros((n, b, 4))
        self._count = 0
        self.frame = 0
        self.rest_frame: int | None = None
        self.bounds_rest_frame: int | None = None  # the first frame NVIDIA's rule alone (the bounds) held
        self.diverged_frame: int | None = None
        self.last: WindowDeviation | None = None  # the window that decided (the rest window, or the last one)

    @property
    def decided(self) -> bool:
        return self.rest_frame is not None or self.diverged_frame is not None or self.frame >= self.deadline_frames

    @property
    def rested(self) -> bool:
        return self.rest_frame is not None

    def observe(self, frame: int, lo, hi, positions: np.ndarray, quats: np.ndarray) -> WindowDeviation | None:
        """One frame's bounds and body poses ((B, 3) positions, (B, 4) wxyz quaternions, in `bodies` order); returns
        the window's deviation once the window is full (None before)."""
        self.frame = frame
        values = np.concatenate([np.asarray(lo, float), np.asarray(hi, float), positions.ravel()])
        if not np.all(np.isfinite(values)) or not np.all(np.isfinite(quats)) or \
                np.abs(values).max() > self.thresholds.divergence:
            self.diverged_frame = frame
            return None
        i = self._count % self.thresholds.window_frames
        self._lo[i], self._hi[i], self._pos[i], self._quat[i] = lo, hi, positions, quats
        self._count += 1
        if self._count < self.thresholds.window_frames:
            return None
        deviation = self.deviation()
        self.last = deviation
        if self.bounds_rest_frame is None and max(deviation.centre, deviation.corner) <= self.thresholds.rest_tolerance:
            self.bounds_rest_frame = frame
        if self.rest_frame is None and self.within(deviation):
            self.rest_frame = frame
        return deviation

    def within(self, deviation: WindowDeviation) -> bool:
        t = self.thresholds
        return deviation.position <= t.rest_tolerance and deviation.body_rotation <= t.rotation_tolerance

    def deviation(self) -> WindowDeviation:
        """The window's worst movements from the latest frame."""
        latest = (self._count - 1) % self.thresholds.window_frames
        lo, hi = self._lo[latest], self._hi[latest]
        centre = float(np.linalg.norm((self._lo + self._hi) / 2 - (lo + hi) / 2, axis=1).max())
        corner = float(max(np.abs(self._lo - lo).max(), np.abs(self._hi - hi).max()))
        if not self.bodies:
            return WindowDeviation(centre, corner, 0.0, 0.0, "", "")
        moves = np.linalg.norm(self._pos - self._pos[latest], axis=-1).max(axis=0)  # per body
        turns = rotation_angles(self._quat[latest], self._quat).max(axis=0)
        return WindowDeviation(centre, corner, float(moves.max()), float(turns.max()),
                               self.bodies[int(np.argmax(moves))], self.bodies[int(np.argmax(turns))])

    def diagnosis(self) -> str:
        """What the last window shows, for the reason: moving, turning, or both, naming the body."""
        d, t = self.last, self.thresholds
        window = f"the last {t.window_frames / t.fps:g} s"
        if d is None:
            return "its rest window never filled"
        moved = d.position > t.rest_tolerance
        turned = d.body_rotation > t.rotation_tolerance
        move = (f"{d.moved or 'its bounds'} moved {max(d.body_position, d.centre, d.corner) * 100:.2f} cm "
                f"(tolerance {t.rest_tolerance * 100:.2g} cm)")
        turn = (f"{d.turned} turned {math.degrees(d.body_rotation):.2f} deg "
                f"(tolerance {math.degrees(t.rotation_tolerance):.2g} deg)")
        if moved and turned:
            return f"moving and turning: {move} and {turn} over {window}"
        if turned:
            return f"turning in place (spinning, rocking or tipping slowly): {turn} over {window}"
        return f"moving (sliding, bouncing, creeping or falling): {move} over {window}"
