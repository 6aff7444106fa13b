"""Isolated runs: a job in a worker process, so a hang or a native crash costs one verdict (or one call), not the run.

Workers are spawned interpreters (`worker_pool`), by default kept across jobs; the parent lends one to a
job, sends it and watches the stream it sends back (`worker_main`). A job is an asset's tests
(`run_asset_isolated`) or a call of a function (`run_call_isolated`, `run_calls`: `fix`'s measurements).

One timeout policy for both, from the run config (`_Supervision.watch`): a new worker has STARTUP_SECONDS for
its imports; a unit of work (a test, a call) that shows no physics progress (heartbeats at most once a second
while the engine steps) for the watchdog, or has not finished after max_test_seconds, each plus a grace, gets
the worker killed; before the first unit and between units the same watchdog applies to any message at all (a
hang while reading the asset). A worker that dies (a native crash) or breaks the policy is never lent again:
the unit in flight gets an ERROR verdict (or an error text), and an asset's remaining tests go on in a fresh
worker.
"""

from __future__ import annotations

import dataclasses
import sys
import threading
import time
from concurrent.futures import ThreadPoolExecutor
from typing import Any, Callable

from ..core.codes import CommonCode
from ..core.config import RunConfig
from ..core.plausibility.links import link as link_plausibility
from ..core.readback_links import link as link_readback
from ..core.results import AssetResult, Plausibility, RuntimeReadback, TestResult
from ..core.session import error_result
from ..physics_tests import default_registry
from .asset_run import RunInterrupted
from .inputs import AssetJob, file_sha256
from .interrupts import stoppable
from .worker_main import peak_rss_mb
from .worker_pool import PoolClosed, Worker, WorkerPool, shared_pool

__all__ = ["STARTUP_SECONDS", "WORKER_GRACE_SECONDS", "peak_rss_mb", "run_asset_isolated", "run_call_isolated", "run_calls"]

WORKER_GRACE_SECONDS = 20.0  # at most this on top of the per-test watchdog, for load and video encoding
STARTUP_SECONDS = 120.0  # a new worker's interpreter start, imports and engine set-up (~0.5-1 s measured)
# A first-run preparation the worker announces (("phase", text): Newton's kernel compile, ~60 s on an idle 2-core
# machine, 140 s+ on a loaded one): its own budget, instead of the startup limit or the watchdog.
FIRST_RUN_SECONDS = 1800.0
_SAID: set[str] = set()  # notices already shown by this process (a first-run phase is told once per run)
_SAID_LOCK = threading.Lock()


def run_asset_isolated(
    job: AssetJob,
    on_test_start: Callable[[str], None] | None = None,
    on_test_end: Callable[[TestResult], None] | None = None,
    pool: WorkerPool | None = None,
    on_content: Callable[[str | None], None] | None = None,
) -> AssetResult:
    """Validate one asset in a worker process (a fresh one after a crash or hang); hangs and crashes
    become ERROR verdicts. Without a pool, the process-wide `shared_pool()` lends the worker. `on_content`: the
    asset's content hash the worker reports (AssetJob.content_key)."""
    pool = pool or shared_pool()
    asset_result = AssetResult(path=job.path, sha256=job.sha256 or file_sha256(job.path))
    supervision = _AssetSupervision(job, asset_result, pool, on_test_start, on_test_end)
    supervision.on_content = on_content
    try:
        while supervision.remaining:
            _lend_and_watch(pool, job.engine, supervision)
    except KeyboardInterrupt:
        raise RunInterrupted(asset_result) from None
    order = {name: i for i, name in enumerate(job.tests)}
    asset_result.tests.sort(key=lambda r: order.get(r.name, len(order)))
    link_readback(asset_result, default_registry())
    link_plausibility(asset_result, default_registry())
    return asset_result


def run_call_isolated(fn: Callable[[Any], Any], arg: Any, run: RunConfig, engine: str | None = None,
                      pool: WorkerPool | None = None) -> tuple[Any, str]:
    """fn(arg) in a worker process warmed up for `engine`: (its value, "") or (None, why there is none: the
    exception it raised, a crash or a hang). fn must be a module-level function."""
    supervision = _CallSupervision(fn, arg, run, pool or shared_pool())
    _lend_and_watch(supervision.pool, engine, supervision)
    return supervision.value, supervision.error


def run_calls(fn: Callable[[Any], Any], args: list, run: RunConfig, engine: str | None = None,
              jobs: int = 1) -> list[tuple[Any, str]]:
    """[(value, error)] of fn(arg) for each arg, in order: `jobs` at a time in worker processes of one pool (kept
    across calls as for assets), or here one by one when the run is not isolated (`run.isolate` False)."""
    if not run.isolate:
        with stoppable():
            return [_call_here(fn, arg) for arg in args]
    if not args:
        return []
    pool = WorkerPool()
    threads = ThreadPoolExecutor(max_workers=max(1, min(jobs, len(args))), thread_name_prefix="call")
    try:
        futures = [threads.submit(run_call_isolated, fn, arg, run, engine, pool) for arg in args]
        with stoppable():  # a signal (the CLI's fix) stops the calls: their workers are killed below
            return [future.result() for future in futures]
    finally:
        pool.close(kill=True)  # idle workers exit; busy ones (Ctrl-C, an early end) are killed
        threads.shutdown(wait=True, cancel_futures=True)


