"""Inside a worker process: warm up once, then run the jobs the parent sends, one at a time.

The process is spawned (a fresh interpreter: ovphysx is not fork-safe), imports pxr, the tests and
the first job's engine once, and then serves jobs until the parent says stop, the pipe closes or the
parent dies. Each test gets a fresh engine instance (`asset_run.run_asset` creates one per test), so
what a worker keeps between jobs is the interpreter and its imported modules, nothing of an asset.

Messages to the parent (one pipe, pickled tuples):
  ("phase", text)                             a first-run preparation starts (Newton's kernel compile): it has
                                             its own budget (worker.FIRST_RUN_SECONDS), not the watchdog
  ("ready", pid, warm-up seconds)             once, after the heavy imports
  ("content", sha256 or None)                the asset's content hash (AssetJob.content_key), before its tests
  ("start", test) ("alive",) ("result", json, series, peak MiB)   while an asset runs
  ("start", "call") ("alive",) ("returned", value) or ("raised", text)   while a call runs
  ("done", {"rss_mb", "retire", "runtime_readback", "plausibility"})   the job is finished (an asset's readback block, or None);
                                             `retire` names a reason to replace this worker (memory grew, a USD layer leaked)
  ("fatal", message)                         an exception escaped the run; the worker then exits
From the parent: ("asset", AssetJob.to_wire()), ("call", pickled (function, argument)) or ("stop",).
"""

from __future__ import annotations

import gc
import os
import pickle
import signal
import sys
import threading
import time
import traceback
from typing import Callable

STOP_SIGNALS = tuple(getattr(signal, name) for name in ("SIGINT", "SIGTERM") if hasattr(signal, name))
SCRATCH_ENV = "SIMREADY_WORKER_SCRATCH"  # the worker's own temp folder (worker_pool), removed when it exits
RETIRE_GROWTH_MB = 768.0  # resident memory this far above what the worker had after its first asset: replace it


# -- progress ----------------------------------------------------------------------------------------
_call_heartbeat: Callable[[], None] | None = None  # set while a call runs in this worker


def physics_progressed() -> None:
    """For work run as a call (`fix`'s probe steps the engine itself): tells the parent's watchdog that
    physics is stepping, so only a real hang stops the worker. A no-op outside a worker's call."""
    if _call_heartbeat is not None:
        _call_heartbeat()


# -- memory ------------------------------------------------------------------------------------------
def _status_mb(field: str) -> float | None:
    try:
        with open("/proc/self/status", encoding="ascii") as status:
            for line in status:
                if line.startswith(field + ":"):
                    return round(int(line.split()[1]) / 1024, 1)
    except OSError:
        pass
    return None


def peak_rss_mb() -> float | None:
    """Peak resident memory of this process since the last `reset_peak_rss` (else since it started), MiB."""
    peak = _status_mb("VmHWM")
    if peak is not None:
        return peak
    try:
        import resource

        peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
        return round(peak / (1 << 20) if sys.platform == "darwin" else peak / 1024, 1)  # bytes on macOS, KiB on Linux
    except (ImportError, OSError):
        return None


def current_rss_mb() -> float | None:
    return _status_mb("VmRSS")


def reset_peak_rss() -> None:
    """Start a new peak (Linux: '5' to /proc/self/clear_refs resets VmHWM), so each asset reports its own."""
    try:
        with open("/proc/self/clear_refs", "w", encoding="ascii") as refs:
            refs.write("5")
    except OSError:
        pass  # elsewhere the peak is the worker's whole life so far


TRIM_EVERY = 16  # assets between two malloc_trim calls (one cost 1.3 CPU ms a prop, 1 % of its time, measured)
_released = [0]


