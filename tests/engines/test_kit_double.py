"""The Kit engine on real physics: KitPhysxEngine over the Kit test double (tests/fixtures/fake_kit: the
omni.physx / omni.physics.tensors / omni.timeline / omni.usd calls it makes, backed by ovphysx).

- the ground_drop fixtures and the driven arm through TestSession, as the Kit suites run them in Kit;
- what a manual run leaves behind: the user's layers, edit target, GPU override, simulation layer;
- the double's own Kit semantics the live runner relies on (deferral, commit, reset into the edit target,
  invalidated views), and a negative control: the old close order really dirties the user's layer here.

The engine conformance suite runs on the same engine through tests/engines/conformance (param kit-double).
"""

from __future__ import annotations

import math

import pytest

from omni.simready.physics_validator.core.session import TestSession
from omni.simready.physics_validator.core.status import Status
from omni.simready.physics_validator.core.usd import read_asset
from omni.simready.physics_validator.physics_tests import default_registry
from tests.fixtures import fake_kit
from tests.fixtures.kit import make_arm, make_box
from tests.fixtures.usd_assets import box_asset


@pytest.fixture
def kit():
    why = fake_kit.unavailable()
    if why:
        pytest.skip(why)
    kit = fake_kit.install()
    yield kit
    fake_kit.uninstall()


def _run(test_name: str, path, target: str | None = None, **overrides):
    test = default_registry().get(test_name)()
    engine = fake_kit.KitOnOpenStage(target=target)
    try:
        asset = read_asset(path).restricted_to(target)
        return TestSession(test, asset, test.Config(**overrides), engine, watchdog_seconds=120).run_to_end()
    finally:
        engine.close()


# -- the ground_drop fixtures --------------------------------------------------------------------------
def test_ground_drop_box_passes_touching_at_free_fall_time(kit, tmp_path):
    result = _run("ground_drop", box_asset(tmp_path / "box.usda", size=0.1), drop_rule="spec_8x")  # 8x: 0.8 m
    assert result.status == Status.PASS, result.reason
    assert result.engine == "kit"
    m = result.metrics
    assert m["initial_z_min"] == pytest.approx(0.8, abs=1e-3)
    assert m["touch_time"] == pytest.approx(math.sqrt(2 * 0.7 / 9.81), abs=2 / 240)
    assert m["penetrated"] is False and m["rested"] is True
    assert not kit.log.errors, kit.log.errors


@pytest.mark.parametrize(
    "options, status, words",
    [
        ({"kinematic": True}, Status.FAIL, "kinematic body"),
        ({"collision_enabled": False}, Status.FAIL, "penetrated"),
        ({"anchored": True}, Status.NOT_APPLICABLE, "/Asset/WorldAnchor"),
        ({"shape": "sphere", "velocity": (2.0, 0.0, 0.0)}, Status.FAIL, "not at rest"),
        ({"rigid_body": False}, Status.PRECHECK_FAILURE, "RigidBodyAPI"),
    ],
    ids=["kinematic", "no-collision", "anchored", "rolling-sphere", "no-rigid-body"],
)
def test_ground_drop_fixtures_give_the_spec_verdicts(kit, tmp_path, options, status, words):
    result = _run("ground_drop", box_asset(tmp_path / "asset.usda", **options))
    assert result.status == status, result.reason
    assert words in result.reason
    assert not kit.log.errors, kit.log.errors


def test_ground_drop_on_a_y_up_centimetre_twin_gives_the_same_metrics(kit, tmp_path):
    metre = _run("ground_drop", box_asset(tmp_path / "m.usda"))
    centimetre = _run("ground_drop", box_asset(tmp_path / "cm.usda", up_axis="Y", meters_per_unit=0.01))
    assert metre.status == centimetre.status == Status.PASS
    for key in ("initial_z_min", "touch_time", "max_penetration"):
        assert centimetre.metrics[key] == pytest.approx(metre.metrics[key], abs=2e-4), key


def test_a_driven_arm_passes_the_four_joint_tests_with_a_row_per_joint(kit, tmp_path):
    path = make_arm(tmp_path / "arm.usda")
    for name in ("velocity_limit", "full_range_sweep", "drive_gain_validation", "effort_limit"):
        result = _run(name, path, target="/Arm")
        assert result.status == Status.PASS, f"{name}: {result.reason}"
        assert {r.joint for r in result.joints} == {"joint1", "joint2"}, name
    assert not kit.log.errors, kit.log.errors


