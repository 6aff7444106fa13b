"""validate_batch: a whole asset library in one report, in parallel, reusing unchanged verdicts.

Order and verdicts do not depend on the number of jobs or the executor: assets are listed in input
order, tests in registry order. Every finished test is written to
the results cache at once (`core.cache`), so an interrupted run loses only what was in flight, and
`changed_only=True` (CLI `--changed-only` / `--resume`) runs only the tests whose key changed.

The steps, each over one `_BatchAsset` record per asset: plan (cache keys, cached verdicts, the job
still to run), dispatch (the executor's events: progress, cache writes, Ctrl-C), collect (the report
in input order, with what an interrupted run did not do).
"""

from __future__ import annotations

import contextlib
import datetime as _dt
import json
import os
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable, Iterable

from .._version import __version__
from ..core import out_writer
from ..core.cache import ResultCache, asset_content_hash, result_cache_key
from ..core.codes import CommonCode
from ..core.config import ValidationConfig
from ..core.results import AssetResult, EngineInfo, RunReport, TestResult
from ..core.session import error_result, new_result
from ..core.status import Status
from ..physics_tests import default_registry
from .asset_run import RunInterrupted
from .interrupts import stoppable
from .inputs import AssetJob, InputError, artifact_dir, collect_assets, file_sha256

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
    info = EngineInfo(**instance.describe())
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


@dataclass
class _BatchAsset:
    """One asset of the batch, from planning to the report."""

    path: Path
    sha256: str
    cache_keys: dict[str, str]  # test -> results-cache key ({} without a cache or a content hash)
    result: AssetResult | None = None  # its cached verdicts, then everything it got (None: nothing yet)
    job: AssetJob | None = None  # the tests still to run (None: every verdict came from the cache)
    finished: bool = False
    cached: set[str] = field(default_factory=set)  # tests written to the cache in this run
    shown: set[str] = field(default_factory=set)  # tests the progress display has been told about
    in_flight: list[TestResult] = field(default_factory=list)  # verdicts so far of a job not finished


@dataclass
class _Batch:
    """What every step shares: the run's settings, the results cache and the progress display."""

    names: list[str]  # the tests, in registry order
    config: ValidationConfig
    engine: str
    engine_key: str  # the report's engine block as JSON, part of every cache key
    out_dir: str | os.PathLike | None
    debug: bool
    changed_only: bool
    cache: ResultCache | None
    notify: _Notify
    pages: Callable[[str, Any, Any], None] | None = None  # AssetJob.pages
    keys_from_workers: bool = False  # each worker reports its asset's content hash (AssetJob.content_key)
    key_parts: dict[str, tuple[str, dict]] = field(default_factory=dict)  # test -> (version, config): once per run


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
    pages=None,
) -> RunReport:
    """Validate every asset under `paths` with `jobs` at a time; returns one RunReport in input order.

    Progress sinks may implement batch_started(total), test_finished(asset_path, result),
    asset_finished(asset_result) and close(). An interrupted run (Ctrl-C) returns what finished,
    with `complete=False` and the rest in `not_run`. `pages` (e.g. `reports.pages.PlotsAhead`) is called in the
    worker after each test (`AssetJob.pages`).
    """
    from ..engines import engine_class, engine_settings

    registry = default_registry()
    names = [t.name for t in registry.select(tests)]
    config = config or ValidationConfig.defaults(registry, engine_settings())
    engine_class(engine)  # an unknown or absent engine is a usage error before anything runs
    if changed_only and out_dir is None:
        raise InputError("--changed-only needs the output folder of the earlier run (--out)")
    asset_paths, problems = collect_assets(paths, exclude=out_dir)
    if not asset_paths and not problems:
        raise InputError("nothing to validate: no paths given")
    runner = make_executor(executor, jobs or default_jobs(), config, ray_address)
    info = engine_info(engine, config)
    report = RunReport(tool_version=__version__, engine=info, started=_now())
    report.assets.extend(_problem_result(path, reason, names, config) for path, reason in problems)
    engine_key = json.dumps(info.model_dump(mode="json"), sort_keys=True, separators=(",", ":"))
    cache = ResultCache(out_dir) if out_dir is not None else None
    batch = _Batch(names, config, engine, engine_key, out_dir, debug, changed_only, cache, _Notify(progress), pages,
                   keys_from_workers=bool(getattr(runner, "reports_content", False)) and not changed_only)
    registry = default_registry()
    batch.key_parts = {name: (registry.get(name).version, config.for_test(name).model_dump(mode="json")) for name in names}
    assets: list[_BatchAsset] = []
    claim = out_writer.claimed(out_dir) if out_dir is not None else contextlib.nullcontext()  # the CLI's already is
    try:
        with claim, stoppable():  # Ctrl-C or SIGTERM (the CLI: run.interrupts) stops planning or the run, never the reports
            for path in asset_paths:
                assets.append(_plan_asset(batch, path))
            batch.notify("batch_started", len(assets), runner.describe())
            for asset in assets:
                if asset.finished:
                    batch.notify("asset_finished", asset.result)
            _dispatch(batch, runner, assets)
    except KeyboardInterrupt as exc:
        assets.extend(_BatchAsset(path, "", {}) for path in asset_paths[len(assets):])  # not planned: not run
        report.complete = False
        if isinstance(exc, RunInterrupted):  # an in-process run carries its asset's verdicts so far
            _keep_interrupted(assets, exc.partial)
    finally:
        batch.notify("close")
    _collect(report, assets, names)
    report.finished = _now()
    return report