def release_memory(keep: bool = False) -> None:
    """Free what the finished asset left: cycles (engines, stages), then, every TRIM_EVERY assets, glibc's free lists.
    `keep`: what is left is the worker's for good (the imports after its warm-up, the runtime's caches after its first
    asset), so later collections skip it (gc.freeze): a full collection walked those ~160 000 objects after every
    asset, 120 CPU ms of a small prop's ~230 (measured), while an asset's own cycles are found as before."""
    gc.collect()
    if keep:
        gc.freeze()
    _released[0] += 1
    if keep or _released[0] % TRIM_EVERY == 0:
        _trim()


def _trim() -> None:
    """glibc's free lists back to the system (malloc_trim), where there is glibc."""
    try:
        import ctypes

        ctypes.CDLL("libc.so.6").malloc_trim(0)
    except (OSError, AttributeError):
        pass


# -- between assets ----------------------------------------------------------------------------------
def leaked_layers() -> list[str]:
    """USD layers with a file behind them still in memory after an asset (none, normally: the reader and
    the engines drop their stages). A later asset opening the same file would get this copy, with any
    in-memory edits and without changes made on disk since, so a worker that has one retires."""
    try:
        from pxr import Sdf
    except ImportError:
        return []
    return sorted(layer.identifier for layer in Sdf.Layer.GetLoadedLayers() if not layer.anonymous)


def retire_reason(baseline_mb: float | None) -> str:
    """Why this worker should not take another asset ("" = it may)."""
    kept = leaked_layers()
    if kept:
        return f"USD layers still loaded after the asset: {', '.join(kept[:3])}"
    rss = current_rss_mb()
    if baseline_mb is not None and rss is not None and rss - baseline_mb > RETIRE_GROWTH_MB:
        _trim()  # free lists not yet given back (release_memory trims every TRIM_EVERY assets) are no growth
        rss = current_rss_mb() or rss
        if rss - baseline_mb > RETIRE_GROWTH_MB:
            return f"resident memory grew from {baseline_mb:.0f} to {rss:.0f} MiB"
    return ""


def warm_up(engine: str | None, notice: Callable[[str], None] | None = None) -> None:
    """The heavy imports, once per worker: pxr, the tests (and their plugins), the engine's package.

    The engine class's `prepare_process()` (EngineBase; a no-op unless the engine has a runtime to start) starts it
    for this process (ovphysx: import, CPU mode, threads, schema registration; Newton: its kernels compiled on a
    first run, after `notice` told the parent, which gives that phase its own budget); it runs here, so the
    first asset does not pay for it and runs in the same process state as every later one. One engine
    instance is then created and closed.
    """
    from ..physics_tests import default_registry

    default_registry()
    import pxr.Usd  # noqa: F401

    if not engine:
        return
    try:
        from ..engines import create_engine, engine_class

        engine_class(engine).prepare_process(notice)
        create_engine(engine).close()
    except Exception:  # noqa: BLE001 - the asset's tests report an unavailable engine themselves
        pass


def _exit_with_parent(parent_alive_fd: int) -> None:
    """Daemon thread: end this worker when the parent dies (even mid-test), instead of running on alone.
    The parent holds the write end of this pipe and never writes: EOF means it is gone."""
    try:
        while os.read(parent_alive_fd, 1):
            pass
    except OSError:
        pass
    _quick_exit(1)


def main() -> None:
    """Entry point of the spawned process: `python -c <boot> SOCKET_FD PARENT_ALIVE_FD ENGINE`."""
    from multiprocessing.connection import Connection

    socket_fd, parent_alive_fd, engine = int(sys.argv[1]), int(sys.argv[2]), sys.argv[3]
    serve(Connection(socket_fd), engine or None, parent_alive_fd)


