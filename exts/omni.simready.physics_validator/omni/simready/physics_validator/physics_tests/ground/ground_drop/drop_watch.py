"""What ground_drop decides from the falling asset's bounding box, frame by frame: pure, no engine.

Three checks in order: it touches (min z reaches floor + margin), it never sinks below floor - its sink allowance
(a fraction of its own smallest extent, within floor_margin: a 4 cm cube may not hide under the floor), and within
rest_detection_max_seconds of contact the box's centre and all 8 corners stay within rest_tolerance over a
continuous rest window (detection starting penetration_check_seconds after contact). Parts released in place (the
free parts of an asset a world anchor holds) need not reach the floor: their clock starts at release.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from ....core.status import Status
from .codes import GroundDropCode as Code
from .config import GroundDropConfig
from .rest_window import RestWindow


@dataclass(frozen=True)
class DropVerdict:
    status: Status
    code: Code
    reason: str


class DropWatch:
    """Feed it every frame's bounds (`observe`) until `verdict` is set; `final_verdict` when time ran out."""

    def __init__(self, cfg: GroundDropConfig, lo, hi, disabled: str, in_place: bool = False):
        self.cfg = cfg
        self.thresholds = thresholds = cfg.thresholds_for(lo, hi)
        self.disabled = disabled  # why the asset falls through when every collider is disabled ('' otherwise)
        self.in_place = in_place  # released where authored: no floor to reach, the clock starts at release
        self.since = "release" if in_place else "first contact"
        self.touch_threshold = thresholds.touch_height
        self.sink_allowance = thresholds.sink_allowance
        self.penetration_threshold = thresholds.penetration_height
        self.delay_frames = thresholds.penetration_delay_frames
        self.max_rest_frames = thresholds.rest_deadline_frames
        self.window = RestWindow(thresholds.rest_window_frames)
        self.window.push(lo, hi)
        self.prev_z = float(lo[2])
        self.lowest_z: float | None = None  # the lowest bounds min z of the frames observed
        self.touch_frame: int | None = 0 if in_place else None
        self.touch_time: float | None = None
        self.rest_time: float | None = None
        self.settle_seconds: float | None = None
        self.max_penetration = 0.0
        self.penetrated = self.rested = self.diverged = False
        self.verdict: DropVerdict | None = None
        self.phase = "falling"  # what is happening now, for the video's captions

    def observe(self, frame: int, time: float, lo, hi) -> None:
        z, top = float(lo[2]), float(hi[2])
        self.lowest_z = z if self.lowest_z is None else min(self.lowest_z, z)
        if not math.isfinite(float(lo[0] + lo[1] + hi[0] + hi[1]) + z + top) or abs(z) > 1e6:
            self.diverged = True
            self.verdict = DropVerdict(Status.FAIL, Code.DIVERGED,
                                       f"simulation diverged at t={time:.3f} s (bounds are NaN or exploded)")
            return
        self.window.push(lo, hi)
        if self.touch_frame is None:
            if self.prev_z > self.touch_threshold >= z:
                self.touch_frame, self.touch_time, self.phase = frame, round(time, 6), "contact"
        else:
            self._after_contact(frame, time, z)
        self.prev_z = z

    def _after_contact(self, frame: int, time: float, z: float) -> None:
        cfg = self.cfg
        self.max_penetration = max(self.max_penetration, cfg.floor_level - z)
        assert self.touch_frame is not None  # called after the contact
        since = frame - self.touch_frame
        if z < self.penetration_threshold:
            self.penetrated = True
            self.verdict = DropVerdict(
                Status.FAIL, Code.COLLISIONS_DISABLED if self.disabled else Code.PENETRATED,
                f"penetrated the floor: bounds min z {z:.3f} m < floor - allowance {self.penetration_threshold:.3f} m "
                f"({self.sink_allowance * 1000:.3g} mm) at t={time:.3f} s" + (f"; {self.disabled}" if self.disabled else ""))
        elif since >= self.delay_frames and self.window.full:
            self.phase = "settling"
            if self.window.at_rest(self.thresholds.rest_tolerance):
                self.rested, self.phase = True, "at rest"
                self.rest_time, self.settle_seconds = round(time, 6), round(since / cfg.physics_fps, 6)
                self.verdict = DropVerdict(Status.PASS, Code.OK, f"at rest {since / cfg.physics_fps:.2f} s after {self.since}")
        if self.verdict is None and since >= self.max_rest_frames:
            self.verdict = DropVerdict(
                Status.FAIL, Code.NOT_AT_REST,
                ("not at rest" if self.in_place else "touched the floor but not at rest") +
                f" within {cfg.rest_detection_max_seconds:g} s of {'release' if self.in_place else 'contact'} "
                f"({self.window.diagnosis(self.thresholds.rest_tolerance)})")

    def final_verdict(self, scenery_path: str | None) -> DropVerdict:
        """The verdict when the time cap ended the drop undecided. `scenery_path`: a static collider of the asset's
        own that moved with it (it may have held the asset up)."""
        cfg = self.cfg
        if self.touch_frame is not None:
            return DropVerdict(Status.FAIL, Code.NOT_AT_REST,
                               f"not at rest before the {cfg.simulation_seconds:g} s cap "
                               f"({self.window.diagnosis(self.thresholds.rest_tolerance)})")
        reason = (f"never touched the floor within {cfg.simulation_seconds:g} s (bounds min z stayed at or above "
                  f"{self.prev_z if self.lowest_z is None else self.lowest_z:.3f} m; touch threshold {self.touch_threshold:.3f} "
                  f"m)")
        if self.disabled:
            return DropVerdict(Status.FAIL, Code.COLLISIONS_DISABLED, f"{reason}; {self.disabled}")
        if scenery_path:
            return DropVerdict(Status.FAIL, Code.HELD_UP_BY_SCENERY,
                               f"{reason}; the asset carries static collision geometry ({scenery_path}) that moved "
                               "with it and may hold it up")
        return DropVerdict(Status.FAIL, Code.NEVER_TOUCHED, reason)

    def metrics(self) -> dict:
        return {
            "touched": None if self.in_place else self.touch_frame is not None,
            "penetrated": self.penetrated,
            "max_penetration": round(max(0.0, self.max_penetration), 6),
            "rested": self.rested,
            "diverged": self.diverged,
            "final_z_min": float(self.prev_z) if math.isfinite(self.prev_z) else None,
            "max_rest_deviation": round(self.window.deviation()[0], 6) if self.window.full else None,
        }
