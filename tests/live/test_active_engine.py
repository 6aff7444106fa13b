"""The panel in Isaac Sim 6 when Play steps Newton: which engine judged the verdicts on show, which one the scene runs,
and what to do, read from omni.physics' engine-neutral registry (on the Kit test double: PhysX registered and active,
Newton registered and switched to as isaacsim.physics.newton does at start-up with `auto_switch_on_startup` true).

The panel is the real one: the omni.ui window (over the omni.ui double, which refuses keywords omni.ui 110.4 does not
read), the view-model and the Kit live runner, driven by app frames of the double.
"""

from __future__ import annotations

import sys

import pytest

from omni.simready.physics_validator.ui.view_model import PanelState, ValidatorViewModel
from tests.fixtures import fake_kit
from tests.fixtures.kit import make_box

OMNI_UI = fake_kit.EXTS / "omni.ui"
WINDOW = "Physics Validator (engine line)"


@pytest.fixture
def kit():
    why = fake_kit.unavailable()
    if why:
        pytest.skip(why)
    kit = fake_kit.install()
    sys.path.insert(0, str(OMNI_UI))
    yield kit
    sys.path.remove(str(OMNI_UI))
    for name in [n for n in sys.modules if n == "omni.ui" or n.startswith("omni.ui.")]:
        del sys.modules[name]
    fake_kit.uninstall()


def _panel(kit, path):
    import omni.ui as ui

    from omni.simready.physics_validator.live.runner import KitLiveRunner
    from omni.simready.physics_validator.ui.window import ValidatorWindow

    kit.usd.open_stage(str(path))
    runner = KitLiveRunner()
    vm = ValidatorViewModel(runner=runner)
    vm.set_stage(str(path), str(kit.usd.get_stage().GetDefaultPrim().GetPath()), [])
    for option in vm.tests:
        vm.set_test_enabled(option.name, option.name == "ground_drop")
    vm.config.run.video = False
    window = ValidatorWindow(WINDOW, vm, active_engine=runner.active_engine)
    window.visible = True
    ui.draw()
    return vm, window


def _label(window, identifier: str) -> str:
    import omni.ui as ui

    ui.draw()
    (label,) = [w for w in window.frame.walk() if getattr(w, "identifier", "") == identifier]
    return label.text


def _validate(kit, vm):
    vm.validate()
    kit.frames_until(lambda: vm.state == PanelState.DONE, 20_000)


def test_under_newton_the_panel_says_physx_judged_and_refuses_a_live_run_with_the_commands(kit, tmp_path):
    box = make_box(tmp_path / "box.usda")
    vm, window = _panel(kit, box)
    _validate(kit, vm)  # PhysX is the active engine: the live run judges
    assert vm.result("ground_drop").status.value == "PASS"
    line = _label(window, "physics_validator_engine")
    assert line.startswith("Verdicts judged by PhysX (omni.physx). Isaac Sim runs PhysX too"), line

    kit.physics_registry.register_newton()  # isaacsim.physics.newton starting with auto_switch_on_startup = true
    kit.app.update()  # the line is read again every frame
    line = _label(window, "physics_validator_engine")  # the verdicts on show are the PhysX run's
    assert line.startswith("Verdicts judged by PhysX (omni.physx). Your scene runs Newton, not PhysX (omni.physics: "
                           "active simulation Newton): the verdicts here are PhysX's, not Newton's."), line
    assert f"simready-physics validate {box} --engine newton" in line

    frames = kit.frames
    vm.validate()
    assert vm.state == PanelState.DONE and not vm.complete and kit.frames == frames  # refused at once, nothing run
    assert not kit.dispatcher.alive() or all("physics_validator.runner" != s.name for s in kit.dispatcher.alive())
    message = vm.message
    assert message.startswith("Not validated: Isaac Sim is running Newton, not PhysX (omni.physics: active simulation "
                              "Newton)"), message
    assert f"simready-physics validate {box} --engine newton" in message
    assert f"simready-physics validate {box} --engine physx" in message
    assert "--/exts/isaacsim.physics.newton/auto_switch_on_startup=false" in message
    assert kit.log.warnings and kit.log.warnings[-1] == f"physics validator: {message}"
    line = _label(window, "physics_validator_engine")  # a new run clears the verdicts: none on show
    assert line.startswith("Verdicts are judged by PhysX (omni.physx). Your scene runs Newton, not PhysX"), line
    window.destroy()


def test_negative_control_newton_registered_but_not_switched_to_leaves_physx_judging(kit, tmp_path):
    vm, window = _panel(kit, make_box(tmp_path / "box.usda"))
    kit.physics_registry.register_newton(active=False)  # auto_switch_on_startup = false
    _validate(kit, vm)
    assert vm.complete and vm.result("ground_drop").status.value == "PASS"
    assert "Isaac Sim runs PhysX too" in _label(window, "physics_validator_engine")
    window.destroy()


def test_negative_control_a_run_started_under_newton_would_never_step(kit, tmp_path, monkeypatch):
    """Why the panel refuses: with Newton active, the double's PhysX stage update is detached, as a deactivated
    engine's is (SimulationManager.switch_physics_engine), so a live run only ends by its watchdog."""
    from omni.simready.physics_validator.live import runner as runner_module

    vm, window = _panel(kit, make_box(tmp_path / "box.usda"))
    kit.physics_registry.register_newton()
    monkeypatch.setattr(runner_module, "why_not_live", lambda *_args: None)  # the check taken away
    vm.config.run.watchdog_seconds = 0.5
    vm.validate()  # the watchdog is a wall clock: frames until it fires, however fast the double's frames run
    kit.frames_until(lambda: vm.state == PanelState.DONE, 2_000_000)
    result = vm.result("ground_drop")
    assert result.status.value == "ERROR" and "no physics step" in result.reason, result.reason
    window.destroy()
