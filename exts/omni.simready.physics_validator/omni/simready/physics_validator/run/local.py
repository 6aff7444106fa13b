"""Local executor: N assets at a time, each in a spawned worker process of this run's pool.

Every asset goes through `run_asset_isolated`, which turns hangs and native crashes into ERROR
verdicts and replaces the lost worker. Here N supervisor threads each borrow one worker from the
run's `WorkerPool`, so N assets run at once in at most N workers; a worker keeps its interpreter and
imports for the next asset (or, with SIMREADY_WORKER_START=spawn, is replaced after every asset).
Events reach the caller in its own thread through a queue, which keeps cache writes and progress
updates single-threaded. The pool is closed when the events end: idle workers exit, and on Ctrl-C
(or any early end) busy ones are killed, so no worker outlives the run.
"""

from __future__ import annotations

import queue
import threading
from typing import Iterator

from ..core.results import AssetResult, TestResult
from .asset_run import RunHooks, run_asset
from .inputs import AssetJob
from .worker import run_asset_isolated
from .worker_pool import WorkerPool, worker_mode

# ("test", job index, TestResult) as each test ends, then ("asset", job index, AssetResult).
Event = tuple[str, int, "TestResult | AssetResult"]


class LocalExecutor:
    name = "local"

    def __init__(self, jobs: int, isolate: bool = True):
        self.jobs = max(1, int(jobs))
        self.isolate = isolate

    def describe(self) -> str:
        if not self.isolate:
            return "local, 1 at a time, in this process"
        mode = "worker processes kept across assets" if worker_mode() == "reuse" else "a fresh worker process per asset"
        return f"local, {self.jobs} at a time, {mode}"

    def events(self, jobs: list[AssetJob]) -> Iterator[Event]:
        if not self.isolate:  # the physics engine is not thread-safe: in-process means one at a time
            for index, job in enumerate(jobs):
                tests: list[TestResult] = []
                asset_result = run_asset(job, RunHooks(test_ended=tests.append))
                for result in tests:
                    yield ("test", index, result)
                yield ("asset", index, asset_result)
            return
        todo: queue.Queue = queue.Queue()
        for index, job in enumerate(jobs):
            todo.put((index, job))
        done: queue.Queue = queue.Queue()
        stop = threading.Event()
        pool = WorkerPool()

        def supervise() -> None:
            while not stop.is_set():
                try:
                    index, job = todo.get_nowait()
                except queue.Empty:
                    return
                try:
                    def on_test(result, i: int = index) -> None:
                        done.put(("test", i, result))

                    asset_result = run_asset_isolated(job, None, on_test, pool)
                except BaseException as exc:  # noqa: BLE001 - the caller turns this into ERROR verdicts
                    done.put(("failed", index, f"{type(exc).__name__}: {exc}"))
                else:
                    done.put(("asset", index, asset_result))

        # Daemon threads: an interrupted run must not wait for in-flight assets at exit; closing the
        # pool kills their workers (which are daemonic as well).
        threads = [threading.Thread(target=supervise, name=f"batch-{n}", daemon=True) for n in range(min(self.jobs, len(jobs)))]
        for thread in threads:
            thread.start()
        remaining = len(jobs)
        try:
            while remaining:
                try:
                    event = done.get(timeout=0.2)  # a timeout keeps Ctrl-C responsive
                except queue.Empty:
                    continue
                if event[0] in ("asset", "failed"):
                    remaining -= 1
                yield event
        finally:
            stop.set()
            pool.close(kill=remaining > 0)
