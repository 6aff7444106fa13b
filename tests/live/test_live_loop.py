"""The live runner (live.runner.KitLiveRunner driving live.loop.LiveLoop) over the Kit test double: real
physics (ovphysx), timeline changes applied a frame later, PhysX resetting into the edit target on STOP,
SimulationEvent.STOPPED, Isaac Sim's warm-up steps, stage events, the persistent GPU override.

The panel's view-model is the sink, so these are the panel's runs minus omni.ui. Each test drives app frames
with `omni.kit.app.get_app().update()` as Kit's main loop would.
"""

from __future__ import annotations

import pytest

from omni.simready.physics_validator.core.status import Status
from omni.simready.physics_validator.live.loop import (
    SHUTDOWN_REASON,
    STAGE_CLOSED_REASON,
    STOPPED_REASON,
    TIMELINE_STOPPED_REASON,
    Phase,
)
from omni.simready.physics_validator.ui.view_model import PanelState, ValidatorViewModel
from tests.fixtures import fake_kit
from tests.fixtures.kit import make_arm, make_box

MODES = {"kit": {}, "isaac-sim": {"isaac_mode": True}, "update-first": {"update_first": True}}


@pytest.fixture
def kit(request):
    why = fake_kit.unavailable()
    if why:
        pytest.skip(why)
    kit = fake_kit.install(**getattr(request, "param", {}))
    yield kit
    fake_kit.uninstall()


class Clock:
    """A wall clock the test moves: one second per app frame unless told otherwise."""

    def __init__(self):
        self.now = 0.0

    def __call__(self) -> float:
        return self.now


def _panel(kit, path, tests, clock=None, watchdog=120.0):
    from omni.simready.physics_validator.live.runner import KitLiveRunner

    kit.usd.open_stage(str(path))
    runner = KitLiveRunner() if clock is None else KitLiveRunner(clock=clock)
    vm = ValidatorViewModel(runner=runner)
    default = kit.usd.get_stage().GetDefaultPrim()
    vm.set_stage(str(path), str(default.GetPath()), [])
    for option in vm.tests:
        vm.set_test_enabled(option.name, option.name in tests)
    vm.config.run.video = False
    vm.config.run.watchdog_seconds = watchdog
    return vm, runner


class Sink:
    """The runner's sink outside the panel: every call recorded (the view-model keeps one result per test)."""

    def __init__(self):
        self.results, self.errors, self.finished = [], [], None

    def on_result(self, result):
        self.results.append(result)

    def on_error(self, message):
        self.errors.append(message)

    def on_finished(self, complete=True):
        self.finished = complete

    def __getattr__(self, name):  # on_test_started, on_progress, on_frame
        return lambda *args, **kwargs: None


def _start(kit, runner, path, tests, watchdog=120.0):
    """A run of `tests` (repeats allowed) on the open stage, straight through the runner."""
    from omni.simready.physics_validator.core.config import ValidationConfig
    from omni.simready.physics_validator.physics_tests import default_registry
    from omni.simready.physics_validator.ui.view_model import RunRequest

    sink = Sink()
    request = RunRequest(str(path), None, list(tests), ValidationConfig.defaults(default_registry()), video=False,
                         watchdog_seconds=watchdog)
    runner.start(request, sink)
    return sink


def _until_done(kit, vm, limit=20_000):
    kit.frames_until(lambda: vm.state == PanelState.DONE, limit)
    kit.app.update()  # the restored time / selection / play are queued: applied by the next frame


def _snapshot(stage):
    root = stage.GetRootLayer()
    return root.ExportToString(), root.dirty, list(stage.GetSessionLayer().subLayerPaths)


def _no_subscriptions_left(kit):
    streams = (kit.dispatcher, kit.timeline.stream, kit.usd.stream, kit.sim.events, kit.sim.pre_step, kit.sim.post_step)
    return all(not s.alive() for s in streams)


