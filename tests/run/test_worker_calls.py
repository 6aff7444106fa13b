"""Calls in the run layer's workers (what `fix` measures with): a value, or an error text for an exception, a crash
or a hang, under the same watchdog and max_test_seconds as a test; the worker is kept across calls and replaced
after a lost one; a ValidationConfig crosses as its dump and arrives parsed."""

from __future__ import annotations

import os
import re
import signal
import threading
import time

from omni.simready.physics_validator.core.config import RunConfig, ValidationConfig
from omni.simready.physics_validator.physics_tests import default_registry
from omni.simready.physics_validator.run.worker import run_call_isolated, run_calls
from omni.simready.physics_validator.run.worker_main import physics_progressed
from omni.simready.physics_validator.run.worker_pool import Worker, WorkerPool


def job(arg):
    """Module level, so a worker can import it: what the call does is named by arg[0]."""
    kind = arg[0]
    if kind == "value":
        return {"pid": os.getpid(), "double": 2 * arg[1]}
    if kind == "raise":
        raise ValueError("the probe could not load the asset")
    if kind == "crash":
        os.kill(os.getpid(), signal.SIGKILL)
    if kind == "hang":
        time.sleep(600)
    if kind == "stepping":  # physics that progresses for arg[1] s, longer than the watchdog
        end = time.monotonic() + arg[1]
        while time.monotonic() < end:
            time.sleep(0.02)
            physics_progressed()
        return "stepped"
    if kind == "config":
        config = arg[1]
        return type(config).__name__, os.getpid(), config.for_test("ground_drop").rest_tolerance_m
    raise AssertionError(kind)


def _run(watchdog: float = 2.0, max_seconds: float = 3600.0, isolate: bool = True) -> RunConfig:
    return RunConfig(watchdog_seconds=watchdog, max_test_seconds=max_seconds, isolate=isolate)


def test_each_call_gets_its_value_or_why_not_and_a_lost_one_costs_only_itself():
    # watchdog 2 s + grace 4 s: silence for 6 s is a hang; "stepping" runs 9 s but beats
    args = [("value", 1), ("raise",), ("crash",), ("hang",), ("stepping", 9.0), ("value", 5)]
    results = run_calls(job, args, _run(), jobs=2)
    (one, no_error), raised, crashed, hung, stepped, (five, no_error_either) = results
    assert (one["double"], no_error, five["double"], no_error_either) == (2, "", 10, "")
    assert raised[0] is None and raised[1].startswith("ValueError: the probe could not load the asset"), raised
    assert crashed == (None, "engine crashed: the worker process died (signal 9) during this call"), crashed
    assert hung[0] is None, hung
    assert re.match(r"hang: no physics progress for [67] s \(watchdog 2 s\); the worker was stopped$", hung[1]), hung
    assert stepped == ("stepped", ""), stepped
    assert os.getpid() not in (one["pid"], five["pid"])  # in worker processes, not here


def test_a_call_that_never_ends_stops_at_max_test_seconds():
    value, error = run_calls(job, [("stepping", 600.0)], _run(watchdog=2.0, max_seconds=3.0))[0]
    assert value is None and re.match(r"no result after [78] s \(max_test_seconds 3 s watchdog\); the worker was stopped$",
                                      error), error


def test_a_worker_serves_call_after_call_and_is_replaced_after_a_crash():
    pool = WorkerPool(reuse=True)
    try:
        first = run_call_isolated(job, ("value", 1), _run(), pool=pool)[0]["pid"]
        second = run_call_isolated(job, ("value", 2), _run(), pool=pool)[0]["pid"]
        assert first == second and pool.spawned == 1
        assert run_call_isolated(job, ("crash",), _run(), pool=pool)[1].startswith("engine crashed")
        third = run_call_isolated(job, ("value", 3), _run(), pool=pool)[0]["pid"]
        assert third != first and pool.spawned == 2
    finally:
        pool.close()


def test_the_config_crosses_as_its_dump_and_arrives_parsed():
    config = ValidationConfig.defaults(default_registry())
    config.apply({"ground_drop": {"rest_tolerance": 0.037}})
    (isolated, _), = run_calls(job, [("config", config)], _run())
    name, pid, tolerance = isolated
    assert (name, tolerance) == ("ValidationConfig", 0.037) and pid != os.getpid()


def test_not_isolated_the_calls_run_here_one_by_one():
    results = run_calls(job, [("value", 4), ("raise",)], _run(isolate=False), jobs=2)
    assert results[0] == ({"pid": os.getpid(), "double": 8}, "")
    assert results[1] == (None, "ValueError: the probe could not load the asset")


def test_a_worker_reaped_from_several_threads_at_once_closes_its_pipe_once():
    """A SIGTERM to the process group: a supervisor thread reaps the worker its call lost while the closing pool reaps
    it too; the parent-alive pipe closed twice was EBADF in the closing pool (the run ended without its report)."""
    errors = []
    for _ in range(6):
        worker = Worker(None)
        worker.process.kill()
        worker.process.wait()
        start = threading.Barrier(8)

        def reap(worker: Worker, start: threading.Barrier) -> None:
            start.wait()
            try:
                worker.reap(1.0)
            except OSError as exc:
                errors.append(exc)
        threads = [threading.Thread(target=reap, args=(worker, start)) for _ in range(8)]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
    assert not errors