def serve(conn, engine: str | None, parent_alive_fd: int | None = None) -> None:
    """The worker's loop: warm up, then one job after another until told to stop."""
    import warnings

    # Ctrl-C and SIGTERM belong to the parent: it stops the workers and keeps their results. The parent started
    # this process with both blocked, so none could land before these lines.
    for signum in STOP_SIGNALS:
        signal.signal(signum, signal.SIG_IGN)
    if hasattr(signal, "pthread_sigmask"):
        signal.pthread_sigmask(signal.SIG_UNBLOCK, set(STOP_SIGNALS))
    warnings.filterwarnings("ignore")
    if parent_alive_fd is not None:
        threading.Thread(target=_exit_with_parent, args=(parent_alive_fd,), name="parent-watch", daemon=True).start()
    started = time.monotonic()
    status = 0
    try:
        warm_up(engine, lambda text: conn.send(("phase", text)))
        from .asset_run import RunHooks, run_asset
        from .inputs import AssetJob

        release_memory(keep=True)
        conn.send(("ready", os.getpid(), round(time.monotonic() - started, 3)))
        baseline = None  # resident memory after the first job (an engine may load its runtime only then)
        home = os.getcwd()
        while True:
            try:
                message = conn.recv()
            except (EOFError, OSError):
                return
            kind = message[0] if message else None
            result = None
            if kind in ("asset", "call"):
                from ..core import out_writer

                out_writer.adopt(message[2] if len(message) > 2 else None)  # the parent's claimed OUT, for this job
            if kind == "asset":
                reset_peak_rss()
                result = run_asset(AssetJob.from_wire(message[1]), _hooks(conn, RunHooks))
            elif kind == "call":
                _run_call(conn, message[1])
            else:
                return
            if os.getcwd() != home:
                os.chdir(home)
            release_memory(keep=baseline is None)
            reason = retire_reason(baseline)
            baseline = current_rss_mb() if baseline is None else baseline
            readback = result.runtime_readback.model_dump(mode="json") if result is not None and result.runtime_readback else None
            checked = result.plausibility.model_dump(mode="json") if result is not None and result.plausibility else None
            conn.send(("done", {"rss_mb": current_rss_mb(), "retire": reason, "runtime_readback": readback,
                                "plausibility": checked}))
            if reason:
                return
    except BaseException as exc:  # noqa: BLE001 - report, never die silently
        status = 1
        try:
            conn.send(("fatal", f"{type(exc).__name__}: {exc}"))
        except Exception:  # noqa: BLE001
            pass
    finally:
        conn.close()
        _quick_exit(status)


def _quick_exit(status: int) -> None:
    """Leave without interpreter teardown: everything was sent, and native runtimes can crash in their
    static destructors at exit (ovphysx printed "pure virtual method called" and aborted). No atexit handler runs,
    so the worker's temp folder (its runtime's caches) goes here, and again by the parent after it exited."""
    for stream in (sys.stdout, sys.stderr):
        try:
            stream.flush()
        except Exception:  # noqa: BLE001
            pass
    scratch = os.environ.get(SCRATCH_ENV)
    if scratch:
        import shutil

        shutil.rmtree(scratch, ignore_errors=True)
    os._exit(status)


def _run_call(conn, payload: bytes) -> None:
    """fn(arg) from a pickled (fn, arg): ("returned", value), or ("raised", why) when it raised (or its
    value does not pickle). Heartbeats come from `physics_progressed`."""
    from .asset_run import rate_limited

    global _call_heartbeat
    conn.send(("start", "call"))
    _call_heartbeat = rate_limited(lambda: conn.send(("alive",)))
    try:
        fn, arg = pickle.loads(payload)
        conn.send(("returned", fn(arg)))
    except Exception as exc:  # noqa: BLE001 - the caller gets it as its error text
        conn.send(("raised", f"{type(exc).__name__}: {exc}\n{traceback.format_exc(limit=6)}"))
    finally:
        _call_heartbeat = None


def _hooks(conn, hooks_cls):
    def started(name: str) -> None:
        conn.send(("start", name))

    def ended(result) -> None:
        conn.send(("result", result.model_dump(mode="json"), result.series, peak_rss_mb()))

    def alive() -> None:
        conn.send(("alive",))

    def content(digest) -> None:
        conn.send(("content", digest))

    def notice(text: str) -> None:
        conn.send(("phase", text))

    return hooks_cls(started, ended, alive, content=content, notice=notice)