@pytest.mark.parametrize("kit", list(MODES.values()), ids=list(MODES), indirect=True)
def test_a_run_leaves_the_users_stage_timeline_selection_and_gpu_setting_as_they_were(kit, tmp_path):
    vm, _runner = _panel(kit, make_box(tmp_path / "box.usda"), ["ground_drop", "velocity_limit"])
    stage = kit.usd.get_stage()
    timeline = kit.timeline
    timeline.set_current_time(0.5)
    kit.usd.get_selection().set_selected_prim_paths(["/Box/Collider"], True)
    kit.physx.overwrite_gpu_setting(1)  # the user forces GPU dynamics (persistent setting)
    kit.app.update()
    before = _snapshot(stage)

    vm.validate()
    assert timeline.is_stopped() and vm.state == PanelState.RUNNING  # play() is queued, not applied
    _until_done(kit, vm)

    assert {r.name: r.status for r in vm.results} == {"ground_drop": Status.PASS, "velocity_limit": Status.NOT_APPLICABLE}
    ground_drop = vm.result("ground_drop")
    assert 2.0 < ground_drop.simulated_seconds < 10.0
    assert _snapshot(stage) == before  # root layer text, its dirty flag, the session sublayers
    assert stage.GetEditTarget().GetLayer() == stage.GetRootLayer()
    assert timeline.is_stopped() and timeline.get_current_time() == pytest.approx(0.5)
    assert kit.usd.get_selection().get_selected_prim_paths() == ["/Box/Collider"]
    assert kit.physx.get_overwrite_gpu_setting() == 1 and kit.physx.simulation_layer is None
    assert _no_subscriptions_left(kit)
    assert not kit.log.errors, kit.log.errors
    assert vm.progress_text.startswith("done")


@pytest.mark.parametrize("kit", [MODES["kit"], MODES["isaac-sim"]], ids=["kit", "isaac-sim"], indirect=True)
def test_warm_up_steps_are_not_test_steps(kit, tmp_path):
    """Live in Kit, live in Isaac Sim (two SimulationManager warm-ups on PLAY) and manual stepping give the
    same simulated time and metrics: steps before the test is armed are not counted, and the warm-up the
    tensor views need is undone."""
    from omni.simready.physics_validator.core.session import TestSession
    from omni.simready.physics_validator.core.usd import read_asset
    from omni.simready.physics_validator.physics_tests.ground.ground_drop import GroundDropTest

    path = make_box(tmp_path / "box.usda")
    vm, _runner = _panel(kit, path, ["ground_drop"])
    steps_before_arming = []
    vm.validate()
    loop = _runner._loop
    kit.frames_until(lambda: loop.phase == Phase.RUNNING)
    steps_before_arming.append(loop.steps_seen)
    _until_done(kit, vm)
    live = vm.result("ground_drop")

    test = GroundDropTest()
    engine = fake_kit.KitOnOpenStage()
    session = TestSession(test, read_asset(path), test.Config(), engine)
    session.ctx.watched = True  # as the live viewport is: ground_drop's tail after the verdict is simulated for it
    manual = session.run_to_end()
    engine.close()
    assert steps_before_arming[0] >= (2 if kit.isaac_mode else 1)
    assert live.status == manual.status == Status.PASS
    assert live.simulated_seconds == pytest.approx(manual.simulated_seconds, abs=1e-9)
    for key in ("touch_time", "initial_z_min", "max_penetration"):
        assert live.metrics[key] == pytest.approx(manual.metrics[key], abs=1e-6), key


