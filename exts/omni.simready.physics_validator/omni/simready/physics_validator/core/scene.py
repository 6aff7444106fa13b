"""What a test asks of the engine before the first step: ground, ramp, gravity, rate, base pinning, placement,
and drives it puts on joints for the run (never written to the asset)."""

from __future__ import annotations

import copy
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from .ramp import RampSpec

if TYPE_CHECKING:
    from .asset_model import AssetModel
    from .rig import TestRig

__all__ = ["DriveOverride", "GroundSpec", "RampSpec", "SceneSpec"]


@dataclass
class GroundSpec:
    """A collision ground plane (z = height in SI Z-up world) with its physics material."""

    height: float = 0.0
    static_friction: float = 0.5
    dynamic_friction: float = 0.4
    restitution: float = 0.0


@dataclass(frozen=True)
class DriveOverride:
    """A drive the test puts on one joint for its run, in SI (per radian for revolute joints): it replaces the
    authored drive, or adds one where none is authored. Stiffness 0 and damping > 0 make a velocity drive pushing
    the joint toward `target_velocity` with at most `max_force`."""

    stiffness: float = 0.0  # N m/rad or N/m
    damping: float = 0.0  # N m s/rad or N s/m
    max_force: float = float("inf")  # N m or N
    target_position: float = 0.0  # rad or m
    target_velocity: float = 0.0  # rad/s or m/s


@dataclass
class SceneSpec:
    physics_fps: float = 240.0
    gravity: float = 9.81  # m/s^2 along -Z of the SI world
    ground: GroundSpec | None = None
    ramp: RampSpec | None = None  # a static inclined box beside the ground (core.ramp)
    # Hold the articulation base (or the single root body) fixed with a temporary engine-side
    # joint. Never written to the asset.
    pin_base: bool = False
    # Lift the whole asset so that the minimum z of its collision bounds is at this height.
    # None keeps the authored placement.
    place_bottom_at: float | None = None
    # Move the whole asset horizontally so that the centre of its collision bounds is at this (x, y).
    # None keeps the authored placement.
    place_xy: tuple[float, float] | None = None
    # Joint path -> the drive the engine simulates on it instead of the authored one (joint_movement's
    # velocity probe). Engines that simulate the asset's USD author it in their own layer.
    drive_overrides: dict[str, DriveOverride] = field(default_factory=dict)
    # A rig the test built around the asset (core.rig): the engine loads its model instead of the asset's.
    rig: "TestRig | None" = None
    solver_position_iterations: int = 16
    solver_velocity_iterations: int = 1

    def asset_with_drives(self, asset: "AssetModel") -> "AssetModel":
        """The asset model with `drive_overrides` in place of the authored drives, for engines that build from the
        model (the asset's own model is not changed)."""
        if not self.drive_overrides:
            return asset
        from .asset_model import DriveInfo

        out = copy.copy(asset)
        out.joints = dict(asset.joints)
        for path, override in self.drive_overrides.items():
            joint = asset.joints.get(path)
            if joint is None:
                continue
            joint = copy.copy(joint)
            joint.drive = DriveInfo(
                axis="angular" if joint.is_angular else "linear", type="force", stiffness=override.stiffness,
                damping=override.damping, max_force=override.max_force, target_position=override.target_position,
                target_velocity=override.target_velocity,
            )
            out.joints[path] = joint
        return out
