"""What the kit tier does inside the real Kit kernel (run by tests/kit/driver.py, in Kit's Python 3.12).

Both scenarios are coroutines on Kit's async engine: every `await next_update_async()` is a real Kit frame
(`omni.kit.app`'s update loop), and the live runner's per-frame state machine runs on Kit's real
`GLOBAL_EVENT_UPDATE` observers. Kit's extension manager enables the extension; its dependencies resolve to the
test doubles (tests/fixtures/fake_kit: `exts/` for what PyPI ships as stubs, `physics_exts/` for the omni.physx
chain, ovphysx underneath).

- `lifecycle`: enable -> validate each fixture through the Window menu and the panel's buttons -> disable (counted)
  -> enable -> validate -> disable mid-test (counted).
- `suites`: the extension's own Kit test modules through the omni.kit.test double's minimal runner.
"""

from __future__ import annotations

import json
import time
from pathlib import Path

EXT = "omni.simready.physics_validator"
WINDOW = "Physics Validator"
MENU = "Window/SimReady/Physics Validator"
OURS = "physics_validator"  # every observer / subscription name the extension uses starts with this


def _manager():
    import omni.kit.app

    return omni.kit.app.get_app().get_extension_manager()


async def _frames(count: int = 1) -> None:
    import omni.kit.app

    for _ in range(count):
        await omni.kit.app.get_app().next_update_async()


def _enabled_extensions() -> list[dict]:
    return [{"id": e.get("id"), "path": str(e.get("path", ""))} for e in _manager().get_extensions() if e.get("enabled")]


def _module(name: str):
    """An extension's module, or None before Kit enabled it."""
    import importlib

    try:
        return importlib.import_module(name)
    except ImportError:
        return None


def counts() -> dict:
    """What the extension holds in Kit right now: observers, subscriptions, actions, menus, windows, layers."""
    import carb.eventdispatcher
    import omni.kit.app

    from tests.fixtures.fake_kit import current, kit as double

    actions, menu, ui = _module("omni.kit.actions.core"), _module("omni.kit.menu.utils"), _module("omni.ui")

    kit = current()
    dispatcher = carb.eventdispatcher.get_eventdispatcher()
    events = [omni.kit.app.GLOBAL_EVENT_UPDATE, omni.kit.app.GLOBAL_EVENT_PRE_UPDATE, omni.kit.app.GLOBAL_EVENT_POST_UPDATE]
    observers = [o.name for o in dispatcher.get_observers(events)]
    # Events 2.0 stage events, by the names Kit 110.4 dispatches them under (every StageEventType of the context)
    stage_names = [kit.usd.stage_event_name(e) for e in double.StageEventType if e is not double.StageEventType.COUNT]
    stage_observers = [o.name for o in dispatcher.get_observers(stage_names)]
    stage = kit.usd.get_stage()
    window_menu = menu.menus().get("Window", []) if menu else []
    return {
        "kit_observers": sorted(n for n in observers if OURS in n),  # the runner's update loop, the panel's video timer
        "stage_event_observers": sorted(n for n in stage_observers if OURS in n),
        "timeline_subscriptions": len(kit.timeline.stream.alive()),
        "stage_event_subscriptions": len(kit.usd.stream.alive()),  # the legacy stream (deprecated in Kit 110.4)
        "simulation_event_subscriptions": len(kit.sim.events.alive()),
        "physics_step_subscriptions": len(kit.sim.pre_step.alive()) + len(kit.sim.post_step.alive()),
        "actions": len(actions.get_action_registry().get_all_actions_for_extension(EXT)) if actions else 0,
        "menu_items": sum(1 for item in window_menu if item.name == "SimReady"),
        "show_window_fns": int(bool(ui) and WINDOW in ui.show_window_fns()),
        "windows": int(bool(ui) and WINDOW in ui.windows()),
        "session_sublayers": len(stage.GetSessionLayer().subLayerPaths) if stage else 0,
        "simulation_layer": kit.physx.simulation_layer,
        "gpu_override": kit.physx.get_overwrite_gpu_setting(),
        "timeline_stopped": kit.timeline.is_stopped(),
    }


def _query(kind: str, identifier: str) -> str:
    return f"{WINDOW}//Frame/**/{kind}[*].identifier=='{identifier}'"


async def _validate(path: str, tests: list[str], timeout: float, stop_after_frames: int | None = None) -> dict:
    """Open `path`, open the panel from the Window menu, tick `tests`, click Validate, wait on the wall clock for
    the progress label, read the verdict cells and click Export JSON (the report lands beside the asset)."""
    import omni.kit.ui_test as ui_test
    import omni.usd

    from tests.fixtures.fake_kit import current

    omni.usd.get_context().open_stage(path)
    await _frames(2)
    if ui_test.find(WINDOW) is None:
        await ui_test.menu_click(MENU)
    if ui_test.find(WINDOW) is None:
        raise AssertionError("the Window menu entry did not open the panel")
    target = ui_test.find(_query("Label", "physics_validator_target")).widget.text  # after OPENED reached the panel
    for box in ui_test.find_all(f"{WINDOW}//Frame/**/CheckBox[*]"):
        name = box.widget.identifier.removeprefix("physics_validator_test_")
        box.widget.model.set_value(name in tests)
    await _frames(1)
    frames_before, start = current().frames, time.monotonic()
    await ui_test.find(_query("Button", "physics_validator_validate")).click()
    deadline, text, waited = start + timeout, "", 0
    while time.monotonic() < deadline:
        text = ui_test.find(_query("Label", "physics_validator_progress")).widget.text
        if text.startswith(("done", "stopped")) or (stop_after_frames is not None and waited >= stop_after_frames):
            break
        await _frames(1)
        waited += 1
    out = {"progress": text, "kit_frames": current().frames - frames_before, "seconds": round(time.monotonic() - start, 2),
           "target": target, "engine_line": ui_test.find(_query("Label", "physics_validator_engine")).widget.text}
    if stop_after_frames is not None:
        return out
    tree = ui_test.find(_query("TreeView", "physics_validator_verdicts"))
    out["cells"] = [ref.widget.text for ref in tree.find_all("**/Label[*]")]
    export = ui_test.find(f"{WINDOW}//Frame/**/Button[*].text=='Export JSON'")
    await export.click()
    report = Path(path).parent / "physics_report.json"
    out["report"] = json.loads(report.read_text()) if report.is_file() else None
    window = __import__("omni.ui", fromlist=["Workspace"]).Workspace.get_window(WINDOW)
    out["panel_settings"] = {"video": window.vm.config.run.video, "watchdog_seconds": window.vm.config.run.watchdog_seconds}
    return out


