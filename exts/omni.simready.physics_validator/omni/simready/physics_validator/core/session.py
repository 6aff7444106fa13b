"""TestSession: one test on one asset, advanced one physics step at a time.

The same object serves both ways of driving physics: headless engines call `run_to_end()`
(advance, engine.step, repeat), the Kit engine calls `advance()` from an omni.physx pre-step
subscription and lets the live timeline step PhysX. Either way the test's generator sees one
yield per physics step, and every exception becomes an ERROR verdict instead of a lost report.
"""

from __future__ import annotations

import time
import traceback
from typing import TYPE_CHECKING, Callable, Iterator

from .codes import CommonCode, code_value
from .context import TestContext
from .plugin import PhysicsTest, Precheck
from .results import TestResult
from .status import Status

if TYPE_CHECKING:
    from .engine import Engine
    from .asset_model import AssetModel
    from .config import TestConfig
    from .scene import SceneSpec


class WatchdogTimeout(RuntimeError):
    def __init__(self, message: str, code: CommonCode = CommonCode.HANG):
        super().__init__(message)
        self.code = code


NO_VERDICT = "test ended without a verdict"


def new_result(test: PhysicsTest, config: "TestConfig") -> TestResult:
    """A result before the test has decided: ERROR until `finish()` (or a precheck) sets the verdict.

    A test generator that returns without calling finish() must never read as a PASS.
    """
    return TestResult(
        name=test.name,
        version=test.version,
        features=list(test.features),
        status=Status.ERROR,
        code=CommonCode.NO_VERDICT.value,
        reason=NO_VERDICT,
        config=config.model_dump(),
    )


def precheck_result(test: PhysicsTest, config: "TestConfig", decision: Precheck) -> TestResult:
    result = new_result(test, config)
    result.status = decision.status
    result.code = decision.code
    result.reason = decision.reason
    result.fix_hints = list(decision.fix_hints)
    result.metrics.update(decision.metrics)
    return result


def error_result(test_name: str, reason: str, config: dict | None = None, version: str = "", features=(),
                 code=CommonCode.TEST_RAISED) -> TestResult:
    return TestResult(
        name=test_name, version=version, features=list(features), status=Status.ERROR, code=code_value(code),
        reason=reason, config=config or {},
    )


def asset_error_precheck(asset: "AssetModel") -> Precheck | None:
    """Broken content (NaN mass, zero-volume collider, missing joint target...) stops every test before physics."""
    errors = asset.errors()
    if not errors:
        return None
    first = errors[0]
    more = f" (+{len(errors) - 1} more)" if len(errors) > 1 else ""
    hints = sorted({ISSUE_HINTS.get(e.code.split("_")[0], "Fix the authored value named in the reason.") for e in errors})
    return Precheck(
        Status.PRECHECK_FAILURE,
        f"{first.code} at {first.path}: {first.message}{more}",
        hints,
        metrics={"asset_errors": len(errors)},
        code=CommonCode.ASSET_CONTENT,
    )


TIME_SAMPLED_ISSUES = ("TIME_SAMPLED_PHYSICS", "TIME_SAMPLED_TRANSFORM")  # asset warnings every verdict carries
ISSUE_HINTS = {
    "MASS": "Author a finite, positive physics:mass (kg) with UsdPhysics.MassAPI, or remove it to let density decide.",
    "DENSITY": "Author a finite, positive physics:density (kg/m^3), or remove it.",
    "INERTIA": "Author a finite, positive physics:diagonalInertia, or remove it to let PhysX compute it from the colliders.",
    "COM": "Author a finite physics:centerOfMass inside the collision geometry, or remove it.",
    "ZERO": "Give the collider a volume: fix the degenerate mesh or shape size, or remove CollisionAPI from it.",
    "COLLIDER": "Fix the collider's size attributes (finite, positive).",
    "MESH": "Fix the collision mesh: it needs finite points and faces, or use an analytic shape.",
    "TRANSFORM": "Fix the xformOps: a transform contains NaN or Inf.",
    "JOINT": "Point physics:body0/body1 at existing rigid-body prims (or leave one empty for the world).",
    "UNRESOLVED": "Fix the asset path of the sublayer, reference or payload so it resolves next to the asset.",
    "PHYSICS": "The stage's physics could not be parsed; open it in usdview to find the broken prim.",
    "STAGE": "Fix the root layer metadata: finite positive metersPerUnit and kilogramsPerUnit, upAxis \"Y\" or \"Z\".",
    "TIME": "Author the attribute's value as a finite default: the runtime reads the default time, not the time samples.",
    "LAYER": "Validate the asset's top-level file (the reason names it when it lies beside this layer or one folder up), "
             "not one of its layers.",
}


