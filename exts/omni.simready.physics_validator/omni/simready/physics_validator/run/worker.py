"""Isolated runs: each asset in a worker process, so a hang or a native crash costs one verdict, not the run.

Workers are spawned interpreters (`worker_pool`), by default kept across assets; the parent lends one
to an asset, sends it the job and watches the stream it sends back (`worker_main`): ("start", test),
("alive",) heartbeats at most once a second while physics steps, ("result", ...) per test and
("done", ...) per asset. A test that shows no physics progress within the watchdog (a native hang
inside the engine), or has not decided after max_test_seconds, gets the worker killed and an ERROR
verdict; a worker that dies (a native crash) gives ERROR for the test it was running. Either way the
worker is never lent again and the remaining tests of that asset go on in a fresh worker. Before the
first test and between tests the same limit applies to any message at all (a hang while reading the
asset); a new worker has STARTUP_SECONDS for its imports.
"""

from __future__ import annotations

import dataclasses
import time
from typing import Callable

from ..core.results import AssetResult, TestResult
from ..core.codes import CommonCode
from ..core.session import error_result
from ..physics_tests import default_registry
from .asset_run import RunInterrupted, config_from_dict
from .inputs import AssetJob, file_sha256
from .worker_main import peak_rss_mb
from .worker_pool import PoolClosed, Worker, WorkerPool, shared_pool

__all__ = ["STARTUP_SECONDS", "WORKER_GRACE_SECONDS", "peak_rss_mb", "run_asset_isolated"]

WORKER_GRACE_SECONDS = 20.0  # at most this on top of the per-test watchdog, for load and video encoding
STARTUP_SECONDS = 120.0  # a new worker's interpreter start, imports and engine set-up (~0.5-1 s measured)


def run_asset_isolated(
    job: AssetJob,
    watchdog_seconds: float,
    on_test_start: Callable[[str], None] | None = None,
    on_test_end: Callable[[TestResult], None] | None = None,
    pool: WorkerPool | None = None,
) -> AssetResult:
    """Validate one asset in a worker process (a fresh one after a crash or hang); hangs and crashes
    become ERROR verdicts. Without a pool, the process-wide `shared_pool()` lends the worker."""
    pool = pool or shared_pool()
    asset_result = AssetResult(path=job.path, sha256=job.sha256 or file_sha256(job.path))
    watch = _Watch(asset_result, list(job.tests), config_from_dict(job.config), watchdog_seconds, on_test_start, on_test_end, pool)
    while watch.remaining:
        worker = pool.acquire(job.engine)
        try:
            reusable = watch.supervise(worker, dataclasses.replace(job, tests=list(watch.remaining), sha256=asset_result.sha256))
        except KeyboardInterrupt:
            pool.discard(worker)
            raise RunInterrupted(asset_result) from None
        except BaseException:
            pool.discard(worker)
            raise
        if reusable:
            pool.release(worker, retire=watch.retire)
        else:
            pool.discard(worker)
    order = {name: i for i, name in enumerate(job.tests)}
    asset_result.tests.sort(key=lambda r: order.get(r.name, len(order)))
    return asset_result


