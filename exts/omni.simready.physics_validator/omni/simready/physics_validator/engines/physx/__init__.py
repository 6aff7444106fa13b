"""The `physx` engine: ovphysx, NVIDIA's Omni PhysX runtime (PhysX 5.12 + the USD parser behind
omni.physx), on CPU. The asset is populated as Isaac Sim would populate it; the validator adds only a
wrapper layer (scene, ground, placement, pinning, `physx.target` semantics). See docs/engines.md.

engine.py runs it (EngineBase hooks); runtime.py sets the process up (CPU, threads, schemas, log
capture); wrapper.py writes the wrapper stage (legacy.py: `physx.target`); reads.py is the one per-step
read/write path (session.py: the session API helpers); dofs.py maps DOF joints (and drives those
outside articulations); properties.py reads what the runtime parsed; bounds.py gives the AABB; attachments.py
keeps one PhysX SDK tolerance scale per process (stage units) by releasing stale attachments.

settings.py holds the engine's own settings (`physx.target`), readable where ovphysx is not installed (Kit).

Importing this package never imports ovphysx (it is not fork-safe): the runtime starts at the first
`load()`. The engine class is looked up on first use (PEP 562), after checking that ovphysx is installed, so an
absent wheel reads as EngineUnavailable (engines/__init__) and its settings stay readable.
"""

from __future__ import annotations

from importlib.util import find_spec
from typing import Any

__all__ = ["OvPhysxEngine"]


def __getattr__(name: str) -> Any:
    if name != "OvPhysxEngine":
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    if find_spec("ovphysx") is None or find_spec("ovstage") is None:  # engines/__init__ turns this into EngineUnavailable
        raise ImportError("ovphysx is not installed (pip install ovphysx==0.7.0.74035321 physx-usd-schemas newton-usd-schemas)")
    from .engine import OvPhysxEngine

    return OvPhysxEngine
