"""LiveLoop: the live runner's logic with no omni import, so pytest drives it with a fake Kit.

The loop over the tests is `run.asset_run.AssetRun`, the same one the headless runner and the CLI
use; each `next()` gives a started `TestSession` (engine loaded: the validation sublayer is on the
stage). While the live timeline plays, Kit calls back:

- `pre_step(dt)` (omni.physx pre-step subscription): the test advances one step (sets targets and
  forces for the coming step), queued forces go to PhysX;
- `post_step(dt)`: the first step after play creates the tensor views (a warm-up, not a test step);
  after that each step is counted, the test's observers run, frames and progress are reported;
- `update()` (Kit's update loop, once per app frame): when the session is done, or the user pressed
  Stop, stepping ends and the AssetRun generator is resumed: it finalizes the session (engine closed,
  result reported through its `test_ended` hook) and starts the next test, or ends.

Subscriptions cannot change inside a physics callback, so a test ends only in `update()`.

What the loop asks of Kit is the `LiveKit` protocol (`live.runner.KitLiveRunner` implements it with
omni.physx and omni.timeline). The engine of each session is the Kit engine in live mode
(`ready`, `physics_stepped()`, `flush_forces()`).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Callable, Protocol

from ..core.status import Status
from ..run.asset_run import AssetRun, RunHooks, joint_narrowing

if TYPE_CHECKING:
    from ..core.asset_model import AssetModel
    from ..core.config import TestConfig
    from ..core.engine import Engine
    from ..core.session import TestSession

STOPPED_REASON = "stopped by the user"


class LiveKit(Protocol):
    """What the loop needs from Kit."""

    def start_stepping(self, pre_step: Callable[[float], None], post_step: Callable[[float], None]) -> None:
        """Subscribe the two physics step callbacks and play the timeline."""

    def stop_stepping(self) -> None:
        """Drop the step subscriptions (the engine's close() stops the timeline)."""

    def start_recorder(self, config: "TestConfig", on_frame: Callable[[Any, int], None]) -> Any:
        """An object with `maybe_capture(step)`, or None when there is nothing to record with."""

    def finished(self) -> None:
        """The run is over: drop the update-loop observer."""


class LiveLoop:
    """One panel request on the live stage: AssetRun's sessions, stepped by Kit's physics callbacks."""

    PROGRESS_EVERY = 24  # physics steps between progress reports (10 a simulated second at 240 Hz)

    def __init__(self, request, asset: "AssetModel", make_engine: Callable[[], "Engine"], sink, kit: LiveKit):
        self.sink = sink
        self.kit = kit
        self.video = bool(request.video)
        self.run = AssetRun(
            asset.path,
            request.tests,
            request.config,
            make_engine,
            asset=asset,
            narrow=joint_narrowing(request.joint),
            hooks=RunHooks(test_started=sink.on_test_started, test_ended=sink.on_result),
        )
        self.session: "TestSession | None" = None
        self.cancelled = False
        self.done = False
        self._sessions = None
        self._recorder = None

    # -- from the runner -------------------------------------------------------------------------------
    def begin(self) -> None:
        self._sessions = iter(self.run)
        self._resume_run()

    def cancel(self) -> None:
        """Stop after the current physics step; the running test reports ERROR 'stopped by the user'."""
        self.cancelled = True
        self.run.stop()

    # -- Kit callbacks ---------------------------------------------------------------------------------
    def pre_step(self, _dt: float) -> None:
        session = self.session
        if session is None or session.done or not session.engine.ready or self.cancelled:
            return
        if session.advance():
            session.engine.flush_forces()

    def post_step(self, _dt: float) -> None:
        session = self.session
        if session is None or session.done:
            return
        engine = session.engine
        was_ready = engine.ready
        engine.physics_stepped()
        if not was_ready:
            return  # the warm-up step: views were just created, the test starts on the next step
        session.after_step()
        step = session.ctx.step_count
        if self._recorder is not None:
            self._recorder.maybe_capture(step)
        if step % self.PROGRESS_EVERY == 0:
            self.sink.on_progress(session.test.name, engine.time, session.ctx.label)

    def update(self) -> None:
        """Once per app frame: finish a session that is done (or stopped) and go on."""
        if self.session is not None and (self.session.done or self.cancelled):
            self._finish_session()

    # -- internals -------------------------------------------------------------------------------------
    def _on_frame(self, frame, step: int) -> None:
        if self.session is not None:
            self.sink.on_frame(self.session.test.name, frame, step)

    def _finish_session(self) -> None:
        session, self.session = self.session, None
        self.kit.stop_stepping()
        self._recorder = None
        if self.cancelled and not session.done:
            session.result.status = Status.ERROR
            session.result.reason = STOPPED_REASON
        self._resume_run()

    def _resume_run(self) -> None:
        """Let AssetRun finalize the previous session and start the next; step it, or end the run."""
        try:
            session = next(self._sessions)
        except StopIteration:
            self._end()
            return
        self.session = session
        if self.video:
            self._recorder = self.kit.start_recorder(session.config, self._on_frame)
        self.kit.start_stepping(self.pre_step, self.post_step)

    def _end(self) -> None:
        self.done = True
        self.kit.finished()
        self.sink.on_finished(complete=not self.cancelled)
