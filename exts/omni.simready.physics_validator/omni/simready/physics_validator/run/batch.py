"""validate_batch: a whole asset library in one report, in parallel, reusing unchanged verdicts.

Order and verdicts do not depend on the number of jobs or the executor: assets are listed in input
order, tests in registry order. Every finished test is written to
the results cache at once (`core.cache`), so an interrupted run loses only what was in flight, and
`changed_only=True` (CLI `--changed-only` / `--resume`) runs only the tests whose key changed.
"""

from __future__ import annotations

import datetime as _dt
import json
import os
from pathlib import Path
from typing import Iterable

from ..core.cache import ResultCache, asset_content_hash, result_cache_key
from ..core.config import ValidationConfig
from ..core.results import AssetResult, EngineInfo, RunReport, TestResult
from ..physics_tests import default_registry
from .inputs import AssetJob, InputError, artifact_dir, collect_assets, file_sha256
from ..core.codes import CommonCode
from ..core.session import error_result, new_result
from ..core.status import Status

EXECUTORS = ("local", "ray")


def default_jobs() -> int:
    return max(1, os.cpu_count() or 1)


def engine_info(engine: str, config: ValidationConfig | None = None) -> EngineInfo:
    """The report's engine block: name, version string, libraries and the engine settings of `config`
    (physx: `physx.target`). Its JSON form is part of every cache key. Creating the engine here starts no
    physics runtime (the physx engine imports ovphysx, which is not fork-safe, only when it loads)."""
    from ..engines import create_engine

    settings = config.engine_settings(engine) if config is not None else {}
    try:
        instance = create_engine(engine, config)
    except Exception as exc:  # noqa: BLE001 - validate() reports the engine problem per test
        return EngineInfo(name=engine, version=f"unavailable: {exc}", settings=settings)
    describe = getattr(instance, "describe", None)
    info = EngineInfo(**describe()) if describe is not None else EngineInfo(name=engine, version=str(getattr(instance, "version", "") or ""))
    info.name = engine
    info.settings = {**settings, **info.settings}
    try:
        instance.close()
    except Exception:  # noqa: BLE001
        pass
    return info



def make_executor(kind: str, jobs: int, config: ValidationConfig, ray_address: str | None = None):
    if kind == "local":
        from .local import LocalExecutor

        return LocalExecutor(jobs, config.run.isolate)
    if kind == "ray":
        from .ray_cluster import RayExecutor

        return RayExecutor(ray_address, jobs)
    raise InputError(f"unknown executor '{kind}' (known: {', '.join(EXECUTORS)})")


class _Notify:
    """Calls optional progress hooks; a failing display never stops a run."""

    def __init__(self, sink):
        self.sink = sink

    def __call__(self, method: str, *args) -> None:
        fn = getattr(self.sink, method, None) if self.sink is not None else None
        if fn is not None:
            try:
                fn(*args)
            except Exception:  # noqa: BLE001
                pass


