"""The live runner's logic (live.loop.LiveLoop) without Kit: AssetRun's sessions stepped from physics
callbacks and resumed from the update loop, on real physics.

`FakeKit` stands in for what KitLiveRunner does with omni.physx and omni.timeline, and applies every
call at once. Real Kit applies timeline calls a frame later; issue 14's fake will defer them. The
engine is the headless PhysX engine behind the live Kit engine's extra surface (`ready`,
`physics_stepped`, `flush_forces`).
"""

from __future__ import annotations

import pytest

from tests.fixtures.kit import make_arm, make_box
from omni.simready.physics_validator.core.config import ValidationConfig
from omni.simready.physics_validator.core.status import Status
from omni.simready.physics_validator.core.usd import read_asset
from omni.simready.physics_validator.engines import EngineUnavailable, create_engine
from omni.simready.physics_validator.live.loop import STOPPED_REASON, LiveLoop
from omni.simready.physics_validator.physics_tests import default_registry
from omni.simready.physics_validator.ui.view_model import RunRequest


class FakeKit:
    """Kit as LiveLoop sees it: step subscriptions that play the timeline, an update loop, a recorder."""

    def __init__(self):
        self.callbacks = None  # (pre_step, post_step) while subscribed
        self.physics = None  # the engine whose scene is on the stage (loaded, not closed)
        self.plays = 0
        self.ended = 0
        self.captured: list[int] = []

    def start_stepping(self, pre_step, post_step):
        self.callbacks = (pre_step, post_step)
        self.plays += 1

    def stop_stepping(self):
        self.callbacks = None

    def start_recorder(self, config, on_frame):
        kit = self

        class Recorder:
            def maybe_capture(self, step):
                if step % 16 == 0:
                    kit.captured.append(step)
                    on_frame(f"frame{step}", step)

        return Recorder()

    def finished(self):
        self.ended += 1

    def frame(self, loop: LiveLoop) -> None:
        """One app frame: one 240 Hz physics step while subscribed (pre, simulate, post), then update."""
        if self.callbacks is not None and self.physics is not None:
            pre_step, post_step = self.callbacks
            pre_step(self.physics.dt)
            self.physics.simulate()
            post_step(self.physics.dt)
        loop.update()


class LiveStyleEngine:
    """The headless engine with the live Kit engine's surface: tensor views exist after the first step
    (a warm-up the test does not see), time counts from there, forces go out in the pre-step."""

    def __init__(self, kit: FakeKit):
        self.inner = create_engine("physx")
        self.kit = kit
        self.ready = False
        self.closed = False
        self._steps = 0

    def __getattr__(self, name):
        return getattr(self.inner, name)

    @property
    def time(self) -> float:
        return self._steps * self.inner.dt

    def load(self, asset, scene):
        self.inner.load(asset, scene)
        self.kit.physics = self

    def simulate(self):
        self.inner.step()  # the timeline's step; queued forces go with it

    def step(self):
        raise AssertionError("the live engine is stepped by the timeline, not by step()")

    def flush_forces(self):
        pass

    def physics_stepped(self):
        if self.ready:
            self._steps += 1
        self.ready = True

    def reset(self):
        self.inner.reset()
        self._steps = 0

    def close(self):
        self.closed = True
        self.kit.physics = None
        self.inner.close()


class Sink:
    def __init__(self):
        self.calls: list[tuple] = []
        self.loop: LiveLoop | None = None

    def on_test_started(self, test):
        self.calls.append(("started", test))

    def on_progress(self, test, sim_time, label=""):
        self.calls.append(("progress", test))

    def on_frame(self, test, frame, step=-1):
        self.calls.append(("frame", test, step))

    def on_result(self, result):
        self.calls.append(("result", result))

    def on_error(self, message):
        self.calls.append(("error", message))

    def on_finished(self, complete=True):
        self.calls.append(("finished", complete))

    def results(self):
        return [c[1] for c in self.calls if c[0] == "result"]

    def of(self, kind):
        return [c for c in self.calls if c[0] == kind]


