"""Newton (Warp, CPU): the asset file imported by Newton's own USD importer, stepped by the target's solver.

Newton reads the USD itself (`ModelBuilder.add_usd` with the target's schema resolvers); the AssetModel fills what
Newton does not read: the PhysX 25.x velocity-limit spelling, the joint-path -> DOF map in the product's order, the
collider list behind bounds(). Which Newton runs is `newton.target` (settings.py, targets.py): the [newton] extra's
with SolverSteel (joint limits and joint velocity limits enforced, enough articulation rows for ground contact), or
Isaac Sim 6.2's (Newton 1.6.1, SolverMuJoCo on MuJoCo Warp), installed beside the environment. Conventions follow the
physx engine; differences: docs/engine-divergences.md.

engine.py runs the model; scene.py builds it (importer.py: the USD import; mapping.py: bodies, DOFs and SI
corrections; compat.py: where Newton 1.6 and 1.8 differ); stepper.py makes the solver and steps it (a recorded Warp
graph after the first step); bounds.py gives the AABB; runtime.py imports the target's Newton and keeps a persistent
kernel cache. Importing this package imports neither Warp nor Newton: the engine does at its first load (or in
`prepare_process`), so a run can choose the target first.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from .engine import NewtonEngine


def __getattr__(name: str) -> Any:
    """NewtonEngine on first use: its settings and targets (the config's [newton] section, the side install) are
    importable without Warp or Newton installed; the engine module says what is missing (ImportError, which
    engines/__init__ turns into EngineUnavailable)."""
    if name == "NewtonEngine":
        from .engine import NewtonEngine

        return NewtonEngine
    raise AttributeError(name)


__all__ = ["NewtonEngine"]
