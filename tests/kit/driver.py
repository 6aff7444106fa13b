"""The kit tier's process: a real Kit 110.4 kernel (isaacsim-kernel 6.2) started headless in this Python 3.12
process, one scenario run inside it, its findings written as JSON for the pytest that launched it (tests/kit).

    <kit venv>/bin/python tests/kit/driver.py <scenario> <request.json> <result.json>

Scenarios (the request names their inputs):
- `solve`: Kit's dependency solver (`ExtensionManager.solve_extensions`) on an extension folder, against the real
  Isaac Sim 6.2 extension folders of the wheels plus the one folder of test doubles (tests/fixtures/fake_kit/exts);
- `lifecycle` and `suites`: the extension enabled by Kit's extension manager over the test doubles (tests/kit/
  scenarios.py), driven by real Kit frames from a coroutine on Kit's async engine (omni.kit.async_engine).

Kit itself: `import isaacsim` bootstraps the kernel (libcarb, CARB_APP_PATH); `kit_app.KitApp().startup(argv)`
starts the app, `update()` runs one frame (isaacsim/__main__.py and kit/kit_app.py of isaacsim-kernel 6.2).
"""

from __future__ import annotations

import json
import os
import sys
import time
import traceback
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
EXT_NAME = "omni.simready.physics_validator"


def kit_paths() -> dict:
    import isaacsim  # noqa: F401 - bootstraps the kernel

    root = Path(isaacsim.__file__).resolve().parent
    (physics_layer,) = sorted((root / "extscache").glob("omni.physics-110.4.4+*"))
    return {"isaacsim": root, "kit": Path(os.environ["CARB_APP_PATH"]),
            # the folders Isaac Sim 6.2's apps search (isaacsim.exp.base.kit, [settings.app.exts.folders])
            "real_folders": [root / "exts", root / "extscache", root / "extsDeprecated"],
            # the real omni.physics 110.4.4, the engine-neutral registry: its native plugin links no USD library, so
            # it loads here (the omni.physics.physx double registers PhysX with it)
            "physics_layer": physics_layer}


def start_kit(folders: list, extra: list[str] = (), real_physics_layer: bool = True):
    paths = kit_paths()  # first: importing isaacsim puts kit_app on sys.path
    from kit_app import KitApp

    argv = [str(paths["kit"] / "apps" / "omni.app.empty.kit"), "--no-window", "--allow-root",
            "--/app/extensions/registryEnabled=0",  # never reach the online extension registry
            # Isaac Sim's own run loop (without one the empty app quits at its first frame: "No run loop was
            # found"), unthrottled as isaacsim.exp.base.kit sets it ([settings.app] runLoops.main.*)
            "--ext-folder", str(paths["isaacsim"] / "exts"), "--enable", "omni.kit.loop-isaac",
            "--/app/runLoops/main/rateLimitEnabled=false",
            "--enable", "omni.kit.async_engine"]
    for folder in folders:
        argv += ["--ext-folder", str(folder)]
    if real_physics_layer:
        argv += ["--ext-path", str(paths["physics_layer"])]
    app = KitApp()
    app.startup(argv + list(extra))
    return app


def run_coroutine(app, coroutine, timeout: float):
    """Run `coroutine` on Kit's async engine, pumping Kit frames until it is done (or `timeout` wall seconds)."""
    import omni.kit.async_engine

    future = omni.kit.async_engine.run_coroutine(coroutine)
    deadline = time.monotonic() + timeout
    while not future.done():
        if time.monotonic() > deadline:
            future.cancel()
            raise TimeoutError(f"the scenario did not finish in {timeout:g} s")
        app.update()
    return future.result()


# -- solve ----------------------------------------------------------------------------------------------------
def solve(request: dict) -> dict:
    """Kit's solver on the extension in `request["ext_folder"]` (a folder holding the extension's folder)."""
    paths = kit_paths()
    doubles = Path(request["doubles"])
    app = start_kit([*paths["real_folders"], doubles, request["ext_folder"]], real_physics_layer=False)
    try:
        manager = app.extension_manager
        ok, solution, error = manager.solve_extensions([EXT_NAME], add_enabled=False, return_only_disabled=False)
        rows = []
        for entry in solution:
            path = str(entry.get("path", ""))
            where = "double" if path.startswith(str(doubles)) else "real" if path.startswith(str(paths["isaacsim"])) \
                else "extension" if path.startswith(str(request["ext_folder"])) else "other"
            rows.append({"id": entry.get("id"), "name": entry.get("name", ""), "where": where, "path": path})
        return {"ok": bool(ok), "error": error, "solution": rows}, app
    except Exception:
        app.shutdown()
        raise


# -- main -----------------------------------------------------------------------------------------------------
def main() -> int:
    scenario, request_path, result_path = sys.argv[1:4]
    request = json.loads(Path(request_path).read_text())
    sys.path.insert(0, str(REPO))  # tests.fixtures.fake_kit, which the doubles' modules forward to
    started, app = time.monotonic(), None
    try:
        if scenario == "solve":
            result, app = solve(request)
        elif scenario in ("lifecycle", "suites"):
            from tests.kit import scenarios

            app = start_kit([request["doubles"], request["physics_doubles"], request["ext_folder"]],
                            request.get("kit_args", []))
            coroutine = scenarios.lifecycle(request) if scenario == "lifecycle" else scenarios.suites(request)
            result = run_coroutine(app, coroutine, float(request.get("timeout", 600)))
        else:
            raise ValueError(f"unknown scenario {scenario!r}")
    except Exception as exc:  # noqa: BLE001 - reported to the pytest that launched this process
        result = {"exception": f"{type(exc).__name__}: {exc}", "traceback": traceback.format_exc()}
    result["wall_seconds"] = round(time.monotonic() - started, 2)
    Path(result_path).write_text(json.dumps(result, indent=1, default=str))
    if app is not None:
        # shutdown_and_release_framework() ends this process with Kit's exit code: the result is written first
        return app.shutdown()
    return 0


if __name__ == "__main__":
    sys.exit(main())
