"""The runner: validate one asset with the selected tests on one engine, and never lose a verdict.

Each asset runs in a worker process by default. The parent watches it: a test that makes no
progress within the watchdog (a native hang inside PhysX) gets the worker killed and an ERROR
verdict, a worker that dies (a native crash) gives ERROR for the test it was running, and in both
cases the remaining tests of that asset go on in a fresh worker. In-process mode (isolate=False)
keeps the cooperative watchdog only; it is for the Kit panel and fast unit tests. Many assets, in
parallel or on a cluster, with a results cache: `batch.run.validate_batch` (public as
`omni.simready.physics_validator.validate`).
"""

from __future__ import annotations

import hashlib
import json
import multiprocessing as mp
import os
import re
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Callable, Iterable

from .config import ValidationConfig
from .plugin import PhysicsTest, default_registry
from .results import AssetResult, TestResult
from .session import TestSession, error_result, new_result
from .atomic_write import write_atomic
from .status import Status
from .usd_reader import USD_EXTENSIONS, AssetLoadError, find_usd_files, read_asset

WORKER_GRACE_SECONDS = 20.0  # at most this on top of the per-test watchdog, for load and video encoding


class InputError(ValueError):
    """Bad command-line input (nothing to validate); exit code 2."""


class RunInterrupted(KeyboardInterrupt):
    """Ctrl-C while an asset was running: carries the verdicts that asset already has, so none are lost."""

    def __init__(self, partial: AssetResult):
        super().__init__("interrupted")
        self.partial = partial


@dataclass
class AssetJob:
    path: str
    tests: list[str]
    config: dict[str, Any]
    engine: str
    out_dir: str | None
    debug: bool = False


# -- inputs ----------------------------------------------------------------------------------------
def collect_assets(paths: Iterable[str | os.PathLike]) -> tuple[list[Path], list[tuple[Path, str]]]:
    """Expand files and folders into asset files; returns (assets, problems) where a problem is (path, reason)."""
    assets: list[Path] = []
    problems: list[tuple[Path, str]] = []
    for raw in paths:
        path = Path(raw)
        if path.is_dir():
            found = find_usd_files(path)
            if not found:
                problems.append((path, f"folder contains no USD files ({', '.join(USD_EXTENSIONS)}): {path}"))
            assets.extend(found)
        else:
            assets.append(path)  # missing or unreadable files become PRECHECK_FAILURE verdicts with the reason
    return assets, problems


def file_sha256(path: Path) -> str:
    try:
        digest = hashlib.sha256()
        with open(path, "rb") as handle:
            for chunk in iter(lambda: handle.read(1 << 20), b""):
                digest.update(chunk)
        return digest.hexdigest()
    except OSError:
        return ""


def artifact_dir(out_dir: Path, asset_path: Path) -> Path:
    """A folder per asset that stays unique when two assets share a file name."""
    stem = re.sub(r"[^A-Za-z0-9_.-]+", "_", asset_path.stem) or "asset"
    tag = hashlib.sha1(str(asset_path.resolve()).encode("utf-8")).hexdigest()[:8]
    return out_dir / f"{stem}-{tag}"


# -- one asset, in this process --------------------------------------------------------------------
def run_asset(
    job: AssetJob,
    on_test_start: Callable[[str], None] | None = None,
    on_test_end: Callable[[TestResult], None] | None = None,
    on_progress: Callable[[], None] | None = None,
) -> AssetResult:
    """Validate one asset with the given tests in this process."""
    from ..engines import create_engine

    registry = default_registry()
    config = config_from_dict(job.config)
    asset_path = Path(job.path)
    asset_result = AssetResult(path=str(asset_path), sha256=file_sha256(asset_path))
    try:
        asset = read_asset(asset_path)
        load_error = None
    except AssetLoadError as exc:
        asset, load_error = None, str(exc)
    try:
        for name in job.tests:
            test_cls = registry.get(name)
            test = test_cls()
            test_config = config.for_test(name)
            if on_test_start:
                on_test_start(name)
            if asset is None:
                result = new_result(test, test_config)
                result.status = Status.PRECHECK_FAILURE
                result.reason = f"unloadable asset: {load_error}"
                result.fix_hints = ["Open the file in usdview to see the composition or syntax error, and fix or re-export it."]
            else:
                result = run_one_test(test, asset, test_config, job, config, create_engine, on_progress)
            asset_result.tests.append(result)
            if on_test_end:
                on_test_end(result)
    except KeyboardInterrupt:
        raise RunInterrupted(asset_result) from None
    return asset_result


