"""The runtime readback of one asset, once: what the engine's runtime parsed beside what the asset authors.

Read from the engine of the asset's first test that stepped on the asset as authored (no drives of the test's own
in place of the authored ones: joint_movement's velocity probe is never read), after its verdict (so it can never
change one), and before that engine closes: no extra load (7-12 ms median on the shared assets, at most 41 ms,
against 30-60 ms for each test's engine load), so it always runs (no switch). When no such test stepped (every
verdict decided by a precheck, or only a test with drives of its own stepped: a robot with no drive) the headless
run loads one engine for the readback alone, after every verdict (`read_back_alone`, 82-128 ms median, at most
320 ms with the load). A read that fails is recorded as the block's `error`, never as a verdict.
"""

from __future__ import annotations

import time

from ..core.asset_model import AssetModel
from ..core.readback import compare
from ..core.runtime_model import disagreements, solver_entries
from ..core.results import Plausibility, RuntimeReadback, TestResult
from ..core.scene import SceneSpec
from ..core.status import Status


def ready(result: TestResult, scene: SceneSpec | None) -> bool:
    """The test's engine loaded the asset as authored, stepped and did not fail: its runtime can be read. A test
    whose scene simulates drives of its own in place of the authored ones (joint_movement's velocity probe), or a rig
    around the asset (core.rig: a gantry, an object), is never read: the readback would report the test's as the
    asset's."""
    return (result.status != Status.ERROR and result.simulated_seconds > 0
            and scene is not None and not scene.drive_overrides and scene.rig is None)


def read_back(engine, asset: AssetModel, scene: SceneSpec | None = None) -> RuntimeReadback | None:
    """The readback block, or None when the engine cannot say what its runtime parsed. `scene`: the test's, whose
    solver iteration counts replace the authored ones (listed beside the runtime's values)."""
    if not engine.capabilities().reads_runtime_values:
        return None
    started = time.perf_counter()
    try:
        values = engine.runtime_values()
        entries = compare(asset, values)
        if engine.capabilities().reads_built_model:  # what it built otherwise than the USD reads (core.runtime_model)
            entries = disagreements(asset, engine.built_model()) + entries
        entries = solver_entries(asset, scene or SceneSpec()) + entries
    except Exception as exc:  # noqa: BLE001 - a failed read is reported, it never costs a verdict
        return RuntimeReadback(engine=engine.name, error=f"{type(exc).__name__}: {exc}",
                               seconds=round(time.perf_counter() - started, 4))
    return RuntimeReadback(engine=values.engine, settings=dict(values.settings), entries=entries,
                           seconds=round(time.perf_counter() - started, 4))


def check_plausibility(engine, asset: AssetModel) -> Plausibility:
    """The plausibility block (core/plausibility) of the asset as this loaded engine built it (its built model, or the
    USD reading's statement where it cannot read its own), with the runtime's log records. Never raises."""
    from ..core.plausibility import check

    try:
        built = engine.built_model() if engine.capabilities().reads_built_model else None
        return check(asset, built, list(engine.warnings))
    except Exception as exc:  # noqa: BLE001 - a failed check is reported, it never costs a verdict
        return Plausibility(engine=engine.name, error=f"{type(exc).__name__}: {exc}")


def read_back_alone(make_engine, asset: AssetModel, plausibility: bool = False
                    ) -> tuple[RuntimeReadback | None, Plausibility | None]:
    """The readback (and with `plausibility` the plausibility block) from an engine loaded for it alone (the asset as
    authored, one step, no ground): None for what the engine cannot say or when it is not available. Never raises."""
    try:
        engine = make_engine()
    except Exception:  # noqa: BLE001 - no engine: the tests already said why
        return None, None
    started = time.perf_counter()
    block, checked = None, None
    try:
        engine.load(asset, SceneSpec())
        engine.step()
        if engine.capabilities().reads_runtime_values:
            block = read_back(engine, asset, SceneSpec())
        checked = check_plausibility(engine, asset) if plausibility else None
    except Exception as exc:  # noqa: BLE001
        block = RuntimeReadback(engine=engine.name, error=f"{type(exc).__name__}: {exc}")
    finally:
        try:
            engine.close()
        except Exception:  # noqa: BLE001
            pass
    if block is not None:
        block.seconds = round(time.perf_counter() - started, 4)
    return block, checked
