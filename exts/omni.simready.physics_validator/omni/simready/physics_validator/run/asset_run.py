"""One asset's tests, one after another: the single loop every front door drives.

`AssetRun` is a generator of started `TestSession`s. Whoever iterates it drives each session to its
end in its own way and then asks for the next one; the loop itself does everything around a test:
read the asset once, look the test up, create the engine, attach the recorder, turn every problem
into a verdict, write the series, close the engine and report the result through the hooks.

- headless (CLI, batch workers, the panel's headless runner): `run_asset` below, which steps the
  engine in a plain loop (`TestSession.step_to_end`);
- Kit (the panel's live runner, `live.loop.LiveLoop`): resumes the generator from Kit's update
  loop after the live timeline has stepped a session to its end.

`stop()` asks for no further test: the session in flight still ends, and is reported, when the
generator is resumed.
"""

from __future__ import annotations

import dataclasses
import json
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Callable, Iterator

from ..core.asset_model import AssetModel
from ..core import out_writer
from ..core.cache import content_hash_of, dependency_scan
from ..core.config import TestConfig, ValidationConfig
from ..core.engine import Engine, EngineUnavailable
from ..core.media import video_drawn
from ..core.plausibility.links import link as link_plausibility
from ..core.readback_links import link as link_readback
from ..core.codes import CommonCode
from ..core.results import AssetResult, Plausibility, RuntimeReadback, TestResult
from ..core.session import TestSession, error_result, new_result
from ..core.status import Status
from ..core.usd import AssetLoadError, read_asset
from ..physics_tests import default_registry
from .inputs import AssetJob, file_sha256
from .readback import check_plausibility, read_back, read_back_alone, ready

HEARTBEAT_SECONDS = 1.0
UNLOADABLE_HINT = "Open the file in usdview to see the composition or syntax error, and fix or re-export it."
NOT_A_FILE_HINT = ("Point the run at the asset's regular .usd/.usda/.usdc file (or copy what the pipe or device holds into "
                   "one): nothing reads a layer that is not a regular file.")


def unloadable_hint(load_error: object) -> str:
    """The hint under an unloadable asset: usdview shows a syntax or composition error, not a FIFO or device."""
    return NOT_A_FILE_HINT if "not a regular file" in str(load_error) else UNLOADABLE_HINT


class RunInterrupted(KeyboardInterrupt):
    """Ctrl-C while an asset was running: carries the verdicts that asset already has, so none are lost."""

    def __init__(self, partial: AssetResult):
        super().__init__("interrupted")
        self.partial = partial


@dataclass
class RunHooks:
    """Optional callbacks of a run; a front door passes the ones it shows."""

    test_started: Callable[[str], None] | None = None
    test_ended: Callable[[TestResult], None] | None = None
    progress: Callable[[], None] | None = None  # physics is stepping (at most once per HEARTBEAT_SECONDS)
    readback: Callable[[RuntimeReadback], None] | None = None  # the asset's runtime readback, once it is read
    plausibility: Callable[[Plausibility], None] | None = None  # its plausibility block, read beside the readback
    content: Callable[[str | None], None] | None = None  # the asset's content hash (AssetJob.content_key), before tests
    notice: Callable[[str], None] | None = None  # a first-run preparation starts (engine.prepare_process); None: stderr


# A recorder factory: (session, folder for this test's artifacts or None) -> object with
# close(result) -> {artifact: path}, or None when nothing is recorded.
RecorderFactory = Callable[[TestSession, "Path | None"], object]


def load_asset(path: str | Path, target: str | None = None,
               runtime: str | None = None) -> tuple[AssetModel | None, str | None]:
    """(model, None), or (None, why) when the file cannot be opened or composed. `runtime`: the engine's physics
    runtime, whose variant sets are selected in memory before reading (core.usd.variants)."""
    try:
        return read_asset(path, runtime).restricted_to(target), None
    except AssetLoadError as exc:
        return None, str(exc)


