"""The Kit engine's omni-free parts: frames/units, DOF map and target arrays, bounds from poses,
the validation layer (planned and authored on real pxr stages: the Kit session sublayer and any
given layer), the viewport frame schedule, target restriction."""

from __future__ import annotations

import math

import numpy as np
import pytest
from pxr import Usd, UsdGeom, UsdPhysics

from tests.fixtures.kit import make_arm, make_box
from omni.simready.physics_validator.core.geometry import quat_from_axis_angle
from omni.simready.physics_validator.core.scene import GroundSpec, SceneSpec
from omni.simready.physics_validator.core.usd import read_asset
from omni.simready.physics_validator.core.units import StageFrame
from omni.simready.physics_validator.engines.kit.dof_map import (
    BodyCornerCache,
    DofMap,
    centre_of_mass_world,
    maximal_joint_state,
    parse_state_rows,
    usd_drive_target,
)
from omni.simready.physics_validator.engines.kit.layer import GpuOverride, UserState, ValidationLayer
from omni.simready.physics_validator.engines.validation_layer import (
    author_validation_layer,
    physics_scene_paths,
    plan_validation_layer,
)
from omni.simready.physics_validator.live.viewport import CaptureSchedule, downscale_rgba


# -- DOF map and target arrays ------------------------------------------------------------------------
@pytest.fixture
def arm(tmp_path):
    return read_asset(make_arm(tmp_path / "arm.usda", joints=3))


def test_dof_map_follows_the_view_order_not_the_asset_order(arm):
    # Two articulations in the view; the asset's joints sit in a different order across them.
    view_paths = [["/Arm/joint3", "/Other/j"], ["/Arm/joint1", "/Arm/joint2"]]
    dof_map = DofMap.build(arm, view_paths)
    assert dof_map.shape == (2, 2)
    data = np.array([[0.3, 9.0], [0.1, 0.2]])
    np.testing.assert_allclose(dof_map.gather(data), [0.1, 0.2, 0.3])
    assert dof_map.unmapped == []


def test_full_size_targets_keep_nan_entries_and_name_touched_articulations(arm):
    dof_map = DofMap.build(arm, [["/Arm/joint3", "/Other/j"], ["/Arm/joint1", "/Arm/joint2"]])
    current = np.array([[1.0, 2.0], [3.0, 4.0]], dtype=np.float32)
    data, indices = dof_map.scatter_targets(current, [np.nan, 0.5, np.nan])
    np.testing.assert_allclose(data, [[1.0, 2.0], [3.0, 0.5]])
    assert data.dtype == np.float32 and indices.dtype == np.uint32
    assert indices.tolist() == [1]
    np.testing.assert_allclose(current, [[1.0, 2.0], [3.0, 4.0]])  # input untouched
    with pytest.raises(ValueError):
        dof_map.scatter_targets(current, [0.0, 0.0])


def test_prismatic_dofs_convert_stage_units_to_metres(arm):
    joint = arm.joints["/Arm/joint1"]
    joint.type = "prismatic"
    dof_map = DofMap.build(arm, [["/Arm/joint1", "/Arm/joint2", "/Arm/joint3"]], StageFrame("Z", 0.01))
    np.testing.assert_allclose(dof_map.gather([[50.0, 0.5, 0.25]]), [0.5, 0.5, 0.25])
    data, _ = dof_map.scatter_targets(np.zeros((1, 3)), [0.2, np.nan, np.nan])
    assert data[0, 0] == pytest.approx(20.0)


def test_joints_outside_the_view_are_unmapped_and_read_as_nan(arm):
    dof_map = DofMap.build(arm, [["/Arm/joint1"]])
    assert dof_map.unmapped == ["/Arm/joint2", "/Arm/joint3"]
    out = dof_map.gather([[0.4]])
    assert out[0] == pytest.approx(0.4) and np.isnan(out[1:]).all()


def test_usd_drive_target_is_in_degrees_for_revolute_joints(arm):
    joint = arm.joints["/Arm/joint1"]
    assert usd_drive_target(joint, math.pi / 2, StageFrame()) == pytest.approx(90.0)