class TestSession:
    __test__ = False

    def __init__(
        self,
        test: PhysicsTest,
        asset: "AssetModel",
        config: "TestConfig",
        engine: "Engine",
        watchdog_seconds: float | None = None,
        debug: bool = False,
        max_seconds: float | None = None,
    ):
        self.test = test
        self.asset = asset
        self.config = config
        self.engine = engine
        self.watchdog_seconds = watchdog_seconds  # no progress between two steps for this long = hang
        self.max_seconds = max_seconds  # overall cap, even while steps keep coming
        self.debug = debug
        self.result = new_result(test, config)
        self._stamp(self.result)
        self.ctx = TestContext(engine, asset, config, self.result, type(test).hints)
        self.ctx.scene_loader = self._load_scene
        self._generator: Iterator[None] | None = None
        self._engine_warnings_seen: int | None = None  # how many engine warnings are in the result (None: not loaded)
        self._started_at = 0.0  # perf_counter() at start()
        self._last_progress = 0.0
        self.done = False

    def _stamp(self, result: TestResult) -> None:
        """What every result of this session says about where it ran: the engine and the physics-runtime variants
        the asset was composed with for it (core.usd.variants)."""
        result.engine = self.engine.name
        result.physics_variants = [str(c) for c in self.asset.runtime_variants]
        wanted = self.engine.capabilities().physics_runtime
        read_for = self.asset.physics_runtime
        if result.physics_variants and wanted and read_for and wanted != read_for:
            result.warnings.append(f"the asset's variants were selected for {read_for}, the {result.engine} engine runs "
                                   f"{wanted}")
        # values read at the default time from time-sampled attributes (core.usd.time_samples, core.usd.xform_ops)
        result.warnings += [i.message for i in self.asset.issues if i.code in TIME_SAMPLED_ISSUES]

    # -- lifecycle ---------------------------------------------------------------------------------
    def start(self) -> bool:
        """Precheck, build the scene, create the generator. False when the test is already decided."""
        self._started_at = self._last_progress = time.perf_counter()
        decision = asset_error_precheck(self.asset) or self._guard(lambda: self.test.precheck(self.asset, self.config))
        if self.done:
            return False
        if decision is not None:
            self.result = precheck_result(self.test, self.config, decision)
            self._stamp(self.result)
            self.ctx.result = self.result
            self._close()
            return False
        scene = self._guard(lambda: self.test.scene(self._scene_asset(), self.config))
        if self.done:
            return False
        self.ctx.scene = scene
        if scene is not None and scene.rig is not None:  # the test's rig around the asset (core.rig)
            self.ctx.asset = scene.rig.model
        self._guard(lambda: self.engine.load(self.ctx.asset, scene))
        if self.done:
            return False
        self._guard(self.ctx.adopt_built_model)
        if self.done:
            return False
        self._engine_warnings_seen = 0
        self._copy_engine_warnings()
        decision = self._guard(lambda: self.test.precheck_built(self.asset, self.ctx))  # on what the runtime built
        if self.done:
            return False
        if decision is not None:
            self.result = precheck_result(self.test, self.config, decision)
            self._stamp(self.result)
            self.ctx.result = self.result
            self._engine_warnings_seen = 0
            self._copy_engine_warnings()
            self._close()
            return False
        self._generator = self._guard(lambda: self.test.run(self.ctx))
        self._last_progress = time.perf_counter()  # building the scene is not a physics step
        return not self.done

    def advance(self) -> bool:
        """Resume the test up to its next yield. False once the test has finished."""
        if self.done:
            return False
        try:
            assert self._generator is not None, "advance() before start()"
            next(self._generator)
        except StopIteration:
            self._close()
            return False
        except Exception as exc:  # noqa: BLE001 - every failure becomes a verdict
            self._fail_with(exc)
            return False
        now = time.perf_counter()
        if self.watchdog_seconds and now - self._last_progress > self.watchdog_seconds:
            # Cooperative: a step that returned, but only after the watchdog. One that never returns is
            # the parent process's to stop (run.worker).
            self._fail_with(
                WatchdogTimeout(f"hang: one physics step took {now - self._last_progress:.0f} s (watchdog "
                                f"{self.watchdog_seconds:g} s)")
            )
            return False
        if self.max_seconds and now - self._started_at > self.max_seconds:
            self._fail_with(
                WatchdogTimeout(f"no verdict after {self.max_seconds:g} s: the test kept stepping without deciding "
                                "(max_test_seconds watchdog)", CommonCode.NO_DECISION_IN_TIME)
            )
            return False
        self._last_progress = now
        return True

    def after_step(self) -> None:
        self.ctx.after_step()

    def step_to_end(self) -> TestResult:
        """Headless driving of a started session: one engine step per yield until the test ends."""
        while self.advance():
            try:
                self.engine.step()
            except Exception as exc:  # noqa: BLE001 - an engine failure is an ERROR verdict
                self._fail_with(exc)
                break
            self.after_step()
        return self.result

    def run_to_end(self) -> TestResult:
        """Start, then step to the end (headless engines)."""
        if self.start():
            self.step_to_end()
        return self.result

    def _load_scene(self, scene: "SceneSpec") -> None:
        """A later phase's scene (TestContext.load_scene): what the engine said about the scene it drops is kept, that
        scene's rig is removed once the new one is built; building is no physics step (the watchdog starts again)."""
        self._copy_engine_warnings()
        previous = self.ctx.scene
        self.ctx.scene = scene
        try:
            self.ctx.asset = scene.rig.model if scene.rig is not None else self.asset
            self._engine_warnings_seen = 0  # a load starts the engine's warnings afresh
            self.engine.load(self.ctx.asset, scene)
            self.ctx.adopt_built_model()
            self._copy_engine_warnings()
        finally:
            if previous is not None and previous.rig is not None and previous.rig is not scene.rig:
                previous.rig.close()
        self._last_progress = time.perf_counter()

    # -- internals ---------------------------------------------------------------------------------
    def _scene_asset(self) -> "AssetModel":
        """The model the test's scene is planned from: the USD reading, or what the runtime builds of the asset alone
        for a test that sizes its scene from physics (PhysicsTest.scene_reads_runtime_model)."""
        return self.ctx.asset_built_alone() if type(self.test).scene_reads_runtime_model else self.asset

    def _guard(self, fn: Callable):
        try:
            return fn()
        except Exception as exc:  # noqa: BLE001
            self._fail_with(exc)
            return None

    def _fail_with(self, exc: BaseException) -> None:
        self.result.status = Status.ERROR
        self.result.code = exc.code.value if isinstance(exc, WatchdogTimeout) else CommonCode.TEST_RAISED.value
        detail = str(exc) or type(exc).__name__
        self.result.reason = detail if isinstance(exc, (WatchdogTimeout,)) else f"{type(exc).__name__}: {detail}"
        if self.debug:
            self.result.log.append(traceback.format_exc())
        self._close()

    def _copy_engine_warnings(self) -> None:
        """The engine's warnings since the last copy, into the verdict: those of the load (what the engine
        could not map, carried-over attributes) and, at the end, those raised while stepping (runtime log)."""
        try:
            warnings = list(self.engine.warnings)
        except Exception:  # noqa: BLE001 - an engine that cannot say has nothing to add
            return
        for warning in warnings[self._engine_warnings_seen:]:
            self.ctx.warn(f"engine: {warning}")
        self._engine_warnings_seen = len(warnings)

    def _close(self) -> None:
        if self.done:
            return
        self.done = True
        if self.ctx.scene is not None and self.ctx.scene.rig is not None:
            self.ctx.scene.rig.close()  # its temporary layer: the engine has read it
        if self._engine_warnings_seen is not None:  # loaded: add what the engine reported while stepping
            self._copy_engine_warnings()
        self.result.simulated_seconds = simulated_seconds(self)
        if self._started_at is not None:
            self.result.wall_seconds = round(time.perf_counter() - self._started_at, 4)


def simulated_seconds(session: "TestSession") -> float:
    """The physics time the test stepped: its steps x dt (the engine's clock restarts at a reset, the steps do not)."""
    try:
        return round(session.ctx.step_count * float(session.engine.dt), 6)
    except Exception:  # noqa: BLE001 - an engine that failed to load has no clock
        return 0.0