class _Watch:
    """The parent's view of one asset's run: what is left, the test in flight, and the limits."""

    def __init__(self, asset_result, remaining, config, watchdog_seconds, on_test_start, on_test_end, pool):
        self.asset_result = asset_result
        self.remaining: list[str] = remaining
        self.config = config
        self.watchdog = watchdog_seconds
        self.grace = min(WORKER_GRACE_SECONDS, 2.0 + watchdog_seconds)
        self.on_test_start, self.on_test_end = on_test_start, on_test_end
        self.retire = ""
        self.pool = pool

    def supervise(self, worker: Worker, job: AssetJob) -> bool:
        """Run `job` on `worker` until it is done (True: the worker may take another asset) or lost
        (False: it crashed, hung or failed; the verdicts say so and it must be killed)."""
        try:
            worker.send_job(job)
        except (OSError, ValueError):
            return self._crashed(worker, None)
        current: str | None = None
        now = time.monotonic()
        last_message = started_at = last_progress = now
        progress_limit = self.watchdog + self.grace
        max_seconds = self.config.run.max_test_seconds + self.grace
        while True:
            if worker.conn.poll(0.2):
                try:
                    message = worker.conn.recv()
                except (EOFError, OSError):
                    return self._crashed(worker, current)
                last_message = time.monotonic()
                kind = message[0]
                if kind == "ready":
                    worker.ready, worker.warm_up_seconds = True, message[2]
                elif kind == "alive":
                    last_progress = last_message
                elif kind == "start":
                    current, started_at = message[1], last_message
                    last_progress = started_at
                    if self.on_test_start:
                        self.on_test_start(current)
                elif kind == "result":
                    self._result(message)
                    current = None
                elif kind == "done":
                    self.retire = message[1].get("retire", "") if len(message) > 1 else ""
                    self.remaining.clear()
                    return True
                elif kind == "fatal":
                    self._error(current or self.remaining[0], f"internal error in worker: {message[1]}", CommonCode.TEST_RAISED)
                    return False
                continue
            if not worker.alive():
                return self._crashed(worker, current)
            # The watchdog counts from the last sign of physics progress (a heartbeat at most every
            # second while steps complete), so a large robot that steps slowly is never taken for a hang.
            now = time.monotonic()
            if not worker.ready:
                if now - worker.started > max(STARTUP_SECONDS, progress_limit):
                    self._error(self.remaining[0], f"hang: the worker process did not start within {now - worker.started:.0f} s; "
                                                   "it was stopped", CommonCode.HANG)
                    return False
            elif current is not None:
                if now - last_progress > progress_limit:
                    self._error(current, f"hang: no physics progress for {now - last_progress:.0f} s "
                                         f"(watchdog {self.watchdog:g} s); the worker was stopped", CommonCode.HANG)
                    return False
                if now - started_at > max_seconds:
                    self._error(current, f"no verdict after {now - started_at:.0f} s (max_test_seconds "
                                         f"{self.config.run.max_test_seconds:g} s watchdog); the worker was stopped",
                                CommonCode.NO_DECISION_IN_TIME)
                    return False
            elif now - last_message > progress_limit:
                self._error(self.remaining[0], f"hang: no progress for {now - last_message:.0f} s before the test started "
                                               f"(watchdog {self.watchdog:g} s); the worker was stopped", CommonCode.HANG)
                return False

    def _result(self, message) -> None:
        result = TestResult.model_validate(message[1])
        result.series = message[2] or {}
        if len(message) > 3 and message[3] is not None:
            self.asset_result.peak_rss_mb = max(self.asset_result.peak_rss_mb or 0.0, message[3])
        self.asset_result.tests.append(result)
        if result.name in self.remaining:
            self.remaining.remove(result.name)
        if self.on_test_end:
            self.on_test_end(result)

    def _crashed(self, worker: Worker, current: str | None) -> bool:
        if self.pool.closed:  # the run was stopped (Ctrl-C) and its workers killed: no crash to report
            raise PoolClosed("the run was stopped while this asset ran")
        how = worker.exit_description()
        name = current or (self.remaining[0] if self.remaining else None)
        if name is not None:
            when = "during this test" if worker.ready else "while it started (imports, engine set-up)"
            self._error(name, f"engine crashed: the worker process died ({how}) {when}", CommonCode.WORKER_CRASHED)
        return False

    def _error(self, name: str, reason: str, code: CommonCode) -> None:
        registry = default_registry()
        test_cls = registry.get(name)
        result = error_result(name, reason, self.config.for_test(name).model_dump(), test_cls.version, test_cls.features,
                              code)
        self.asset_result.tests.append(result)
        if name in self.remaining:
            self.remaining.remove(name)
        if self.on_test_end:
            self.on_test_end(result)
