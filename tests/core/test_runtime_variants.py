"""Physics-runtime variant sets: each engine's runtime variant is selected at read time, in memory, and the engine
simulates that composition; the result names the selection; the file is never written."""

from __future__ import annotations

import hashlib

import pytest

from omni.simready.physics_validator.core.session import TestSession
from omni.simready.physics_validator.core.status import Status
from omni.simready.physics_validator.core.usd import read_asset
from omni.simready.physics_validator.engines import create_engine, engine_class
from omni.simready.physics_validator.physics_tests import default_registry
from tests.fixtures.runs import require_engine
from tests.fixtures.suite_assets import variant_box


def digest(path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def test_simready_runtime_sets_select_enabled_for_the_runtime(tmp_path):
    path = variant_box(tmp_path / "box.usda")
    assert read_asset(path).bodies == {}  # every runtime Disabled: the neutral asset has no rigid body
    physx = read_asset(path, "PhysX")
    assert physx.bodies["/Asset/Body"].mass == 1.0
    assert [str(c) for c in physx.runtime_variants] == ["/Asset {PhysX = Enabled} (authored: Disabled)",
                                                        "/Asset {Newton = Disabled}"]
    assert read_asset(path, "Newton").bodies["/Asset/Body"].mass == 2.0


def test_kit_physics_set_selects_the_variant_naming_the_simulator(tmp_path):
    path = variant_box(tmp_path / "kit.usda", convention="kit")
    assert read_asset(path).bodies["/Asset/Body"].mass == 2.0  # authored: newton_variant
    model = read_asset(path, "PhysX")
    assert model.bodies["/Asset/Body"].mass == 1.0
    assert [str(c) for c in model.runtime_variants] == ["/Asset {Physics = physx_variant} (authored: newton_variant)"]


@pytest.mark.parametrize("engine", ["physx", "newton"])
def test_the_engine_simulates_the_selected_variant_and_says_which(tmp_path, engine):
    require_engine(engine)
    path = variant_box(tmp_path / f"box_{engine}.usda")
    before = digest(path)
    test_cls = default_registry().get("ground_drop")
    runtime = engine_class(engine).CAPABILITIES.physics_runtime
    simulator = create_engine(engine)
    result = TestSession(test_cls(), read_asset(path, runtime), test_cls.Config(), simulator).run_to_end()
    assert result.status is Status.PASS, result.reason  # the body exists only in the selected variant
    assert any(f"{runtime} = Enabled" in text for text in result.physics_variants)
    assert digest(path) == before


def test_physx_reads_the_kit_variant_mass(tmp_path):
    require_engine("physx")
    path = variant_box(tmp_path / "kit_mass.usda", convention="kit")
    engine = create_engine("physx")
    from omni.simready.physics_validator.core.scene import SceneSpec

    engine.load(read_asset(path, "PhysX"), SceneSpec())
    try:
        assert engine.body_masses()["/Asset/Body"] == pytest.approx(1.0)  # physx_variant, not the authored newton one
    finally:
        engine.close()
