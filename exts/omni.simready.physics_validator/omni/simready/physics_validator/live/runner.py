"""KitLiveRunner: the panel's runner inside Kit, on the live stage. Kit only (omni.*, lazily).

Implements the view-model's runner protocol (`start(request, sink)`, `cancel()`) and the `LiveKit`
side of `loop.LiveLoop`, which holds the logic: the tests run through `run.asset_run.AssetRun`,
each session stepped by the live timeline. This module only subscribes and unsubscribes.

Kit calls, as read in the public sources (not run from this repository):
- `omni.physx.get_physx_interface().subscribe_physics_on_step_events(fn, pre_step, order)`: `fn(dt)`
  per physics substep, the subscription lives as long as the returned object; it cannot change
  inside a physics callback (NVIDIA-Omniverse/PhysX
  omni/extensions/runtime/source/omni.physx/bindings/BindingsPhysXPython.cpp);
- `carb.eventdispatcher.get_eventdispatcher().observe_event(event_name=omni.kit.app.GLOBAL_EVENT_UPDATE, ...)`
  once per app frame (as in isaac-sim/IsaacSim
  source/extensions/isaacsim.robot_setup.gain_tuner/.../extension.py);
- `omni.timeline.get_timeline_interface().play()`: applied at the start of the next frame (omni.timeline
  docs, FRAME_INTEGRITY). Issue 14 turns the runner into a per-frame state machine around that.
"""

from __future__ import annotations

from typing import Any, Callable

from ..engines.kit.engine import KitPhysxEngine
from .loop import LiveLoop
from .open_stage import read_open_stage
from .viewport import ViewportRecorder


class KitLiveRunner:
    """Runs the panel's request on the live stage, one test after another, across app frames."""

    def __init__(self, usd_context_name: str = ""):
        self.usd_context_name = usd_context_name
        self._loop: LiveLoop | None = None
        self._subscriptions: list = []
        self._update_observer = None

    # -- the view-model's runner protocol --------------------------------------------------------------
    def start(self, request, sink) -> None:
        try:
            asset = read_open_stage(self.usd_context_name, request.target)
        except Exception as exc:  # noqa: BLE001 - shown in the panel, not raised into Kit
            sink.on_error(f"cannot read the open stage: {exc}")
            sink.on_finished(complete=False)
            return

        def make_engine() -> KitPhysxEngine:
            return KitPhysxEngine(mode="live", target=request.target, usd_context_name=self.usd_context_name)

        self._loop = LiveLoop(request, asset, make_engine, sink, kit=self)
        self._watch_updates()
        self._loop.begin()

    def cancel(self) -> None:
        if self._loop is not None:
            self._loop.cancel()

    # -- LiveKit ----------------------------------------------------------------------------------------
    def start_stepping(self, pre_step: Callable[[float], None], post_step: Callable[[float], None]) -> None:
        import omni.physx
        import omni.timeline

        interface = omni.physx.get_physx_interface()
        self._subscriptions = [
            interface.subscribe_physics_on_step_events(pre_step, True, 0),
            interface.subscribe_physics_on_step_events(post_step, False, 0),
        ]
        omni.timeline.get_timeline_interface().play()

    def stop_stepping(self) -> None:
        self._subscriptions = []

    def start_recorder(self, config, on_frame: Callable[[Any, int], None]) -> ViewportRecorder:
        return ViewportRecorder(config.physics_fps, config.capture_fps, on_frame)

    def finished(self) -> None:
        self._update_observer = None
        self._loop = None

    # -- internals ---------------------------------------------------------------------------------------
    def _watch_updates(self) -> None:
        import carb.eventdispatcher
        import omni.kit.app

        self._update_observer = carb.eventdispatcher.get_eventdispatcher().observe_event(
            event_name=omni.kit.app.GLOBAL_EVENT_UPDATE, on_event=self._on_update, observer_name="physics_validator.runner"
        )

    def _on_update(self, _event=None) -> None:
        if self._loop is not None:
            self._loop.update()