def test_the_users_play_state_is_recorded_once_per_run(kit, tmp_path):
    from omni.simready.physics_validator.live.runner import KitLiveRunner

    path = make_box(tmp_path / "box.usda")
    kit.usd.open_stage(str(path))
    runner = KitLiveRunner()
    stage = kit.usd.get_stage()
    before = _snapshot(stage)
    captured = []
    original = runner.capture_user_state
    runner.capture_user_state = lambda: captured.append(original()) or captured[-1]
    events = []
    sub = kit.timeline.get_timeline_event_stream().create_subscription_to_pop(lambda e: events.append(e.type))  # noqa: F841
    kit.timeline.play()
    for _ in range(10):  # the user's own simulation runs (and writes into their edit target)
        kit.app.update()
    sink = _start(kit, runner, path, ["ground_drop", "ground_drop"])
    kit.frames_until(lambda: sink.finished is not None)
    kit.app.update()

    assert [r.status for r in sink.results] == [Status.PASS, Status.PASS]
    assert len(captured) == 1 and captured[0].playing
    play, stop = 0, 2  # TimelineEventType
    # the user's stop, then per test play + stop, then the user's play again
    assert [e for e in events if e in (play, stop)][-6:] == [stop, play, stop, play, stop, play]
    assert kit.timeline.is_playing()
    assert _snapshot(stage)[2] == before[2] and kit.physx.simulation_layer is None
    assert not kit.log.errors, kit.log.errors


def test_the_watchdog_ends_a_test_whose_physics_stops_stepping(kit, tmp_path):
    clock = Clock()
    vm, runner = _panel(kit, make_box(tmp_path / "box.usda"), ["ground_drop"], clock=clock, watchdog=5.0)
    vm.validate()
    loop = runner._loop
    kit.frames_until(lambda: loop.phase == Phase.RUNNING)
    for _ in range(20):
        kit.app.update()
    kit.settings.set("/app/player/playSimulations", False)  # stepping stops; no callback says so
    for _ in range(200):
        if vm.state == PanelState.DONE:
            break
        clock.now += 1.0
        kit.app.update()
    kit.app.update()
    result = vm.result("ground_drop")
    assert result.status == Status.ERROR and result.reason.startswith("hang: no physics step for"), result.reason
    assert kit.timeline.is_stopped() and kit.physx.simulation_layer is None
    assert not kit.usd.get_stage().GetSessionLayer().subLayerPaths
    assert _no_subscriptions_left(kit) and not kit.log.errors


def test_the_watchdog_ends_a_test_that_never_steps_after_play(kit, tmp_path):
    clock = Clock()
    vm, _runner = _panel(kit, make_box(tmp_path / "box.usda"), ["ground_drop"], clock=clock, watchdog=5.0)
    kit.settings.set("/app/player/playSimulations", False)  # e.g. no stage-update connector stepping
    vm.validate()
    for _ in range(50):
        if vm.state == PanelState.DONE:
            break
        clock.now += 1.0
        kit.app.update()
    result = vm.result("ground_drop")
    assert result.status == Status.ERROR and "no physics step in" in result.reason and "after play" in result.reason


def test_a_pause_freezes_the_watchdog(kit, tmp_path):
    clock = Clock()
    vm, runner = _panel(kit, make_box(tmp_path / "box.usda"), ["ground_drop"], clock=clock, watchdog=5.0)
    vm.validate()
    loop = runner._loop
    kit.frames_until(lambda: loop.phase == Phase.RUNNING)
    kit.timeline.pause()
    for _ in range(30):  # 30 s paused, watchdog 5 s
        clock.now += 1.0
        kit.app.update()
    assert vm.state == PanelState.RUNNING
    kit.timeline.play()
    _until_done(kit, vm)
    assert vm.result("ground_drop").status == Status.PASS


def test_a_timeline_stop_outside_the_validator_ends_the_test_and_never_dirties_the_users_layer(kit, tmp_path):
    from omni.simready.physics_validator.live.runner import KitLiveRunner

    path = make_box(tmp_path / "box.usda")
    kit.usd.open_stage(str(path))
    runner = KitLiveRunner()
    stage = kit.usd.get_stage()
    before = _snapshot(stage)
    sink = _start(kit, runner, path, ["ground_drop", "ground_drop"])
    loop = runner._loop
    kit.frames_until(lambda: loop.phase == Phase.RUNNING)
    for _ in range(10):
        kit.app.update()
    kit.timeline.stop()  # the toolbar's Stop, say
    kit.frames_until(lambda: sink.finished is not None)
    first, second = sink.results
    assert first.status == Status.ERROR and first.reason == TIMELINE_STOPPED_REASON
    assert second.status == Status.PASS  # the run goes on with the next test
    assert _snapshot(stage) == before  # PhysX's reset went into the held sublayer, not the root layer
    assert stage.GetEditTarget().GetLayer() == stage.GetRootLayer()