# -- bounds -------------------------------------------------------------------------------------------
def test_bounds_at_authored_poses_equal_the_static_bounds(arm):
    cache = BodyCornerCache(arm)
    poses = {p: (b.world_pose.pos, b.world_pose.quat) for p, b in arm.bodies.items()}
    lo, hi = cache.world_bounds(poses)
    slo, shi = arm.authored_bounds()
    np.testing.assert_allclose(lo, slo, atol=1e-9)
    np.testing.assert_allclose(hi, shi, atol=1e-9)


def test_bounds_follow_a_rotated_body_exactly(tmp_path):
    asset = read_asset(make_box(tmp_path / "box.usda", size=0.2))
    cache = BodyCornerCache(asset)
    quat = quat_from_axis_angle([0, 0, 1], math.pi / 4)
    lo, hi = cache.world_bounds({"/Box": (np.array([1.0, 0.0, 2.0]), quat)})
    half_diag = 0.1 * math.sqrt(2)
    np.testing.assert_allclose(lo, [1 - half_diag, -half_diag, 1.9], atol=1e-9)
    np.testing.assert_allclose(hi, [1 + half_diag, half_diag, 2.1], atol=1e-9)
    with pytest.raises(KeyError):
        cache.world_bounds({})


def test_default_force_point_is_the_authored_centre_of_mass(tmp_path):
    asset = read_asset(make_box(tmp_path / "box.usda"))
    asset.bodies["/Box"].center_of_mass = np.array([0.1, 0.0, 0.0])
    quat = quat_from_axis_angle([0, 0, 1], math.pi / 2)
    point = centre_of_mass_world(asset, "/Box", (np.array([0.0, 0.0, 1.0]), quat))
    np.testing.assert_allclose(point, [0.0, 0.1, 1.0], atol=1e-9)


def test_bounds_from_poses_agree_with_the_headless_engine_while_falling(tmp_path):
    """Cross-check: the Kit engine's bounds recipe applied to the SAPIEN engine's body poses gives the
    SAPIEN engine's own bounds, mid-fall and tumbling (both are union AABBs of collision shapes)."""
    from omni.simready.physics_validator.engines import EngineUnavailable, create_engine

    try:
        engine = create_engine("physx")
    except EngineUnavailable as exc:
        pytest.skip(f"headless engine not available yet: {exc}")
    asset = read_asset(make_box(tmp_path / "box.usda", height=1.0))
    asset.bodies["/Box"].angular_velocity = np.array([2.0, 1.0, 0.5])
    engine.load(asset, SceneSpec(ground=GroundSpec()))
    cache = BodyCornerCache(asset)
    try:
        for _ in range(60):
            engine.step()
        lo, hi = cache.world_bounds(engine.body_poses())
        elo, ehi = engine.bounds()
    finally:
        engine.close()
    assert lo[2] < 0.9  # it really fell
    np.testing.assert_allclose(lo, elo, atol=2e-3)
    np.testing.assert_allclose(hi, ehi, atol=2e-3)


# -- the session sublayer -----------------------------------------------------------------------------
def _open(path):
    stage = Usd.Stage.Open(str(path))
    return stage, stage.GetRootLayer().ExportToString(), stage.ExportToString(addSourceFileComment=False)


