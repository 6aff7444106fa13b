"""Engine conformance fixtures: every test runs on each headless engine that can be imported here, and on
the Kit engine over the Kit test double (tests/fixtures/fake_kit: omni.physx / omni.physics.tensors /
omni.timeline / omni.usd as Kit 107.3 presents them, backed by ovphysx)."""

from __future__ import annotations

import pytest

from omni.simready.physics_validator.core.scene import GroundSpec, SceneSpec
from omni.simready.physics_validator.engines import HEADLESS_ENGINES, EngineUnavailable, create_engine

from omni.simready.physics_validator.core.usd import read_asset


KIT_OVER_DOUBLE = "kit-double"


@pytest.fixture(params=[*HEADLESS_ENGINES, KIT_OVER_DOUBLE])
def engine(request):
    if request.param == KIT_OVER_DOUBLE:
        yield from _kit_over_double()
        return
    try:
        eng = create_engine(request.param)
    except EngineUnavailable as exc:
        pytest.skip(str(exc))
    yield eng
    eng.close()


def _kit_over_double():
    """The Kit engine (manual mode: attach_stage + simulate / fetch_results) on the asset opened in the
    double's USD context; an [Error] line fails the test as omni.kit.test's log gate would."""
    from tests.fixtures import fake_kit

    why = fake_kit.unavailable()
    if why:
        pytest.skip(why)
    kit = fake_kit.install()
    try:
        eng = fake_kit.KitOnOpenStage()
        yield eng
        eng.close()
        assert not kit.log.errors, kit.log.errors
    finally:
        fake_kit.uninstall()


@pytest.fixture
def load(engine):
    """load(usd_path, **scene_fields) -> (engine, asset model): read the USD and build it in the engine."""
    def _load(path, ground=True, **scene_fields):
        asset = read_asset(path)
        scene = SceneSpec(ground=GroundSpec() if ground else None, **scene_fields)
        engine.load(asset, scene)
        return engine, asset

    return _load
