"""Newton (Warp, CPU) with SolverSteel: the asset file imported by Newton's own USD importer.

Newton reads the USD itself (`ModelBuilder.add_usd` with the Newton and PhysX schema resolvers); the
AssetModel fills what Newton does not read: the PhysX 25.x velocity-limit spelling, the joint-path ->
DOF map in the product's order, the collider list behind bounds(). SolverSteel runs with joint limits
and joint velocity limits enforced and enough articulation constraint rows for ground contact.
Conventions follow the physx engine (engines/sapien/); differences: docs/engine-divergences.md.

engine.py runs the model; scene.py builds it (importer.py: the USD import; mapping.py: bodies, DOFs and
SI corrections); bounds.py gives the AABB; runtime.py starts Warp with a persistent kernel cache.
"""

from __future__ import annotations

try:
    from .runtime import import_newton

    import_newton()
except ImportError as exc:  # engines/__init__ turns this into EngineUnavailable
    raise ImportError(f"newton is not installed (pip install -e .[newton]): {exc}") from exc

from .engine import NewtonEngine  # noqa: E402

__all__ = ["NewtonEngine"]