def test_validation_layer_authors_scene_ground_lift_and_leaves_the_root_layer_alone(tmp_path):
    path = make_box(tmp_path / "box.usda", up="Y", meters_per_unit=0.01, height=0.5)
    asset = read_asset(path)
    stage, root_before, composed_before = _open(path)
    scene = SceneSpec(physics_fps=240, ground=GroundSpec(height=0.0, restitution=0.0), place_bottom_at=1.6)
    plan = plan_validation_layer(asset, scene, existing_scenes=physics_scene_paths(stage))
    assert plan.define_scene and plan.time_steps_per_second == 240
    layer = ValidationLayer(stage, plan).apply()

    scene_prim = stage.GetPrimAtPath(plan.scene_path)
    assert scene_prim.GetAttribute("physxScene:timeStepsPerSecond").Get() == 240
    assert scene_prim.GetAttribute("physxScene:enableGPUDynamics").Get() is False
    # Raw apiSchemas metadata: PhysxSchema is registered in Kit, not necessarily here.
    assert "PhysxSceneAPI" in scene_prim.GetMetadata("apiSchemas").GetAddedOrExplicitItems()
    physics_scene = UsdPhysics.Scene(scene_prim)
    assert tuple(physics_scene.GetGravityDirectionAttr().Get()) == (0.0, -1.0, 0.0)
    assert physics_scene.GetGravityMagnitudeAttr().Get() == pytest.approx(981.0)

    plane = stage.GetPrimAtPath(f"{plan.ground.path}/CollisionPlane")
    assert plane.HasAPI(UsdPhysics.CollisionAPI) and UsdGeom.Plane(plane).GetAxisAttr().Get() == "Y"
    material = UsdPhysics.MaterialAPI(stage.GetPrimAtPath(f"{plan.ground.path}/PhysicsMaterial"))
    assert material.GetRestitutionAttr().Get() == 0.0

    # The lift puts the bottom of the collision bounds at 1.6 m (160 cm along +Y).
    cache = UsdGeom.BBoxCache(Usd.TimeCode.Default(), [UsdGeom.Tokens.default_])
    box = cache.ComputeWorldBound(stage.GetPrimAtPath("/Box/Collider")).ComputeAlignedRange()
    assert box.GetMin()[1] == pytest.approx(160.0, abs=1e-6)

    assert stage.GetRootLayer().ExportToString() == root_before
    assert not stage.GetRootLayer().dirty
    assert stage.GetEditTarget().GetLayer() == stage.GetRootLayer()  # the user's edits still go to their layer

    layer.hold_edit_target()  # while PhysX parses or resets (live runner: play -> first step, stop -> STOPPED)
    assert stage.GetEditTarget().GetLayer() == layer.layer
    layer.remove()
    assert stage.GetEditTarget().GetLayer() == stage.GetRootLayer()
    assert stage.ExportToString(addSourceFileComment=False) == composed_before
    assert not stage.GetPrimAtPath("/PhysicsValidator").IsValid()
    assert stage.GetRootLayer().ExportToString() == root_before


def test_validation_layer_overrides_the_users_scene_and_adds_no_pin_to_a_fixed_tree(tmp_path):
    """The Kit arm's Xform root holds a fixed joint to the world: the tree is fixed already, so no second weld."""
    path = make_arm(tmp_path / "arm.usda")
    stage = Usd.Stage.Open(str(path))
    UsdPhysics.Scene.Define(stage, "/physicsScene")
    stage.GetRootLayer().Save()
    asset = read_asset(path)
    stage, root_before, composed_before = _open(path)
    plan = plan_validation_layer(asset, SceneSpec(physics_fps=240, pin_base=True), existing_scenes=physics_scene_paths(stage))
    assert plan.scene_path == "/physicsScene" and not plan.define_scene
    assert plan.pins == [] and plan.articulation_prim("/Arm") == "/Arm"
    layer = ValidationLayer(stage, plan).apply()
    assert stage.GetPrimAtPath("/physicsScene").GetAttribute("physxScene:timeStepsPerSecond").Get() == 240
    assert not stage.GetPrimAtPath("/PhysicsValidator/PinBase")
    art = stage.GetPrimAtPath("/Arm")
    assert art.GetAttribute("physxArticulation:solverPositionIterationCount").Get() == 16
    assert stage.GetRootLayer().ExportToString() == root_before
    layer.remove()
    assert stage.ExportToString(addSourceFileComment=False) == composed_before