# -- what a manual run leaves behind ---------------------------------------------------------------------
def test_a_manual_run_leaves_layers_edit_target_gpu_setting_and_simulation_layer_as_they_were(kit, tmp_path):
    path = make_box(tmp_path / "box.usda")
    kit.usd.open_stage(str(path))
    stage = kit.usd.get_stage()
    kit.physx.overwrite_gpu_setting(1)
    root = stage.GetRootLayer()
    before = (root.ExportToString(), root.dirty, list(stage.GetSessionLayer().subLayerPaths))
    test = default_registry().get("ground_drop")()
    from omni.simready.physics_validator.engines.kit.engine import KitPhysxEngine

    engine = KitPhysxEngine(mode="manual", target="/Box")
    session = TestSession(test, read_asset(path), test.Config(), engine)
    assert session.start()
    assert kit.physx.get_overwrite_gpu_setting() == 0  # CPU for the numpy frontend while the test runs
    assert kit.physx.simulation_layer == engine.layer.identifier
    session.step_to_end()
    engine.close()
    assert session.result.status == Status.PASS
    assert (root.ExportToString(), root.dirty, list(stage.GetSessionLayer().subLayerPaths)) == before
    assert stage.GetEditTarget().GetLayer() == root
    assert kit.physx.get_overwrite_gpu_setting() == 1 and kit.physx.simulation_layer is None
    assert not kit.log.errors and not kit.log.warnings, kit.log.lines


def test_manual_mode_refuses_a_playing_timeline(kit, tmp_path):
    from omni.simready.physics_validator.engines.base import EngineError

    kit.usd.open_stage(str(make_box(tmp_path / "box.usda")))
    kit.timeline.play()
    kit.app.update()
    engine = fake_kit.KitOnOpenStage()
    with pytest.raises(EngineError, match="stop the timeline first"):
        engine.engine.load(read_asset(tmp_path / "box.usda"), default_registry().get("ground_drop")().scene(
            read_asset(tmp_path / "box.usda"), default_registry().get("ground_drop").Config()))
    engine.close()


def test_the_kit_engine_reads_radians_and_stage_units_from_the_views(kit, tmp_path):
    """A drive target of 30 degrees reads back as pi/6 rad, on a Y-up centimetre stage too."""
    from omni.simready.physics_validator.core.scene import SceneSpec

    path = make_arm(tmp_path / "arm.usda", joints=1)
    engine = fake_kit.KitOnOpenStage()
    engine.load(read_asset(path), SceneSpec(ground=None, gravity=0.0))
    engine.set_joint_position_targets([math.radians(30.0)])
    for _ in range(480):
        engine.step()
    assert engine.joint_positions()[0] == pytest.approx(math.radians(30.0), abs=2e-3)
    view = engine._articulations  # the double's view: float32, radians, as omni.physics.tensors
    assert view.get_dof_positions().dtype.name == "float32"
    engine.close()


# -- the double's Kit semantics ------------------------------------------------------------------------------
def test_the_double_defers_timeline_changes_by_one_frame_and_commit_applies_them(kit, tmp_path):
    kit.usd.open_stage(str(make_box(tmp_path / "box.usda")))
    timeline = kit.timeline
    timeline.play()
    assert not timeline.is_playing()  # omni.timeline USAGE_PYTHON: False until the next frame
    kit.app.update()
    assert timeline.is_playing() and kit.sim.started
    timeline.set_current_time(0.25)
    assert timeline.get_current_time() != 0.25
    timeline.stop()
    timeline.commit()
    assert timeline.is_stopped()
    kit.app.update()
    assert not kit.sim.started  # PhysX reset in the stage update


def test_the_double_ignores_a_gpu_override_once_the_simulation_started(kit, tmp_path):
    kit.usd.open_stage(str(make_box(tmp_path / "box.usda")))
    kit.timeline.play()
    kit.app.update()
    kit.physx.overwrite_gpu_setting(0)
    assert kit.physx.get_overwrite_gpu_setting() == -1
    assert "Not possible to set the GPU parameters" in kit.log.warnings[-1]