def _plan_asset(batch: _Batch, path: Path) -> _BatchAsset:
    """Its cache keys, the verdicts the cache can give (with `changed_only`) and the job for the rest."""
    sha256 = file_sha256(path)  # each asset file hashed once per run
    # The keys' content hash walks and hashes every layer: done by the worker that reads the asset anyway, unless the
    # cache must be read before anything runs (changed_only) or the executor cannot report it (Ray).
    keys = {} if batch.keys_from_workers else _cache_keys(batch, asset_content_hash(path, sha256) if batch.cache else None)
    asset = _BatchAsset(path, sha256, keys)
    reused = _cached_verdicts(batch.cache, asset) if batch.changed_only else {}
    todo = [name for name in batch.names if name not in reused]
    if reused:
        asset.result = _reused_result(path, sha256, batch.names, reused)
    if not todo:
        asset.finished = True
        return asset
    asset.job = AssetJob(
        path=str(path),
        tests=todo,
        config=batch.config,
        engine=batch.engine,
        out_dir=str(artifact_dir(Path(batch.out_dir), path)) if batch.out_dir else None,
        debug=batch.debug,
        sha256=sha256,
        pages=batch.pages,
        content_key=batch.keys_from_workers and batch.cache is not None,
    )
    return asset


def _cache_keys(batch: _Batch, content: str | None) -> dict[str, str]:
    """test -> cache key: the asset's content (with its layers: core.cache.asset_content_hash), the test's version and
    config, the run settings, the engine block and the tool's version ({} without a cache or a content hash)."""
    if content is None or batch.cache is None:
        return {}
    run_config = batch.config.run.model_dump()
    return {name: result_cache_key(content, name, version, test_config, run_config, batch.engine_key, __version__)
            for name, (version, test_config) in batch.key_parts.items()}


def _cached_verdicts(cache: ResultCache | None, asset: _BatchAsset) -> dict[str, TestResult]:
    hits = {name: cache.get(key, str(asset.path)) for name, key in asset.cache_keys.items()} if cache is not None else {}
    return {name: hit for name, hit in hits.items() if hit is not None}


def _dispatch(batch: _Batch, runner, assets: list[_BatchAsset]) -> None:
    """Run the jobs on the executor; every verdict is cached and shown as it arrives, every finished asset shown."""
    running = [asset for asset in assets if asset.job is not None]
    if not running:
        return
    for kind, index, payload in runner.events([asset.job for asset in running]):
        asset = running[index]
        if kind == "media":  # a test's video, drawn after its verdict (run.local): onto the result, cached again
            _add_video(batch.cache, asset, payload)
            continue
        if kind == "content":  # the asset's content hash, from the worker that read it: its cache keys
            asset.cache_keys = _cache_keys(batch, payload)
            continue
        if kind == "failed":
            payload = _failed_result(asset.job, str(payload), batch.config)
        for result in [payload] if kind == "test" else payload.tests:
            _cache_verdict(batch.cache, asset, result)
            if result.name not in asset.shown:  # executors without per-test events report at the end
                asset.shown.add(result.name)
                batch.notify("test_finished", str(asset.path), result)
        if kind == "test":
            asset.in_flight.append(payload)
            continue
        asset.result = _merge(asset.result, payload, batch.names)
        asset.finished = True
        batch.notify("asset_finished", asset.result)


def _add_video(cache: ResultCache | None, asset: _BatchAsset, drawn) -> None:
    """A drawn video (run.videos.VideoDrawn) onto the result of its test; the cache entry written again with it."""
    from .videos import apply

    for result in asset.in_flight:
        if result.name == drawn.test:
            apply(result, drawn.artifacts, drawn.problems)
            asset.cached.discard(result.name)
            _cache_verdict(cache, asset, result)


def _cache_verdict(cache: ResultCache | None, asset: _BatchAsset, result: TestResult) -> None:
    """Into the cache at once, so an interrupted run keeps it; never an ERROR (a hang or crash is not a verdict
    on the asset)."""
    key = asset.cache_keys.get(result.name)
    if cache is None or key is None or result.name in asset.cached or result.status == Status.ERROR:
        return
    asset.cached.add(result.name)
    try:
        cache.put(key, str(asset.path), result)
    except OSError:
        pass  # a full disk costs the cache entry, never the run


def _keep_interrupted(assets: list[_BatchAsset], partial: AssetResult) -> None:
    for asset in assets:
        if not asset.finished and str(asset.path) == partial.path:
            asset.in_flight.extend(partial.tests)


def _collect(report: RunReport, assets: list[_BatchAsset], names: list[str]) -> None:
    """The assets into the report in input order; an unfinished one with what it got, its other tests in `not_run`."""
    for asset in assets:
        if asset.finished:
            assert asset.result is not None  # a finished asset has its result
            report.assets.append(asset.result)
            continue
        report.complete = False
        if asset.in_flight or asset.result is not None:
            fresh = AssetResult(path=str(asset.path), sha256=asset.sha256, error="interrupted before all tests ran")
            fresh.tests = list({r.name: r for r in asset.in_flight}.values())
            asset.result = _merge(asset.result, fresh, names)
            report.assets.append(asset.result)
        done = {r.name for r in asset.result.tests} if asset.result is not None else set()
        report.not_run.extend(f"{asset.path}::{name}" for name in names if name not in done)


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
