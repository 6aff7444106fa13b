"""The extension in a real Kit 110.4 kernel: Kit's extension manager enables it over the test doubles, a user's path
through the panel validates two fixture assets on real Kit frames, and it is disabled, enabled and disabled again
(the last time in the middle of a test), with what it holds counted after each step.

One Kit process runs the whole sequence (tests/kit/scenarios.py `lifecycle`); the tests below read its record. The
verdicts are compared with the headless physx engine's, run here (Python 3.11) on the same files.
"""

from __future__ import annotations

import pytest

from tests.kit.harness import run_kit

EXT = "omni.simready.physics_validator"
ALL_TESTS = ["ground_drop", "velocity_limit", "full_range_sweep", "drive_gain_validation", "effort_limit"]
USER_GPU = 1  # the user's persistent GPU override (force GPU): a run forces CPU (0) and must put 1 back
WATCHDOG = 77  # set on Kit's command line: the panel must get it through carb.settings
NOTHING_HELD = {"kit_observers": [], "stage_event_observers": [], "timeline_subscriptions": 0, "stage_event_subscriptions": 0,
                "simulation_event_subscriptions": 0, "physics_step_subscriptions": 0, "actions": 0, "menu_items": 0,
                "show_window_fns": 0, "windows": 0, "session_sublayers": 0, "simulation_layer": None,
                "gpu_override": USER_GPU, "timeline_stopped": True}


@pytest.fixture(scope="module")
def fixtures(tmp_path_factory):
    from tests.fixtures.kit import make_arm
    from tests.fixtures.usd_assets import box_asset

    base = tmp_path_factory.mktemp("kit_assets")
    (base / "arm").mkdir()
    (base / "box").mkdir()
    return [{"name": "arm", "path": str(make_arm(base / "arm" / "arm.usda")), "tests": ALL_TESTS},
            {"name": "kinematic box", "path": str(box_asset(base / "box" / "kinematic_box.usda", kinematic=True)),
             "tests": ["ground_drop"]}]


@pytest.fixture(scope="module")
def lifecycle(kit_venv, fixtures, tmp_path_factory):
    run = run_kit("lifecycle", {"fixtures": fixtures, "kit_args": [
        f"--/exts/{EXT}/watchdog_seconds={WATCHDOG}", f"--/persistent/physics/overrideGPUSettings={USER_GPU}"]},
        tmp_path_factory.mktemp("lifecycle"))
    record = run.check()
    steps = {s["step"]: s for s in record["steps"]}
    print(f"\nkit lifecycle: {record['wall_seconds']} s wall; " + "; ".join(
        f"{name}: {s['kit_frames']} Kit frames in {s['seconds']} s" for name, s in steps.items() if "kit_frames" in s))
    return run, record, steps


def test_kit_enables_the_extension_and_on_startup_reads_its_settings_through_carb_settings(lifecycle):
    _run, record, steps = lifecycle
    enabled = steps["enabled"]
    assert enabled["ok"] and enabled["enabled"] and enabled["ext_id"] == f"{EXT}-0.1.0"
    assert record["settings"] == {"record_video": True, "watchdog_seconds": WATCHDOG}  # toml default, command line
    panel = steps["validated arm"]["panel_settings"]
    assert panel == {"video": True, "watchdog_seconds": float(WATCHDOG)}
    counts = enabled["counts"]
    assert (counts["actions"], counts["menu_items"], counts["show_window_fns"]) == (1, 1, 1)
    assert counts["kit_observers"] == [] and counts["windows"] == 0  # nothing runs until the panel opens
    paths = {e["id"].rsplit("-", 1)[0]: e["path"] for e in record["enabled_extensions"]}
    assert "fake_kit/physics_exts" in paths["omni.physx"] and "fake_kit/exts" in paths["omni.usd"]
    assert "isaacsim/kit/extscore" in paths["omni.kit.async_engine"]  # the real kernel's async engine


@pytest.mark.parametrize("step", ["disabled", "disabled + 3 frames", "disabled mid-test", "disabled mid-test + 3 frames"])
def test_a_disabled_extension_holds_nothing(lifecycle, step):
    _run, _record, steps = lifecycle
    assert steps[step].get("enabled", False) is False
    assert steps[step]["counts"] == NOTHING_HELD


