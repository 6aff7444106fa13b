"""Physics engines behind one protocol (core.engine.Engine).

Engines are looked up by name and imported lazily, so the core never imports ovphysx, sapien, newton or
omni. Importing an engine's package never starts its runtime either: the physx engine imports ovphysx
(which is not fork-safe) only when it loads its first asset.

- `physx`: ovphysx, NVIDIA's Omni PhysX runtime (PhysX 5.12, CPU) on the asset's own USD (default);
- `sapien`: PhysX 5.3 through SAPIEN and our own USD-to-SAPIEN translation (`[sapien]` extra);
- `newton`: Newton on Warp (`[newton]` extra: SolverSteel; `newton.target=isaacsim-6.2`: Isaac Sim 6.2's Newton,
  SolverMuJoCo, installed beside the environment);
- `kit`: omni.physx on the stage open in Isaac Sim (only inside Kit).
"""

from __future__ import annotations

import importlib
import importlib.util
from dataclasses import dataclass
from typing import TYPE_CHECKING

from ..core.engine import Engine, EngineCapabilities, EngineCapabilityMissing, EngineError, EngineUnavailable

if TYPE_CHECKING:
    from pydantic import BaseModel

    from ..core.config import ValidationConfig
    from .base import EngineBase


@dataclass(frozen=True)
class EngineEntry:
    """One engine as the registry knows it before importing it: where its class is, what its name means for people,
    and whether it runs outside Isaac Sim."""

    module: str
    class_name: str
    summary: str  # what the name means, for --help
    headless: bool = True  # False: runs only inside Isaac Sim / Kit (its carb module importable)
    # "module:Class" of the engine's own settings (a pydantic model, the config's [<engine>] section; importable
    # without the engine's library), "" for an engine without settings
    settings: str = ""


_ENGINES = {
    "physx": EngineEntry("omni.simready.physics_validator.engines.physx", "OvPhysxEngine",
                         "NVIDIA PhysX 5 through ovphysx, on the asset's own USD",
                         settings="omni.simready.physics_validator.engines.physx.settings:PhysxSettings"),
    "sapien": EngineEntry("omni.simready.physics_validator.engines.sapien", "SapienPhysxEngine",
                          "PhysX 5 through SAPIEN ([sapien] extra)"),
    "newton": EngineEntry("omni.simready.physics_validator.engines.newton", "NewtonEngine",
                          "Newton on Warp, CPU ([newton] extra; newton.target=isaacsim-6.2: Isaac Sim 6.2's Newton)",
                          settings="omni.simready.physics_validator.engines.newton.settings:NewtonSettings"),
    "kit": EngineEntry("omni.simready.physics_validator.engines.kit.engine", "KitPhysxEngine",
                       "omni.physx inside Isaac Sim only (see docs/kit-extension.md)", headless=False),
}

DEFAULT_ENGINE = "physx"
HEADLESS_ENGINES = tuple(name for name, entry in _ENGINES.items() if entry.headless)
KIT_ONLY = "the kit engine runs inside Isaac Sim; see docs/kit-extension.md"


def engine_names() -> list[str]:
    return list(_ENGINES)


def engines_help() -> str:
    """'physics engine. physx (default): ...; sapien: ...' in the order of engine_names(), for --help."""
    parts = [f"{name} (default): {entry.summary}" if name == DEFAULT_ENGINE else f"{name}: {entry.summary}"
             for name, entry in _ENGINES.items()]
    return "physics engine. " + "; ".join(parts)


def inside_kit() -> bool:
    """True inside Isaac Sim / Kit (its carb module is importable); the kit engine needs it."""
    try:
        return importlib.util.find_spec("carb") is not None
    except (ImportError, ValueError):
        return False


def check_runs_here(name: str) -> None:
    """EngineUnavailable unless engine `name` can run in this process: known, installed, and not a Kit-only engine
    outside Kit (what a command checks before anything runs)."""
    if name in _ENGINES and not _ENGINES[name].headless and not inside_kit():
        raise EngineUnavailable(KIT_ONLY)
    engine_class(name)


def engine_class(name: str) -> "type[EngineBase]":
    """The engine class of `name`; EngineUnavailable when the name is unknown or its library is not installed."""
    entry = _ENGINES.get(name)
    if entry is None:
        raise EngineUnavailable(f"unknown engine '{name}' (known: {', '.join(_ENGINES)})")
    try:
        return getattr(importlib.import_module(entry.module), entry.class_name)
    except ImportError as exc:
        raise EngineUnavailable(f"engine '{name}' is not available: {exc}") from None


def engine_settings() -> "dict[str, type[BaseModel]]":
    """engine name -> the model of its own settings (the config's [<engine>] section), for every engine that has
    some; each is read without importing the engine's library (ValidationConfig.defaults takes this)."""
    out = {}
    for name, entry in _ENGINES.items():
        if entry.settings:
            module, class_name = entry.settings.split(":")
            out[name] = getattr(importlib.import_module(module), class_name)
    return out


def create_engine(name: str, config: "ValidationConfig | None" = None) -> Engine:
    """A new engine by name. With a run's `config`, an engine that has settings of its own takes them from its
    section (`EngineBase.from_config`); without one, or without that section, it runs at its defaults."""
    cls = engine_class(name)
    return cls.from_config(config) if config is not None else cls()


__all__ = [
    "DEFAULT_ENGINE", "Engine", "EngineCapabilities", "EngineCapabilityMissing", "EngineError", "EngineUnavailable",
    "HEADLESS_ENGINES", "KIT_ONLY", "EngineEntry", "check_runs_here", "create_engine", "engine_class", "engine_names",
    "engine_settings", "engines_help", "inside_kit",
]
