"""ground_drop (FET003_BASE_PHYSX, spec 3.0.0): drop, touch, no penetration, come to rest.

The asset is dropped from 8x its collision-bounds height onto a floor with restitution 0. Each
frame the union of its collision-shape world AABBs decides three things in order: it touches
(min z reaches floor + margin), it never sinks below floor - margin, and within 8 s of contact the
box centre and all 8 corners stay within 2 cm over a continuous 2 s window (detection starting
1 s after contact). Tracking corners as well as the centre catches an object that spins in place.
"""

from __future__ import annotations

import math
from typing import Iterator

import numpy as np
from pydantic import Field

from ..core.config import TestConfig
from ..core.plugin import PhysicsTest, Precheck
from ..core.scene import GroundSpec, SceneSpec
from ..core.status import Status

HINT_NEVER_TOUCHED = (
    "Apply UsdPhysics.RigidBodyAPI to the root prim and ensure at least one mesh has UsdPhysics.CollisionAPI. "
    "Remove any FixedJoint that anchors the asset to the world. Check that mass is a positive non-zero value "
    "and that the body is not kinematic (physics:kinematicEnabled), because a kinematic body does not fall."
)
HINT_PENETRATED = (
    "Change the collision mesh approximation to convex hull (physics:approximation = \"convexHull\"). Verify that all "
    "collision mesh normals point outward. Remove or thicken any geometry thinner than 1 cm. Review the test video "
    "to see where the penetration occurs."
)
HINT_NOT_AT_REST = (
    "Set the mass to a value proportional to the real-world equivalent. Verify that the center of mass is inside "
    "the collision mesh boundary. If the base geometry is rounded, consider flattening the base collision mesh so the "
    "asset finds a stable resting position. Check for overlapping collision meshes. If the asset jitters, simplify the "
    "collision mesh to convex hull to reduce solver instability."
)
HINT_DIVERGED = (
    "The simulation produced NaN or exploded: check for self-penetrating geometry, zero-volume colliders, overlapping "
    "rigid bodies, and NaN or extreme values in mass and diagonal inertia."
)
HINT_SCENERY = (
    "Remove world geometry (floors, platforms: colliders on no rigid body) from the asset; a SimReady asset "
    "carries only its own parts."
)
HINT_NO_RIGID_BODY = "Apply UsdPhysics.RigidBodyAPI to the asset's root prim (or to each moving part)."
HINT_NO_COLLIDER = "Apply UsdPhysics.CollisionAPI to at least one mesh or gprim under the rigid body."
HINT_COLLISION_DISABLED = (
    "Set physics:collisionEnabled = true (or remove the attribute) on the asset's collision shapes: with every "
    "collider disabled nothing touches the floor."
)


class GroundDropConfig(TestConfig):
    drop_height_factor: float = Field(8.0, gt=0, description="Drop height as a multiple of the asset's bounding-box height.")
    minimum_drop_clearance: float = Field(
        0.2,
        ge=0,
        description="Lowest start height of the bounds above the floor (m), so small assets start above the touch threshold.",
    )
    floor_level: float = Field(0.0, description="Floor height (m).")
    floor_margin: float = Field(0.1, ge=0, description="Contact and penetration tolerance (m).")
    penetration_check_seconds: float = Field(
        1.0, ge=0, description="Delay after first contact before rest detection begins (s); penetration is checked every frame."
    )
    rest_tolerance: float = Field(0.02, gt=0, description="Maximum movement of bbox centre and corners in the hold window (m).")
    rest_detection_hold_seconds: float = Field(2.0, gt=0, description="Length of the continuous rest window (s).")
    rest_detection_max_seconds: float = Field(8.0, gt=0, description="Time allowed from first contact to rest (s).")
    simulation_seconds: float = Field(10.0, gt=0, description="Hard cap on simulated time (s).")
    simulate_after_result_seconds: float = Field(0.5, ge=0, description="Tail simulated after the verdict, for the video (s).")
    ground_static_friction: float = Field(0.5, ge=0)
    ground_dynamic_friction: float = Field(0.4, ge=0)
    ground_restitution: float = Field(0.0, ge=0, le=1, description="Floor restitution; the spec fixes 0.")


