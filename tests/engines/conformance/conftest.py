"""Engine conformance fixtures: every test runs on each headless engine that can be imported here."""

from __future__ import annotations

import pytest

from omni.simready.physics_validator.core.scene import GroundSpec, SceneSpec
from omni.simready.physics_validator.engines import HEADLESS_ENGINES, EngineUnavailable, create_engine

from omni.simready.physics_validator.core.usd import read_asset


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
    def _load(path, ground=True, **scene_fields):
        asset = read_asset(path)
        scene = SceneSpec(ground=GroundSpec() if ground else None, **scene_fields)
        engine.load(asset, scene)
        return engine, asset

    return _load
