"""Run measurement jobs in spawned processes, `jobs` at a time, each with a time limit.

The probe loads the physics engine several times per asset; a native crash or a hang there must cost that
asset's proposal, not the run (as `run.worker` does for the tests). Spawned, never forked: the physx engine's
runtime is not fork-safe. Results come back pickled through a pipe; a process that dies, raises or overruns
gives an error string instead.
"""

from __future__ import annotations

import importlib
import json
import os
import pickle
import subprocess
import sys
import tempfile
import traceback
from concurrent.futures import ThreadPoolExecutor
from multiprocessing import spawn
from pathlib import Path
from typing import Callable, Iterable

DEFAULT_TIMEOUT = 1800.0  # s per job: a 30-joint robot probes in well under a minute
# As run.worker_pool: `python -c`, not multiprocessing's spawn, which would re-import the caller's __main__ (a script
# calling fix_assets() without a main guard would run again in the child).
_BOOT = ("import json, os, sys; sys.path[:] = json.loads(os.environ.pop('SIMREADY_FIX_SYS_PATH')); "
         f"from {__name__} import serve; serve(sys.argv[1], sys.argv[2])")


def serve(job_path: str, result_path: str) -> None:
    """In the child: unpickle (module, function, argument), run it, pickle ("ok", result) or ("error", text)."""
    try:
        module, name, arg = pickle.loads(Path(job_path).read_bytes())
        outcome = ("ok", getattr(importlib.import_module(module), name)(arg))
    except BaseException as exc:  # noqa: BLE001 - everything goes back as text
        outcome = ("error", f"{type(exc).__name__}: {exc}\n{traceback.format_exc(limit=6)}")
    Path(result_path).write_bytes(pickle.dumps(outcome))
    sys.stdout.flush()
    sys.stderr.flush()
    os._exit(0)  # the engine runtime's static destructors are not needed (and may abort) at exit


def run_one(fn: Callable, arg, timeout: float = DEFAULT_TIMEOUT):
    """fn(arg) in a spawned interpreter: (result, "") or (None, why it failed)."""
    with tempfile.TemporaryDirectory(prefix="simready_fix_") as tmp:
        job, result, log = Path(tmp) / "job.pkl", Path(tmp) / "result.pkl", Path(tmp) / "stderr.txt"
        job.write_bytes(pickle.dumps((fn.__module__, fn.__qualname__, arg)))
        env = dict(os.environ, SIMREADY_FIX_SYS_PATH=json.dumps([p for p in sys.path if isinstance(p, str)]))
        with open(log, "wb") as err:
            proc = subprocess.Popen([spawn.get_executable(), "-c", _BOOT, str(job), str(result)],
                                    stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=err, env=env)
            try:
                proc.wait(timeout)
            except subprocess.TimeoutExpired:
                proc.kill()
                proc.wait(5)
                return None, f"measurement did not finish within {timeout:.0f} s (killed)"
        if not result.exists():
            tail = log.read_text(errors="replace").strip().splitlines()[-3:]
            return None, f"measurement process died (exit code {proc.returncode}): the engine crashed {' / '.join(tail)}".strip()
        kind, payload = pickle.loads(result.read_bytes())
    return (payload, "") if kind == "ok" else (None, payload)


def run_many(fn: Callable, args: Iterable, jobs: int = 1, timeout: float = DEFAULT_TIMEOUT, in_process: bool = False) -> list:
    """[(result, error)] for each arg, in order; `jobs` processes at a time (in_process: here, one by one)."""
    args = list(args)
    if in_process:
        out = []
        for arg in args:
            try:
                out.append((fn(arg), ""))
            except Exception as exc:  # noqa: BLE001
                out.append((None, f"{type(exc).__name__}: {exc}"))
        return out
    with ThreadPoolExecutor(max_workers=max(1, jobs)) as pool:
        return list(pool.map(lambda a: run_one(fn, a, timeout), args))
