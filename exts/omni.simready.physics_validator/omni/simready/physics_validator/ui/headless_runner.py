"""HeadlessRunner: the panel's runner on a headless engine, synchronous (pytest and scripts).

It drives the request through `run.asset_run.AssetRun`, the loop every front door uses, stepping
each session to its end in a plain loop; in Kit the panel uses `live.runner.KitLiveRunner` instead.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from ..core.results import TestResult
    from ..run.asset_run import AssetRun
    from .view_model import RunRequest


class HeadlessRunner:
    """Runs a request synchronously on a headless engine (default "physx").

    A joint re-run sets the test config's `joints` field when the test has one (so only that joint
    is exercised); the view-model keeps only that joint's row either way. Stop (`cancel()` from a
    sink call) lets the running test finish and report, and starts no further test.
    """

    def __init__(self, engine: str = "physx"):
        self.engine = engine
        self._cancelled = False
        self._run: AssetRun | None = None

    def start(self, request: "RunRequest", sink) -> None:
        from ..engines import create_engine
        from ..run.asset_run import AssetRun, RunHooks, joint_narrowing, load_asset

        self._cancelled = False
        asset, load_error = load_asset(request.asset_path, request.target)
        if asset is None:  # a verdict for each test, not a crash of the panel
            sink.on_error(f"cannot read {request.asset_path}: {load_error}")

        def ended(result: "TestResult") -> None:
            sink.on_progress(result.name, result.simulated_seconds, "")
            sink.on_result(result)

        self._run = run = AssetRun(
            request.asset_path, request.tests, request.config, lambda: create_engine(self.engine, request.config),
            asset=asset, load_error=load_error, narrow=joint_narrowing(request.joint),
            hooks=RunHooks(test_started=sink.on_test_started, test_ended=ended, readback=getattr(sink, "on_readback", None),
                           plausibility=getattr(sink, "on_plausibility", None)),
        )
        try:
            for session in run:
                session.step_to_end()
        finally:
            self._run = None
        sink.on_finished(complete=not self._cancelled)

    def cancel(self) -> None:
        self._cancelled = True
        if self._run is not None:
            self._run.stop()  # the test in flight still ends and is reported; no further test starts
