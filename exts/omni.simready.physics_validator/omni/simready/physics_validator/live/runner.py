"""KitLiveRunner: the panel's runner inside Kit, on the live stage. Kit only (omni.*, imported lazily).

Implements the view-model's runner protocol (`start(request, sink)`, `cancel()`, and `shutdown()` for the
extension's on_shutdown) and the `LiveKit` side of `loop.LiveLoop`, which holds the logic (a per-frame state
machine). This module only makes the Kit calls. Target Isaac Sim 6.x (Kit 110.x), kept for 5.1 (Kit 107.3): the
omni.physx, omni.kit.app and carb calls are checked against the real Isaac Sim 6.2 wheels (tests/kit/
test_call_audit.py); omni.timeline and omni.usd ship only as PyPI stubs, so those calls follow their Python docs
and Isaac Sim 6.2's own use (isaacsim.core.simulation_manager 1.17.4 subscribes to the timeline's legacy stream with
`create_subscription_to_pop_by_type`). It runs on a real Kit 110.4 kernel's frame loop in the kit test tier
(tests/kit), over test doubles of omni.physx / omni.timeline / omni.usd backed by ovphysx (tests/fixtures/fake_kit):

- `omni.timeline.get_timeline_interface()`: `play()`, `stop()`, `set_current_time()` queued to the next frame,
  `commit()` applies them now, `is_playing()` / `is_stopped()` / `get_current_time()` the applied state
  (omni.timeline docs: FRAME_INTEGRITY, EVENTS, omni.timeline.Timeline); events on the legacy stream,
  `get_timeline_event_stream().create_subscription_to_pop_by_type(int(TimelineEventType.STOP), fn, order=, name=)`
  (isaac-sim/IsaacSim source/extensions/isaacsim.core.simulation_manager/python/impl/simulation_manager.py:80-89);
- `omni.physx.get_physx_interface()`: `subscribe_physics_on_step_events(fn, pre_step, order)` (`fn(dt)` per
  substep; the subscription lives as long as the returned object and cannot change inside a step callback),
  `get_simulation_event_stream_v2()` (SimulationEvent.RESUMED / STOPPED), `overwrite_gpu_setting` /
  `get_overwrite_gpu_setting`, `set_simulation_layer(layer: str)`, `reset_simulation()` (omni.physx 110.4.4
  bindings/_physx.pyi; NVIDIA-Omniverse/PhysX @ 107.3
  omni/extensions/runtime/source/omni.physx/bindings/BindingsPhysXPython.cpp:576-581, 734-749, 858-893);
- `carb.eventdispatcher.get_eventdispatcher().observe_event(event_name=omni.kit.app.GLOBAL_EVENT_UPDATE, ...)`
  once per app frame (IsaacSim source/extensions/isaacsim.robot_setup.gain_tuner/.../extension.py:157-162);
- stage events through Events 2.0, as Isaac Sim 6.2's own extensions observe them:
  `observe_event(event_name=omni.usd.get_context().stage_event_name(omni.usd.StageEventType.CLOSING), ...)` and
  CLOSED (isaacsim.core.simulation_manager 1.17.4 `_setup_stage_close_callback`; the same API in Isaac Sim 5.1:
  IsaacSim v5.1.0 source/extensions/isaacsim.core.simulation_manager/python/impl/simulation_manager.py:104, and
  `stage_event_name(self, event: StageEventType) -> str` in Isaac Sim 5.0's generated omni.usd stubs). Kit 110.4
  marks the legacy `get_stage_event_stream()` deprecated ("Use Events 2.0", kit/dev/include/omni/usd/UsdContext.h);
- the engine Play steps (`active_engine.read_active_engine()`, omni.physics): a run starts only when it is PhysX;
- `carb.log_warn` for a verdict other than PASS (never `log_error`: omni.kit.test fails a run on `[Error]` lines).
"""

from __future__ import annotations

import time
from typing import Any, Callable

from ..engines.kit.engine import KitPhysxEngine
from ..engines.kit.layer import CPU_ONLY, UserState
from ..ui.engine_line import ActiveEngine, why_not_live
from .active_engine import read_active_engine
from .loop import LiveLoop
from .open_stage import read_open_stage
from .viewport import ViewportRecorder

OBSERVER = "physics_validator.runner"
QUIET = {"PASS", "SKIP", "NOT_APPLICABLE"}


