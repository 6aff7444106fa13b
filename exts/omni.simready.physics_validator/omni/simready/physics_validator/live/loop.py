"""LiveLoop: the live runner as a per-frame state machine, with no omni import (pytest drives it over a Kit
test double that defers exactly as Kit does).

The loop over the tests is `run.asset_run.AssetRun`, the same one the headless runner and the CLI use; each
`next()` closes the previous session's engine (its sublayer removed), reports its result and gives the next
started `TestSession` (its sublayer authored). Kit applies timeline changes at the start of the next frame
(omni.timeline docs, FRAME_INTEGRITY: "Any modifications to the timeline are queued and only applied at the
start of the subsequent frame"; `is_playing()` right after `play()` is False), and PhysX resets the stage on
STOP into the current edit target and then sends SimulationEvent.STOPPED (NVIDIA-Omniverse/PhysX @ 107.3,
omni.physx/plugins/OmniPhysX.cpp:168-205, internal/InternalPhysXDatabase.cpp:465-520). So nothing here
assumes a call took effect; every transition waits for the state it needs, one app frame at a time:

    begin: record the user's timeline, selection and GPU override (once per run); stop if not stopped
    WAIT_USER_STOP  until stopped (and PhysX STOPPED if it had started) -> CPU override -> next test
    next test       AssetRun resumed: previous engine closed, result reported, next scene authored;
                    edit target held on the sublayer, step callbacks subscribed, play()
    STARTING        until playing and PhysX stepped: edit target released, tensor views created (the engine
                    undoes the warm-up step), the test armed; no step before arming is the test's
                    (Isaac Sim's SimulationManager warm-ups on PLAY, simulation_manager.py:178-242)
    RUNNING         pre-step: the test advances; post-step: the step is counted; update: done / Stop /
                    wall-clock watchdog (no physics step for watchdog_seconds) -> edit target held, stop()
    STOPPING        until stopped and PhysX STOPPED (if it had started) -> next test
    RESTORE         simulation layer cleared, GPU override, time and selection back, play only if the user
                    was playing -> DONE

Aborts: a timeline STOP the loop did not ask for ends the test as ERROR (the edit target is held on the
sublayer from the STOP event on, so PhysX's reset lands there when Kit dispatches the event first); a pause
freezes the watchdog; a stage CLOSING / CLOSED ends the run (the sublayer is left to die with the stage's
session layer, process-wide settings are put back at CLOSED); `shutdown()` (extension disabled) tears
everything down synchronously.
"""

from __future__ import annotations

import time
from enum import Enum
from typing import TYPE_CHECKING, Any, Callable, Iterator, Protocol, cast

from ..core.codes import CommonCode
from ..core.session import simulated_seconds
from ..core.status import Status
from ..run.asset_run import AssetRun, RunHooks, joint_narrowing

if TYPE_CHECKING:
    from ..core.asset_model import AssetModel
    from ..core.config import TestConfig
    from ..core.session import TestSession
    from ..engines.kit.layer import UserState

STOPPED_REASON = "stopped by the user"
TIMELINE_STOPPED_REASON = "the timeline was stopped outside the validator while the test ran"
STAGE_CLOSED_REASON = "the stage was closed while the test ran"
SHUTDOWN_REASON = "the extension shut down while the test ran"


class Phase(str, Enum):
    WAIT_USER_STOP = "wait_user_stop"
    STARTING = "starting"
    RUNNING = "running"
    STOPPING = "stopping"
    CLOSING = "closing"  # the stage is closing: waiting for CLOSED to put process-wide settings back
    DONE = "done"


class LiveKit(Protocol):
    """What the loop needs from Kit (`live.runner.KitLiveRunner` implements it with omni calls)."""

    def capture_user_state(self) -> "UserState": ...

    def is_playing(self) -> bool: ...

    def is_stopped(self) -> bool: ...

    def play(self) -> None: ...

    def stop(self, now: bool = False) -> None:
        """Queue a stop; `now`: apply it in this call (timeline.commit())."""

    def force_cpu(self) -> None:
        """overwrite_gpu_setting(0) (only while stopped)."""

    def reset_physics(self) -> None:
        """PhysX's reset now (what the stage update does on STOP): parse-time poses back into the edit target,
        PhysX objects released, the simulation no longer started."""

    def restore_user_state(self, state: "UserState", stage_alive: bool) -> None: ...

    def start_stepping(self, pre_step: Callable[[float], None], post_step: Callable[[float], None]) -> None: ...

    def stop_stepping(self) -> None: ...

    def start_recorder(self, config: "TestConfig", on_frame: Callable[[Any, int], None]) -> Any:
        """An object with `maybe_capture(step)`, or None when there is nothing to record with."""

    def warn(self, message: str) -> None: ...

    def finished(self) -> None:
        """The run is over: drop every observer and subscription."""