def _call_here(fn: Callable[[Any], Any], arg: Any) -> tuple[Any, str]:
    try:
        return fn(arg), ""
    except Exception as exc:  # noqa: BLE001 - the caller gets it as its error text
        return None, f"{type(exc).__name__}: {exc}"


def say_once(text: str) -> None:
    """A worker's notice (a first-run phase), on stderr once per process however many workers announce it."""
    with _SAID_LOCK:
        if text in _SAID:
            return
        _SAID.add(text)
    print(text, file=sys.stderr, flush=True)


def _lend_and_watch(pool: WorkerPool, engine: str | None, supervision: "_Supervision") -> None:
    """One worker for `supervision`'s job: back to the pool when it finished cleanly, killed when it was lost."""
    worker = pool.acquire(engine)
    try:
        reusable = supervision.watch(worker)
    except BaseException:
        pool.discard(worker)
        raise
    if reusable:
        pool.release(worker, retire=supervision.retire)
    else:
        pool.discard(worker)


class _Supervision:
    """The parent's watch over one job on one worker: relays its messages and applies the timeout policy.

    Subclasses say how the job is sent (`send`), what an answer is (`answered`) and how a lost unit is
    recorded (`record_loss`, with the reason and its code); `remaining` lists the units not yet answered, in order."""

    unit = "test"  # what a unit of work is called in the reasons
    answer = "verdict"
    answers: tuple[str, ...] = ("result",)  # the message kinds that end a unit

    def __init__(self, run: RunConfig, pool: WorkerPool, remaining: list[str]):
        self.watchdog = run.watchdog_seconds
        self.max_unit_seconds = run.max_test_seconds
        self.grace = min(WORKER_GRACE_SECONDS, 2.0 + self.watchdog)
        self.pool = pool
        self.remaining = remaining
        self.retire = ""  # the worker's own reason not to take another job

    def send(self, worker: Worker) -> None:
        raise NotImplementedError

    def answered(self, message: tuple) -> None:
        raise NotImplementedError

    def record_loss(self, name: str, reason: str, code: CommonCode) -> None:
        raise NotImplementedError

    def watch(self, worker: Worker) -> bool:
        """Run the job on `worker` until it is done (True: the worker may take another job) or lost
        (False: it crashed, hung or failed; the unit in flight says so and the worker must be killed)."""
        try:
            self.send(worker)
        except (OSError, ValueError):
            return self._crashed(worker, None)
        current: str | None = None
        now = time.monotonic()
        last_message = started_at = last_progress = now
        phase_until: float | None = None  # a first-run phase is under way: no hang before this
        progress_limit = self.watchdog + self.grace
        max_seconds = self.max_unit_seconds + self.grace
        while True:
            if worker.conn.poll(0.2):
                try:
                    message = worker.conn.recv()
                except (EOFError, OSError):
                    return self._crashed(worker, current)
                last_message = time.monotonic()
                kind = message[0]
                phase_until = None
                if kind == "phase":
                    phase_until = last_message + FIRST_RUN_SECONDS
                    say_once(message[1])
                elif kind == "ready":
                    worker.ready, worker.warm_up_seconds = True, message[2]
                elif kind == "alive":
                    last_progress = last_message
                elif kind == "content":
                    self.content(message[1])
                elif kind == "start":
                    current, started_at = message[1], last_message
                    last_progress = started_at
                    self.started(current)
                elif kind in self.answers:
                    self.answered(message)
                    current = None
                elif kind == "done":
                    self.retire = message[1].get("retire", "") if len(message) > 1 else ""
                    self.finished(message[1] if len(message) > 1 else {})
                    self.remaining.clear()
                    return True
                elif kind == "fatal":
                    self._lost(current, f"internal error in worker: {message[1]}", CommonCode.TEST_RAISED)
                    return False
                continue
            if not worker.alive():
                return self._crashed(worker, current)
            # The watchdog counts from the last sign of physics progress (a heartbeat at most every
            # second while steps complete), so a large robot that steps slowly is never taken for a hang.
            now = time.monotonic()
            if phase_until is not None:
                if now > phase_until:
                    self._lost(current, f"hang: a first-run preparation took more than {FIRST_RUN_SECONDS:g} s; the "
                                        "worker was stopped", CommonCode.HANG)
                    return False
                continue
            if not worker.ready:
                if now - worker.started > max(STARTUP_SECONDS, progress_limit):
                    self._lost(None, f"hang: the worker process did not start within {now - worker.started:.0f} s; "
                                     "it was stopped", CommonCode.HANG)
                    return False
            elif current is not None:
                if now - last_progress > progress_limit:
                    self._lost(current, f"hang: no physics progress for {now - last_progress:.0f} s "
                                        f"(watchdog {self.watchdog:g} s); the worker was stopped", CommonCode.HANG)
                    return False
                if now - started_at > max_seconds:
                    self._lost(current, f"no {self.answer} after {now - started_at:.0f} s (max_test_seconds "
                                        f"{self.max_unit_seconds:g} s watchdog); the worker was stopped",
                               CommonCode.NO_DECISION_IN_TIME)
                    return False
            elif now - last_message > progress_limit:
                self._lost(None, f"hang: no progress for {now - last_message:.0f} s before the {self.unit} started "
                                 f"(watchdog {self.watchdog:g} s); the worker was stopped", CommonCode.HANG)
                return False

    def finished(self, done: dict) -> None:
        """The job's closing message (an asset's runtime readback)."""

    def started(self, name: str) -> None:
        """A unit began (the asset's test hook)."""

    def content(self, digest: str | None) -> None:
        """The job's asset content hash (an asset's cache keys)."""

    def _crashed(self, worker: Worker, current: str | None) -> bool:
        if self.pool.closed:  # the run was stopped (Ctrl-C) and its workers killed: no crash to report
            raise PoolClosed("the run was stopped while this job ran")
        how = worker.exit_description()
        when = f"during this {self.unit}" if worker.ready else "while it started (imports, engine set-up)"
        self._lost(current, f"engine crashed: the worker process died ({how}) {when}", CommonCode.WORKER_CRASHED)
        return False

    def _lost(self, current: str | None, reason: str, code: CommonCode) -> None:
        """The unit in flight (else the next one) ends with `reason`."""
        name = current or (self.remaining[0] if self.remaining else None)
        if name is None:
            return
        if name in self.remaining:
            self.remaining.remove(name)
        self.record_loss(name, reason, code)