@pytest.fixture(autouse=True)
def _physx_available():
    try:
        create_engine("physx").close()
    except EngineUnavailable as exc:
        pytest.skip(f"headless engine not available: {exc}")


def _start(path, tests, joint=None, video=True):
    kit, sink, engines = FakeKit(), Sink(), []

    def make_engine():
        engines.append(LiveStyleEngine(kit))
        return engines[-1]

    config = ValidationConfig.defaults(default_registry())
    request = RunRequest(str(path), None, tests, config, joint=joint, video=video)
    loop = LiveLoop(request, read_asset(path), make_engine, sink, kit)
    loop.begin()
    return loop, kit, sink, engines


def _frames_until_done(loop, kit, limit=20_000):
    for _ in range(limit):
        if loop.done:
            return
        kit.frame(loop)
    raise AssertionError("the live loop never finished")


def test_the_live_loop_runs_asset_run_sessions_to_the_same_verdicts_as_the_headless_loop(tmp_path):
    from omni.simready.physics_validator.run.asset_run import AssetRun

    box = make_box(tmp_path / "box.usda")
    loop, kit, sink, engines = _start(box, ["ground_drop", "velocity_limit"])
    assert isinstance(loop.run, AssetRun) and kit.plays == 1  # ground_drop started: stepping
    kit.frame(loop)
    assert loop.session.ctx.step_count == 0 and engines[0].ready  # the warm-up step is not the test's
    kit.frame(loop)
    assert loop.session.ctx.step_count == 1
    _frames_until_done(loop, kit)

    assert [c[:2] for c in sink.of("started")] == [("started", "ground_drop"), ("started", "velocity_limit")]
    live = {r.name: r.status for r in sink.results()}
    headless = AssetRun(box, ["ground_drop", "velocity_limit"], ValidationConfig.defaults(default_registry()), lambda: create_engine("physx"))
    for session in headless:
        session.step_to_end()
    assert live == {r.name: r.status for r in headless.result.tests}
    assert live == {"ground_drop": Status.PASS, "velocity_limit": Status.NOT_APPLICABLE}
    assert sink.calls[-1] == ("finished", True) and kit.ended == 1
    assert kit.plays == 1  # velocity_limit was decided by its precheck: no physics, no stepping
    assert all(e.closed for e in engines) and kit.callbacks is None
    assert sink.of("progress") and [c[2] for c in sink.of("frame")] == kit.captured and kit.captured[0] == 16
    assert sink.results()[0].simulated_seconds > 1.0


def test_stop_ends_the_running_test_as_stopped_and_starts_no_other(tmp_path):
    loop, kit, sink, engines = _start(make_box(tmp_path / "box.usda"), ["ground_drop", "ground_drop"], video=False)
    for _ in range(10):
        kit.frame(loop)
    loop.cancel()
    kit.frame(loop)  # the pre-step no longer advances the test; the update finishes it
    assert loop.done and kit.callbacks is None and engines[0].closed and len(engines) == 1
    (result,) = sink.results()
    assert result.status == Status.ERROR and result.reason == STOPPED_REASON
    assert len(sink.of("started")) == 1 and sink.calls[-1] == ("finished", False) and kit.ended == 1


def test_a_joint_rerun_narrows_the_test_to_that_joint(tmp_path):
    arm = make_arm(tmp_path / "arm.usda")
    loop, kit, sink, _engines = _start(arm, ["velocity_limit"], joint="/Arm/joint2", video=False)
    assert loop.session.config.joints == ["/Arm/joint2"]
    _frames_until_done(loop, kit)
    (result,) = sink.results()
    assert [r.joint for r in result.joints] == ["joint2"] and result.joints[0].status in (Status.PASS, Status.FAIL)
    assert sink.calls[-1] == ("finished", True)