HEARTBEAT_SECONDS = 1.0


def _heartbeat(on_progress: Callable[[], None]):
    """Observer that reports physics progress at most once per HEARTBEAT_SECONDS (for the parent's watchdog)."""
    last = [time.monotonic()]

    def observe(_ctx) -> None:
        now = time.monotonic()
        if now - last[0] >= HEARTBEAT_SECONDS:
            last[0] = now
            on_progress()

    return observe


def run_one_test(
    test: PhysicsTest, asset, test_config, job: AssetJob, config: ValidationConfig, create_engine,
    on_progress: Callable[[], None] | None = None,
) -> TestResult:
    try:
        engine = create_engine(job.engine)
    except Exception as exc:  # noqa: BLE001
        return error_result(test.name, f"engine '{job.engine}' unavailable: {exc}", test_config.model_dump(), test.version, test.features)
    session = TestSession(
        test, asset, test_config, engine, config.run.watchdog_seconds, debug=job.debug, max_seconds=config.run.max_test_seconds
    )
    if on_progress is not None:
        session.ctx.add_observer(_heartbeat(on_progress))
    recording = None
    test_dir = Path(job.out_dir) / test.name if job.out_dir else None
    if test_dir is not None and config.run.video:
        recording = _start_recording(session, job, test, test_dir, config)
    result = session.run_to_end()
    if recording is not None:
        try:
            result.artifacts.update(recording.close(result))
        except Exception as exc:  # noqa: BLE001 - a video problem never costs the verdict
            result.warnings.append(f"video not written: {exc}")
    if test_dir is not None and result.series:
        result.artifacts["series"] = str(_write_series(test_dir, result))
    try:
        engine.close()
    except Exception:  # noqa: BLE001
        pass
    return result


def _start_recording(session: TestSession, job: AssetJob, test: PhysicsTest, test_dir: Path, config: ValidationConfig):
    try:
        from ..recording import start_recording
    except ImportError:
        return None
    try:
        test_dir.mkdir(parents=True, exist_ok=True)
        return start_recording(
            session.ctx,
            job.path,
            test.name,
            test_dir,
            session.config.capture_fps,
            config.run.video_width,
            config.run.video_height,
        )
    except Exception as exc:  # noqa: BLE001
        session.ctx.warn(f"video recording unavailable: {exc}")
        return None


def _write_series(test_dir: Path, result: TestResult) -> Path:
    test_dir.mkdir(parents=True, exist_ok=True)
    path = test_dir / "series.json"
    write_atomic(path, json.dumps(result.series, separators=(",", ":")))
    return path


def config_from_dict(data: dict[str, Any]) -> ValidationConfig:
    config = ValidationConfig.defaults()
    config.apply(data, origin="config")
    return config


# -- one asset, in a worker process ----------------------------------------------------------------
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
        run_asset(job, started, ended, alive)
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
    "omni.simready.physics_validator.core.runner",
    "omni.simready.physics_validator.physics_tests.ground_drop",
    "omni.simready.physics_validator.physics_tests.velocity_limit",
    "omni.simready.physics_validator.physics_tests.full_range_sweep",
    "omni.simready.physics_validator.physics_tests.drive_gain_validation",
    "omni.simready.physics_validator.physics_tests.effort_limit",
    "omni.simready.physics_validator.engines.physx_sapien",
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
    asset_result = AssetResult(path=job.path, sha256=file_sha256(Path(job.path)))
    remaining = list(job.tests)
    config = config_from_dict(job.config)
    while remaining:
        parent_conn, child_conn = context.Pipe(duplex=False)
        sub_job = AssetJob(job.path, list(remaining), job.config, job.engine, job.out_dir, job.debug)
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