def validate_batch(
    paths: Iterable[str | os.PathLike],
    tests: list[str] | None = None,
    config: ValidationConfig | None = None,
    engine: str = "physx",
    out_dir: str | os.PathLike | None = None,
    progress=None,
    debug: bool = False,
    jobs: int | None = None,
    executor: str = "local",
    ray_address: str | None = None,
    changed_only: bool = False,
) -> RunReport:
    """Validate every asset under `paths` with `jobs` at a time; returns one RunReport in input order.

    Progress sinks may implement batch_started(total), test_finished(asset_path, result),
    asset_finished(asset_result) and close(). An interrupted run (Ctrl-C) returns what finished,
    with `complete=False` and the rest in `not_run`.
    """
    from .._version import __version__
    from ..engines import engine_class

    registry = default_registry()
    names = [t.name for t in registry.select(tests)]
    config = config or ValidationConfig.defaults(registry)
    engine_class(engine)  # an unknown or absent engine is a usage error before anything runs
    if changed_only and out_dir is None:
        raise InputError("--changed-only needs the output folder of the earlier run (--out)")
    assets, problems = collect_assets(paths, exclude=out_dir)
    if not assets and not problems:
        raise InputError("nothing to validate: no paths given")
    runner = make_executor(executor, jobs or default_jobs(), config, ray_address)
    info = engine_info(engine, config)
    version = json.dumps(info.model_dump(mode="json"), sort_keys=True, separators=(",", ":"))  # for the cache keys
    report = RunReport(tool_version=__version__, engine=info, started=_now())
    for path, reason in problems:
        report.assets.append(_problem_result(path, reason, names, config))

    cache = ResultCache(out_dir) if out_dir is not None else None
    run_config = config.run.model_dump()
    slots: list[AssetResult | None] = [None] * len(assets)
    keys: list[dict[str, str]] = []
    jobs_to_run: list[AssetJob] = []
    job_slot: list[int] = []
    digests = [file_sha256(asset_path) for asset_path in assets]  # each asset file hashed once per run
    for slot, asset_path in enumerate(assets):
        content = asset_content_hash(asset_path, digests[slot]) if cache is not None else None
        asset_keys = {}
        if content is not None:
            for name in names:
                test_cls = registry.get(name)
                asset_keys[name] = result_cache_key(
                    content, name, test_cls.version, config.for_test(name).model_dump(mode="json"), run_config, version, __version__
                )
        keys.append(asset_keys)
        reused = {}
        if changed_only:
            for name, key in asset_keys.items():
                hit = cache.get(key, str(asset_path))
                if hit is not None:
                    reused[name] = hit
        todo = [name for name in names if name not in reused]
        if not todo:
            slots[slot] = _reused_result(asset_path, digests[slot], names, reused)
            continue
        partial = _reused_result(asset_path, digests[slot], names, reused) if reused else None
        slots[slot] = partial  # filled in when the job ends; None/partial marks "not finished"
        job_slot.append(slot)
        jobs_to_run.append(
            AssetJob(
                path=str(asset_path),
                tests=todo,
                config=config,
                engine=engine,
                out_dir=str(artifact_dir(Path(out_dir), asset_path)) if out_dir else None,
                debug=debug,
                sha256=digests[slot],
            )
        )

    notify = _Notify(progress)
    notify("batch_started", len(assets), runner.describe())
    finished = [slot not in job_slot for slot in range(len(assets))]
    for slot in range(len(assets)):
        if finished[slot]:
            notify("asset_finished", slots[slot])
    stored: set[tuple[int, str]] = set()
    shown: set[tuple[int, str]] = set()
    unfinished_tests: dict[int, list[TestResult]] = {}  # verdicts of assets still running, kept if Ctrl-C comes

    def store(slot: int, result: TestResult) -> None:
        key = keys[slot].get(result.name)
        if cache is None or key is None or (slot, result.name) in stored or result.status == Status.ERROR:
            return
        stored.add((slot, result.name))
        try:
            cache.put(key, str(assets[slot]), result)
        except OSError:
            pass  # a full disk costs the cache entry, never the run

    try:
        if jobs_to_run:
            for kind, index, payload in runner.events(jobs_to_run):
                slot = job_slot[index]
                if kind == "failed":
                    payload = _failed_result(jobs_to_run[index], str(payload), config)
                for result in [payload] if kind == "test" else payload.tests:
                    store(slot, result)
                    if (slot, result.name) not in shown:  # executors without per-test events report at the end
                        shown.add((slot, result.name))
                        notify("test_finished", str(assets[slot]), result)
                if kind == "test":
                    unfinished_tests.setdefault(slot, []).append(payload)
                    continue
                slots[slot] = _merge(slots[slot], payload, names)
                finished[slot] = True
                notify("asset_finished", slots[slot])
    except KeyboardInterrupt as exc:
        report.complete = False
        interrupted = getattr(exc, "partial", None)  # an in-process run carries its asset's verdicts so far
        for slot in range(len(assets)) if interrupted is not None else ():
            if not finished[slot] and str(assets[slot]) == interrupted.path:
                unfinished_tests.setdefault(slot, []).extend(interrupted.tests)
    finally:
        notify("close")
    for slot, asset_path in enumerate(assets):
        if finished[slot]:
            report.assets.append(slots[slot])
            continue
        report.complete = False
        ran = unfinished_tests.get(slot, [])
        if ran or slots[slot] is not None:
            fresh = AssetResult(path=str(asset_path), sha256=digests[slot], error="interrupted before all tests ran")
            fresh.tests = list({r.name: r for r in ran}.values())
            slots[slot] = _merge(slots[slot], fresh, names)
            report.assets.append(slots[slot])
        done = {r.name for r in slots[slot].tests} if slots[slot] is not None else set()
        report.not_run.extend(f"{asset_path}::{name}" for name in names if name not in done)
    report.finished = _now()
    return report


def _reused_result(asset_path: Path, sha256: str, names: list[str], reused: dict[str, TestResult]) -> AssetResult:
    """The cached verdicts of one asset, in registry order."""
    result = AssetResult(path=str(asset_path), sha256=sha256)
    result.tests = [reused[n] for n in names if n in reused]
    result.from_cache = [n for n in names if n in reused]
    return result


def _merge(partial: AssetResult | None, fresh: AssetResult, names: list[str]) -> AssetResult:
    """Fresh results plus any reused ones, in registry order."""
    if partial is None:
        return fresh
    by_name = {r.name: r for r in partial.tests}
    by_name.update({r.name: r for r in fresh.tests})
    order = {n: i for i, n in enumerate(names)}
    fresh_names = {r.name for r in fresh.tests}
    fresh.tests = sorted(by_name.values(), key=lambda r: order.get(r.name, len(order)))
    fresh.from_cache = [n for n in partial.from_cache if n not in fresh_names]
    return fresh


def _problem_result(path: Path, reason: str, names: list[str], config: ValidationConfig) -> AssetResult:
    registry = default_registry()
    asset_result = AssetResult(path=str(path), error=reason)
    for name in names:
        result = new_result(registry.get(name)(), config.for_test(name))
        result.status = Status.PRECHECK_FAILURE
        result.code = CommonCode.UNLOADABLE.value
        result.reason = reason
        asset_result.tests.append(result)
    return asset_result


def _failed_result(job: AssetJob, reason: str, config: ValidationConfig) -> AssetResult:
    """The executor lost the asset (e.g. a Ray node died): ERROR for each of its tests."""
    registry = default_registry()
    asset_result = AssetResult(path=job.path, sha256=job.sha256, error=reason)
    for name in job.tests:
        test_cls = registry.get(name)
        asset_result.tests.append(error_result(name, reason, config.for_test(name).model_dump(), test_cls.version,
                                               test_cls.features, CommonCode.RUN_LOST))
    return asset_result


def _now() -> str:
    return _dt.datetime.now(_dt.timezone.utc).isoformat(timespec="seconds")
