"""Engine conformance fixtures: every test runs on each headless engine that can be imported here."""

from __future__ import annotations

import numpy as np
import pytest

from omni.simready.physics_validator.core.scene import GroundSpec, SceneSpec
from omni.simready.physics_validator.engines import HEADLESS_ENGINES, EngineUnavailable, create_engine

try:
    from omni.simready.physics_validator.core.usd import read_asset
except ImportError:  # pragma: no cover - the reader is part of the product
    read_asset = None


@pytest.fixture(params=HEADLESS_ENGINES)
def engine(request):
    try:
        eng = create_engine(request.param)
    except EngineUnavailable as exc:
        pytest.skip(str(exc))
    yield eng
    eng.close()


@pytest.fixture
def load(engine):
    """load(usd_path, **scene_fields) -> (engine, asset model): read the USD and build it in the engine."""
    if read_asset is None:
        pytest.skip("core.usd.read_asset not available")

    def _load(path, ground=True, **scene_fields):
        asset = read_asset(path)
        scene = SceneSpec(ground=GroundSpec() if ground else None, **scene_fields)
        engine.load(asset, scene)
        return engine, asset

    return _load


def run(engine, seconds: float, each_step=None) -> None:
    for _ in range(int(round(seconds / engine.dt))):
        if each_step is not None:
            each_step()
        engine.step()


def min_z(engine) -> float:
    return float(engine.bounds()[0][2])


def body_position(engine, path: str) -> np.ndarray:
    return engine.body_poses()[path][0]