class AssetRun:
    """The tests of one asset. Iterate it to get each started session; drive it; ask for the next."""

    def __init__(
        self,
        path: str | Path,
        tests: list[str],
        config: ValidationConfig,
        make_engine: Callable[[], Engine],
        *,
        asset: AssetModel | None = None,
        load_error: str | None = None,
        sha256: str = "",
        out_dir: str | Path | None = None,
        start_recorder: RecorderFactory | None = None,
        narrow: Callable[[TestConfig], TestConfig] | None = None,
        hooks: RunHooks | None = None,
        debug: bool = False,
    ):
        self.path = str(path)
        self.tests = list(tests)
        self.config = config
        self.make_engine = make_engine
        self.asset, self.load_error = asset, load_error
        if asset is None and load_error is None:
            self.asset, self.load_error = load_asset(path)
        self.out_dir = Path(out_dir) if out_dir else None
        self.start_recorder = start_recorder
        self.narrow = narrow
        self.hooks = hooks or RunHooks()
        self.debug = debug
        self.result = AssetResult(path=self.path, sha256=sha256 or file_sha256(path))
        self.stopped = False

    def stop(self) -> None:
        """Start no further test (a panel's Stop). The session in flight is finalized and reported
        when the generator is resumed; the tests after it are not run."""
        self.stopped = True

    def __iter__(self) -> Iterator[TestSession]:
        registry = default_registry()
        try:
            for name in self.tests:
                if self.stopped:
                    break
                test = registry.get(name)()
                test_config = self.config.for_test(name)
                if self.narrow is not None:
                    test_config = self.narrow(test_config)
                if self.hooks.test_started:
                    self.hooks.test_started(name)
                if self.asset is None:
                    result = new_result(test, test_config)
                    result.status = Status.PRECHECK_FAILURE
                    result.code = CommonCode.UNLOADABLE.value
                    result.reason = f"unloadable asset: {self.load_error}"
                    result.fix_hints = [unloadable_hint(self.load_error)]
                    self._ended(result)
                    continue
                try:
                    engine = self.make_engine()
                except Exception as exc:  # noqa: BLE001 - its message is the reason
                    self._ended(error_result(name, str(exc), test_config.model_dump(), test.version, test.features,
                                             CommonCode.ENGINE_UNAVAILABLE))
                    continue
                session = TestSession(
                    test, self.asset, test_config, engine, self.config.run.watchdog_seconds,
                    debug=self.debug, max_seconds=self.config.run.max_test_seconds,
                )
                if self.hooks.progress is not None:
                    session.ctx.add_observer(_heartbeat(self.hooks.progress))
                test_dir = self.out_dir / name if self.out_dir else None
                recording = None
                if self.start_recorder is not None:
                    recording = self.start_recorder(session, test_dir)
                try:
                    if session.start():
                        yield session
                except BaseException:  # abandoned (interrupt, generator closed): clean up, record nothing
                    _close_test(session, engine, recording, test_dir)
                    raise
                # once per asset, after a verdict, from a test that loaded the asset as authored
                if self.result.runtime_readback is None and ready(session.result, session.ctx.scene):
                    self.result.runtime_readback = read_back(engine, self.asset, session.ctx.scene)
                    self.result.plausibility = check_plausibility(engine, self.asset)
                    if self.result.runtime_readback is not None and self.hooks.readback:
                        self.hooks.readback(self.result.runtime_readback)
                    if self.result.plausibility is not None and self.hooks.plausibility:
                        self.hooks.plausibility(self.result.plausibility)
                self._ended(_close_test(session, engine, recording, test_dir))
        except KeyboardInterrupt:
            raise RunInterrupted(self.result) from None

    def _ended(self, result: TestResult) -> None:
        self.result.tests.append(result)
        link_readback(self.result, default_registry())  # the readback's flags beside the verdicts they explain
        link_plausibility(self.result, default_registry())  # and the plausibility findings
        if self.hooks.test_ended:
            self.hooks.test_ended(result)


def joint_narrowing(joint: str | None) -> Callable[[TestConfig], TestConfig] | None:
    """AssetRun's `narrow` for a one-joint re-run: sets the test config's `joints` field where the
    test has one (the driven-joint tests); other tests run as configured."""
    if not joint:
        return None

    def narrow(config: TestConfig) -> TestConfig:
        return config.model_copy(update={"joints": [joint]}) if "joints" in type(config).model_fields else config

    return narrow


def run_asset(job: AssetJob, hooks: RunHooks | None = None) -> AssetResult:
    """Validate one asset with the job's tests in this process, on a headless engine."""
    from ..engines import create_engine, engine_class

    config = job.config

    def make_engine() -> Engine:
        try:
            return create_engine(job.engine, config)  # engine settings (physx.target) from the run's config
        except Exception as exc:  # noqa: BLE001 - the reason names the engine
            raise EngineUnavailable(f"engine '{job.engine}' unavailable: {exc}") from None

    try:
        cls = engine_class(job.engine)
        runtime = cls.CAPABILITIES.physics_runtime or None
        # before any test's clock starts: a first run's preparation (Newton's kernel compile) is never a hang
        cls.prepare_process(hooks.notice if hooks is not None else None)
    except Exception:  # noqa: BLE001 - an unavailable engine is reported per test by make_engine
        runtime = None
    walk = dependency_scan(job.path) if job.content_key and hooks is not None and hooks.content else None
    asset, load_error = load_asset(job.path, job.target, runtime)  # finds the walk's layers open: parsed once
    if walk is not None and hooks is not None and hooks.content is not None:
        hooks.content(content_hash_of(job.path, walk, job.sha256))
        del walk
    hooks = _with_pages(hooks, job)
    run = AssetRun(
        job.path, job.tests, config, make_engine,
        asset=asset, load_error=load_error, sha256=job.sha256, out_dir=job.out_dir,
        start_recorder=(lambda s, d: _start_video(s, job, d)) if config.run.video else None,
        hooks=hooks, debug=job.debug,
    )
    try:
        for session in run:
            session.step_to_end()
        # no test stepped on the asset as authored (or only one with drives of its own): one load for the readback
        if run.result.runtime_readback is None and asset is not None and not asset.errors():
            run.result.runtime_readback, checked = read_back_alone(make_engine, asset, run.result.plausibility is None)
            run.result.plausibility = run.result.plausibility or checked
            link_readback(run.result, default_registry())
            link_plausibility(run.result, default_registry())
    except KeyboardInterrupt:
        # The verdicts so far; the test in flight is not among them (it is listed as not run).
        raise RunInterrupted(run.result.model_copy(update={"tests": list(run.result.tests)})) from None
    return run.result


