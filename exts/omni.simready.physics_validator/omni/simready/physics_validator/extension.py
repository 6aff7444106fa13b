"""Kit entry point: wires the panel into Kit, nothing else.

A Window menu entry (through the action registry), the workspace show function for the window, the test registry
(built-ins + entry-point plugins) and stage-event observers that keep the panel's target current. On start it logs
one line of its own (`carb.log_info`: its version, the engine it validates with, the engine Isaac Sim is running, its
target and the Kit it runs on), so a Kit log shows it started. `on_shutdown` tears a running validation down
synchronously (`KitLiveRunner.shutdown()`: step subscriptions and views dropped, the timeline stopped with commit(),
the session sublayer removed once PhysX has reset, GPU override and simulation layer put back; the next frame may
never come), drops every subscription, removes the menu entry and the action, and destroys the window so hot reload
leaves nothing behind.

Kit-only (imports omni.* at module level). Target Isaac Sim 6.x (Kit 110.x), kept for 5.1 (Kit 107.3). omni.ext
and carb.settings are checked against the real Isaac Sim 6.2 wheels (tests/kit/test_call_audit.py). omni.ui,
omni.usd, omni.kit.actions.core and omni.kit.menu.utils ship only as PyPI stubs: the action, menu, workspace and
stage-event patterns follow isaac-sim/IsaacSim source/extensions/isaacsim.robot_setup.gain_tuner/.../extension.py
(5.1) and omni.physx.supportui / omni.physx.demos 110.4.4 (`register_action`, `set_show_window_fn`, in the 6.2
wheels). Stage events come through Events 2.0, as 6.2's own extensions observe them (omni.physx.supportui 110.4.4
`scripts/extension.py`: `observe_event(event_name=usd_context.stage_event_name(omni.usd.StageEventType.
SELECTION_CHANGED), ...)`); Isaac Sim 5.1 has the same `stage_event_name` (live/runner.py says where), so one code
serves both. Kit's extension manager enables, disables and re-enables this class in the kit test tier, on a real Kit
110.4 kernel over test doubles of those extensions (tests/kit/test_kit_lifecycle.py).
"""

from __future__ import annotations

import gc
from typing import TYPE_CHECKING

import carb
import carb.eventdispatcher
import carb.settings
import omni.ext
import omni.kit.app
import omni.kit.actions.core
import omni.kit.menu.utils
import omni.ui as ui
import omni.usd
from omni.kit.menu.utils import MenuItemDescription

from ._version import __version__
from .live.active_engine import read_active_engine
from .physics_tests import default_registry
from .ui.engine_line import startup_line

if TYPE_CHECKING:
    from .live.runner import KitLiveRunner
    from .ui.view_model import ValidatorViewModel
    from .ui.window import ValidatorWindow

WINDOW_TITLE = "Physics Validator"
ACTION_ID = "toggle_physics_validator_window"
MENU_PATH = "Window"
STAGE_OBSERVER = "physics_validator.stage"

__all__ = ["PhysicsValidatorExtension"]


