"""Local executor: N jobs at a time in spawned worker processes of this run's pool: assets, and their videos.

Every asset goes through `run_asset_isolated`, which turns hangs and native crashes into ERROR
verdicts and replaces the lost worker. Here N supervisor threads each borrow one worker from the
run's `WorkerPool`, so N jobs run at once in at most N workers; a worker keeps its interpreter and
imports for the next job (or, with SIMREADY_WORKER_START=spawn, is replaced after every asset).

Videos are drawn off the physics' critical path: where the media policy draws videos (`--media failing|all`) an
asset's tests only record (AssetJob.defer_videos); each test it names (run.videos.wanted) becomes a drawing job in the
same queue (its USD replay layer and its video), taken before the next asset,
so a free worker draws while another simulates (one asset with --jobs 2: the second worker draws the first test's
video while the next tests run). An asset is reported once its physics and its videos are done; each drawn video is
reported as a ("media", ...) event first (the batch caches the result again with its video).

Events reach the caller in its own thread through a queue, which keeps cache writes and progress
updates single-threaded. The pool is closed when the events end: idle workers exit, and on Ctrl-C
(or any early end) busy ones are killed, so no worker outlives the run.
"""

from __future__ import annotations

import dataclasses
import itertools
import os
import queue
import re
import stat
import threading
from pathlib import Path
from typing import Iterator

from ..core.results import AssetResult, TestResult
from . import videos
from .asset_run import RunHooks, run_asset
from .inputs import AssetJob
from .worker import run_asset_isolated, run_call_isolated
from .worker_pool import WorkerPool, worker_mode

# ("content", job index, its content hash) before its tests; ("test", job index, TestResult) as each test ends;
# ("media", job index, VideoDrawn) as a video is drawn; then ("asset", job index, AssetResult), or ("failed", index, why).
Event = tuple[str, int, object]
ASSET, VIDEO = 1, 0  # queue priorities: a video before the next asset (it finishes an asset that already ran)


class LocalExecutor:
    name = "local"
    reports_content = True  # ("content", index, hash) before an asset's tests (AssetJob.content_key)

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
                contents: list = []
                asset_result = run_asset(job, RunHooks(test_ended=tests.append, content=contents.append))
                for digest in contents:
                    yield ("content", index, digest)
                for result in tests:
                    yield ("test", index, result)
                yield ("asset", index, asset_result)
            return
        yield from _Schedule(self.jobs, jobs).events()


WEIGHT_READ_BYTES = 1 << 20  # of each text layer read for the files it names (`@path@`)
WEIGHT_DEPTH = 5  # layers named by layers named by the asset (a fix wrapper -> the asset -> Contents -> Geometry -> its library)
LAYER_REFERENCE = re.compile(rb"@([^@\n]{1,4096})@")


def asset_weight(path: str) -> int:
    """How much work an asset is likely to be, from what the parent can see at once: the bytes of its file and of the
    files its text layers name (`@...@`: sublayers, references, payloads), WEIGHT_DEPTH levels down; a binary crate
    counts its bytes. A converted 7-DOF arm weighs about a megabyte (its meshes), a small prop a few kilobytes."""
    seen: set[Path] = set()
    todo = [(Path(path).absolute(), 0)]
    weight = 0
    while todo:
        file, depth = todo.pop()
        if file in seen:
            continue
        seen.add(file)
        try:
            status = file.stat()
            if not stat.S_ISREG(status.st_mode):  # a FIFO or device would block the scheduler: the precheck says why
                continue
            weight += status.st_size
            with open(file, "rb") as stream:
                head = stream.read(WEIGHT_READ_BYTES)
        except OSError:
            continue
        if depth >= WEIGHT_DEPTH or head.startswith(b"PXR-USDC"):
            continue
        for name in {m.group(1) for m in LAYER_REFERENCE.finditer(head)}:
            named = file.parent / os.fsdecode(name)
            if named.is_file():
                todo.append((named.resolve(), depth + 1))
    return weight