def test_negative_control_the_old_close_order_dirties_the_users_root_layer(kit, tmp_path):
    """What issue 14 found, reproduced: stop() queued, sublayer removed in the same frame -> PhysX's reset
    runs a frame later into the user's edit target (the root layer)."""
    from omni.simready.physics_validator.engines.kit.engine import KitPhysxEngine

    path = make_box(tmp_path / "box.usda")
    kit.usd.open_stage(str(path))
    stage = kit.usd.get_stage()
    root_before = stage.GetRootLayer().ExportToString()
    asset = read_asset(path)
    test = default_registry().get("ground_drop")()
    engine = KitPhysxEngine(mode="live", target="/Box")
    engine.load(asset, test.scene(asset, test.Config()))
    engine.layer.hold_edit_target()
    kit.timeline.play()
    for _ in range(5):
        kit.app.update()
    engine.layer.release_edit_target()
    kit.timeline.stop()
    engine.close()  # the old order: the layer goes before the stop is applied
    kit.app.update()
    assert stage.GetRootLayer().dirty and stage.GetRootLayer().ExportToString() != root_before
    assert any("Edit target changed" in w for w in kit.log.warnings)


def test_views_are_invalid_after_stop_and_using_one_is_an_error(kit, tmp_path):
    import omni.physics.tensors as tensors

    kit.usd.open_stage(str(make_arm(tmp_path / "arm.usda")))
    kit.timeline.play()
    kit.app.update()
    view = tensors.create_simulation_view("numpy", stage_id=kit.usd.get_stage_id()).create_articulation_view(["/Arm"])
    assert view.get_dof_positions().shape == (1, 2)
    kit.timeline.stop()
    kit.app.update()
    assert view.get_dof_positions() is None
    assert kit.log.errors == ["Simulation view object is invalidated and cannot be used again to call get_dof_positions"]
    kit.log.lines.clear()


def test_a_memory_stage_run_never_touches_the_open_stage(kit, tmp_path):
    """omni.physx.scripts.utils.new_memory_stage(attach_stage=False, file_to_load=path) is Usd.Stage.Open + the
    UsdUtils.StageCache (utils.py:585-602); the engine steps it in manual mode, the open stage is left alone."""
    from pxr import Usd, UsdUtils

    from omni.simready.physics_validator.engines.kit.engine import KitPhysxEngine
    from omni.simready.physics_validator.live.open_stage import read_stage

    open_path = make_box(tmp_path / "open.usda")
    kit.usd.open_stage(str(open_path))
    open_stage = kit.usd.get_stage()
    before = open_stage.GetRootLayer().ExportToString(), list(open_stage.GetSessionLayer().subLayerPaths)
    path = box_asset(tmp_path / "memory.usda")
    text = path.read_text()
    memory = Usd.Stage.Open(str(path))
    UsdUtils.StageCache.Get().Insert(memory)
    test = default_registry().get("ground_drop")()
    engine = KitPhysxEngine(mode="manual", stage=memory)
    result = TestSession(test, read_stage(memory), test.Config(), engine).run_to_end()
    engine.close()
    assert not memory.GetSessionLayer().subLayerPaths
    with pytest.raises(ValueError, match="manual mode only"):
        KitPhysxEngine(mode="live", stage=memory)
    UsdUtils.StageCache.Get().Erase(memory)  # release_memory_stage
    assert result.status == Status.PASS, result.reason
    assert (open_stage.GetRootLayer().ExportToString(), list(open_stage.GetSessionLayer().subLayerPaths)) == before
    assert path.read_text() == text


@pytest.mark.parametrize("test_name", ["ground_drop", "velocity_limit", "drive_gain_validation"])
def test_the_kit_engine_and_the_headless_physx_engine_give_the_same_verdicts(kit, tmp_path, test_name):
    """Both run the Omni PhysX runtime on the same authored scene (engines/validation_layer.py); the legacy
    physxJoint:maxJointVelocity of the arm is honoured by both (Kit natively, physx.target=isaacsim-5)."""
    from omni.simready.physics_validator.engines import EngineUnavailable, create_engine

    try:
        headless_engine = create_engine("physx")
    except EngineUnavailable as exc:
        pytest.skip(str(exc))
    path = make_box(tmp_path / "box.usda") if test_name == "ground_drop" else make_arm(tmp_path / "arm.usda")
    target = "/Box" if test_name == "ground_drop" else "/Arm"
    test = default_registry().get(test_name)()
    headless = TestSession(test, read_asset(path), test.Config(), headless_engine).run_to_end()
    headless_engine.close()
    in_kit = _run(test_name, path, target=target)
    assert in_kit.status == headless.status, (in_kit.reason, headless.reason)
    assert [r.status for r in in_kit.joints] == [r.status for r in headless.joints]
