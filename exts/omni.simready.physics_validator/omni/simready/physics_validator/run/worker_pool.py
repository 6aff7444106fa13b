"""Worker processes on the parent's side: spawn them, lend them to one job at a time, replace them.

A job is an asset (its tests, `send_asset`) or a call of a module-level function (`send_call`: `fix`'s
measurements); `worker.py` watches either with the same timeout policy.

Workers are always *spawned* (a fresh interpreter, never a fork): NVIDIA's ovphysx runtime is not
fork-safe (a child forked after a bare import segfaults; after simulating, it hangs). Spawning costs an
interpreter start plus the heavy imports (pxr, the engine), so by default a worker is kept for the next
asset; each test still gets a fresh engine instance. A worker that crashed, hung, reported an internal
error or asked to retire (see `worker_main.retire_reason`) is never lent again.

`SIMREADY_WORKER_START` chooses the process model:
  reuse (default)  spawned workers kept across assets (at most SIMREADY_WORKER_MAX_ASSETS each, 2000)
  spawn            a fresh spawned process for every asset (the strictest isolation, slower)
"""

from __future__ import annotations

import contextlib
import copyreg
import io
import json
import os
import pickle
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time
from multiprocessing import spawn
from multiprocessing.connection import Connection
from typing import Any, Callable

from ..core import out_writer
from ..core.config import ValidationConfig
from .inputs import AssetJob, config_from_dict
from . import worker_main

MODE_ENV = "SIMREADY_WORKER_START"
MAX_ASSETS_ENV = "SIMREADY_WORKER_MAX_ASSETS"
# A worker's start costs ~1.2 CPU s (interpreter, pxr, ovphysx, warm-up); at 200 a worker, 1,000 props started ten
# (measured). Growth is watched anyway (worker_main.RETIRE_GROWTH_MB, leaked layers); ovphysx keeps ~2 MiB per 28
# assets, ~140 MiB over 2,000.
DEFAULT_MAX_ASSETS = 2000
STOP_SECONDS = 2.0
# A worker's temp folder: ovphysx's cache (up to 7 MB) and schema-probe folders, the wrapper stages. A worker leaves
# without interpreter teardown (worker_main._quick_exit), so nothing would remove them: the folder goes as a whole.
TEMP_VARIABLES = ("TMPDIR", "TEMP", "TMP")
_BOOT = ("import json, os, sys; sys.path[:] = json.loads(os.environ.pop('SIMREADY_WORKER_SYS_PATH')); "
         f"from {worker_main.__name__} import main; main()")


class PoolClosed(RuntimeError):
    """The run is over (finished or interrupted): no worker is lent any more."""


def worker_mode() -> str:
    """'reuse' or 'spawn' (from SIMREADY_WORKER_START; 'fresh' also means spawn)."""
    value = os.environ.get(MODE_ENV, "reuse").strip().lower()
    return "spawn" if value in ("spawn", "fresh") else "reuse"


def max_assets_per_worker() -> int:
    try:
        return max(1, int(os.environ.get(MAX_ASSETS_ENV, DEFAULT_MAX_ASSETS)))
    except ValueError:
        return DEFAULT_MAX_ASSETS


@contextlib.contextmanager
def _sigint_blocked():
    """Start children with SIGINT and SIGTERM blocked (the mask survives exec): Ctrl-C or a SIGTERM to the process
    group cannot hit a worker before it ignores them; `worker_main.serve` unblocks them. Works from any thread,
    unlike signal.signal."""
    if not hasattr(signal, "pthread_sigmask"):
        yield
        return
    old = signal.pthread_sigmask(signal.SIG_BLOCK, set(worker_main.STOP_SIGNALS))
    try:
        yield
    finally:
        signal.pthread_sigmask(signal.SIG_SETMASK, old)