class KitLiveRunner:
    """Runs the panel's request on the live stage, one test after another, across app frames."""

    def __init__(self, usd_context_name: str = "", clock: Callable[[], float] = time.monotonic):
        self.usd_context_name = usd_context_name
        self.clock = clock  # the watchdog's wall clock
        self._loop: LiveLoop | None = None
        self._steps: list = []
        self._observers: list = []

    # -- the view-model's runner protocol --------------------------------------------------------------
    def start(self, request, sink) -> None:
        if self._loop is not None and not self._loop.done:
            sink.on_error("a validation is already running")
            return
        why_not = why_not_live(self.active_engine(), request.asset_path)
        if why_not is not None:  # Play would step another engine: no PhysX step would ever come
            self.warn(f"physics validator: {why_not}")
            sink.on_error(why_not)
            sink.on_finished(complete=False)
            return
        try:
            asset = read_open_stage(self.usd_context_name, request.target)
        except Exception as exc:  # noqa: BLE001 - shown in the panel, not raised into Kit
            sink.on_error(f"cannot read the open stage: {exc}")
            sink.on_finished(complete=False)
            return

        def make_engine() -> KitPhysxEngine:
            return KitPhysxEngine(mode="live", target=request.target, usd_context_name=self.usd_context_name)

        self._loop = LiveLoop(request, asset, make_engine, _LoggingSink(sink), kit=self, clock=self.clock)
        self._observe()
        self._loop.begin()

    def cancel(self) -> None:
        if self._loop is not None:
            self._loop.cancel()

    def shutdown(self) -> None:
        """From the extension's on_shutdown: tear the run down now (the next frame may never come)."""
        if self._loop is not None:
            self._loop.shutdown()
        self.finished()

    def active_engine(self) -> ActiveEngine:
        return read_active_engine()

    @property
    def running(self) -> bool:
        return self._loop is not None and not self._loop.done

    # -- LiveKit ----------------------------------------------------------------------------------------
    def _timeline(self):
        import omni.timeline

        return omni.timeline.get_timeline_interface()

    def _physx(self):
        import omni.physx

        return omni.physx.get_physx_interface()

    def _selection(self):
        import omni.usd

        return omni.usd.get_context(self.usd_context_name).get_selection()

    def capture_user_state(self) -> UserState:
        return UserState.capture(self._timeline(), self._selection(), self._physx())

    def is_playing(self) -> bool:
        return bool(self._timeline().is_playing())

    def is_stopped(self) -> bool:
        return bool(self._timeline().is_stopped())

    def play(self) -> None:
        self._timeline().play()

    def stop(self, now: bool = False) -> None:
        timeline = self._timeline()
        timeline.stop()
        if now:
            timeline.commit()

    def force_cpu(self) -> None:
        # The numpy tensor frontend needs the CPU pipeline (omni.physics.tensors/python/api.py:38-45)
        self._physx().overwrite_gpu_setting(CPU_ONLY)

    def reset_physics(self) -> None:
        # IPhysx.reset_simulation(): "Reset physics simulation and set back original transformations stored during
        # start_simulation" (omni.physx 110.4.4 bindings/_physx.pyi); the function the stage update runs on STOP
        # (NVIDIA-Omniverse/PhysX omni.physx/plugins/PhysX.cpp fillInterface: resetSimulation = endSimulation)
        self._physx().reset_simulation()

    def restore_user_state(self, state: UserState, stage_alive: bool) -> None:
        state.restore_process_wide(self._physx())
        if stage_alive:
            state.restore_stage_side(self._timeline(), self._selection())

    def start_stepping(self, pre_step: Callable[[float], None], post_step: Callable[[float], None]) -> None:
        interface = self._physx()
        self._steps = [
            interface.subscribe_physics_on_step_events(pre_step, True, 0),
            interface.subscribe_physics_on_step_events(post_step, False, 0),
        ]

    def stop_stepping(self) -> None:
        self._steps = []  # dropping the objects unsubscribes (from the update loop, never a step callback)

    def start_recorder(self, config, on_frame: Callable[[Any, int], None]) -> ViewportRecorder:
        return ViewportRecorder(config.physics_fps, config.capture_fps, on_frame)

    def warn(self, message: str) -> None:
        import carb

        carb.log_warn(message)

    def finished(self) -> None:
        self._steps = []
        self._observers = []

    # -- subscriptions ------------------------------------------------------------------------------------
    def _observe(self) -> None:
        import carb.eventdispatcher
        import omni.kit.app
        import omni.timeline
        import omni.usd
        from omni.physx.bindings._physx import SimulationEvent

        loop = self._loop
        assert loop is not None  # made by start()
        stop_type = int(omni.timeline.TimelineEventType.STOP)
        resumed, stopped = int(SimulationEvent.RESUMED), int(SimulationEvent.STOPPED)

        def on_simulation(event) -> None:
            if event.type == resumed:
                loop.on_physics_resumed()
            elif event.type == stopped:
                loop.on_physics_stopped()

        context = omni.usd.get_context(self.usd_context_name)
        dispatcher = carb.eventdispatcher.get_eventdispatcher()

        def on_stage(closed: bool):
            return lambda _event: loop.on_stage_closing(closed=closed)

        self._observers = [
            dispatcher.observe_event(
                event_name=omni.kit.app.GLOBAL_EVENT_UPDATE, on_event=lambda _e: loop.update(), observer_name=OBSERVER
            ),
            # order -100: ahead of other STOP subscribers, so the edit target is on our sublayer when the reset runs
            self._timeline().get_timeline_event_stream().create_subscription_to_pop_by_type(
                stop_type, lambda _e: loop.on_timeline_stop(), order=-100, name=OBSERVER
            ),
            self._physx().get_simulation_event_stream_v2().create_subscription_to_pop(on_simulation, name=OBSERVER),
            *(dispatcher.observe_event(event_name=context.stage_event_name(event), on_event=on_stage(closed),
                                       observer_name=OBSERVER)
              for event, closed in ((omni.usd.StageEventType.CLOSING, False), (omni.usd.StageEventType.CLOSED, True))),
        ]


class _LoggingSink:
    """The view-model's sink, plus a `carb.log_warn` line for each verdict a user should look at."""

    def __init__(self, sink):
        self._sink = sink

    def on_result(self, result) -> None:
        status = getattr(result.status, "value", str(result.status))
        if status not in QUIET:
            try:
                import carb

                carb.log_warn(f"physics validator: {result.name} {status}: {result.reason}")
            except ImportError:  # pragma: no cover - outside Kit
                pass
        self._sink.on_result(result)

    def __getattr__(self, name):
        return getattr(self._sink, name)