def runner_results(vm):
    """Every result the sink received, in order (the view-model keeps one per test name)."""
    return vm._all_results


@pytest.fixture(autouse=True)
def _record_all_results(monkeypatch):
    original = ValidatorViewModel.on_result

    def on_result(self, result):
        self.__dict__.setdefault("_all_results", []).append(result)
        original(self, result)

    monkeypatch.setattr(ValidatorViewModel, "on_result", on_result)


def test_closing_the_stage_ends_the_run_and_puts_process_wide_settings_back(kit, tmp_path):
    vm, runner = _panel(kit, make_box(tmp_path / "box.usda"), ["ground_drop", "velocity_limit"])
    vm.validate()
    loop = runner._loop
    kit.frames_until(lambda: loop.phase == Phase.RUNNING)
    kit.app.update()
    kit.usd.close_stage()
    assert vm.state == PanelState.DONE and not vm.complete
    (result,) = runner_results(vm)
    assert result.status == Status.ERROR and result.reason == STAGE_CLOSED_REASON
    assert kit.physx.simulation_layer is None and kit.physx.get_overwrite_gpu_setting() == -1
    assert _no_subscriptions_left(kit) and not kit.log.errors, kit.log.errors
    for _ in range(3):
        kit.app.update()  # nothing left to call back


def test_shutdown_mid_test_tears_everything_down_and_keeps_the_users_layers_clean(kit, tmp_path):
    vm, runner = _panel(kit, make_box(tmp_path / "box.usda"), ["ground_drop"])
    stage = kit.usd.get_stage()
    before = _snapshot(stage)
    vm.validate()
    loop = runner._loop
    kit.frames_until(lambda: loop.phase == Phase.RUNNING)
    kit.app.update()
    runner.shutdown()  # the extension's on_shutdown: no frame comes after it for us
    assert loop.done and not runner.running and _no_subscriptions_left(kit)
    assert kit.timeline.is_stopped()  # stop() + commit(): applied at once
    assert loop.session is None and runner_results(vm)[0].reason == SHUTDOWN_REASON
    # no frame may follow: PhysX is reset in the call (reset_simulation, into the held sublayer), so the sublayer
    # goes, the edit target is the user's again and the user's GPU override is put back (PhysX ignores it while
    # its simulation counts as started: the kit tier found it left at CPU before)
    assert not any("stays in the session layer" in w for w in kit.log.warnings)
    assert not any("Not possible to set the GPU" in w for w in kit.log.warnings), kit.log.warnings
    assert _snapshot(stage) == before and stage.GetEditTarget().GetLayer() == stage.GetRootLayer()
    assert kit.physx.get_overwrite_gpu_setting() == -1 and kit.physx.simulation_layer is None
    kit.app.update()
    assert _snapshot(stage) == before and not kit.log.errors


def test_shutdown_before_physics_started_removes_everything(kit, tmp_path):
    vm, runner = _panel(kit, make_box(tmp_path / "box.usda"), ["ground_drop"])
    stage = kit.usd.get_stage()
    before = _snapshot(stage)
    vm.validate()  # play() queued, nothing applied yet
    runner.shutdown()
    assert _snapshot(stage) == before and stage.GetEditTarget().GetLayer() == stage.GetRootLayer()
    assert _no_subscriptions_left(kit) and kit.physx.get_overwrite_gpu_setting() == -1