class LiveEngine(Protocol):
    """What the loop asks of its sessions' engine beyond `core.engine.Engine` (`engines.kit.KitPhysxEngine`)."""

    leave_stage_alone: bool
    layer: Any
    time: float

    def capture_parse_state(self) -> None: ...

    def flush_forces(self) -> None: ...

    def physics_stepped(self) -> None: ...

    def physics_started(self) -> None: ...


def live_engine(session: "TestSession") -> LiveEngine:
    """The session's engine as the Kit engine `make_engine` made (an Engine type-wise)."""
    return cast(LiveEngine, session.engine)


class LiveLoop:
    """One panel request on the live stage: AssetRun's sessions, stepped by Kit's timeline."""

    PROGRESS_EVERY = 24  # physics steps between progress reports (10 a simulated second at 240 Hz)

    def __init__(self, request, asset: "AssetModel", make_engine: Callable[[], Any], sink, kit: LiveKit,
                 clock: Callable[[], float] = time.monotonic):
        self.sink = sink
        self.kit = kit
        self.clock = clock
        self.video = bool(request.video)
        self.watchdog_seconds = float(getattr(request, "watchdog_seconds", 0) or request.config.run.watchdog_seconds)
        self.run = AssetRun(
            asset.path, request.tests, request.config, make_engine, asset=asset,
            narrow=joint_narrowing(request.joint),
            hooks=RunHooks(test_started=sink.on_test_started, test_ended=sink.on_result,
                           readback=getattr(sink, "on_readback", None),
                           plausibility=getattr(sink, "on_plausibility", None)),
        )
        self.phase: Phase | None = None
        self.session: "TestSession | None" = None
        self.user: "UserState | None" = None
        self.cancelled = False
        self.done = False
        self._sessions: Iterator[TestSession] | None = None
        self._recorder = None
        self._frames_in_phase = 0
        self._reset_physics_flags()

    def _reset_physics_flags(self) -> None:
        self.steps_seen = 0  # physics steps since play (warm-ups included)
        self._since = self.clock()  # wall clock of the last step (or of play / stop)
        self._parse_captured = False
        self._advanced = False
        self._stop_requested = False
        self._external_stop = False
        self._resumed = False  # PhysX started simulating (RESUMED or a step seen)
        self._physics_stopped = False  # SimulationEvent.STOPPED seen since the stop

    # -- from the runner -------------------------------------------------------------------------------
    def begin(self) -> None:
        self._sessions = iter(self.run)
        self.user = self.kit.capture_user_state()
        if self.user.stopped:
            self._next_test()
            return
        self._resumed = True  # the user's simulation has started: wait for its reset too
        self.kit.stop()
        self._enter(Phase.WAIT_USER_STOP)

    def cancel(self) -> None:
        """Stop after the current physics step; the running test reports ERROR 'stopped by the user'."""
        self.cancelled = True
        self.run.stop()

    # -- Kit callbacks ---------------------------------------------------------------------------------
    def pre_step(self, _dt: float) -> None:
        session = self.session
        if session is None:
            return
        if self.phase == Phase.STARTING and not self._parse_captured:
            self._parse_captured = True  # parsed, not stepped yet: the poses the test starts from
            live_engine(session).capture_parse_state()
        if self.phase != Phase.RUNNING or session.done or self.cancelled:
            return
        if session.advance():
            live_engine(session).flush_forces()
            self._advanced = True

    def post_step(self, _dt: float) -> None:
        self.steps_seen += 1
        self._resumed = True
        self._since = self.clock()
        session = self.session
        if session is None or self.phase != Phase.RUNNING or not self._advanced:
            return  # a warm-up (ours or Isaac Sim's) or a step after the test ended: not the test's
        self._advanced = False
        engine = live_engine(session)
        engine.physics_stepped()
        session.after_step()
        step = session.ctx.step_count
        if self._recorder is not None:
            self._recorder.maybe_capture(step)
        if step % self.PROGRESS_EVERY == 0:
            self.sink.on_progress(session.test.name, engine.time, session.ctx.label)

    def on_timeline_stop(self) -> None:
        """A timeline STOP event: hold the edit target so PhysX's reset lands on the sublayer."""
        if self.session is not None and self.phase in (Phase.STARTING, Phase.RUNNING, Phase.STOPPING):
            self._hold()
            if not self._stop_requested:
                self._external_stop = True

    def on_physics_resumed(self) -> None:
        self._resumed = True

    def on_physics_stopped(self) -> None:
        self._physics_stopped = True

    def update(self) -> None:
        """Once per app frame."""
        phase, now = self.phase, self.clock()
        self._frames_in_phase += 1
        if phase == Phase.WAIT_USER_STOP:
            if self._stopped_and_reset() or self._timed_out(now, "the user's simulation to stop"):
                self._next_test()
        elif phase == Phase.STARTING:
            self._update_starting(now)
        elif phase == Phase.RUNNING:
            self._update_running(now)
        elif phase == Phase.STOPPING:
            if self._stopped_and_reset() or self._timed_out(now, "PhysX to reset after stop"):
                self._release()
                self._next_test()
        elif phase == Phase.CLOSING and self._timed_out(now, "the stage to close"):
            self.on_stage_closing(closed=True)

    def on_stage_closing(self, closed: bool) -> None:
        """Stage CLOSING (`closed` False) or CLOSED: end the run; nothing is put back on a dead stage."""
        if self.phase in (None, Phase.DONE):
            return
        if self.phase != Phase.CLOSING:
            self.run.stop()
            self.kit.stop_stepping()
            self._recorder = None
            session, self.session = self.session, None
            if session is not None:
                self._fail(session, STAGE_CLOSED_REASON)
                # The session layer goes with the stage; PhysX may still reset it while it closes, so the
                # sublayer and the edit target on it stay until then (the reset lands there).
                self._hold(session)
                live_engine(session).leave_stage_alone = True
            self._drain_run()
            self._enter(Phase.CLOSING)
        if closed:
            if self.user is not None:
                self.kit.restore_user_state(self.user, stage_alive=False)
            self._end(complete=False)

    def shutdown(self) -> None:
        """The extension is going away: synchronous teardown, no sink calls (the panel is gone too)."""
        if self.phase in (None, Phase.DONE):
            return
        self.kit.stop_stepping()
        self._recorder = None
        session, self.session = self.session, None
        if session is not None and not session.done:
            self._fail(session, SHUTDOWN_REASON)
        if session is not None and self.phase in (Phase.STARTING, Phase.RUNNING, Phase.STOPPING):
            if not self.kit.is_stopped():
                self._hold(session)
                self._stop_requested = True
                self.kit.stop(now=True)  # timeline.commit(): applied in this call
            if self._resumed and not self._physics_stopped:
                # Whether commit() runs PhysX's reset is not public, and no frame may come after this call: reset
                # now, into the sublayer (the edit target is held on it). Until PhysX has reset, its simulation
                # counts as started and it ignores the GPU override being put back (found by the kit tier).
                self._hold(session)
                try:
                    self.kit.reset_physics()
                    self._physics_stopped = True
                except Exception as exc:  # noqa: BLE001 - shutting down: say so, never raise into Kit
                    self.kit.warn(f"physics validator: PhysX could not be reset at shutdown: {exc}")
            if self._resumed and not self._physics_stopped:
                # Still not reset: leave the session-only sublayer and the edit target on it, so the reset cannot
                # write into a user layer.
                live_engine(session).leave_stage_alone = True
                self.kit.warn("physics validator: the validation sublayer stays in the session layer until the "
                              "stage is reopened (PhysX had not reset when the extension shut down)")
        self.run.stop()
        self.sink = _NoSink()
        self._drain_run()
        if self.user is not None:
            self.kit.restore_user_state(self.user, stage_alive=session is None or not live_engine(session).leave_stage_alone)
        self.phase = Phase.DONE
        self.done = True
        self.kit.finished()

    # -- transitions -----------------------------------------------------------------------------------
    def _enter(self, phase: Phase) -> None:
        self.phase = phase
        self._since = self.clock()
        self._frames_in_phase = 0

    def _next_test(self) -> None:
        """Let AssetRun finalize the previous session and start the next; play it, or restore and end."""
        if self.phase in (Phase.WAIT_USER_STOP, None):
            self.kit.force_cpu()  # stopped: the override takes effect (PhysX.cpp:625-642)
        self.session = None
        self._recorder = None
        assert self._sessions is not None  # begin() made it
        try:
            session = next(self._sessions)
        except StopIteration:
            self._restore()
            return
        self.session = session
        session.ctx.watched = True  # the viewport shows the motion
        self._reset_physics_flags()
        self._hold(session)  # PhysX's parse writes through the edit target (InternalActor.cpp:180-191)
        self.kit.start_stepping(self.pre_step, self.post_step)
        if self.video:
            self._recorder = self.kit.start_recorder(session.config, self._on_frame)
        self.kit.play()
        self._enter(Phase.STARTING)

    def _update_starting(self, now: float) -> None:
        session = self.session
        if self.cancelled or self._external_stop:
            self._finish(STOPPED_REASON if self.cancelled else TIMELINE_STOPPED_REASON)
        elif self.steps_seen and self.kit.is_playing():
            self._release()
            try:
                assert session is not None  # STARTING: a session is in flight
                live_engine(session).physics_started()  # views after a step; the warm-up step undone
            except Exception as exc:  # noqa: BLE001 - a verdict, not an exception into Kit
                self._finish(f"the tensor views could not be created: {type(exc).__name__}: {exc}",
                             CommonCode.ENGINE_UNAVAILABLE)
                return
            self._enter(Phase.RUNNING)
        elif not self.kit.is_playing() and not self.kit.is_stopped():
            self._since = now  # paused before the first step: the watchdog waits
        elif now - self._since > self.watchdog_seconds:
            self._finish(f"hang: no physics step in {now - self._since:.0f} s after play (watchdog "
                         f"{self.watchdog_seconds:g} s); is a stage-update connector enabled and "
                         "/app/player/playSimulations on?", CommonCode.HANG)

    def _update_running(self, now: float) -> None:
        session = self.session
        assert session is not None  # RUNNING: a session is in flight
        if session.done:
            self._finish(None)
        elif self.cancelled:
            self._finish(STOPPED_REASON)
        elif self._external_stop:
            self._finish(TIMELINE_STOPPED_REASON)
        elif not self.kit.is_playing():
            self._since = now  # paused by the user: the watchdog is frozen until play resumes
        elif now - self._since > self.watchdog_seconds:
            self._finish(f"hang: no physics step for {now - self._since:.0f} s (watchdog {self.watchdog_seconds:g} s)",
                         CommonCode.HANG)

    def _finish(self, reason: str | None, code: CommonCode = CommonCode.ABORTED) -> None:
        """End the session (an ERROR with `reason` unless it decided) and stop the timeline."""
        session = self.session
        self.kit.stop_stepping()
        self._recorder = None
        assert session is not None  # a session is in flight
        if reason is not None and not session.done:
            self._fail(session, reason, code)
        self._hold(session)
        if not self.kit.is_stopped() or self._external_stop:
            self._stop_requested = True
            if not self._external_stop:
                self.kit.stop()
        self._physics_stopped = self._physics_stopped and self._external_stop
        self._enter(Phase.STOPPING)

    def _stopped_and_reset(self) -> bool:
        """Stopped, PhysX reset (if it had started), and at least one frame since the stop was asked for:
        a play queued in the same frame has been applied with it."""
        return self._frames_in_phase >= 1 and self.kit.is_stopped() and (self._physics_stopped or not self._resumed)

    def _timed_out(self, now: float, what: str) -> bool:
        if now - self._since <= self.watchdog_seconds:
            return False
        self.kit.warn(f"physics validator: gave up waiting for {what} after {self.watchdog_seconds:g} s")
        if self.session is not None:
            self.session.result.warnings.append(f"gave up waiting for {what} after {self.watchdog_seconds:g} s")
        return True

    def _restore(self) -> None:
        if self.user is not None:
            self.kit.restore_user_state(self.user, stage_alive=True)
        self._end(complete=not self.cancelled)

    def _end(self, complete: bool) -> None:
        self.phase = Phase.DONE
        self.done = True
        self.kit.finished()
        self.sink.on_finished(complete=complete)

    # -- helpers ---------------------------------------------------------------------------------------
    def _hold(self, session=None) -> None:
        session = session or self.session
        layer = live_engine(session).layer if session is not None else None  # the Kit engine's (make_engine)
        if layer is not None:
            layer.hold_edit_target()

    def _release(self) -> None:
        layer = live_engine(self.session).layer if self.session is not None else None
        if layer is not None:
            layer.release_edit_target()

    def _fail(self, session, reason: str, code: CommonCode = CommonCode.ABORTED) -> None:
        session.result.status = Status.ERROR
        session.result.code = code.value
        session.result.reason = reason
        session.result.simulated_seconds = simulated_seconds(session)

    def _drain_run(self) -> None:
        """Resume AssetRun (stopped) so the session in flight is closed and reported, and no other starts."""
        assert self._sessions is not None  # begin() made it
        for _ in self._sessions:
            pass

    def _on_frame(self, frame, step: int) -> None:
        if self.session is not None:
            self.sink.on_frame(self.session.test.name, frame, step)


class _NoSink:
    def __getattr__(self, _name):
        return lambda *args, **kwargs: None
