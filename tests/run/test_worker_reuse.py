"""Reused worker processes: the same verdicts as a fresh process, and a lost worker is replaced.

A worker keeps its interpreter (pxr, the engine's runtime) across assets, so these tests look for
anything an asset could leave behind for the next one: the verdicts, reasons, metrics, per-joint
rows and time series of every asset must be identical whether it ran alone in a fresh worker or
after other assets (in either order) in one reused worker.
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from omni.simready.physics_validator.core.config import ValidationConfig
from omni.simready.physics_validator.engines import HEADLESS_ENGINES, engine_class
from omni.simready.physics_validator.physics_tests import default_registry
from omni.simready.physics_validator.run.inputs import AssetJob
from omni.simready.physics_validator.run.worker import run_asset_isolated
from omni.simready.physics_validator.run.worker_main import leaked_layers, retire_reason
from omni.simready.physics_validator.run.worker_pool import MODE_ENV, WorkerPool
from tests.fixtures.arms import build_arm
from tests.fixtures.batch import cache_entries, load_report, mixed_library
from tests.fixtures.usd_assets import box_asset
from tests.robustness.fault_plugins import plugin_env

pytestmark = pytest.mark.usefixtures("physx_available")

CLI = [sys.executable, "-m", "omni.simready.physics_validator.cli"]
IGNORED = {"wall_seconds", "artifacts", "log"}  # timings and where files went; everything else must match


def _engines() -> list[str]:
    """The default engine plus every other headless one installed (sapien, newton where they run)."""
    available = []
    for name in dict.fromkeys(["physx", *HEADLESS_ENGINES, "sapien"]):
        try:
            engine_class(name)
        except Exception:  # noqa: BLE001 - not installed here
            continue
        available.append(name)
    return available


@pytest.fixture(scope="module")
def library(tmp_path_factory) -> list[Path]:
    folder = mixed_library(tmp_path_factory.mktemp("reuse") / "lib")
    build_arm(folder / "f_arm.usda")
    build_arm(folder / "g_arm_soft.usda", stiffness=50.0, damping=1.0, velocity_limit_deg=30.0,
              velocity_attr="physxJointAxis:angular:maxJointVelocity")
    box_asset(folder / "h_box_again.usda")  # the same box as a_good, last: it must not differ from the first
    return sorted(folder.glob("*.usda"))


def _run(paths: list[Path], engine: str, tests: list[str], pool: WorkerPool) -> dict[str, list[dict]]:
    registry = default_registry()
    config = ValidationConfig.defaults(registry)
    config.run.video = False
    out = {}
    for path in paths:
        job = AssetJob(str(path), tests, config, engine, None)
        result = run_asset_isolated(job, pool=pool)
        rows = [{**r.model_dump(mode="json", exclude=IGNORED), "series": r.series} for r in result.tests]
        out[path.name] = json.loads(json.dumps(rows, sort_keys=True))  # NaN in a series compares equal as "NaN"
    return out


@pytest.mark.parametrize("engine", _engines())
def test_verdicts_do_not_depend_on_what_the_worker_ran_before(library, engine):
    """The default engine gets the whole library, all tests, both orders; the others (slower to start,
    or slow on 2 cores) a smaller plan: still boxes and arms after each other in one worker."""
    tests = [t.name for t in default_registry().select(None)]
    orders = [library, list(reversed(library))]
    alone = library
    if engine == "sapien":
        orders = [[p for p in library if p.name in ("a_good.usda", "f_arm.usda", "g_arm_soft.usda", "h_box_again.usda")]]
        alone = orders[0][1:]
    elif engine == "newton":
        tests, orders = ["ground_drop"], [[p for p in library if p.name in ("a_good.usda", "h_box_again.usda")]]
        alone = orders[0][1:]
    reused = WorkerPool(reuse=True)
    try:
        runs = [_run(order, engine, tests, reused) for order in orders]
        assert reused.spawned == 1, f"one worker must have served every asset, or nothing was reused: {reused.retired}"
    finally:
        reused.close()
    for path in alone:
        fresh_pool = WorkerPool(reuse=False)
        try:
            fresh = _run([path], engine, tests, fresh_pool)[path.name]
        finally:
            fresh_pool.close()
        statuses = [(r["name"], r["status"]) for r in fresh]
        for n, run in enumerate(runs):
            assert run[path.name] == fresh, f"{path.name} after other assets (order {n}) differs from a fresh worker: {statuses}"
    forward = runs[0]
    every = {r["status"] for results in forward.values() for r in results}
    if engine != "newton":  # a real mix, not one verdict everywhere
        assert "PASS" in every and every & {"FAIL", "WARN"}, every
    if len(forward) == len(library):
        assert {"PRECHECK_FAILURE", "NOT_APPLICABLE"} <= every, every
    assert forward["a_good.usda"] == forward["h_box_again.usda"]  # the same box first and last in one worker


def test_spawn_mode_starts_one_process_per_asset(library, monkeypatch):
    monkeypatch.setenv(MODE_ENV, "spawn")
    pool = WorkerPool()
    try:
        assert pool.reuse is False
        results = _run(library[:3], "physx", ["ground_drop"], pool)
        assert pool.spawned == 3
    finally:
        pool.close()
    monkeypatch.delenv(MODE_ENV)
    pool = WorkerPool()
    try:
        assert _run(library[:3], "physx", ["ground_drop"], pool) == results
        assert pool.spawned == 1
    finally:
        pool.close()


def test_a_worker_that_still_holds_a_usd_layer_retires(tmp_path):
    """A layer kept alive past its asset (edited in memory, or stale if the file changes) ends the worker."""
    from pxr import Sdf

    path = str(tmp_path / "kept.usda")
    layer = Sdf.Layer.CreateNew(path)
    Sdf.CreatePrimInLayer(layer, "/Edited")
    assert path in leaked_layers()
    assert retire_reason(None).startswith("USD layers still loaded after the asset")
    del layer
    assert path not in leaked_layers()


def _worker_pids(parent: int) -> list[int]:
    """The worker processes (children running worker_main) of `parent`."""
    pids = []
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            ppid = int((entry / "stat").read_text().rsplit(")", 1)[1].split()[1])
            cmdline = (entry / "cmdline").read_bytes()
        except (OSError, IndexError, ValueError):
            continue
        if ppid == parent and b"worker_main" in cmdline:
            pids.append(int(entry.name))
    return pids


def _gone(pid: int) -> bool:
    """The process has exited (a zombie nobody has reaped yet counts as exited)."""
    try:
        return Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0] == "Z"
    except OSError:
        return True


def test_a_worker_killed_mid_test_is_replaced_and_the_next_asset_runs(tmp_path):
    """SIGKILL from outside (as the OOM killer would) while a reused worker is inside a test."""
    lib = tmp_path / "lib"
    for name in ("first", "second", "third"):
        box_asset(lib / f"{name}.usda")
    out = tmp_path / "out"
    argv = ["validate", str(lib), "--tests", "ground_drop,fault_slow", "--jobs", "1", "--watchdog", "30",
            "--no-video", "--no-html", "--out", str(out)]
    proc = subprocess.Popen(CLI + argv, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                            env=plugin_env(tmp_path / "plugins"), start_new_session=True)
    killed = None
    try:
        deadline = time.monotonic() + 120
        while not cache_entries(out) and time.monotonic() < deadline and proc.poll() is None:
            time.sleep(0.05)  # the cache gets first.usda's ground_drop the moment it ends
        time.sleep(1.5)  # the same worker is now 1.5 s into fault_slow (10 s) of first.usda
        workers = _worker_pids(proc.pid)
        assert len(workers) == 1, workers
        killed = workers[0]
        os.kill(killed, signal.SIGKILL)
        stdout, rest = proc.communicate(timeout=300)
    finally:
        if proc.poll() is None:
            os.killpg(proc.pid, signal.SIGKILL)
            proc.wait()
    assert proc.returncode == 3, rest  # an ERROR in the report
    assert "Traceback" not in rest + stdout
    rows = {(Path(a["path"]).name, t["name"]): (t["status"], t["reason"]) for a in load_report(out)["assets"] for t in a["tests"]}
    status, reason = rows[("first.usda", "fault_slow")]
    assert status == "ERROR" and "worker process died (signal 9) during this test" in reason, reason
    assert rows[("first.usda", "ground_drop")][0] == "PASS"
    for name in ("second.usda", "third.usda"):  # a fresh worker took over and ran the rest
        assert rows[(name, "ground_drop")][0] == "PASS", rows
        assert rows[(name, "fault_slow")][0] == "PASS", rows
    assert _gone(killed)


def test_workers_exit_when_their_parent_is_killed(tmp_path):
    """A parent killed with SIGKILL (no clean-up at all) leaves no worker running on."""
    script = (
        "import sys, time\n"
        "from omni.simready.physics_validator.run.worker_pool import WorkerPool\n"
        "pool = WorkerPool()\n"
        "worker = pool.acquire('physx')\n"
        "while not worker.conn.poll(0.1): pass\n"
        "print(worker.pid, flush=True)\n"
        "time.sleep(600)\n"
    )
    proc = subprocess.Popen([sys.executable, "-c", script], stdout=subprocess.PIPE, text=True, start_new_session=True)
    try:
        pid = int(proc.stdout.readline())
        assert Path(f"/proc/{pid}").exists()
        proc.kill()  # the parent only; the worker is not in any group that gets a signal
        proc.wait()
        deadline = time.monotonic() + 20
        while not _gone(pid) and time.monotonic() < deadline:
            time.sleep(0.1)
        assert _gone(pid), "the worker outlived its parent"
    finally:
        if proc.poll() is None:
            os.killpg(proc.pid, signal.SIGKILL)


def test_a_script_without_a_main_guard_runs_once(tmp_path):
    """Workers never re-import the caller's __main__ (multiprocessing's spawn and forkserver would, running a
    script that calls validate() without `if __name__ == "__main__"` again in every worker)."""
    box_asset(tmp_path / "box.usda")
    marker = tmp_path / "runs.txt"
    script = tmp_path / "no_guard.py"
    script.write_text(
        "import omni.simready.physics_validator as pv\n"
        f"open({str(marker)!r}, 'a').write('ran\\n')\n"
        f"report = pv.validate([{str(tmp_path / 'box.usda')!r}], tests=['ground_drop'], jobs=1)\n"
        "print(report.assets[0].tests[0].status.value)\n"
    )
    proc = subprocess.run([sys.executable, str(script)], capture_output=True, text=True, timeout=300, cwd=tmp_path)
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.strip().splitlines()[-1] == "PASS", proc.stdout
    assert marker.read_text() == "ran\n"