async def _select_first_child() -> dict:
    """Select a prim under the default prim: the SELECTION_CHANGED stage event must make it the panel's target."""
    import omni.kit.ui_test as ui_test
    import omni.usd

    context = omni.usd.get_context()
    prim = next(iter(context.get_stage().GetDefaultPrim().GetChildren()))
    context.get_selection().set_selected_prim_paths([str(prim.GetPath())], True)
    await _frames(2)
    target = ui_test.find(_query("Label", "physics_validator_target")).widget.text
    context.get_selection().set_selected_prim_paths([], True)
    await _frames(1)
    return {"selected": str(prim.GetPath()), "target": target}


async def _newton_active() -> dict:
    """Newton registered with the real omni.physics registry and switched to (what isaacsim.physics.newton does at
    start-up with auto_switch_on_startup = true): the engine line, then Validate; PhysX switched back after."""
    import omni.kit.ui_test as ui_test
    import omni.ui

    from tests.fixtures.fake_kit import current

    registry = current().physics_registry
    registry.register_newton()
    await _frames(1)
    line = ui_test.find(_query("Label", "physics_validator_engine")).widget.text
    frames = current().frames
    await ui_test.find(_query("Button", "physics_validator_validate")).click()
    vm = omni.ui.Workspace.get_window(WINDOW).vm
    out = {"engine_line": line, "message": vm.message, "progress": ui_test.find(
        _query("Label", "physics_validator_progress")).widget.text, "frames_run": current().frames - frames}
    registry.switch_to("PhysX")
    await _frames(1)
    out["engine_line_after"] = ui_test.find(_query("Label", "physics_validator_engine")).widget.text
    return out


async def lifecycle(request: dict) -> dict:
    import carb.settings

    from tests.fixtures.fake_kit import in_kit

    in_kit.install_in_kit()
    manager, out = _manager(), {"steps": []}
    # the harness's own extension (it drives the panel as a test would): not one of the extension's dependencies
    out["harness"] = {name: manager.set_extension_enabled_immediate(name, True) for name in ("omni.kit.ui_test",)}
    timeout = float(request.get("validation_timeout", 300))

    def step(name: str, **data) -> None:
        out["steps"].append({"step": name, "counts": counts(), **data})

    step("before enable")
    start = time.monotonic()
    ok = manager.set_extension_enabled_immediate(EXT, True)
    out["enable_seconds"] = round(time.monotonic() - start, 3)
    settings = carb.settings.get_settings()
    out["settings"] = {key: settings.get(f"/exts/{EXT}/{key}") for key in ("record_video", "watchdog_seconds")}
    out["enabled_extensions"] = _enabled_extensions()
    step("enabled", ok=ok, enabled=manager.is_extension_enabled(EXT), ext_id=manager.get_enabled_extension_id(EXT))
    for fixture in request["fixtures"]:
        result = await _validate(fixture["path"], fixture["tests"], timeout)
        step(f"validated {fixture['name']}", **result)
    step("selected", **(await _select_first_child()))
    step("newton active", **(await _newton_active()))
    manager.set_extension_enabled_immediate(EXT, False)
    step("disabled", enabled=manager.is_extension_enabled(EXT))
    await _frames(3)
    step("disabled + 3 frames")
    ok = manager.set_extension_enabled_immediate(EXT, True)
    step("enabled again", ok=ok, enabled=manager.is_extension_enabled(EXT))
    again = request["fixtures"][-1]
    step("validated again", **(await _validate(again["path"], again["tests"], timeout)))
    stop = request["fixtures"][0]
    step("validating (to disable mid-test)", **(await _validate(stop["path"], stop["tests"], timeout,
                                                                 stop_after_frames=int(request.get("stop_after_frames", 30)))))
    manager.set_extension_enabled_immediate(EXT, False)
    step("disabled mid-test", enabled=manager.is_extension_enabled(EXT))
    await _frames(3)
    step("disabled mid-test + 3 frames")
    return out


async def suites(request: dict) -> dict:
    from tests.fixtures.fake_kit import in_kit

    in_kit.install_in_kit()
    manager = _manager()
    enabled = {name: manager.set_extension_enabled_immediate(name, True)
               for name in [EXT, *request.get("test_dependencies", [])]}
    import omni.kit.test

    results = await omni.kit.test.run_tests_async(request["modules"])
    return {"enabled": enabled, "results": results}
