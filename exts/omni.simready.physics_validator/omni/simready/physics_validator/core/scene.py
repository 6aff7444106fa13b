"""What a test asks of the engine before the first step: ground, gravity, rate, base pinning."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass
class GroundSpec:
    """A collision ground plane (z = height in SI Z-up world) with its physics material."""

    height: float = 0.0
    static_friction: float = 0.5
    dynamic_friction: float = 0.4
    restitution: float = 0.0


@dataclass
class SceneSpec:
    physics_fps: float = 240.0
    gravity: float = 9.81  # m/s^2 along -Z of the SI world
    ground: GroundSpec | None = None
    # Hold the articulation base (or the single root body) fixed with a temporary engine-side
    # joint. Never written to the asset.
    pin_base: bool = False
    # Lift the whole asset so that the minimum z of its collision bounds is at this height.
    # None keeps the authored placement.
    place_bottom_at: float | None = None
    solver_position_iterations: int = 16
    solver_velocity_iterations: int = 1
