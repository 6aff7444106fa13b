"""Isolated runs: each asset in a worker process, so a hang or a native crash costs one verdict, not the run.

The parent watches the worker: a test that makes no physics progress within the watchdog (a native
hang inside PhysX) gets the worker killed and an ERROR verdict; a worker that dies (a native crash)
gives ERROR for the test it was running; in both cases the remaining tests of that asset go on in a
fresh worker. The worker runs `asset_run.run_asset` and streams ("start", name), ("alive",),
("result", ...) and ("done",) messages over a pipe.
"""

from __future__ import annotations

import dataclasses
import multiprocessing as mp
import os
import time
from typing import Callable

from ..core.results import AssetResult, TestResult
from ..core.session import error_result
from ..physics_tests import default_registry
from .asset_run import RunHooks, RunInterrupted, config_from_dict, run_asset
from .inputs import AssetJob, file_sha256

WORKER_GRACE_SECONDS = 20.0  # at most this on top of the per-test watchdog, for load and video encoding


def peak_rss_mb() -> float | None:
    """Peak resident memory of this process so far, in MiB (None where the OS does not say)."""
    try:
        import resource
        import sys

        peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
        return round(peak / (1 << 20) if sys.platform == "darwin" else peak / 1024, 1)  # bytes on macOS, KiB on Linux
    except (ImportError, OSError):
        return None


def _worker_main(job: AssetJob, conn) -> None:
    """Worker entry: stream ("start", name) and ("result", json, series) messages, then ("done",)."""
    import signal
    import warnings

    warnings.filterwarnings("ignore")
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # Ctrl-C is the parent's: it stops this worker and keeps the results

    def started(name: str) -> None:
        conn.send(("start", name))

    def ended(result: TestResult) -> None:
        conn.send(("result", result.model_dump(mode="json"), result.series, peak_rss_mb()))

    def alive() -> None:
        conn.send(("alive",))

    try:
        run_asset(job, RunHooks(started, ended, alive))
        conn.send(("done",))
    except BaseException as exc:  # noqa: BLE001 - report, never die silently
        try:
            conn.send(("fatal", f"{type(exc).__name__}: {exc}"))
        except Exception:  # noqa: BLE001
            pass
    finally:
        conn.close()


# Modules a worker needs for every asset: loaded once into the fork server, so a worker starts in
# milliseconds instead of re-importing pxr, sapien and pydantic (~0.45 s) for each asset.
WORKER_PRELOAD = [
    "omni.simready.physics_validator.run.worker",
    "omni.simready.physics_validator.physics_tests",
    "omni.simready.physics_validator.engines.sapien",
]
_WORKER_CONTEXT = None


def worker_context():
    """Fork server with the common modules preloaded where the OS has one; spawn otherwise.

    Each asset still gets a fresh process (nothing accumulates; a crash or hang costs only that
    process). SIMREADY_WORKER_START=spawn forces a clean interpreter per asset.
    """
    global _WORKER_CONTEXT
    if _WORKER_CONTEXT is None:
        method = os.environ.get("SIMREADY_WORKER_START", "forkserver")
        if method not in mp.get_all_start_methods():
            method = "spawn"
        _WORKER_CONTEXT = mp.get_context(method)
        if method == "forkserver":
            _WORKER_CONTEXT.set_forkserver_preload(WORKER_PRELOAD)
    return _WORKER_CONTEXT


