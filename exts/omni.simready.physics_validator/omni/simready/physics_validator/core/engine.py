"""The Engine protocol: the only surface the core and the tests touch (engines implement it above core).

Everything is SI and in the asset model's Z-up world: positions in m, angles in rad, joint
velocities in rad/s or m/s, forces in N. Joint arrays are ordered as `dof_joints`.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Protocol, runtime_checkable

import numpy as np

if TYPE_CHECKING:
    from .asset_model import AssetModel
    from .scene import SceneSpec


class EngineError(RuntimeError):
    """The engine could not build or step the scene (reported as ERROR, never as a pass)."""


class EngineUnavailable(EngineError):
    """The engine's package is not installed or not importable here."""


@runtime_checkable
class Engine(Protocol):
    name: str
    version: str

    def load(self, asset: "AssetModel", scene: "SceneSpec") -> None:
        """Build the scene in memory from the asset model. Never writes the asset."""

    def step(self) -> None:
        """Advance one physics step (1/physics_fps). Forces set since the last step apply once."""

    @property
    def time(self) -> float:
        """Simulated seconds since load (or since the last reset)."""

    @property
    def dt(self) -> float: ...

    def bounds(self) -> tuple[np.ndarray, np.ndarray]:
        """Union of the asset's collision-shape world AABBs (min xyz, max xyz)."""

    @property
    def dof_joints(self) -> list[str]:
        """Paths of the joints with one degree of freedom the engine simulates (revolute, prismatic)."""

    def joint_positions(self) -> np.ndarray: ...

    def joint_velocities(self) -> np.ndarray: ...

    def set_joint_position_targets(self, targets: np.ndarray) -> None:
        """Full-size target array (NaN entries keep the current target).

        Engines may also offer `set_joint_position_target(index, value)` for one joint; TestContext
        uses it when present so a per-step single-joint command needs no full array.
        """

    def apply_force(self, body_path: str, force: np.ndarray, point: np.ndarray | None = None) -> None:
        """World-frame force at a world point (default: the body's centre of mass) for the next step."""

    def body_poses(self) -> dict[str, tuple[np.ndarray, np.ndarray]]:
        """Body path -> (position xyz, quaternion wxyz) in the SI world."""

    def reset(self) -> None:
        """Back to the state right after load: poses, velocities, joint targets, time."""

    def close(self) -> None: ...