def _with_pages(hooks: RunHooks | None, job: AssetJob) -> RunHooks | None:
    """The hooks, with the job's page maker called after each test, before the verdict is passed on (so its series
    are still at hand). A page that cannot be drawn here is drawn by the report: it never costs a verdict."""
    pages = job.pages
    if pages is None:
        return hooks
    hooks = hooks or RunHooks()
    registry, passed_on = default_registry(), hooks.test_ended

    def test_ended(result: TestResult) -> None:
        try:
            pages(job.path, result, registry)
        except Exception:  # noqa: BLE001
            pass
        if passed_on is not None:
            passed_on(result)

    return dataclasses.replace(hooks, test_ended=test_ended)


# -- around one test -------------------------------------------------------------------------------
def rate_limited(on_progress: Callable[[], None]) -> Callable[[], None]:
    """`on_progress` at most once per HEARTBEAT_SECONDS however often the result is called (every physics
    step): the heartbeat the parent's watchdog counts from."""
    last = [time.monotonic()]

    def beat() -> None:
        now = time.monotonic()
        if now - last[0] >= HEARTBEAT_SECONDS:
            last[0] = now
            on_progress()

    return beat


def _heartbeat(on_progress: Callable[[], None]):
    """A session observer reporting physics progress through `rate_limited(on_progress)`."""
    beat = rate_limited(on_progress)
    return lambda _ctx: beat()


def _close_test(session: TestSession, engine: Engine, recording, test_dir: Path | None) -> TestResult:
    """After the session ended (or was abandoned): artifacts, series, engine closed; never raises."""
    result = session.result
    if recording is not None:
        try:
            result.artifacts.update(recording.close(result))
        except Exception as exc:  # noqa: BLE001 - a video problem never costs the verdict
            result.warnings.append(f"video: not written: {exc}")
    if test_dir is not None and result.series:
        try:
            _artifact_folder(test_dir)
            path = test_dir / "series.json"
            out_writer.write_text(path, json.dumps(result.series, separators=(",", ":")), durable=False)
            result.artifacts["series"] = str(path)
        except OSError as exc:
            result.warnings.append(f"series: not written: {exc.strerror or exc}")
    try:
        engine.close()
    except Exception:  # noqa: BLE001
        pass
    return result


def _artifact_folder(test_dir: Path) -> None:
    """OUT/<asset>/<test>/, made of real folders: a link planted at either is removed, never written through."""
    out_writer.folder(test_dir.parent)
    out_writer.folder(test_dir)


class _Video:
    """A test's recording as AssetRun closes it: the timeline and the 3D replay always; the video and the USD replay
    layer made right here when the job does not leave them to its caller (AssetJob.defer_videos) and the media policy
    draws the test's video (core.media)."""

    def __init__(self, recording, job: AssetJob):
        self.recording, self.job = recording, job

    def close(self, result: TestResult) -> dict[str, str]:
        render = not self.job.defer_videos and video_drawn(result, self.job.config.run.media)
        return self.recording.close(result, render=render)


def _start_video(session: TestSession, job: AssetJob, test_dir: Path | None):
    """The headless recorder (poses kept while the test runs; replay, timeline, video), or None with a warning."""
    if test_dir is None:
        return None
    try:
        from ..recording import start_recording
    except ImportError:
        return None
    config = job.config
    try:
        _artifact_folder(test_dir)
        recording = start_recording(
            session.ctx, job.path, session.test.name, test_dir, session.config.capture_fps,
            config.run.video_width, config.run.video_height, for_video=config.run.media != "replay",
        )
    except Exception as exc:  # noqa: BLE001
        session.ctx.warn(f"video: recording unavailable: {exc}")
        return None
    return _Video(recording, job) if recording is not None else None