def run_asset_isolated(
    job: AssetJob,
    watchdog_seconds: float,
    on_test_start: Callable[[str], None] | None = None,
    on_test_end: Callable[[TestResult], None] | None = None,
) -> AssetResult:
    """Validate one asset in worker processes; hangs and crashes become ERROR verdicts."""
    context = worker_context()
    asset_result = AssetResult(path=job.path, sha256=job.sha256 or file_sha256(job.path))
    remaining = list(job.tests)
    config = config_from_dict(job.config)
    while remaining:
        parent_conn, child_conn = context.Pipe(duplex=False)
        sub_job = dataclasses.replace(job, tests=list(remaining), sha256=asset_result.sha256)
        process = context.Process(target=_worker_main, args=(sub_job, child_conn), daemon=True)
        process.start()
        child_conn.close()
        current: str | None = None
        started_at = last_progress = time.monotonic()
        # The watchdog counts from the last sign of physics progress (a heartbeat at most every second
        # while steps complete), so a large robot that steps slowly is never mistaken for a hang.
        grace = min(WORKER_GRACE_SECONDS, 2.0 + watchdog_seconds)
        max_seconds = config.run.max_test_seconds + grace
        try:
            while True:
                if parent_conn.poll(0.2):
                    try:
                        message = parent_conn.recv()
                    except (EOFError, OSError):
                        message = None
                    if message is None:
                        _crashed(asset_result, remaining, current, process, config, on_test_end)
                        break
                    kind = message[0]
                    if kind == "alive":
                        last_progress = time.monotonic()
                    elif kind == "start":
                        current, started_at = message[1], time.monotonic()
                        last_progress = started_at
                        if on_test_start:
                            on_test_start(current)
                    elif kind == "result":
                        result = TestResult.model_validate(message[1])
                        result.series = message[2] or {}
                        if len(message) > 3 and message[3] is not None:
                            asset_result.peak_rss_mb = max(asset_result.peak_rss_mb or 0.0, message[3])
                        asset_result.tests.append(result)
                        if result.name in remaining:
                            remaining.remove(result.name)
                        current = None
                        if on_test_end:
                            on_test_end(result)
                    elif kind == "done":
                        remaining = []
                        break
                    elif kind == "fatal":
                        name = current or remaining[0]
                        _record_error(asset_result, remaining, name, f"internal error in worker: {message[1]}", config, on_test_end)
                        break
                elif not process.is_alive():
                    _crashed(asset_result, remaining, current, process, config, on_test_end)
                    break
                elif current is not None and (
                    time.monotonic() - last_progress > watchdog_seconds + grace
                    or time.monotonic() - started_at > max_seconds
                ):
                    process.kill()
                    now = time.monotonic()
                    if now - last_progress > watchdog_seconds + grace:
                        reason = (f"hang: no physics progress for {now - last_progress:.0f} s "
                                  f"(watchdog {watchdog_seconds:g} s); the worker was stopped")
                    else:
                        reason = (f"no verdict after {now - started_at:.0f} s (max_test_seconds "
                                  f"{config.run.max_test_seconds:g} s watchdog); the worker was stopped")
                    _record_error(asset_result, remaining, current, reason, config, on_test_end)
                    break
        except KeyboardInterrupt:
            process.kill()
            raise RunInterrupted(asset_result) from None
        finally:
            process.join(timeout=5)
            if process.is_alive():
                process.kill()
            parent_conn.close()
    order = {name: i for i, name in enumerate(job.tests)}
    asset_result.tests.sort(key=lambda r: order.get(r.name, len(order)))
    return asset_result


def _crashed(asset_result, remaining, current, process, config, on_test_end=None) -> None:
    process.join(timeout=5)
    code = process.exitcode
    how = f"signal {-code}" if code is not None and code < 0 else f"exit code {code}"
    name = current or (remaining[0] if remaining else None)
    if name is None:
        return
    _record_error(asset_result, remaining, name, f"engine crashed: the worker process died ({how}) during this test", config, on_test_end)


def _record_error(asset_result, remaining, name, reason, config, on_test_end=None) -> None:
    registry = default_registry()
    test_cls = registry.get(name)
    result = error_result(name, reason, config.for_test(name).model_dump(), test_cls.version, test_cls.features)
    asset_result.tests.append(result)
    if name in remaining:
        remaining.remove(name)
    if on_test_end:
        on_test_end(result)