class _AssetSupervision(_Supervision):
    """An asset's tests: each result and each lost test (as an ERROR verdict) goes into `asset_result`."""

    def __init__(self, job: AssetJob, asset_result: AssetResult, pool: WorkerPool,
                 on_test_start: Callable[[str], None] | None, on_test_end: Callable[[TestResult], None] | None):
        super().__init__(job.config.run, pool, list(job.tests))
        self.job, self.asset_result = job, asset_result
        self.on_test_start, self.on_test_end = on_test_start, on_test_end
        self.on_content: Callable[[str | None], None] | None = None

    def content(self, digest: str | None) -> None:
        if self.on_content is not None:
            self.on_content(digest)
            self.on_content = None  # once: a replacement worker for the remaining tests reports it again

    def send(self, worker: Worker) -> None:
        worker.send_asset(dataclasses.replace(self.job, tests=list(self.remaining), sha256=self.asset_result.sha256))

    def started(self, name: str) -> None:
        if self.on_test_start:
            self.on_test_start(name)

    def answered(self, message: tuple) -> None:
        result = TestResult.model_validate(message[1])
        result.series = message[2] or {}
        if len(message) > 3 and message[3] is not None:
            self.asset_result.peak_rss_mb = max(self.asset_result.peak_rss_mb or 0.0, message[3])
        if result.name in self.remaining:
            self.remaining.remove(result.name)
        self._add(result)

    def finished(self, done: dict) -> None:
        """The runtime readback the worker took (once per asset; the first worker that read it wins)."""
        if done.get("runtime_readback") and self.asset_result.runtime_readback is None:
            self.asset_result.runtime_readback = RuntimeReadback.model_validate(done["runtime_readback"])
        if done.get("plausibility") and self.asset_result.plausibility is None:
            self.asset_result.plausibility = Plausibility.model_validate(done["plausibility"])

    def record_loss(self, name: str, reason: str, code: CommonCode) -> None:
        test_cls = default_registry().get(name)
        self._add(error_result(name, reason, self.job.config.for_test(name).model_dump(), test_cls.version,
                               test_cls.features, code))

    def _add(self, result: TestResult) -> None:
        self.asset_result.tests.append(result)
        if self.on_test_end:
            self.on_test_end(result)


class _CallSupervision(_Supervision):
    """One call: its value, or the error text of why it has none."""

    unit = "call"
    answer = "result"
    answers = ("returned", "raised")

    def __init__(self, fn: Callable[[Any], Any], arg: Any, run: RunConfig, pool: WorkerPool):
        super().__init__(run, pool, ["call"])
        self.fn, self.arg = fn, arg
        self.value: Any = None
        self.error = ""

    def send(self, worker: Worker) -> None:
        worker.send_call(self.fn, self.arg)

    def answered(self, message: tuple) -> None:
        if message[0] == "returned":
            self.value = message[1]
        else:
            self.error = message[1]
        self.remaining.clear()

    def record_loss(self, name: str, reason: str, code: CommonCode) -> None:
        self.error = reason