def test_pinning_a_rigid_body_root_moves_its_root_apis_onto_the_pin_joint_in_the_session_sublayer(tmp_path):
    """As the physx engine does (one PinPlan for both): the pin joint becomes the articulation's root joint, so
    PhysX builds a fixed-base articulation; the delete of the body's root APIs lives in our sublayer only."""
    from tests.fixtures.arms import build_arm as build_robot

    path = build_robot(tmp_path / "robot.usda")
    asset = read_asset(path)
    stage, root_before, composed_before = _open(path)
    plan = plan_validation_layer(asset, SceneSpec(physics_fps=240, pin_base=True))
    assert [(p.held, p.body, p.move_root_api_from) for p in plan.pins] == [("/Robot/base", "/Robot/base", "/Robot/base")]
    assert plan.articulation_prim("/Robot/base") == "/PhysicsValidator/PinBase"
    layer = ValidationLayer(stage, plan).apply()
    base, pin = stage.GetPrimAtPath("/Robot/base"), stage.GetPrimAtPath("/PhysicsValidator/PinBase")
    assert not base.HasAPI(UsdPhysics.ArticulationRootAPI) and pin.HasAPI(UsdPhysics.ArticulationRootAPI)
    assert pin.GetAttribute("physxArticulation:solverPositionIterationCount").Get() == 16
    assert [str(t) for t in UsdPhysics.FixedJoint(pin).GetBody1Rel().GetTargets()] == ["/Robot/base"]
    assert stage.GetRootLayer().ExportToString() == root_before
    layer.remove()
    assert stage.ExportToString(addSourceFileComment=False) == composed_before


def test_the_validation_layer_authors_into_any_given_layer_of_a_wrapper_stage(tmp_path):
    """No live stage, no session layer: a headless engine that loads the asset's USD through a wrapper
    stage authors the same scene into the wrapper's own layer; the asset's layer is untouched."""
    from pxr import Sdf

    path = make_arm(tmp_path / "arm.usda")
    asset = read_asset(path)
    asset_text = path.read_text()
    wrapper = Usd.Stage.CreateInMemory()
    wrapper.GetRootLayer().subLayerPaths.append(str(path))
    wrapper.SetDefaultPrim(wrapper.GetPrimAtPath("/Arm"))
    additions = Sdf.Layer.CreateAnonymous("validation")
    wrapper.GetRootLayer().subLayerPaths.insert(0, additions.identifier)
    scene = SceneSpec(physics_fps=240, ground=GroundSpec(restitution=0.0), place_bottom_at=0.5, pin_base=True)
    plan = plan_validation_layer(asset, scene, existing_scenes=physics_scene_paths(wrapper))
    author_validation_layer(wrapper, plan, additions)

    assert wrapper.GetEditTarget().GetLayer() == wrapper.GetRootLayer()  # the edit target is put back
    assert wrapper.GetRootLayer().ExportToString().count("def ") == 0  # everything went to `additions`
    assert additions.GetPrimAtPath(plan.scene_path) and not plan.pins  # the arm is fixed by its own world anchor
    assert wrapper.GetPrimAtPath(plan.scene_path).GetAttribute("physxScene:timeStepsPerSecond").Get() == 240
    material = UsdPhysics.MaterialAPI(wrapper.GetPrimAtPath(f"{plan.ground.path}/PhysicsMaterial"))
    assert material.GetRestitutionAttr().Get() == 0.0
    cache = UsdGeom.BBoxCache(Usd.TimeCode.Default(), [UsdGeom.Tokens.default_])
    bottom = min(cache.ComputeWorldBound(wrapper.GetPrimAtPath(b)).ComputeAlignedRange().GetMin()[2] for b in asset.bodies)
    assert bottom == pytest.approx(0.5, abs=1e-6)
    assert not wrapper.GetSessionLayer().subLayerPaths and path.read_text() == asset_text


def test_a_non_integer_physics_rate_is_refused(tmp_path):
    asset = read_asset(make_box(tmp_path / "box.usda"))
    with pytest.raises(ValueError, match="timeStepsPerSecond"):
        plan_validation_layer(asset, SceneSpec(physics_fps=239.5))


