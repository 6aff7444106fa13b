"""One process, any sequence of stage units: Y-up centimetre → Z-up metre → Y-up centimetre assets get the
verdicts each gets alone in a fresh process — through the runner's loop with and without the recorder (which
also opens the asset with pxr), and with engines nobody closed (a TestSession driven by hand, as tests and
scripts do). ovphysx has one PhysX SDK tolerance scale per process: an attachment left at other units used
to make every later load fail ("physics source scan failed"; engines/physx/attachments.py)."""

from __future__ import annotations

import gc
import json
import subprocess
import sys
from pathlib import Path

import pytest

from tests.engines.test_physx import two_link_arm
from tests.fixtures.arms import build_arm
from tests.fixtures.usd_assets import box_asset
from omni.simready.physics_validator.core.config import ValidationConfig
from omni.simready.physics_validator.core.scene import GroundSpec, SceneSpec
from omni.simready.physics_validator.core.session import TestSession
from omni.simready.physics_validator.core.usd import read_asset
from omni.simready.physics_validator.engines import EngineError, EngineUnavailable, create_engine
from omni.simready.physics_validator.physics_tests import default_registry
from omni.simready.physics_validator.run.asset_run import run_asset
from omni.simready.physics_validator.run.inputs import AssetJob

try:
    from omni.simready.physics_validator.engines.physx import OvPhysxEngine
    from omni.simready.physics_validator.engines.physx.attachments import live_units
except (ImportError, EngineUnavailable) as exc:  # pragma: no cover - the wheel is a base dependency
    pytest.skip(f"physx engine unavailable: {exc}", allow_module_level=True)

TESTS = ["ground_drop", "velocity_limit", "full_range_sweep", "drive_gain_validation", "effort_limit"]
REPO = Path(__file__).resolve().parents[2]


@pytest.fixture(scope="module")
def assets(tmp_path_factory) -> list[Path]:
    root = tmp_path_factory.mktemp("units")
    return [
        two_link_arm(root / "arm_cm_yup.usda", up_axis="Y", meters_per_unit=0.01, stiffness_per_deg=2.0, axis="Z"),
        build_arm(root / "arm4_m_zup.usda", joints=4),
        box_asset(root / "box_cm_yup.usda", size=0.1, up_axis="Y", meters_per_unit=0.01, angular_velocity=(120.0, 200.0, 0.0)),
    ]


def config(video: bool = False) -> ValidationConfig:
    cfg = ValidationConfig.defaults(default_registry())
    # media "all": every test's video is drawn (the default draws only failing ones), so each run renders
    cfg.apply({"run": {"video": video, "media": "all", "video_width": 96, "video_height": 64}}, origin="test")
    return cfg


def verdicts(result) -> list[tuple[str, str, str]]:
    return [(t.name, t.status.value, t.reason) for t in result.tests]


ALONE = """
import json, sys
from omni.simready.physics_validator.run.asset_run import run_asset
from omni.simready.physics_validator.run.inputs import AssetJob
job = AssetJob.from_wire(json.loads(sys.argv[1]))
print("VERDICTS", json.dumps([(t.name, t.status.value, t.reason) for t in run_asset(job).tests]))
"""


@pytest.fixture(scope="module")
def alone(assets) -> dict[Path, list]:
    """Each asset's verdicts in a fresh process of its own."""
    out = {}
    for path in assets:
        job = AssetJob(str(path), TESTS, config(), "physx", None).to_wire()
        proc = subprocess.run([sys.executable, "-c", ALONE, json.dumps(job)], capture_output=True, text=True, cwd=REPO,
                              timeout=600)
        line = [x for x in proc.stdout.splitlines() if x.startswith("VERDICTS ")]
        assert line, proc.stderr[-2000:]
        out[path] = [tuple(v) for v in json.loads(line[0][len("VERDICTS "):])]
    return out


def test_the_runner_loop_gives_each_asset_its_verdicts_alone_in_any_unit_order(assets, alone):
    for path in assets + assets[::-1]:  # cm, m, cm, cm, m, cm
        assert verdicts(run_asset(AssetJob(str(path), TESTS, config(), "physx", None))) == alone[path], path.name


