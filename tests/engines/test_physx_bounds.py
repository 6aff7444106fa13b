"""physx bounds from the asset's collider geometry (engines/physx/bounds.py): only each body's hull vertices are posed,
which gives the same box for any pose, and the outer box holds the exact one."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from omni.simready.physics_validator.core.geometry import quats_to_matrices
from omni.simready.physics_validator.core.usd import read_asset
from omni.simready.physics_validator.engines.physx.bounds import ColliderBounds

KUKA = Path(__file__).resolve().parents[2].parent / "shared" / "assets" / "pb_kuka_iiwa" / "lbr_iiwa.usda"


def _random_poses(count: int, rng) -> tuple[np.ndarray, np.ndarray]:
    quats = rng.normal(size=(count, 4))
    quats /= np.linalg.norm(quats, axis=1, keepdims=True)
    return rng.normal(size=(count, 3)), quats_to_matrices(quats)


@pytest.mark.skipif(not KUKA.exists(), reason="the KUKA iiwa of /work/shared/assets is not here")
def test_hull_vertices_give_the_same_box_as_every_mesh_point_and_the_outer_box_holds_it(monkeypatch):
    asset = read_asset(KUKA)
    bodies = [b.path for b in asset.bodies.values()]
    reduced = ColliderBounds(asset, bodies)
    monkeypatch.setattr(ColliderBounds, "_keep_hull_vertices", lambda self: None)
    every_point = ColliderBounds(asset, bodies)
    assert len(reduced.points) < 0.5 * len(every_point.points)  # 7551 mesh points -> 2664 hull vertices
    rng = np.random.default_rng(7)
    for _ in range(20):
        pos, rot = _random_poses(len(bodies), rng)
        lo, hi = reduced.bounds(pos, rot)
        np.testing.assert_allclose(lo, every_point.bounds(pos, rot)[0], atol=1e-12)
        np.testing.assert_allclose(hi, every_point.bounds(pos, rot)[1], atol=1e-12)
        outer_lo, outer_hi = reduced.outer_bounds(pos)
        assert np.all(outer_lo <= lo + 1e-12) and np.all(outer_hi >= hi - 1e-12)
