"""Physics engines behind one protocol (core.engine.Engine).

Engines are looked up by name and imported lazily, so the core never imports ovphysx, sapien, newton or
omni. Importing an engine's package never starts its runtime either: the physx engine imports ovphysx
(which is not fork-safe) only when it loads its first asset.

- `physx`: ovphysx, NVIDIA's Omni PhysX runtime (PhysX 5.12, CPU) on the asset's own USD (default);
- `sapien`: PhysX 5.3 through SAPIEN and our own USD-to-SAPIEN translation (`[sapien]` extra);
- `newton`: Newton's SolverSteel (`[newton]` extra);
- `kit`: omni.physx on the stage open in Isaac Sim (only inside Kit).
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING

from ..core.engine import Engine, EngineCapabilities, EngineCapabilityMissing, EngineError, EngineUnavailable

if TYPE_CHECKING:
    from ..core.config import ValidationConfig
    from .base import EngineBase

_ENGINES = {
    "physx": ("omni.simready.physics_validator.engines.physx", "OvPhysxEngine"),
    "sapien": ("omni.simready.physics_validator.engines.sapien", "SapienPhysxEngine"),
    "newton": ("omni.simready.physics_validator.engines.newton", "NewtonEngine"),
    "kit": ("omni.simready.physics_validator.engines.kit.engine", "KitPhysxEngine"),
}

DEFAULT_ENGINE = "physx"
HEADLESS_ENGINES = ("physx", "sapien", "newton")


def engine_names() -> list[str]:
    return list(_ENGINES)


def engine_class(name: str) -> "type[EngineBase]":
    if name not in _ENGINES:
        raise EngineUnavailable(f"unknown engine '{name}' (known: {', '.join(_ENGINES)})")
    module_name, class_name = _ENGINES[name]
    try:
        module = importlib.import_module(module_name)
    except ImportError as exc:
        raise EngineUnavailable(f"engine '{name}' is not available: {exc}") from None
    return getattr(module, class_name)


def create_engine(name: str, config: "ValidationConfig | None" = None) -> Engine:
    """A new engine by name. With a run's `config`, an engine that has settings of its own (physx:
    `physx.target`) takes them from it (`EngineBase.from_config`); without one, it runs at its defaults."""
    cls = engine_class(name)
    return cls.from_config(config) if config is not None else cls()


__all__ = [
    "DEFAULT_ENGINE", "Engine", "EngineCapabilities", "EngineCapabilityMissing", "EngineError", "EngineUnavailable",
    "HEADLESS_ENGINES", "create_engine", "engine_class", "engine_names",
]