def test_with_the_recorder_too(assets, alone, tmp_path):
    from tests.fixtures.recording import require_rendering

    require_rendering()
    for n, path in enumerate(assets):
        result = run_asset(AssetJob(str(path), ["ground_drop", "effort_limit"], config(video=True), "physx",
                                    str(tmp_path / f"{n}")))
        assert any("video" in t.artifacts for t in result.tests), [t.warnings for t in result.tests]
        expected = [v for v in alone[path] if v[0] in ("ground_drop", "effort_limit")]
        assert verdicts(result) == expected, path.name


def test_engines_nobody_closed_do_not_block_the_next_units(assets, alone, tmp_path):
    """Sessions driven by hand with a recorder attached, their engines never closed and kept referenced (as a
    test fixture returning the recording does), then the same with the references dropped (garbage in a cycle:
    the recorder observes the context that holds the engine)."""
    from omni.simready.physics_validator.recording import rendering_available, start_recording

    record = rendering_available()[0]
    kept = []
    for keep in (True, False):
        for n, path in enumerate(assets):
            test = default_registry().get("ground_drop")()
            session = TestSession(test, read_asset(path), test.Config(), create_engine("physx"))
            if record:
                recording = start_recording(session.ctx, str(path), test.name, tmp_path / f"{keep}{n}", test.Config().capture_fps,
                                            96, 64)
            result = session.run_to_end()
            if record:
                recording.close(result)
            assert (result.name, result.status.value, result.reason) == alone[path][0], path.name
            if keep:
                kept.append(session)
        assert len(live_units()) <= 1 or len(set(live_units())) == 1  # only same-unit attachments coexist


def test_an_engine_released_for_other_units_says_so_and_loads_again(tmp_path):
    cm = box_asset(tmp_path / "cm.usda", up_axis="Y", meters_per_unit=0.01)
    m = box_asset(tmp_path / "m.usda")
    spec = SceneSpec(ground=GroundSpec(), place_bottom_at=0.2)
    first, second = OvPhysxEngine(), OvPhysxEngine()
    try:
        first.load(read_asset(cm), spec)
        first.step()
        second.load(read_asset(m), spec)  # first is idle and still referenced: released for the metre stage
        second.step()
        with pytest.raises(EngineError, match="one PhysX SDK tolerance scale per process"):
            first.step()
        first.load(read_asset(cm), spec)  # and it is usable again (second is released in turn)
        first.step()
        assert live_units() == [0.01]
    finally:
        first.close()
        second.close()
    assert live_units() == []


def test_an_engine_dropped_without_close_releases_its_attachment(tmp_path):
    cm = box_asset(tmp_path / "cm.usda", up_axis="Y", meters_per_unit=0.01)
    engine = OvPhysxEngine()
    engine.load(read_asset(cm), SceneSpec(ground=GroundSpec()))
    engine.cycle = engine  # only the cyclic garbage collector frees it
    del engine
    gc.collect()
    assert live_units() == []


def test_an_engine_collected_without_close_is_released_by_the_next_load_not_inside_the_collector(assets):
    """A weakref callback runs wherever the garbage collector does, also inside ovphysx's native log callback, where
    ovphysx refuses destroy() and tears the instance down on a thread of its own that races the next calls (a CI
    worker died with signal 11 that way). So the collector only hands the attachment over; the next load releases
    it, in the loading thread."""
    from omni.simready.physics_validator.engines.physx import attachments

    asset = read_asset(assets[1])
    dropped = OvPhysxEngine()
    dropped.load(asset, SceneSpec(pin_base=True))
    held = dropped._attachment
    assert held is not None and held.held
    del dropped
    gc.collect()
    assert held in attachments._COLLECTED and held.held  # handed over, not released inside the collection
    engine = OvPhysxEngine()
    try:
        engine.load(asset, SceneSpec(pin_base=True))
        assert not held.held and held not in attachments._COLLECTED  # released by the next load, in this thread
    finally:
        engine.close()
