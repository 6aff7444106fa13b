"""What slope_drop decides frame by frame from the asset's distance to the ramp and its bounds: pure, no engine.

In order: contact (the collision geometry within slope_contact_tolerance of the ramp plane while over the ramp), no
sinking (never deeper than the penetration allowance under the plane while the footprint is over the ramp), no
launch (after contact, a gap above maximum_slope_separation lasting separation_confirmation_seconds while over the
ramp), downhill motion (the centre moves min_downhill_travel down the slope, counted from where it was
slide_check_delay after first contact, so a landing that skids to a stop is not a slide), then a clean floor for
post_slide_seconds (bounds min z never below floor - floor_margin).
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from ....core.ramp import RampSpec
from ....core.status import Status
from .codes import SlopeDropCode as Code
from .config import SlopeDropConfig


@dataclass(frozen=True)
class SlopeVerdict:
    status: Status
    code: Code
    reason: str


class SlopeWatch:
    def __init__(self, cfg: SlopeDropConfig, ramp: RampSpec, size: float):
        self.cfg, self.ramp = cfg, ramp
        self.thresholds = cfg.thresholds_for(size)
        self.sink_allowance = self.thresholds.sink_allowance
        self.confirm = self.thresholds.launch_frames
        self.post_frames = self.thresholds.post_slide_frames
        self.contact_time: float | None = None
        self.contact_centre: np.ndarray | None = None
        self.slide_origin: np.ndarray | None = None  # the centre slide_check_delay after contact: downhill counts from it
        self.slide_time: float | None = None
        self.slide_frame: int | None = None
        self.downhill = 0.0  # largest travel of the centre down the slope since contact (m)
        self.uphill = 0.0  # largest travel up the slope since contact (m), a diagnostic
        self.max_sink = 0.0  # deepest the geometry went under the plane while over the ramp (m)
        self.max_gap = 0.0  # largest sustained gap while over the ramp after contact (m)
        self.min_floor_z = math.inf
        self._gap_frames = 0
        self.verdict: SlopeVerdict | None = None
        self.phase = "falling"

    def observe(self, frame: int, time: float, lo, hi, lowest: float) -> None:
        cfg, ramp = self.cfg, self.ramp
        if not (np.all(np.isfinite(lo)) and np.all(np.isfinite(hi)) and math.isfinite(lowest)) or abs(float(lo[2])) > 1e6:
            self.verdict = SlopeVerdict(Status.FAIL, Code.DIVERGED, f"simulation diverged at t={time:.3f} s (NaN or "
                                                                    "exploded bounds)")
            return
        lo, hi = np.asarray(lo, float), np.asarray(hi, float)
        centre = (lo + hi) / 2
        over = ramp.covers(lo, hi)
        if over:
            self.max_sink = max(self.max_sink, -lowest)
            if -lowest > self.sink_allowance:
                self.verdict = SlopeVerdict(
                    Status.FAIL, Code.SANK_INTO_RAMP,
                    f"sank into the ramp: its collision geometry went {-lowest * 100:.1f} cm under the ramp's surface "
                    f"(allowed {self.sink_allowance * 100:.1f} cm) at t={time:.3f} s")
                return
        if self.contact_time is None:
            if over and lowest <= self.thresholds.contact_gap:
                self.contact_time, self.contact_centre, self.phase = round(time, 6), centre, "on the ramp"
            return
        if self.slide_origin is None and time - self.contact_time >= self.thresholds.slide_delay - 1e-9:
            self.slide_origin = centre
        if self.slide_origin is not None:
            along = float((centre - self.slide_origin) @ ramp.downhill)
            self.downhill, self.uphill = max(self.downhill, along), max(self.uphill, -along)
        if over and lowest > self.thresholds.launch_gap:
            self._gap_frames += 1
            self.max_gap = max(self.max_gap, lowest)
            if self._gap_frames >= self.confirm:
                self.verdict = SlopeVerdict(
                    Status.FAIL, Code.LAUNCHED,
                    f"launched off the ramp: {lowest * 100:.1f} cm above its surface for "
                    f"{self._gap_frames / cfg.physics_fps:.2f} s "
                    f"(> {cfg.maximum_slope_separation * 100:g} cm for {cfg.separation_confirmation_seconds:g} s) at "
                    f"t={time:.3f} s")
                return
        else:
            self._gap_frames = 0
        if self.slide_time is None and self.downhill >= self.thresholds.min_downhill:
            self.slide_time, self.slide_frame, self.phase = round(time, 6), frame, "sliding"
        if self.slide_frame is not None:  # set with slide_time
            self.min_floor_z = min(self.min_floor_z, float(lo[2]))
            if float(lo[2]) < self.thresholds.floor_z:
                self.verdict = SlopeVerdict(
                    Status.FAIL, Code.PENETRATED_FLOOR,
                    f"went through the floor after the slope: bounds min z {float(lo[2]):.3f} m < floor - margin "
                    f"{self.thresholds.floor_z:.3f} m at t={time:.3f} s")
            elif frame - self.slide_frame >= self.post_frames:
                self.verdict = SlopeVerdict(
                    Status.PASS, Code.OK,
                    f"touched the ramp at {self.contact_time:.2f} s, moved {self.downhill * 100:.1f} cm down it "
                    f"(≥ {cfg.min_downhill_travel * 100:g} cm) without sinking in (deepest {self.max_sink * 100:.2f} cm) "
                    f"and stayed above the floor for {cfg.post_slide_seconds:g} s")

    def final_verdict(self) -> SlopeVerdict:
        """The verdict when the time cap ended the drop undecided."""
        cfg = self.cfg
        if self.contact_time is None:
            return SlopeVerdict(Status.FAIL, Code.NO_CONTACT,
                                f"never touched the ramp within {cfg.simulation_seconds:g} s")
        if self.slide_time is None:
            return SlopeVerdict(Status.FAIL, Code.NO_SLIDE,
                                f"touched the ramp but moved only {self.downhill * 100:.1f} cm down it from "
                                f"{cfg.slide_check_delay:g} s after contact to the {cfg.simulation_seconds:g} s cap "
                                f"(< {cfg.min_downhill_travel * 100:g} cm): it does not slide")
        return SlopeVerdict(Status.PASS, Code.OK,
                            f"touched the ramp at {self.contact_time:.2f} s and moved {self.downhill * 100:.1f} cm down it "
                            f"without sinking in; the floor stayed clear until the {cfg.simulation_seconds:g} s cap")

    def metrics(self) -> dict:
        return {
            "touched_ramp": self.contact_time is not None,
            "slid": self.slide_time is not None,
            "sank_into_ramp": self.verdict is not None and self.verdict.code is Code.SANK_INTO_RAMP,
            "launched": self.verdict is not None and self.verdict.code is Code.LAUNCHED,
            "penetrated_floor": self.verdict is not None and self.verdict.code is Code.PENETRATED_FLOOR,
            "contact_time": self.contact_time,
            "downhill_travel": round(self.downhill, 6),
            "uphill_travel": round(self.uphill, 6),
            "slide_time": self.slide_time,
            "max_ramp_penetration": round(self.max_sink, 6),
            "ramp_penetration_allowance": round(self.sink_allowance, 6),
            "max_ramp_gap": round(self.max_gap, 6),
            "min_floor_z": self.min_floor_z if math.isfinite(self.min_floor_z) else None,
        }
