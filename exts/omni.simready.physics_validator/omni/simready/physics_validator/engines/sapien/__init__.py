"""Headless PhysX 5 (CPU) through SAPIEN 3: builds the scene from the AssetModel only.

The engine never reads USD. It maps the model the way omni.physx would: articulations in reduced
coordinates (maxJointVelocity enforced there only), other joints as maximal D6 constraints, mass from
density when no mass is authored, convex hulls for dynamic meshes. Fallbacks that change what is
simulated are listed in `warnings`. See docs/engines.md.

engine.py runs the scene; scene.py builds it (builder.py: bodies, shapes.py, mass.py; articulations.py;
joints.py; filters.py; initial_state.py); dofs.py reads and commands joints; bounds.py gives the AABB.
"""

from __future__ import annotations

try:
    import warnings

    with warnings.catch_warnings():  # SAPIEN warns about a missing libvulkan; we never create a renderer
        warnings.filterwarnings("ignore", message="Failed to find system libvulkan")
        import sapien  # noqa: F401
except ImportError as exc:  # engines/__init__ turns this into EngineUnavailable
    raise ImportError(f"sapien is not installed (pip install -e .[sapien]): {exc}") from exc

from .engine import SapienPhysxEngine  # noqa: E402

__all__ = ["SapienPhysxEngine"]