# -- video frames and target restriction ----------------------------------------------------------------
def test_capture_schedule_and_downscale():
    schedule = CaptureSchedule(240, 15)
    assert schedule.every == 16
    assert [s for s in range(50) if schedule.due(s)] == [0, 16, 32, 48]
    frame = np.zeros((360, 640, 4), np.uint8)
    frame[:, 320:] = 255
    small = downscale_rgba(frame, 320)
    assert small.shape == (180, 320, 4)
    assert small[0, 0, 0] == 0 and small[0, -1, 0] == 255
    assert downscale_rgba(small, 320).shape == small.shape


def test_restricted_model_keeps_the_target_subtree(arm):
    part = arm.restricted_to("/Arm/link1")
    assert list(part.bodies) == ["/Arm/link1"]
    assert set(part.joints) == {"/Arm/joint1", "/Arm/joint2"}  # both touch link1
    assert arm.restricted_to("/Arm") .bodies.keys() == arm.bodies.keys()
    assert arm.restricted_to(None) is arm


def test_the_authored_scene_reads_back_as_the_test_asked_and_simulates(tmp_path):
    """The sublayer is parsed by UsdPhysics (the parser omni.physx uses) into the intended scene, and
    the headless engine drops the lifted box onto the authored ground."""
    from omni.simready.physics_validator.engines import EngineUnavailable, create_engine

    path = make_box(tmp_path / "box.usda", up="Y", meters_per_unit=0.01, height=0.5)
    asset = read_asset(path)
    stage = Usd.Stage.Open(str(path))
    scene = SceneSpec(ground=GroundSpec(height=0.0, restitution=0.0), place_bottom_at=1.0)
    layer = ValidationLayer(stage, plan_validation_layer(asset, scene)).apply()
    composed = tmp_path / "composed.usda"
    stage.Export(str(composed))
    layer.remove()
    seen = read_asset(composed)
    assert seen.authored_bounds()[0][2] == pytest.approx(1.0, abs=1e-6)
    planes = [c for c in seen.colliders.values() if c.shape == "plane"]
    assert len(planes) == 1 and planes[0].body is None
    assert planes[0].material is not None and planes[0].material.restitution == 0.0
    try:
        engine = create_engine("physx")
    except EngineUnavailable as exc:
        pytest.skip(f"headless engine not available yet: {exc}")
    boxes = {p: c for p, c in seen.colliders.items() if c.shape != "plane"}
    seen.colliders = boxes  # the engine brings its own ground from the scene spec
    try:
        engine.load(seen, SceneSpec(ground=GroundSpec()))
        for _ in range(int(1.5 / engine.dt)):
            engine.step()
        lo, _hi = engine.bounds()
    finally:
        engine.close()
    assert lo[2] == pytest.approx(0.0, abs=0.01)  # fell 1 m and rests on the floor


# -- edit target, user state, GPU override (pure: duck-typed Kit interfaces) --------------------------------
def test_the_edit_target_is_given_back_unless_the_user_moved_it(tmp_path):
    from pxr import Sdf

    stage = Usd.Stage.Open(str(make_box(tmp_path / "box.usda")))
    asset = read_asset(tmp_path / "box.usda")
    layer = ValidationLayer(stage, plan_validation_layer(asset, SceneSpec())).apply()
    layer.hold_edit_target()
    layer.hold_edit_target()  # idempotent: the user's target is remembered once
    layer.release_edit_target()
    assert stage.GetEditTarget().GetLayer() == stage.GetRootLayer()
    layer.hold_edit_target()
    elsewhere = Sdf.Layer.CreateAnonymous("user")
    stage.GetRootLayer().subLayerPaths.append(elsewhere.identifier)
    stage.SetEditTarget(Usd.EditTarget(elsewhere))  # the user picked another layer meanwhile
    layer.remove()
    assert stage.GetEditTarget().GetLayer() == elsewhere and not stage.GetSessionLayer().subLayerPaths