def test_enable_disable_enable_really_subscribed_before_it_unsubscribed(lifecycle):
    """The counts can show a leak: mid-test the runner holds its update observer, four subscriptions, a sublayer,
    the simulation layer and the CPU override."""
    _run, _record, steps = lifecycle
    running = steps["validating (to disable mid-test)"]
    assert running["progress"].startswith("running"), running["progress"]
    held = running["counts"]
    assert held["kit_observers"] == ["physics_validator.runner", "physics_validator.video"]
    assert held["timeline_subscriptions"] == 1 and held["physics_step_subscriptions"] == 2
    # stage events through Events 2.0 (the runner's CLOSING / CLOSED, the panel's OPENED / CLOSED / SELECTION_CHANGED),
    # none on the legacy stream Kit 110.4 deprecates
    assert held["stage_event_observers"] == ["physics_validator.runner"] * 2 + ["physics_validator.stage"] * 3
    assert held["simulation_event_subscriptions"] == 1 and held["stage_event_subscriptions"] == 0
    assert held["session_sublayers"] == 1 and held["simulation_layer"] and held["gpu_override"] == 0
    again = steps["enabled again"]
    assert again["ok"] and again["enabled"] and again["counts"]["actions"] == 1
    assert steps["validated again"]["progress"] == "done: 1 FAIL"


def _headless(fixture) -> dict:
    from omni.simready.physics_validator import validate

    report = validate([fixture["path"]], tests=fixture["tests"], engine="physx")
    return {t.name: t.status.value for t in report.assets[0].tests}


@pytest.mark.parametrize("which", ["validated arm", "validated kinematic box"])
def test_the_panel_in_kit_gives_the_headless_physx_engines_verdicts(lifecycle, fixtures, headless_physx, which):
    _run, _record, steps = lifecycle
    fixture = next(f for f in fixtures if which.endswith(f["name"]))
    step = steps[which]
    assert step["progress"].startswith("done"), step["progress"]
    (asset,) = step["report"]["assets"]
    in_kit = {t["name"]: t["status"] for t in asset["tests"]}
    assert step["report"]["engine"]["name"] == "kit"
    assert in_kit == _headless(fixture)
    cells = step["cells"]  # the verdict column the panel shows, row by row
    assert [cells[cells.index(name) + 1] for name in fixture["tests"]] == [in_kit[n] for n in fixture["tests"]]
    assert step["counts"] == {**NOTHING_HELD, "kit_observers": ["physics_validator.video"],
                              "stage_event_observers": ["physics_validator.stage"] * 3, "actions": 1, "menu_items": 1,
                              "show_window_fns": 1, "windows": 1}
    assert step["engine_line"] == ("Verdicts judged by PhysX (omni.physx). Isaac Sim runs PhysX too (omni.physics: "
                                   "active simulation PhysX).")  # the real omni.physics 110.4.4 registry answered


def test_the_panels_target_follows_the_stage_events_kit_110_4_sends(lifecycle, fixtures):
    """Events 2.0 stage events (`stage_event_name`): a stage opened while the panel is open (OPENED) and a selection
    (SELECTION_CHANGED) become the panel's target; an observer on a wrong event name would leave the old one."""
    _run, _record, steps = lifecycle
    assert steps["validated kinematic box"]["target"] == "/Asset (default prim)"  # opened after the arm's panel
    assert steps["validating (to disable mid-test)"]["target"] == "/Arm (default prim)"
    selected = steps["selected"]
    assert selected["target"] == f"{selected['selected']} (selection)"


def test_with_newton_active_the_panel_says_physx_judged_and_refuses_a_live_run(lifecycle, fixtures):
    """Newton registered with the real omni.physics 110.4.4 registry and switched to, as isaacsim.physics.newton does
    at start-up: the engine line names both engines and the headless Newton command; Validate starts nothing."""
    _run, _record, steps = lifecycle
    box = fixtures[-1]["path"]
    newton = steps["newton active"]
    assert newton["engine_line"].startswith("Verdicts judged by PhysX (omni.physx). Your scene runs Newton, not PhysX "
                                            "(omni.physics: active simulation Newton)"), newton["engine_line"]
    assert f"simready-physics validate {box} --engine newton" in newton["engine_line"]
    assert newton["message"].startswith("Not validated: Isaac Sim is running Newton, not PhysX"), newton["message"]
    assert newton["progress"] == "stopped: no results"
    assert newton["counts"]["kit_observers"] == ["physics_validator.video"]  # no runner loop was started
    assert newton["engine_line_after"].endswith("Isaac Sim runs PhysX too (omni.physics: active simulation PhysX).")


def test_a_fail_is_logged_as_a_kit_warning_and_nothing_as_an_error(lifecycle):
    run, _record, _steps = lifecycle
    warnings = [m for source, m in run.log("Warning") if source.startswith(EXT)]
    assert sum(m.startswith("physics validator: ground_drop FAIL: ") for m in warnings) == 2, warnings
    assert sum(m.startswith("physics validator: Not validated: Isaac Sim is running Newton") for m in warnings) == 1
    assert any(m.startswith("physics validator: ") and " ERROR: the extension shut down" in m for m in warnings)
    assert run.log("Error") == [] and run.log("Fatal") == []
    assert run.returncode == 0
