"""ground_stability (FET_003, test version 2.0.0, RB.007): released just above the floor, the asset comes to rest.

NVIDIA's release: the bottom of its bounds floor_margin (0.1 m) above the floor, upright; at rest when over a 2 s window
ending within 5 s of release the bounds' centre and corners held within 1 cm (a toppled asset lying still passes).
Ours beside it: every moving body's origin and orientation held too (1 cm, 0.5 deg: NVIDIA declares a rotation
tolerance and never applies it), a second release tilted 30 deg that must settle as well (a placeholder inertia turns
too slowly to; a rounded base rocks on), and RB.007's mass properties as the runtime built them (a centre of mass
outside the body, an inertia far below its shape's) judged before either release decides. A part that does not fall
as the engine built it fails before the first step (its rest would prove nothing). An asset a world anchor holds is
not lifted: its free parts are released where they are, upright only.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import TYPE_CHECKING, Generator, Iterator

import numpy as np

from ....core.geometry import bodies_box
from ....core.plausibility.codes import BODY_FINDINGS
from ....core.plugin import PhysicsTest, Precheck
from ....core.quantities import listed
from ....core.scene import GroundSpec, SceneSpec
from ....core.status import Status
from ..parts import free_bodies, kinematic_bodies, parts_that_do_not_fall
from . import mass_rules
from .codes import GroundStabilityCode as Code
from .config import GroundStabilityConfig, StabilityThresholds
from .fix_rules import FIX_RULES
from .hints import HINTS
from .rest_watch import ReleaseWatch
from .tilt import tilted_rig
from .view import VIEW

if TYPE_CHECKING:
    from ....core.context import TestContext


@dataclass
class Release:
    """One release's outcome."""

    name: str  # "upright" or "tilted"
    watch: ReleaseWatch

    @property
    def rested(self) -> bool:
        return self.watch.rested