class Worker:
    """One spawned worker process and the parent's end of its pipe.

    Started as `python -c <boot>` (the interpreter multiprocessing would use), not through
    multiprocessing's spawn: that would re-import the parent's `__main__` (a user's script calling
    validate() without a main guard would run again in every worker). The child gets the parent's
    sys.path, a socket for messages, the read end of a pipe the parent never writes (EOF on it means the
    parent is gone, and the worker exits: `worker_main.main`) and a temp folder of its own, removed once it exited.
    """

    def __init__(self, engine: str | None):
        ours, theirs = socket.socketpair()
        parent_alive_r, parent_alive_w = os.pipe()
        self._parent_alive_w: int | None = parent_alive_w
        self._reaped = threading.Lock()  # a supervisor thread and the closing pool may reap at once (SIGTERM to the group)
        self.scratch = tempfile.mkdtemp(prefix="simready-worker-")  # its temp folder; removed when it has exited
        env = dict(os.environ, SIMREADY_WORKER_SYS_PATH=json.dumps([p for p in sys.path if isinstance(p, str)]),
                   **{name: self.scratch for name in (*TEMP_VARIABLES, worker_main.SCRATCH_ENV)})
        command = [spawn.get_executable(), "-c", _BOOT, str(theirs.fileno()), str(parent_alive_r), engine or ""]
        try:
            with _sigint_blocked():
                self.process = subprocess.Popen(
                    command, stdin=subprocess.DEVNULL, pass_fds=(theirs.fileno(), parent_alive_r), env=env
                )
        except BaseException:
            ours.close()
            os.close(parent_alive_w)
            shutil.rmtree(self.scratch, ignore_errors=True)
            raise
        finally:
            theirs.close()
            os.close(parent_alive_r)
        self.conn = Connection(ours.detach())
        self.ready = False
        self.jobs_taken = 0  # assets and calls sent to it
        self.started = time.monotonic()
        self.warm_up_seconds: float | None = None

    @property
    def pid(self) -> int:
        return self.process.pid

    def send_asset(self, job: AssetJob) -> None:
        self.jobs_taken += 1
        self.conn.send(("asset", job.to_wire(), out_writer.roots()))  # OUT as the parent claimed it (core.out_writer)

    def send_call(self, fn: Callable[[Any], Any], arg: Any) -> None:
        """Ask for fn(arg); fn must be importable by its module and name (it is pickled by reference)."""
        self.jobs_taken += 1
        self.conn.send(("call", pickle_for_worker((fn, arg)), out_writer.roots()))

    def alive(self) -> bool:
        return self.process.poll() is None

    def exit_description(self) -> str:
        try:
            code = self.process.wait(timeout=5)
        except subprocess.TimeoutExpired:
            code = None
        return f"signal {-code}" if code is not None and code < 0 else f"exit code {code}"

    def kill(self) -> None:
        if self.process.poll() is None:
            self.process.kill()
        self.reap(5.0)

    def stop(self, wait: bool = True) -> None:
        """Ask it to exit; kill it if it has not within STOP_SECONDS (a native runtime's teardown may
        hang; a worker holds nothing that needs saving once it has sent "done")."""
        try:
            self.conn.send(("stop",))
        except (OSError, ValueError):
            pass
        if wait:
            self.reap(STOP_SECONDS)
            self.kill()

    def reap(self, timeout: float) -> None:
        try:
            self.process.wait(timeout=timeout)
        except subprocess.TimeoutExpired:
            return
        with self._reaped:  # once: a second os.close of the fd was EBADF, or closed a descriptor reused meanwhile
            fd, self._parent_alive_w = self._parent_alive_w, None
            self.conn.close()
        if fd is not None:
            os.close(fd)
        shutil.rmtree(self.scratch, ignore_errors=True)  # what its runtime left (a worker killed mid-test cannot clean up)


def pickle_for_worker(value: Any) -> bytes:
    """`value` pickled for a worker, with any ValidationConfig in it as its dict, parsed once on arrival
    (`config_from_dict`): the config's test classes come from the registry, which the worker builds itself."""
    buffer = io.BytesIO()
    pickler = pickle.Pickler(buffer, protocol=pickle.HIGHEST_PROTOCOL)
    pickler.dispatch_table = {**copyreg.dispatch_table, ValidationConfig: lambda config: (config_from_dict, (config.to_dict(),))}
    pickler.dump(value)
    return buffer.getvalue()


class WorkerPool:
    """Workers lent to one job at a time. Thread-safe: each supervising thread borrows its own."""

    def __init__(self, reuse: bool | None = None, max_assets: int | None = None):
        self.reuse = worker_mode() == "reuse" if reuse is None else reuse
        self.max_assets = max_assets or max_assets_per_worker()
        self._idle: list[Worker] = []
        self._all: set[Worker] = set()
        self._lock = threading.Lock()
        self.closed = False
        self.spawned = 0  # workers started so far
        self.retired: list[str] = []  # why workers asked to be replaced

    def acquire(self, engine: str | None = None) -> Worker:
        with self._lock:
            if self.closed:
                raise PoolClosed("the run is over")
            while self._idle:
                worker = self._idle.pop()
                if worker.alive():
                    return worker
                self._all.discard(worker)
        worker = Worker(engine)
        with self._lock:
            self.spawned += 1
            self._all.add(worker)
            closed = self.closed
        if closed:  # closed while this one was starting
            self.discard(worker)
            raise PoolClosed("the run is over")
        return worker

    def release(self, worker: Worker, retire: str = "") -> None:
        """Back to the pool after a finished asset, or stopped when it must not take another one
        (`retire`: the worker's own reason, see `worker_main.retire_reason`)."""
        if retire:
            self.retired.append(retire)
        keep = not retire and self.reuse and worker.jobs_taken < self.max_assets and worker.alive()
        with self._lock:
            if keep and not self.closed:
                self._idle.append(worker)
                return
            self._all.discard(worker)
        worker.stop()

    def discard(self, worker: Worker) -> None:
        """Kill a worker that crashed, hung or was interrupted; it is never lent again."""
        with self._lock:
            self._all.discard(worker)
            if worker in self._idle:
                self._idle.remove(worker)
        worker.kill()

    def close(self, kill: bool = False) -> None:
        """End every worker: idle ones are asked to exit; with kill=True (Ctrl-C) busy ones are killed too."""
        with self._lock:
            self.closed = True
            idle, busy = list(self._idle), [w for w in self._all if w not in self._idle]
            self._idle.clear()
            self._all.clear()
        for worker in busy if kill else ():
            worker.kill()
        for worker in idle:  # all asked first, so they exit in parallel
            worker.stop(wait=False)
        deadline = time.monotonic() + STOP_SECONDS
        for worker in idle:
            worker.reap(max(0.0, deadline - time.monotonic()))
            worker.kill()


_SHARED: WorkerPool | None = None
_SHARED_LOCK = threading.Lock()


def shared_pool() -> WorkerPool:
    """The process-wide pool for callers without one of their own (a Ray task, a single isolated run):
    a Ray worker that runs many tasks keeps its warmed-up worker between them."""
    global _SHARED
    with _SHARED_LOCK:
        if _SHARED is None or _SHARED.closed:
            _SHARED = WorkerPool()
            import atexit

            atexit.register(_SHARED.close, True)
        return _SHARED
