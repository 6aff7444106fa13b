"""EngineBase: what every engine does the same way, written once.

The clock, the DOF list, the last load's warnings; engines inherit the protocol rules from here.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..core.engine import Engine, EngineError, EngineUnavailable  # noqa: F401 - re-exported for engines

if TYPE_CHECKING:
    from ..core.asset_model import AssetModel
    from ..core.scene import SceneSpec


class EngineBase:
    """What the headless engines keep the same way: the clock, the DOF list, the last load's warnings."""

    name = ""
    version = ""

    def __init__(self) -> None:
        self.warnings: list[str] = []
        self._dt = 1.0 / 240.0
        self._time = 0.0
        self._dofs: list = []  # engine-specific records with a `path`

    @property
    def time(self) -> float:
        return self._time

    @property
    def dt(self) -> float:
        return self._dt

    @property
    def dof_joints(self) -> list[str]:
        return [d.path for d in self._dofs]

    def _begin_load(self, asset: "AssetModel", scene: "SceneSpec") -> None:
        """Drop the previous scene and take the new asset, scene and rate."""
        self.close()
        self.warnings = []
        self._asset, self._spec = asset, scene
        self._dt = 1.0 / float(scene.physics_fps)

    def _warn(self, message: str) -> None:
        if message not in self.warnings:
            self.warnings.append(message)

    def close(self) -> None:  # pragma: no cover - engines override
        pass
