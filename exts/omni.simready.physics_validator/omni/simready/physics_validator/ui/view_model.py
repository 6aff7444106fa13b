"""The panel's state and behaviour, with no omni import: pytest drives it; omni.ui only binds to it.

What the panel shows and does lives here: the target (the stage's default prim or the selection),
which tests run, each test's thresholds (edited through the same pydantic models as the CLI's
`--set`, so a rejected value gets the same message), Validate / Stop, progress, the verdict rows
(one per test, one per joint, one per excluded joint, each with its fix hints), a video player per
test, "re-run this test" / "re-run this joint", and export to JSON / JUnit / HTML. The rows are
built in `rows`, the player is `video.VideoModel`.

Validations go through a pluggable runner (`start(request, sink)`, `cancel()`): in Kit `live.runner.KitLiveRunner`,
in pytest and scripts `headless_runner.HeadlessRunner`; both drive the tests through `run.asset_run.AssetRun`. The
runner reports back through the sink methods `on_test_started`, `on_progress`, `on_frame`, `on_result`, `on_error`,
`on_finished`, `on_readback` (readback_panel.py), `on_plausibility` (plausibility_panel.py); it may call them
synchronously (headless) or across app frames (Kit). Exports are report_export.py's.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum
from typing import Any, Callable, Protocol

from ..core.config import ConfigError, ValidationConfig, parse_value
from ..core.plugin import TestRegistry
from ..physics_tests import default_registry
from ..core.results import TestResult
from ..core.status import Status
from .fix_action import FixAction
from .plausibility_panel import PlausibilityPanel
from .readback_panel import ReadbackPanel
from .report_export import ReportExport
from .rows import VerdictRow, merge_joint_result, narrow_to_joint, rows_from_results
from .video import VideoModel


class PanelState(str, Enum):
    IDLE = "idle"  # nothing run yet
    RUNNING = "running"
    STOPPING = "stopping"  # Stop pressed; waiting for the runner to wind down
    DONE = "done"  # results on show (complete or interrupted)


@dataclass
class RunRequest:
    """What the runner is asked to do. `joint` narrows a single-test re-run to one joint."""

    asset_path: str
    target: str | None
    tests: list[str]
    config: ValidationConfig
    joint: str | None = None
    video: bool = True
    watchdog_seconds: float = 120.0

    @property
    def kind(self) -> str:
        if self.joint:
            return "joint"
        return "test" if len(self.tests) == 1 else "all"


class Runner(Protocol):
    def start(self, request: RunRequest, sink: Any) -> None: ...

    def cancel(self) -> None: ...


@dataclass
class TestOption:
    __test__ = False
    name: str
    summary: str
    enabled: bool = True


@dataclass
class ThresholdField:
    key: str
    value: Any
    text: str
    description: str
    type_name: str


@dataclass
class EditOutcome:
    ok: bool
    message: str


class ValidatorViewModel(ReadbackPanel, PlausibilityPanel, ReportExport):
    """All of the panel. Widgets call its methods and redraw on its change notifications."""

    def __init__(self, runner: Runner | None = None, registry: TestRegistry | None = None,
                 config: ValidationConfig | None = None):
        self.registry = registry or default_registry()
        self.config = config or ValidationConfig.defaults(self.registry)
        self.runner = runner
        self.state = PanelState.IDLE
        self.tests = [TestOption(name, cls.summary or "", cls.runs_by_default) for name, cls in self.registry.items()]
        self.asset_path = ""
        self.default_prim: str | None = None
        self.selection: list[str] = []
        self.results: list[TestResult] = []
        self.videos: dict[str, VideoModel] = {}
        self.message = ""
        self.errors: list[str] = []
        self.current_test: str | None = None
        self.current_label = ""
        self.last_request: RunRequest | None = None
        self.complete = True
        self._done_in_run = 0
        self._sim_time = 0.0
        self._listeners: list[Callable[[str], None]] = []
        self.fix = FixAction()  # Propose fix on a failing joint row (ui/fix_action.py)
        self.fix_stage: Callable[[], Any] | None = None  # the open stage whose session layer takes a fix (Kit: omni.usd)

    # -- notifications -------------------------------------------------------------------------------
    def subscribe(self, listener: Callable[[str], None]) -> Callable[[], None]:
        """`listener(topic)` on every change; topics: state, target, tests, thresholds, progress,
        rows, video, message, readback, plausibility, fix. Returns the unsubscribe function."""
        self._listeners.append(listener)
        return lambda: self._listeners.remove(listener) if listener in self._listeners else None

    def _changed(self, topic: str) -> None:
        for listener in list(self._listeners):
            listener(topic)

    def _say(self, message: str) -> None:
        self.message = message
        self._changed("message")

    # -- target -------------------------------------------------------------------------------------
    def set_stage(self, asset_path: str, default_prim: str | None, selection: list[str] | None = None) -> None:
        self.asset_path = asset_path
        self.default_prim = default_prim
        self.selection = list(selection or [])
        self._changed("target")

    def set_selection(self, selection: list[str]) -> None:
        self.selection = list(selection)
        self._changed("target")

    @property
    def target(self) -> str | None:
        """The selected prim when exactly one is selected, else the stage's default prim."""
        if len(self.selection) == 1:
            return self.selection[0]
        return self.default_prim

    @property
    def target_text(self) -> str:
        if not self.asset_path and not self.target:
            return "no stage open"
        source = "selection" if len(self.selection) == 1 else "default prim"
        return f"{self.target or '(no default prim)'} ({source})"

    # -- tests and thresholds ------------------------------------------------------------------------
    def set_test_enabled(self, name: str, enabled: bool) -> None:
        self._option(name).enabled = bool(enabled)
        self._changed("tests")

    @property
    def selected_tests(self) -> list[str]:
        return [t.name for t in self.tests if t.enabled]

    def thresholds(self, test: str) -> list[ThresholdField]:
        config = self.config.for_test(test)
        fields = []
        for key, info in type(config).model_fields.items():
            value = getattr(config, key)
            annotation = info.annotation
            fields.append(
                ThresholdField(
                    key=key,
                    value=value,
                    text=str(value).lower() if isinstance(value, bool) else str(value),
                    description=info.description or "",
                    type_name=getattr(annotation, "__name__", str(annotation)),
                )
            )
        return fields

    def edit_threshold(self, test: str, key: str, text: str) -> EditOutcome:
        """Parse like `--set test.key=text`, validate with the test's pydantic model, keep or reject."""
        if self.state in (PanelState.RUNNING, PanelState.STOPPING):
            outcome = EditOutcome(False, "thresholds cannot change while a validation runs")
        else:
            try:
                self.config.apply({test: {key: parse_value(str(text).strip())}}, origin="panel")
            except ConfigError as exc:
                outcome = EditOutcome(False, str(exc))
            else:
                outcome = EditOutcome(True, f"{test}.{key} = {getattr(self.config.for_test(test), key)!r}")
        self._say(outcome.message)
        self._changed("thresholds")
        return outcome

    def reset_thresholds(self, test: str) -> None:
        self.config.tests[test] = type(self.config.for_test(test))()
        self._changed("thresholds")

    # -- running ------------------------------------------------------------------------------------
    @property
    def can_validate(self) -> bool:
        return (
            self.state in (PanelState.IDLE, PanelState.DONE)
            and self.runner is not None
            and bool(self.target or self.asset_path)
            and bool(self.selected_tests)
        )

    @property
    def can_stop(self) -> bool:
        return self.state == PanelState.RUNNING

    def validate(self) -> RunRequest | None:
        """Run every checked test on the target. Returns the request, or None when not possible."""
        why = self._why_not_runnable()
        if why:
            self._say(why)
            return None
        self.results = []
        self.videos, self.readback, self.plausibility = {}, None, None
        self._changed("rows")
        return self._launch(RunRequest(self.asset_path, self.target, self.selected_tests, self.config.copy(), **self._run_opts()))

    def rerun_test(self, test: str) -> RunRequest | None:
        why = self._why_not_runnable(need_tests=False)
        if why:
            self._say(why)
            return None
        self._option(test)  # unknown names raise
        return self._launch(RunRequest(self.asset_path, self.target, [test], self.config.copy(), **self._run_opts()))

    def rerun_joint(self, test: str, joint: str) -> RunRequest | None:
        why = self._why_not_runnable(need_tests=False)
        if why:
            self._say(why)
            return None
        self._option(test)
        return self._launch(
            RunRequest(self.asset_path, self.target, [test], self.config.copy(), joint=joint, **self._run_opts())
        )

    def can_propose_fix(self, row: VerdictRow | None) -> bool:
        return self.state in (PanelState.IDLE, PanelState.DONE) and bool(self.asset_path) and FixAction.can_propose(row)

    def propose_fix(self, test: str, joint: str):
        """Tune one failing joint's drive, prove it by re-running the checked tests, apply an accepted layer to the
        open stage's session layer only (ui/fix_action.py). Returns the FixResult, or None when not possible."""
        if self.state in (PanelState.RUNNING, PanelState.STOPPING) or not self.asset_path:
            return self._say("a validation is running" if self.asset_path else "nothing to fix: no stage open")
        stage = self.fix_stage() if self.fix_stage is not None else None
        result = self.fix.propose(self.asset_path, list(dict.fromkeys([test, *self.selected_tests])), self.config.copy(),
                                  joint, self.default_export_dir() / "physics_fix", stage)
        self._say(self.fix.message)
        self._changed("fix")
        return result

    def remove_fix(self) -> None:
        self.fix.revert()
        self._say(self.fix.message)
        self._changed("fix")

    def stop(self) -> None:
        if self.state != PanelState.RUNNING:
            return
        self.state = PanelState.STOPPING
        self._changed("state")
        if self.runner is not None:
            self.runner.cancel()

    @property
    def progress(self) -> float:
        """0..1 over the whole request: finished tests plus the running test's share."""
        request = self.last_request
        if request is None or not request.tests:
            return 0.0
        if self.state == PanelState.DONE:
            return 1.0
        within = 0.0
        if self.current_test is not None:
            expected = self._expected_seconds(self.current_test)
            within = min(0.99, self._sim_time / expected) if expected else 0.0
        return min(1.0, (self._done_in_run + within) / len(request.tests))

    @property
    def progress_text(self) -> str:
        if self.state == PanelState.IDLE:
            return "ready"
        if self.state == PanelState.DONE:
            counts = self.counts()
            summary = ", ".join(f"{n} {s}" for s, n in counts.items() if n)
            return ("done: " if self.complete else "stopped: ") + (summary or "no results")
        test = self.current_test or "..."
        prefix = "stopping" if self.state == PanelState.STOPPING else "running"
        label = f" - {self.current_label}" if self.current_label else ""
        return f"{prefix} {test}: {self._sim_time:.2f} s simulated{label}"

    # -- the runner's sink ---------------------------------------------------------------------------
    def on_test_started(self, test: str) -> None:
        self.current_test, self.current_label, self._sim_time = test, "", 0.0
        config = self.config.for_test(test)
        self.videos[test] = VideoModel(fps=getattr(config, "capture_fps", 15.0))
        self._changed("progress")

    def on_progress(self, test: str, sim_time: float, label: str = "") -> None:
        self.current_test, self._sim_time, self.current_label = test, float(sim_time), label
        self._changed("progress")

    def on_frame(self, test: str, frame, step: int = -1) -> None:
        self.videos.setdefault(test, VideoModel()).add(frame, step)
        self._changed("video")

    def on_result(self, result: TestResult) -> None:
        request = self.last_request
        joint = request.joint if request is not None else None
        previous = self.result(result.name)
        if joint and previous is not None:
            merged = merge_joint_result(previous, result, joint)
        elif joint:
            merged = narrow_to_joint(result, joint)
        else:
            merged = result
        self.results = [merged if r.name == result.name else r for r in self.results]
        if previous is None:
            self.results.append(merged)
        self._done_in_run += 1
        self.current_test = None
        self._changed("rows")
        self._changed("progress")

    def on_error(self, message: str) -> None:
        self.errors.append(message)
        self._say(message)

    def on_finished(self, complete: bool = True) -> None:
        self.complete = bool(complete) and self.state != PanelState.STOPPING
        self.state = PanelState.DONE
        self.current_test = None
        self._changed("state")
        self._changed("progress")

    # -- results ------------------------------------------------------------------------------------
    def result(self, test: str) -> TestResult | None:
        return next((r for r in self.results if r.name == test), None)

    def rows(self) -> list[VerdictRow]:
        order = {name: i for i, name in enumerate(self.registry.names())}
        return self.with_findings(rows_from_results(sorted(self.results, key=lambda r: order.get(r.name, len(order)))))

    def counts(self) -> dict[str, int]:
        out = {s.value: 0 for s in Status}
        for r in self.results:
            out[r.status.value] += 1
        return out

    # -- internals ----------------------------------------------------------------------------------
    def _option(self, name: str) -> TestOption:
        for option in self.tests:
            if option.name == name:
                return option
        raise KeyError(f"unknown test '{name}' (known: {', '.join(t.name for t in self.tests)})")

    def _why_not_runnable(self, need_tests: bool = True) -> str:
        if self.state in (PanelState.RUNNING, PanelState.STOPPING):
            return "a validation is already running"
        if self.runner is None:
            return "no runner: the validator is not connected to an engine"
        if not (self.target or self.asset_path):
            return "nothing to validate: open a stage with a default prim or select a prim"
        if need_tests and not self.selected_tests:
            return "no test selected"
        return ""

    def _run_opts(self) -> dict:
        return {"video": self.config.run.video, "watchdog_seconds": self.config.run.watchdog_seconds}

    def _launch(self, request: RunRequest) -> RunRequest:
        self.last_request = request
        self.state = PanelState.RUNNING
        self.complete = True
        self._done_in_run = 0
        self._sim_time = 0.0
        self.errors = []
        self.message = ""
        self._changed("state")
        assert self.runner is not None  # _why_not_runnable() said so
        self.runner.start(request, self)
        return request

    def _expected_seconds(self, test: str) -> float | None:
        config = self.config.for_test(test)
        for key in ("simulation_seconds", "max_seconds", "duration_seconds"):
            value = getattr(config, key, None)
            if isinstance(value, (int, float)) and value > 0:
                return float(value)
        return None
