"""Physics engines behind one protocol (core.engine.Engine).

Engines are looked up by name and imported lazily, so the core never imports sapien, newton or omni.
"""

from __future__ import annotations

import importlib

from ..core.engine import Engine, EngineError, EngineUnavailable

_ENGINES = {
    "physx": ("omni.simready.physics_validator.engines.sapien", "SapienPhysxEngine"),
    "newton": ("omni.simready.physics_validator.engines.newton", "NewtonEngine"),
    "kit": ("omni.simready.physics_validator.engines.kit.engine", "KitPhysxEngine"),
}

HEADLESS_ENGINES = ("physx", "newton")


def engine_names() -> list[str]:
    return list(_ENGINES)


def engine_class(name: str) -> type[Engine]:
    if name not in _ENGINES:
        raise EngineUnavailable(f"unknown engine '{name}' (known: {', '.join(_ENGINES)})")
    module_name, class_name = _ENGINES[name]
    try:
        module = importlib.import_module(module_name)
    except ImportError as exc:
        raise EngineUnavailable(f"engine '{name}' is not available: {exc}") from None
    return getattr(module, class_name)


def create_engine(name: str) -> Engine:
    return engine_class(name)()


__all__ = ["Engine", "EngineError", "EngineUnavailable", "create_engine", "engine_class", "engine_names"]
