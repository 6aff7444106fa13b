"""The Kit engine's runtime readback (omni.physics.tensors getters) over the Kit test double: the same values and
flags as the physx engine's tensor bindings on the same asset, since both read one Omni PhysX runtime."""

from __future__ import annotations

import pytest
from pxr import Sdf

from tests.fixtures import fake_kit
from tests.fixtures.arms import build_arm
from tests.fixtures.driven_arms import edit_usd
from omni.simready.physics_validator.core.readback import compare
from omni.simready.physics_validator.core.scene import SceneSpec
from omni.simready.physics_validator.core.usd import read_asset
from omni.simready.physics_validator.engines.physx import OvPhysxEngine


@pytest.fixture
def kit():
    why = fake_kit.unavailable()
    if why:
        pytest.skip(why)
    kit = fake_kit.install()
    yield kit
    fake_kit.uninstall()


def _entries(engine, asset):
    engine.load(asset, SceneSpec(pin_base=True))
    try:
        engine.step()
        return {(e.joint or e.body, e.property): e for e in compare(asset, engine.runtime_values())}
    finally:
        engine.close()


def test_kit_reads_back_what_the_physx_engine_reads(kit, tmp_path):
    def friction(stage):
        stage.GetPrimAtPath("/Robot/joints/joint2").CreateAttribute("newton:friction", Sdf.ValueTypeNames.Float).Set(1.0)

    path = edit_usd(build_arm(tmp_path / "arm.usda", joints=2, passive=(2,), velocity_attr="physxJoint:maxJointVelocity"),
                    friction)
    asset = read_asset(path)
    on_kit = _entries(fake_kit.KitOnOpenStage(), asset)
    on_physx = _entries(OvPhysxEngine(target="isaacsim-5"), asset)
    joints = {k: e for k, e in on_kit.items() if k[0].startswith("/Robot/joints")}
    assert joints and set(joints) <= set(on_physx)
    for key, entry in joints.items():
        assert (entry.flag, entry.runtime) == (on_physx[key].flag, pytest.approx(on_physx[key].runtime, rel=1e-5)), key
    assert on_kit[("/Robot/joints/joint2", "static_friction")].flag == "from_other_attribute"
    assert on_kit[("/Robot/joints/joint2", "stiffness")].flag == "defaulted"
    assert on_kit[("/Robot/joints/joint1", "max_velocity")].flag is None  # omni.physx 107 parses the legacy cap
    assert on_kit[("/Robot/link1", "mass")].runtime == pytest.approx(0.5) and on_kit[("/Robot/link1", "mass")].flag is None
    assert not kit.log.errors, kit.log.errors


def test_the_panel_reads_back_the_open_stage_during_a_live_run(kit, tmp_path):
    """Live mode: the views are gone when the test ends; the engine read them when it created them, and the panel
    shows the table without a single Kit error."""
    from omni.simready.physics_validator.live.runner import KitLiveRunner
    from omni.simready.physics_validator.ui.view_model import PanelState, ValidatorViewModel
    from tests.fixtures.kit import make_box

    path = make_box(tmp_path / "box.usda")
    kit.usd.open_stage(str(path))
    vm = ValidatorViewModel(runner=KitLiveRunner())
    vm.set_stage(str(path), str(kit.usd.get_stage().GetDefaultPrim().GetPath()), [])
    for option in vm.tests:
        vm.set_test_enabled(option.name, option.name == "ground_drop")
    vm.config.run.video = False
    vm.validate()
    kit.frames_until(lambda: vm.state == PanelState.DONE, limit=20_000)
    view = vm.readback_view()
    assert view is not None and not view["error"] and view["engine"] == "kit"
    mass = next(r for r in view["bodies"] if r["property"] == "mass")
    assert mass["name"] == "Box" and mass["runtime"].endswith("kg")
    assert not kit.log.errors, kit.log.errors
