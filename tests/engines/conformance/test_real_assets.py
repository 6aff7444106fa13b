"""Smoke test: real third-party objects load in every headless engine and fall onto the ground."""

from __future__ import annotations

import numpy as np
import pytest

from tests.fixtures.usd_assets import SHARED_ASSETS

from .stepping import min_z, run

OBJECTS = ["pb_mug", "pb_duck_vhacd", "pb_lego", "pb_jenga", "pb_soccerball"]


@pytest.mark.parametrize("name", OBJECTS)
def test_real_object_falls_onto_ground(load, name):
    path = SHARED_ASSETS / name / "floating_base.usda"
    if not path.is_file():
        pytest.skip(f"{path} missing")
    engine, asset = load(path, place_bottom_at=0.2)
    assert min_z(engine) == pytest.approx(0.2, abs=1e-4)
    run(engine, 1.5)
    lo, hi = engine.bounds()
    assert np.all(np.isfinite(lo)) and np.all(np.isfinite(hi))
    assert -0.005 < lo[2] < 0.01  # on the ground, not through it