class GroundDropTest(PhysicsTest):
    name = "ground_drop"
    version = "3.0.1"
    features = ("FET003_BASE_PHYSX",)
    summary = "Drop from 8x its height: touches the floor, does not penetrate, comes to rest within 8 s of contact."
    Config = GroundDropConfig

    def precheck(self, asset, config: GroundDropConfig) -> Precheck | None:
        anchors = asset.world_anchors
        if anchors:
            names = ", ".join(f"{j.type} joint {j.path}" for j in anchors[:3])
            return Precheck(
                Status.NOT_APPLICABLE,
                f"world-anchored: {names} holds the asset to the world, so it cannot fall by design",
                metrics={"ground_drop_skipped": 1},
            )
        if not asset.bodies:
            return Precheck(Status.PRECHECK_FAILURE, "no prim has UsdPhysics.RigidBodyAPI", [HINT_NO_RIGID_BODY])
        if not any(c.body for c in asset.colliders.values()):
            # A collider with collisionEnabled = false passes this check, as in Kit (the spec checks that
            # CollisionAPI is applied): such an asset falls through the floor, and the penetration FAIL names the
            # disabled colliders as the cause (run()).
            return Precheck(
                Status.PRECHECK_FAILURE, "no collider (UsdPhysics.CollisionAPI) on any rigid body", [HINT_NO_COLLIDER]
            )
        return None

    def scene(self, asset, config: GroundDropConfig) -> SceneSpec:
        bounds = asset.authored_bounds()
        height = float(bounds[1][2] - bounds[0][2]) if bounds is not None else 0.0
        drop = max(config.drop_height_factor * height, config.minimum_drop_clearance)
        return SceneSpec(
            physics_fps=config.physics_fps,
            ground=GroundSpec(
                height=config.floor_level,
                static_friction=config.ground_static_friction,
                dynamic_friction=config.ground_dynamic_friction,
                restitution=config.ground_restitution,
            ),
            place_bottom_at=config.floor_level + drop,
        )

    def run(self, ctx) -> Iterator[None]:
        cfg: GroundDropConfig = ctx.config
        disabled = collisions_disabled(ctx.asset)
        fps = cfg.physics_fps
        floor = cfg.floor_level
        touch_threshold = floor + cfg.floor_margin
        penetration_threshold = floor - cfg.floor_margin
        total_frames = int(round(cfg.simulation_seconds * fps))
        hold_frames = max(1, int(round(cfg.rest_detection_hold_seconds * fps)))
        delay_frames = int(round(cfg.penetration_check_seconds * fps))
        max_rest_frames = int(round(cfg.rest_detection_max_seconds * fps))
        tail_frames = int(round(cfg.simulate_after_result_seconds * fps))

        scenery = ctx.asset.static_colliders
        if scenery:
            ctx.warn(
                f"{len(scenery)} collider(s) on no rigid body (e.g. {scenery[0].path}) are static scenery: they move "
                "with the asset but are not part of its bounds"
            )
        lo, hi = ctx.bounds()
        ctx.metric("initial_z_min", float(lo[2]))
        ctx.metric("bbox_height", float(hi[2] - lo[2]))
        ctx.metric("effective_fall", float(lo[2] - floor))
        ctx.metric("floor_level", floor)
        window = RestWindow(hold_frames)
        window.push(lo, hi)
        prev_z = float(lo[2])
        touch_frame: int | None = None
        verdict: tuple[Status, str, list[str]] | None = None
        tail = 0
        max_penetration = 0.0
        rested = penetrated = diverged = False
        ctx.label = "falling"

        times, min_z, centre_z = [], [], []  # plotted by the report; kept local because this loop is the hot path
        for frame in range(1, total_frames + 1):
            yield
            lo, hi = ctx.bounds()
            z = float(lo[2])
            top = float(hi[2])
            times.append(ctx.time)
            min_z.append(z)
            centre_z.append((z + top) / 2)
            if verdict is not None:
                tail += 1
                if tail >= tail_frames:
                    break
                continue
            if not math.isfinite(float(lo[0] + lo[1] + hi[0] + hi[1]) + z + top) or abs(z) > 1e6:
                diverged = True
                verdict = (Status.FAIL, f"simulation diverged at t={ctx.time:.3f} s (bounds are NaN or exploded)", [HINT_DIVERGED])
                continue
            window.push(lo, hi)
            if touch_frame is None:
                if prev_z > touch_threshold >= z:
                    touch_frame = frame
                    ctx.metric("touch_time", round(ctx.time, 6))
                    ctx.label = "contact"
            else:
                if floor - z > max_penetration:
                    max_penetration = floor - z
                since = frame - touch_frame
                if z < penetration_threshold:
                    penetrated = True
                    verdict = (
                        Status.FAIL,
                        f"penetrated the floor: bounds min z {z:.3f} m < floor - margin {penetration_threshold:.3f} m "
                        f"at t={ctx.time:.3f} s" + (f"; {disabled}" if disabled else ""),
                        [HINT_COLLISION_DISABLED] if disabled else [HINT_PENETRATED],
                    )
                elif since >= delay_frames and window.full:
                    ctx.label = "settling"
                    if window.at_rest(cfg.rest_tolerance):
                        rested = True
                        ctx.metric("rest_time", round(ctx.time, 6))
                        ctx.metric("settle_seconds_after_contact", round(since / fps, 6))
                        ctx.label = "at rest"
                        verdict = (Status.PASS, f"at rest {since / fps:.2f} s after first contact", [])
                if verdict is None and since >= max_rest_frames:
                    verdict = (
                        Status.FAIL,
                        f"touched the floor but not at rest within {cfg.rest_detection_max_seconds:g} s of contact "
                        f"({window.diagnosis(cfg.rest_tolerance)})",
                        [HINT_NOT_AT_REST],
                    )
            prev_z = z
        ctx.result.series.update({"time": times, "bbox_min_z": min_z, "bbox_center_z": centre_z})

        if verdict is None:
            if touch_frame is None:
                verdict = (
                    Status.FAIL,
                    f"never touched the floor within {cfg.simulation_seconds:g} s (bounds min z stayed at or above "
                    f"{min(min_z or [prev_z]):.3f} m; touch threshold "
                    f"{touch_threshold:.3f} m)",
                    [HINT_NEVER_TOUCHED],
                )
                if disabled:
                    verdict = (verdict[0], f"{verdict[1]}; {disabled}", [HINT_COLLISION_DISABLED])
                elif scenery:
                    verdict = (
                        verdict[0],
                        verdict[1] + f"; the asset carries static collision geometry ({scenery[0].path}) that moved "
                        "with it and may hold it up",
                        verdict[2] + [HINT_SCENERY],
                    )
            else:
                verdict = (
                    Status.FAIL,
                    f"not at rest before the {cfg.simulation_seconds:g} s cap ({window.diagnosis(cfg.rest_tolerance)})",
                    [HINT_NOT_AT_REST],
                )
        ctx.metric("touched", touch_frame is not None)
        ctx.metric("penetrated", penetrated)
        ctx.metric("max_penetration", round(max(0.0, max_penetration), 6))
        ctx.metric("rested", rested)
        ctx.metric("diverged", diverged)
        ctx.metric("final_z_min", float(prev_z) if math.isfinite(prev_z) else None)
        ctx.metric("max_rest_deviation", round(window.deviation()[0], 6) if window.full else None)
        ctx.metric("ground_drop_passed", verdict[0] == Status.PASS)
        ctx.finish(*verdict)


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
        return f"still moving: centre moved {centre * 100:.1f} cm, corners {corner * 100:.1f} cm in the last window (sliding or bouncing)"


def collisions_disabled(asset) -> str:
    """When every collider on a rigid body has physics:collisionEnabled = false: why the asset falls through."""
    on_bodies = [c for c in asset.colliders.values() if c.body]
    if not on_bodies or any(c.collision_enabled for c in on_bodies):
        return ""
    names = ", ".join(c.path for c in on_bodies[:3]) + (", ..." if len(on_bodies) > 3 else "")
    return f"no enabled collider: physics:collisionEnabled = false on all {len(on_bodies)} of its colliders ({names})"