class _Physx:
    """overwrite_gpu_setting as omni.physx: ignored once the simulation started (PhysX.cpp:625-642)."""

    def __init__(self, value=-1):
        self.value, self.started, self.layer = value, False, "x"

    def get_overwrite_gpu_setting(self):
        return self.value

    def overwrite_gpu_setting(self, value):
        if not self.started:
            self.value = value

    def set_simulation_layer(self, layer: str):
        assert isinstance(layer, str), "omni.physx 110.4.4 types the layer as str"
        self.layer = layer


class _Timeline:
    def __init__(self):
        self.queue, self.time, self.playing = [], 0.75, True

    def get_current_time(self):
        return self.time

    def is_playing(self):
        return self.playing

    def is_stopped(self):
        return not self.playing

    def set_current_time(self, t):
        self.queue.append(("time", t))

    def play(self):
        self.queue.append(("play",))


class _Selection:
    def __init__(self, paths):
        self.paths = list(paths)

    def get_selected_prim_paths(self):
        return list(self.paths)

    def set_selected_prim_paths(self, paths, expand):
        self.paths = list(paths)


def test_gpu_override_is_forced_to_cpu_and_given_back():
    physx = _Physx(1)
    override = GpuOverride(physx)
    override.force_cpu()
    override.force_cpu()  # the user's value is saved once
    assert physx.value == 0
    override.restore()
    assert physx.value == 1 and override.saved is None


def test_user_state_is_captured_and_put_back():
    physx, timeline, selection = _Physx(1), _Timeline(), _Selection(["/Box"])
    state = UserState.capture(timeline, selection, physx)
    assert (state.time, state.playing, state.stopped, state.selection, state.gpu) == (0.75, True, False, ["/Box"], 1)
    physx.value, selection.paths = 0, []
    state.restore_process_wide(physx)
    state.restore_stage_side(timeline, selection)
    assert physx.value == 1 and physx.layer == "" and selection.paths == ["/Box"]
    assert timeline.queue == [("time", 0.75), ("play",)]  # queued: Kit applies them the next frame


# -- joints outside articulations and the warm-up undone ----------------------------------------------------
def test_maximal_joint_state_reads_the_hinge_angle_and_rate_from_body_poses(arm):
    joint = arm.joints["/Arm/joint1"]  # revolute about Y, base -> link1
    base = arm.bodies["/Arm/base"].world_pose
    angle = 0.3
    quat = quat_from_axis_angle([0, 1, 0], angle)
    # link1 turned about the joint's anchor (0, 0, 0.125)
    anchor = np.array([0.0, 0.0, 0.125])
    from omni.simready.physics_validator.core.geometry import rotate

    link_pos = anchor + rotate(quat, np.array([0.0, 0.0, 0.075]))
    poses = {"/Arm/base": (base.pos, base.quat), "/Arm/link1": (link_pos, quat)}
    velocities = {"/Arm/link1": (np.zeros(3), np.array([0.0, 2.0, 0.0]))}
    position, velocity = maximal_joint_state(joint, poses, velocities)
    assert position == pytest.approx(angle, abs=1e-9)
    assert velocity == pytest.approx(2.0, abs=1e-9)
    assert math.isnan(maximal_joint_state(joint, poses)[1])


def test_parse_state_rows_are_stage_units_and_stage_axes(tmp_path):
    asset = read_asset(make_box(tmp_path / "box.usda", up="Y", meters_per_unit=0.01))
    asset.bodies["/Box"].linear_velocity = np.array([1.0, 0.0, 2.0])  # SI, Z up
    asset.bodies["/Box"].angular_velocity = np.array([0.0, 0.0, 3.0])
    frame = StageFrame.of_asset(asset)
    pose = np.array([0.0, 50.0, 0.0, 0.0, 0.0, 0.0, 1.0], np.float32)
    transforms, velocities = parse_state_rows(["/Box"], {"/Box": pose}, asset, frame)
    np.testing.assert_allclose(transforms[0], pose)
    np.testing.assert_allclose(velocities[0], [100.0, 200.0, 0.0, 0.0, 3.0, 0.0], atol=1e-4)  # cm/s, Y up
    assert transforms.dtype == velocities.dtype == np.float32