class _Schedule:
    """The queue of one run: asset jobs and the drawing jobs their tests ask for, taken by N supervisor threads."""

    def __init__(self, threads: int, jobs: list[AssetJob]):
        # Only a video is worth a job of its own: without one (the default media policy) the worker that ran the test
        # writes its USD replay layer itself (tens of milliseconds), and no second worker starts for it.
        self.jobs = [dataclasses.replace(job, defer_videos=videos.draws_videos(job.config)) for job in jobs]
        self.videos_possible = any(job.defer_videos and job.out_dir for job in self.jobs)
        self.threads = threads if self.videos_possible else min(threads, len(jobs))
        self.todo: queue.PriorityQueue = queue.PriorityQueue()
        self.order = itertools.count()
        # The largest assets first: a 7-DOF arm started last runs alone while the other workers idle. Reports keep
        # the input order (run.batch); the order of independent assets never changes a verdict.
        for index, job in sorted(enumerate(self.jobs), key=lambda item: -asset_weight(item[1].path)):
            self.todo.put((ASSET, next(self.order), ("asset", index, job)))
        self.done: queue.Queue = queue.Queue()
        self.stop = threading.Event()
        self.pool = WorkerPool()
        self.lock = threading.Lock()
        self.unfinished = len(self.jobs)  # assets whose event has not been sent
        self.drawing: dict[int, int] = {}  # asset index -> videos requested and not yet drawn
        self.parked: dict[int, AssetResult] = {}  # physics done, videos still drawing

    def events(self) -> Iterator[Event]:
        # Daemon threads: an interrupted run must not wait for in-flight jobs at exit; closing the
        # pool kills their workers (which are daemonic as well).
        threads = [threading.Thread(target=self._supervise, name=f"batch-{n}", daemon=True) for n in range(self.threads)]
        for thread in threads:
            thread.start()
        remaining = len(self.jobs)
        try:
            while remaining:
                try:
                    event = self.done.get(timeout=0.2)  # a timeout keeps Ctrl-C responsive
                except queue.Empty:
                    continue
                if event[0] in ("asset", "failed"):
                    remaining -= 1
                yield event
        finally:
            self.stop.set()
            self.pool.close(kill=remaining > 0)

    def _supervise(self) -> None:
        warmed = False
        while not self.stop.is_set():
            try:
                _, _, item = self.todo.get(timeout=0.2)
            except queue.Empty:
                with self.lock:
                    if not self.unfinished:
                        return
                if not warmed and self.videos_possible:  # idle while assets run: ready a worker to draw their videos
                    warmed = True
                    self._warm_renderer()
                continue
            if item[0] == "asset":
                self._run_asset(item[1], item[2])
            else:
                self._draw(item[1])

    def _run_asset(self, index: int, job: AssetJob) -> None:
        def on_test(result: TestResult) -> None:
            self.done.put(("test", index, result))
            if videos.wanted(result, job.config):
                with self.lock:
                    self.drawing[index] = self.drawing.get(index, 0) + 1
                self.todo.put((VIDEO, next(self.order), ("video", videos.request(index, job.path, result, job.config))))

        try:
            asset_result = run_asset_isolated(job, None, on_test, self.pool,
                                              on_content=lambda digest: self.done.put(("content", index, digest)))
        except BaseException as exc:  # noqa: BLE001 - the caller turns this into ERROR verdicts
            self._finish(index, ("failed", index, f"{type(exc).__name__}: {exc}"))
            return
        with self.lock:
            if self.drawing.get(index):
                self.parked[index] = asset_result
                return
        self._finish(index, ("asset", index, asset_result))

    def _draw(self, request: videos.VideoRequest) -> None:
        job = self.jobs[request.asset_index]
        try:
            drawn, error = run_call_isolated(videos.draw_video, request.job, job.config.run, None, self.pool)
        except BaseException as exc:  # noqa: BLE001 - the pool was closed (Ctrl-C): no video, the run ends anyway
            drawn, error = None, f"{type(exc).__name__}: {exc}"
        if drawn is None:
            why = error.splitlines()[0] if error else "no result"
            drawn = videos.VideoDrawn(request.test, problems=[f"video: not written: {why}"])
        drawn.test = request.test
        self.done.put(("media", request.asset_index, drawn))
        with self.lock:
            self.drawing[request.asset_index] -= 1
            finished = self.parked.pop(request.asset_index, None) if not self.drawing[request.asset_index] else None
        if finished is not None:
            self._finish(request.asset_index, ("asset", request.asset_index, finished))

    def _warm_renderer(self) -> None:
        """A worker started and its renderer imported now, while this thread has nothing to do (one asset, --jobs 2):
        the first video then starts drawing at once. It costs a core that was idle; a failure costs nothing."""
        try:
            run_call_isolated(videos.warm_renderer, None, self.jobs[0].config.run, None, self.pool)
        except BaseException:  # noqa: BLE001 - the pool closed (the run ended): nothing to warm
            pass

    def _finish(self, index: int, event: Event) -> None:
        self.done.put(event)
        with self.lock:
            self.unfinished -= 1