class GroundStabilityTest(PhysicsTest[GroundStabilityConfig]):
    name = "ground_stability"
    version = "2.0.0"
    features = ("FET_003_PHYSX", "FET_003_NEWTON", "FET_003_STANDARD")
    summary = ("Released 0.1 m above the floor, upright then tilted 30°: every part at rest (1 cm, 0.5°) within 5 s; "
               "centre of mass and inertia as the runtime built them.")
    Config = GroundStabilityConfig
    codes = (Code,)
    hints = HINTS
    view = VIEW
    fix_rules = FIX_RULES
    # NVIDIA ships 2.0.0 disabled (enabled=False): run when asked for, by name or FET_003 (a plain run keeps its time)
    runs_by_default = False
    plausibility = BODY_FINDINGS  # a finding on a released body names the cause of its FAIL (docs/plausibility.md)
    readback = {f"body:{p}": None for p in ("mass", "inertia", "com", "static_friction", "dynamic_friction", "restitution",
                                           "dynamic", "gravity", "collides")}

    def precheck(self, asset, config: GroundStabilityConfig) -> Precheck | None:
        if asset.world_anchors and not free_bodies(asset):
            names = listed([f"{j.type} joint {j.path}" for j in asset.world_anchors], 3)
            return Precheck(Status.NOT_APPLICABLE, f"world-anchored: {names} holds the asset to the world, so it has "
                            "nothing to settle", metrics={"ground_stability_skipped": 1}, code=Code.WORLD_ANCHORED)
        if not asset.bodies:
            return Precheck(Status.PRECHECK_FAILURE, "no prim has UsdPhysics.RigidBodyAPI",
                            HINTS.for_codes([Code.NO_RIGID_BODY]), code=Code.NO_RIGID_BODY)
        if not any(c.body for c in asset.colliders.values()):
            return Precheck(Status.PRECHECK_FAILURE, "no collider (UsdPhysics.CollisionAPI) on any rigid body",
                            HINTS.for_codes([Code.NO_COLLIDER]), code=Code.NO_COLLIDER)
        return None

    def scene(self, asset, config: GroundStabilityConfig) -> SceneSpec:
        return release_scene(asset, config)

    def run(self, ctx: TestContext[GroundStabilityConfig]) -> Iterator[None]:
        if self._hangs(ctx):
            return
        cfg = ctx.config
        thresholds = cfg.thresholds_for()
        parts = free_bodies(ctx.asset)
        masses = mass_rules.body_masses(ctx.asset, parts)
        ratios = [m.inertia_ratio for m in masses if m.inertia_ratio is not None]
        ctx.metric("judged_bodies", len(parts))
        ctx.metric("inertia_ratio_min", round(min(ratios), 6) if ratios else None, unit="x")
        ctx.metric("inertia_ratio_max", round(max(ratios), 6) if ratios else None, unit="x")
        worst = max(masses, key=lambda m: m.com_outside - m.com_limit(thresholds), default=None)
        ctx.metric("com_outside", round(worst.com_outside, 6) if worst else None, unit="m")
        ctx.metric("com_outside_limit", round(worst.com_limit(thresholds), 6) if worst else None, unit="m")
        lo, hi = self._bounds(ctx, parts)
        ctx.metric("initial_z_min", float(lo[2]), unit="m")
        ctx.metric("bbox_height", float(hi[2] - lo[2]), unit="m")
        releases = [(yield from self._release(ctx, "upright", parts, thresholds.deadline_frames, 0))]
        tilt_skipped = self._tilt_skipped(ctx, releases[0])
        ctx.metric("tilted_release", not tilt_skipped)
        if not tilt_skipped:
            ctx.metric("tilt_angle", thresholds.tilt, unit="rad")
            rig = tilted_rig(ctx.asset, thresholds.tilt)
            if rig is not None:
                ctx.load_scene(release_scene(rig.model, cfg, rig))
                releases.append((yield from self._release(ctx, "tilted", free_bodies(ctx.asset),
                                                          thresholds.tilted_deadline_frames, 1)))
        elif tilt_skipped != "not needed":
            ctx.warn(f"the tilted release was not run: {tilt_skipped}")
        status, code, reason = self._verdict(ctx, thresholds, masses, releases, tilt_skipped)
        ctx.metric("ground_stability_passed", status == Status.PASS)
        ctx.finish(status, reason, code=code)

    # -- the releases ------------------------------------------------------------------------------------------------
    @staticmethod
    def _bounds(ctx, parts: list[str]):
        if not ctx.asset.world_anchors:
            return ctx.bounds()
        box = bodies_box(ctx.asset, parts, ctx.body_poses())
        nan = np.full(3, np.nan)
        return box if box is not None else (nan, nan)

    def _release(self, ctx, name: str, parts: list[str], deadline: int, index: int) -> Generator[None, None, Release]:
        """Step one release until its verdict (then a tail for a video) and record the plotted series; returns it."""
        thresholds = ctx.config.thresholds_for()
        watch = ReleaseWatch(thresholds, parts, deadline)
        tail_frames = thresholds.tail_frames if ctx.watched else 0
        ctx.label = f"released {name}"
        frame = tail = 0
        nan = math.nan
        while True:
            yield
            frame += 1
            poses = ctx.body_poses()
            lo, hi = self._bounds(ctx, parts)
            positions = np.array([poses[p][0] if p in poses else (nan,) * 3 for p in parts], float).reshape(-1, 3)
            quats = np.array([poses[p][1] if p in poses else (nan,) * 4 for p in parts], float).reshape(-1, 4)
            if watch.decided:
                tail += 1
                if tail >= tail_frames:
                    break
                continue
            deviation = watch.observe(frame, lo, hi, positions, quats)
            ctx.record("time", ctx.time)
            ctx.record("release", index)
            ctx.record("position_deviation", deviation.position if deviation else nan)
            ctx.record("rotation_deviation", deviation.body_rotation if deviation else nan)
            if watch.decided:
                ctx.label = f"released {name}: " + ("at rest" if watch.rested else "not at rest")
                if tail_frames == 0:
                    break
        fps = thresholds.fps
        ctx.metric(f"{name}_rested", watch.rested)
        ctx.metric(f"{name}_rest_time", round(watch.rest_frame / fps, 6) if watch.rested else None, unit="s")
        bounds_rest = watch.bounds_rest_frame  # NVIDIA's rule alone: when the bounds held (it may hold before ours)
        ctx.metric(f"{name}_bounds_rest_time", round(bounds_rest / fps, 6) if bounds_rest is not None else None, unit="s")
        if watch.last is not None:
            ctx.metric(f"{name}_position_deviation", round(watch.last.position, 6), unit="m")
            ctx.metric(f"{name}_rotation_deviation", round(watch.last.body_rotation, 6), unit="rad")
        return Release(name, watch)

    @staticmethod
    def _tilt_skipped(ctx, upright: Release) -> str:
        """Why the tilted release does not run ("" when it does; "not needed" when the upright one decided)."""
        if not upright.rested or not ctx.config.tilt_angle_deg:
            return "not needed"
        if ctx.asset.world_anchors:
            return "world-anchored: only the free parts were released, where they are authored"
        if not ctx.engine_capabilities.simulates_given_model:
            return f"the {ctx.engine.name} engine simulates the stage open in Kit, not a layer of the test's own"
        return ""

    # -- the verdict ---------------------------------------------------------------------------------------------------
    @staticmethod
    def _verdict(ctx, thresholds: StabilityThresholds, masses, releases: list[Release], tilt_skipped: str):
        """(status, code, reason): divergence first, then the mass rules (the cause), then each release."""
        fps = thresholds.fps
        diverged = next(((r.name, r.watch.diverged_frame) for r in releases if r.watch.diverged_frame is not None), None)
        ctx.metric("diverged", diverged is not None)
        if diverged is not None:
            return (Status.FAIL, Code.DIVERGED, f"simulation diverged {diverged[1] / fps:.3f} s after the {diverged[0]} "
                    "release (bounds or poses NaN or exploded)")
        shown = "; ".join(_outcome(r, fps) for r in releases)
        outside = mass_rules.com_outside(masses, thresholds)
        if outside:
            m = outside[0]
            return (Status.FAIL, Code.COM_OUTSIDE_BODY,
                    f"centre of mass of {listed([o.body for o in outside], 3)} outside its collision shapes: "
                    f"{m.com_outside * 100:.1f} cm beyond the box of {m.body}'s colliders (limit "
                    f"{m.com_limit(thresholds) * 100:.2g} cm, {thresholds.com_outside_fraction:g} x its "
                    f"{m.box_extent * 100:.3g} cm), as the {ctx.engine.name} runtime built it; {shown}")
        small = mass_rules.inertia_too_small(masses, thresholds)
        if small:
            m = small[0]
            return (Status.FAIL, Code.INERTIA_TOO_SMALL,
                    f"inertia of {listed([s.body for s in small], 3)} far below its shape's: {m.body}'s is "
                    f"{m.inertia_ratio:.3g} x what its colliders give at its {m.mass:.3g} kg (limit "
                    f"{thresholds.min_inertia_ratio:g} x), as the {ctx.engine.name} runtime built it; {shown}")
        for release in releases:
            if release.rested:
                continue
            last = release.watch.last
            unsettled = {last.moved, last.turned} if last is not None else set()
            large = [m for m in mass_rules.inertia_too_large(masses, thresholds) if m.body in unsettled]
            if large:  # the part that kept moving is the one with the placeholder inertia
                m = large[0]
                return (Status.FAIL, Code.INERTIA_TOO_LARGE,
                        f"{shown}; the inertia of {m.body} is {m.inertia_ratio:.3g} x what its colliders give at its "
                        f"{m.mass:.3g} kg (more than {thresholds.max_inertia_ratio:g} x: it turns too slowly to settle)")
            code = Code.NOT_AT_REST if release.name == "upright" else Code.TILTED_NOT_AT_REST
            return Status.FAIL, code, shown
        note = f"; the tilted release was not run ({tilt_skipped})" if tilt_skipped and tilt_skipped != "not needed" else ""
        return Status.PASS, Code.OK, shown + note

    @staticmethod
    def _hangs(ctx) -> bool:
        """A part that does not fall as the engine built it: FAIL before the first step, naming it. True when decided."""
        kinematic = kinematic_bodies(ctx.asset)
        if kinematic:
            ctx.metric("kinematic_bodies", len(kinematic))
            ctx.finish(Status.FAIL, f"kinematic body {listed(kinematic, 3)} (physics:kinematicEnabled = true) does not "
                                    "move under physics: its rest would prove nothing", code=Code.KINEMATIC_BODY)
            return True
        still = parts_that_do_not_fall(ctx.asset)
        if still:
            ctx.metric("parts_that_do_not_fall", len(still))
            ctx.finish(Status.FAIL, f"{listed([f'{p} ({why})' for p, why in still], 3, '; ')} does not fall as the "
                                    f"{ctx.engine.name} runtime builds it: its rest would prove nothing",
                       code=Code.DOES_NOT_FALL)
            return True
        return False


def _outcome(release: Release, fps: float) -> str:
    watch = release.watch
    if watch.rested:
        assert watch.rest_frame is not None
        return f"released {release.name}, at rest {watch.rest_frame / fps:.2f} s after release"
    return (f"released {release.name}, not at rest within {watch.deadline_frames / fps:g} s of release "
            f"({watch.diagnosis()})")


def release_scene(asset, config: GroundStabilityConfig, rig=None) -> SceneSpec:
    """The floor and the release height (the bounds' bottom floor_margin above it); an asset a world anchor holds is
    released where it is."""
    ground = GroundSpec(height=config.floor_level, static_friction=config.ground_static_friction,
                        dynamic_friction=config.ground_dynamic_friction, restitution=config.ground_restitution)
    bottom = None if asset.world_anchors else config.floor_level + config.floor_margin
    return SceneSpec(physics_fps=config.physics_fps, ground=ground, place_bottom_at=bottom, rig=rig)
