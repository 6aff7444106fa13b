"""slope_drop (FET_003): dropped onto a 45 degree ramp, the asset touches it, moves down it and does not sink in.

Scene: a floor and a static ramp (core.ramp) descending toward +Y, both with friction 0.5 / 0.4 and restitution 0,
sized to the asset (at least minimum_slope_length along the slope, 6x its largest horizontal extent). The asset
starts top_margin downhill of the top edge, its bottom minimum_slope_clearance above the highest ramp point under it.
Each frame `SlopeWatch` judges the distance of the real collision geometry to the ramp plane (contact.py) and the
bounds: contact, no sinking, no launch, downhill travel, then a clean floor. Spec: docs/tests/slope_drop.md.
"""

from __future__ import annotations

from typing import Iterator

import numpy as np

from ....core.plausibility.codes import BODY_FINDINGS
from ....core.context import TestContext
from ....core.plugin import PhysicsTest, Precheck
from ....core.quantities import listed
from ....core.ramp import placement_on, ramp_for
from ....core.scene import GroundSpec, SceneSpec
from ....core.status import Status
from ...driven.base import scenery_note
from .codes import SlopeDropCode as Code
from .config import SlopeDropConfig
from .contact import GeometryProbe
from .fix_rules import FIX_RULES
from .hints import HINTS
from .slope_watch import SlopeWatch
from .view import VIEW


class SlopeDropTest(PhysicsTest[SlopeDropConfig]):
    name = "slope_drop"
    version = "3.3.0"
    features = ("FET_003_PHYSX", "FET_003_NEWTON", "FET_003_STANDARD")
    summary = "Dropped onto a 45° ramp: touches it, slides or rolls at least 5 cm down, never sinks in or launches."
    Config = SlopeDropConfig
    codes = (Code,)
    hints = HINTS
    view = VIEW
    fix_rules = FIX_RULES
    readback = {"body:collides": None, "body:dynamic": None, "body:gravity": None}  # what the runtime built (readback.md)
    plausibility = BODY_FINDINGS  # a finding on the sliding body names the cause of its FAIL (docs/plausibility.md)

    def precheck(self, asset, config: SlopeDropConfig) -> Precheck | None:
        anchors = asset.world_anchors
        if anchors:
            names = listed([f"{j.type} joint {j.path}" for j in anchors], 3)
            return Precheck(Status.NOT_APPLICABLE, f"world-anchored: {names} holds the asset to the world, so it cannot "
                                                   "slide by design", code=Code.WORLD_ANCHORED)
        if not asset.bodies:
            return Precheck(Status.PRECHECK_FAILURE, "no prim has UsdPhysics.RigidBodyAPI",
                            HINTS.for_codes([Code.NO_RIGID_BODY]), code=Code.NO_RIGID_BODY)
        if not any(c.body for c in asset.colliders.values()):
            return Precheck(Status.PRECHECK_FAILURE, "no collider (UsdPhysics.CollisionAPI) on any rigid body",
                            HINTS.for_codes([Code.NO_COLLIDER]), code=Code.NO_COLLIDER)
        return None

    @staticmethod
    def ramp_of(asset, config: SlopeDropConfig):
        """The ramp this asset is dropped on, and the bounds it was sized from."""
        bounds = asset.authored_bounds()
        lo, hi = bounds if bounds is not None else (np.zeros(3), np.zeros(3))
        extent = float(max(hi[0] - lo[0], hi[1] - lo[1], 0.0))
        ramp = ramp_for(extent, config.slope_angle_deg, config.minimum_slope_length, floor_height=config.floor_level,
                        static_friction=config.slope_static_friction, dynamic_friction=config.slope_dynamic_friction,
                        restitution=config.slope_restitution)
        return ramp, lo, hi

    def scene(self, asset, config: SlopeDropConfig) -> SceneSpec:
        ramp, lo, hi = self.ramp_of(asset, config)
        xy, bottom = placement_on(ramp, lo, hi, config.minimum_slope_clearance, config.top_margin)
        ground = GroundSpec(height=config.floor_level, static_friction=config.slope_static_friction,
                            dynamic_friction=config.slope_dynamic_friction, restitution=config.slope_restitution)
        return SceneSpec(physics_fps=config.physics_fps, ground=ground, ramp=ramp, place_xy=xy, place_bottom_at=bottom)

    def run(self, ctx: TestContext[SlopeDropConfig]) -> Iterator[None]:
        cfg: SlopeDropConfig = ctx.config
        ramp, lo, hi = self.ramp_of(ctx.asset, cfg)
        probe = GeometryProbe(ctx.asset)
        size = float(np.max(hi - lo)) if np.all(np.isfinite(hi - lo)) else 0.0
        watch = SlopeWatch(cfg, ramp, size)
        ctx.metric("slope_angle_deg", cfg.slope_angle_deg)
        ctx.metric("ramp_length", ramp.length, unit="m")
        start_lo, _ = ctx.bounds()
        ctx.metric("start_z_min", float(start_lo[2]), unit="m")
        yield from self._drop(ctx, watch, probe, ramp)
        verdict = watch.verdict or watch.final_verdict()
        for name, value in watch.metrics().items():
            ctx.metric(name, value)
        reason = verdict.reason
        if verdict.status is Status.FAIL and scenery_note(ctx.asset):  # e.g. it landed on a floor of its own
            reason = f"{reason}; {scenery_note(ctx.asset)}"
        ctx.finish(verdict.status, reason, code=verdict.code)

    @staticmethod
    def _drop(ctx, watch: SlopeWatch, probe: GeometryProbe, ramp) -> Iterator[None]:
        cfg: SlopeDropConfig = ctx.config
        times, gaps, downhill = [], [], []  # plotted by the report
        point, normal = ramp.top_point, ramp.normal
        for frame in range(1, int(round(cfg.simulation_seconds * cfg.physics_fps)) + 1):
            yield
            lo, hi = ctx.bounds()
            lowest = probe.lowest_distance(ctx.body_poses(), point, normal) if not probe.empty else float(
                min(ramp.signed_distance(np.array([lo, hi]))))
            watch.observe(frame, ctx.time, lo, hi, lowest)
            ctx.label = watch.phase
            if frame % 4 == 0:
                times.append(ctx.time)
                gaps.append(lowest if np.isfinite(lowest) else None)
                downhill.append(watch.downhill)
            if watch.verdict is not None:
                break
        ctx.result.series.update({"time": times, "ramp_gap": gaps, "downhill": downhill})
