"""Where the physx engine's scene puts the asset: the exact lift, and which bodies did not start where it was aimed.

The validation layer lifts by each collider's local AABB (engines.validation_layer); `bounds()` is exact geometry, so
the first population is lifted by the difference (rotated meshes). After the attach, the start pose PhysX built is
measured: a miss is re-lifted once, and the warning says why the start pose differs: the bodies PhysX put elsewhere
than their authored pose plus the lift (the joint state re-posing links at attach, PhysicsJointStateAPI), by name.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

from ...core.geometry import quats_to_matrices
from ...core.quantities import listed
from .bounds import ColliderBounds

if TYPE_CHECKING:
    from ...core.asset_model import AssetModel
    from ...core.scene import SceneSpec

PLACEMENT_TOLERANCE = 1e-5  # m: a simulated start pose further than this from the drop height is re-placed


def exact_lift_correction(asset: "AssetModel", spec: "SceneSpec") -> float:
    """The lift to add (m) so the first population's exact bottom sits at the drop height."""
    if spec.place_bottom_at is None:  # no drop: nothing to lift
        return 0.0
    authored = asset.authored_bounds()
    bodies = [b.path for b in asset.bodies.values() if b.enabled]
    exact = ColliderBounds(asset, bodies)
    if authored is None or exact.empty:
        return 0.0
    pos = np.array([asset.bodies[p].world_pose.pos for p in bodies], np.float64)
    rot = quats_to_matrices(np.array([asset.bodies[p].world_pose.quat for p in bodies], np.float64))
    return float(authored[0][2] - exact.bounds(pos, rot)[0][2])


def placement_miss(spec: "SceneSpec", bottom: float) -> float:
    """How far (m) the built bottom of the bounds misses the drop height (0 when within PLACEMENT_TOLERANCE)."""
    if spec.place_bottom_at is None:
        return 0.0
    miss = float(spec.place_bottom_at) - float(bottom)
    return miss if abs(miss) > PLACEMENT_TOLERANCE else 0.0


def missed_bodies(asset: "AssetModel", poses: dict, lift: float) -> list[str]:
    """The bodies whose built start is not their authored pose raised by `lift` (m) (1 mm tolerance)."""
    out = []
    for path, (pos, _quat) in poses.items():
        body = asset.bodies.get(path)
        if body is not None and abs(float(pos[2]) - float(body.world_pose.pos[2]) - lift) > 1e-3:
            out.append(path)
    return out


def miss_note(missed: list[str], miss: float) -> str:
    """The warning on a re-placed start pose: which bodies PhysX started elsewhere than the lift put them."""
    who = (f"{listed([p.rsplit('/', 1)[-1] for p in missed], 4)} started elsewhere than their authored pose plus the lift"
           if missed else "the joint state re-posed the links at attach")
    return f"placement: the simulated start pose differs from the authored one ({who}); lift corrected by {miss:+.4f} m"