def test_stop_ends_the_running_test_as_stopped_and_starts_no_other(kit, tmp_path):
    vm, runner = _panel(kit, make_box(tmp_path / "box.usda"), ["ground_drop", "velocity_limit"])
    vm.validate()
    loop = runner._loop
    kit.frames_until(lambda: loop.phase == Phase.RUNNING)
    for _ in range(5):
        kit.app.update()
    vm.stop()
    _until_done(kit, vm)
    (result,) = runner_results(vm)
    assert result.status == Status.ERROR and result.reason == STOPPED_REASON
    assert not vm.complete and vm.progress_text.startswith("stopped")
    assert not kit.usd.get_stage().GetSessionLayer().subLayerPaths and _no_subscriptions_left(kit)


def test_a_joint_rerun_narrows_the_test_to_that_joint(kit, tmp_path):
    vm, runner = _panel(kit, make_arm(tmp_path / "arm.usda"), ["velocity_limit"])
    vm.rerun_joint("velocity_limit", "/Arm/joint2")
    assert runner._loop.session.config.joints == ["/Arm/joint2"]
    _until_done(kit, vm)
    (result,) = runner_results(vm)
    assert [r.joint for r in result.joints] == ["joint2"] and result.joints[0].status in (Status.PASS, Status.FAIL)
    assert not kit.log.errors, kit.log.errors


def test_a_verdict_other_than_pass_is_logged_with_carb_log_warn_never_log_error(kit, tmp_path):
    from tests.fixtures.usd_assets import box_asset

    path = box_asset(tmp_path / "kinematic.usda", kinematic=True)
    vm, _runner = _panel(kit, path, ["ground_drop"])
    vm.validate()
    _until_done(kit, vm)
    assert vm.result("ground_drop").status == Status.FAIL
    assert any(w.startswith("physics validator: ground_drop FAIL: ") for w in kit.log.warnings), kit.log.warnings
    assert not kit.log.errors


def test_a_second_start_while_running_is_refused(kit, tmp_path):
    vm, runner = _panel(kit, make_box(tmp_path / "box.usda"), ["ground_drop"])
    vm.validate()

    class Sink:
        errors = []

        def on_error(self, message):
            self.errors.append(message)

    sink = Sink()
    runner.start(vm.last_request, sink)
    assert sink.errors == ["a validation is already running"]
    runner.shutdown()


@pytest.mark.parametrize("kit", [MODES["kit"], MODES["isaac-sim"]], ids=["kit", "isaac-sim"], indirect=True)
def test_an_arm_is_armed_at_its_parsed_pose_however_many_steps_came_before(kit, tmp_path):
    """Several physics steps (a 60 Hz frame is four 240 Hz steps; Isaac Sim adds two warm-ups) pass before the
    test is armed; the engine puts the arm back where PhysX parsed it: joints at 0, at rest."""
    import numpy as np

    vm, runner = _panel(kit, make_arm(tmp_path / "arm.usda"), ["velocity_limit"])
    vm.validate()
    loop = runner._loop
    kit.frames_until(lambda: loop.phase == Phase.RUNNING)
    assert loop.steps_seen >= 4
    engine = loop.session.engine
    np.testing.assert_allclose(engine.joint_positions(), 0.0, atol=1e-5)
    np.testing.assert_allclose(engine.joint_velocities(), 0.0, atol=1e-6)
    assert engine.time == 0.0
    runner.shutdown()


def test_a_closing_stage_that_never_reports_closed_ends_the_run_after_the_watchdog(kit, tmp_path):
    clock = Clock()
    vm, runner = _panel(kit, make_box(tmp_path / "box.usda"), ["ground_drop"], clock=clock, watchdog=5.0)
    vm.validate()
    loop = runner._loop
    kit.frames_until(lambda: loop.phase == Phase.RUNNING)
    kit.usd.stage_event(kit_module().StageEventType.CLOSING)  # and no CLOSED after it
    assert loop.phase == Phase.CLOSING and vm.state == PanelState.RUNNING
    for _ in range(10):
        clock.now += 1.0
        kit.app.update()
    assert vm.state == PanelState.DONE and not vm.complete and _no_subscriptions_left(kit)
    assert vm.result("ground_drop").reason == STAGE_CLOSED_REASON


def kit_module():
    from tests.fixtures.fake_kit import kit as module

    return module