class PhysicsValidatorExtension(omni.ext.IExt):
    window_title = WINDOW_TITLE  # a subclass with another title can start beside the enabled one (tests)

    def on_startup(self, ext_id: str) -> None:
        self._ext_name = omni.ext.get_extension_name(ext_id)
        self._settings = self._read_settings()
        self._registry = default_registry()
        self._window: ValidatorWindow | None = None
        self._view_model: ValidatorViewModel | None = None
        self._runner: KitLiveRunner | None = None
        self._stage_observers: list = []
        ui.Workspace.set_show_window_fn(self.window_title, self.show_window)
        omni.kit.actions.core.get_action_registry().register_action(
            self._ext_name,
            ACTION_ID,
            lambda: self.show_window(not self.is_visible()),
            display_name="Physics Validator",
            description="Show or hide the SimReady physics validator panel",
        )
        self._menu_items = [
            MenuItemDescription(
                name="SimReady",
                sub_menu=[
                    MenuItemDescription(
                        name=self.window_title,
                        onclick_action=(self._ext_name, ACTION_ID),
                        ticked=True,
                        ticked_fn=self.is_visible,
                    )
                ],
            )
        ]
        omni.kit.menu.utils.add_menu_items(self._menu_items, MENU_PATH)
        carb.log_info(startup_line(ext_id, __version__, read_active_engine(),
                                   omni.kit.app.get_app().get_kit_version()))

    # -- window ------------------------------------------------------------------------------------
    def is_visible(self) -> bool:
        return self._window is not None and self._window.visible

    def show_window(self, visible: bool) -> None:
        if visible and self._window is None:
            from .live.runner import KitLiveRunner
            from .ui.view_model import ValidatorViewModel
            from .ui.window import ValidatorWindow

            self._runner = KitLiveRunner()
            self._view_model = ValidatorViewModel(runner=self._runner, registry=self._registry)
            self._apply_settings(self._view_model)
            self._window = ValidatorWindow(self.window_title, self._view_model, active_engine=self._runner.active_engine)
            self._window.set_visibility_changed_fn(self._on_visibility_changed)
            self._sync_stage()
            context, dispatcher = omni.usd.get_context(), carb.eventdispatcher.get_eventdispatcher()
            stage_events = omni.usd.StageEventType
            # what changes the panel's target: the open stage, its default prim, the selection
            self._stage_observers = [
                dispatcher.observe_event(event_name=context.stage_event_name(event), on_event=self._on_stage_event,
                                         observer_name=STAGE_OBSERVER)
                for event in (stage_events.OPENED, stage_events.CLOSED, stage_events.SELECTION_CHANGED)
            ]
        if self._window is not None:
            self._window.visible = visible
        omni.kit.menu.utils.refresh_menu_items(MENU_PATH)

    def _read_settings(self) -> dict:
        """[settings] of extension.toml (Kit applies them before on_startup; `--/exts/<name>/<key>=` overrides):
        video recording and the per-test watchdog, as carb.settings holds them now."""
        settings = carb.settings.get_settings()
        prefix = f"/exts/{self._ext_name}"
        return {"record_video": settings.get(f"{prefix}/record_video"),
                "watchdog_seconds": settings.get(f"{prefix}/watchdog_seconds")}

    def _apply_settings(self, view_model) -> None:
        video, watchdog = self._settings["record_video"], self._settings["watchdog_seconds"]
        if video is not None:
            view_model.config.run.video = bool(video)
        if watchdog:
            view_model.config.run.watchdog_seconds = float(watchdog)

    def _on_visibility_changed(self, visible: bool) -> None:
        omni.kit.menu.utils.refresh_menu_items(MENU_PATH)

    def _on_stage_event(self, _event) -> None:
        self._sync_stage()

    def _sync_stage(self) -> None:
        context = omni.usd.get_context()
        stage = context.get_stage()
        if self._view_model is None:
            return
        if stage is None:
            self._view_model.set_stage("", None, [])
            return
        default = stage.GetDefaultPrim()
        self._view_model.set_stage(
            stage.GetRootLayer().identifier,
            str(default.GetPath()) if default else None,
            list(context.get_selection().get_selected_prim_paths()),
        )

    # -- shutdown ----------------------------------------------------------------------------------
    def on_shutdown(self) -> None:
        self._stage_observers = []
        if self._runner is not None:
            self._runner.shutdown()  # synchronous: a cancel() alone would wait for a frame that may never come
            self._runner = None
        omni.kit.menu.utils.remove_menu_items(self._menu_items, MENU_PATH)
        self._menu_items = []
        omni.kit.actions.core.get_action_registry().deregister_action(self._ext_name, ACTION_ID)
        ui.Workspace.set_show_window_fn(self.window_title, None)
        if self._window is not None:
            self._window.destroy()
            self._window = None
        self._view_model = None
        gc.collect()
