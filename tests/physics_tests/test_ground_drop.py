"""ground_drop on the real PhysX engine: every outcome in the spec, each asserting the deciding metric."""

from __future__ import annotations

import math

import pytest

from omni.simready.physics_validator.core.session import TestSession
from omni.simready.physics_validator.core.status import Status
from omni.simready.physics_validator.core.usd import read_asset
from omni.simready.physics_validator.engines import create_engine
from omni.simready.physics_validator.physics_tests.ground.ground_drop import GroundDropTest
from tests.fixtures.usd_assets import box_asset

pytestmark = pytest.mark.usefixtures("physx_available")


def run_ground_drop(path, **overrides):
    test = GroundDropTest()
    config = test.Config(**overrides)
    return TestSession(test, read_asset(path), config, create_engine("physx")).run_to_end()


def test_box_passes_touching_at_free_fall_time(tmp_path):
    result = run_ground_drop(box_asset(tmp_path / "box.usda", size=0.1), drop_rule="spec_8x")
    assert result.status == Status.PASS, result.reason
    m = result.metrics
    assert m["bbox_height"] == pytest.approx(0.1, abs=1e-4)
    assert m["initial_z_min"] == pytest.approx(0.8, abs=1e-4)  # the spec's 8 x height above the floor
    # Touch threshold 0.1 m: a 0.7 m free fall takes sqrt(2 * 0.7 / g) s (one 1/240 s step resolution).
    assert m["touch_time"] == pytest.approx(math.sqrt(2 * 0.7 / 9.81), abs=2 / 240)
    assert m["penetrated"] is False and m["max_penetration"] < 0.005
    assert m["rested"] is True
    # Rest needs the 1 s delay and then a full 2 s window: it cannot be declared before 2 s after contact.
    assert 2.0 <= m["settle_seconds_after_contact"] <= 8.0


def test_an_asset_without_a_default_prim_is_still_dropped_from_8_heights(tmp_path):
    """No defaultPrim (newton's axis_cube and palletizer scenes): the lift goes on the one top-level prim holding the
    bodies. Before, the physx engine did not lift it: a box authored on the floor 'never touched' it."""
    from pxr import Sdf

    path = box_asset(tmp_path / "no_default_prim.usda", size=0.1, position=(0.0, 0.0, 0.05))
    layer = Sdf.Layer.FindOrOpen(str(path))
    layer.ClearDefaultPrim()
    layer.Save()
    assert read_asset(path).default_prim is None
    result = run_ground_drop(path, drop_rule="spec_8x")
    assert result.status == Status.PASS, result.reason
    assert result.metrics["initial_z_min"] == pytest.approx(0.8, abs=1e-4)


def test_kinematic_body_fails_named_before_physics(tmp_path):
    """A kinematic body does not fall: it is named before any physics (it used to run 10 s to 'never touched')."""
    result = run_ground_drop(box_asset(tmp_path / "kinematic.usda", kinematic=True))
    assert result.status == Status.FAIL and result.code == "KINEMATIC_BODY"
    assert "/Asset/Body" in result.reason and "kinematicEnabled" in result.reason
    assert any("kinematic" in hint for hint in result.fix_hints)
    assert result.simulated_seconds == 0.0


@pytest.mark.parametrize("engine", ["physx", "newton"])
def test_collision_disabled_fails_naming_the_disabled_colliders(tmp_path, engine):
    """Issue 13 item 8: an asset whose only collider has collisionEnabled = false passes the precheck (CollisionAPI
    is applied, as the spec checks and Kit does) and falls through the floor: FAIL, and the reason now names the
    disabled colliders with the matching hint (it used to send the author to the convex-hull hint)."""
    from omni.simready.physics_validator.physics_tests.ground.ground_drop.hints import (
        COLLISIONS_DISABLED as HINT_COLLISION_DISABLED, PENETRATED as HINT_PENETRATED,
    )
    from tests.fixtures.runs import require_engine

    test = GroundDropTest()
    path = box_asset(tmp_path / "nocollide.usda", collision_enabled=False)
    result = TestSession(test, read_asset(path), test.Config(), create_engine(require_engine(engine))).run_to_end()
    assert result.status == Status.FAIL, result.reason
    assert "physics:collisionEnabled = false on all 1 of its colliders (/Asset/Body/Geom)" in result.reason
    assert result.fix_hints == [HINT_COLLISION_DISABLED] and HINT_PENETRATED not in result.fix_hints
    if result.metrics["touched"]:  # PhysX: the box falls through; Newton reports no bounds to touch with
        assert result.metrics["penetrated"] is True
        assert result.metrics["max_penetration"] > result.metrics["sink_allowance"] == pytest.approx(0.05)


def test_world_anchored_asset_is_not_applicable(tmp_path):
    result = run_ground_drop(box_asset(tmp_path / "anchored.usda", anchored=True))
    assert result.status == Status.NOT_APPLICABLE
    assert "/Asset/WorldAnchor" in result.reason
    assert result.simulated_seconds == 0.0


def test_missing_rigid_body_is_a_precheck_failure(tmp_path):
    result = run_ground_drop(box_asset(tmp_path / "static.usda", rigid_body=False))
    assert result.status == Status.PRECHECK_FAILURE
    assert "RigidBodyAPI" in result.reason and result.fix_hints


def test_missing_collider_is_a_precheck_failure(tmp_path):
    result = run_ground_drop(box_asset(tmp_path / "nocollider.usda", collider=False))
    assert result.status == Status.PRECHECK_FAILURE
    assert "CollisionAPI" in result.reason


def test_rolling_sphere_never_comes_to_rest(tmp_path):
    result = run_ground_drop(box_asset(tmp_path / "rolling.usda", shape="sphere", velocity=(2.0, 0.0, 0.0)))
    assert result.status == Status.FAIL
    assert result.metrics["touched"] is True and result.metrics["rested"] is False
    assert "not at rest" in result.reason and "sliding or bouncing" in result.reason
    assert result.metrics["max_rest_deviation"] > 0.02


def test_spinning_in_place_is_not_rest(tmp_path):
    # A box spinning about its vertical axis keeps its centre but not its corners.
    result = run_ground_drop(
        box_asset(tmp_path / "spin.usda", size=0.2, angular_velocity=(0.0, 0.0, 3000.0), friction=0.0),
        ground_static_friction=0.0,
        ground_dynamic_friction=0.0,
    )
    assert result.status == Status.FAIL, result.reason
    assert "rotation not" in result.reason


def test_y_up_centimetre_twin_gives_the_same_verdict_and_metrics(tmp_path):
    metre = run_ground_drop(box_asset(tmp_path / "m.usda"))
    cm = run_ground_drop(box_asset(tmp_path / "cm.usda", up_axis="Y", meters_per_unit=0.01))
    assert metre.status == cm.status == Status.PASS
    for key in ("touch_time", "bbox_height", "initial_z_min", "rest_time"):
        assert cm.metrics[key] == pytest.approx(metre.metrics[key], abs=1e-3), key


def test_rest_tolerance_override_changes_the_verdict(tmp_path):
    path = box_asset(tmp_path / "rolling.usda", shape="sphere", velocity=(0.05, 0.0, 0.0))
    strict = run_ground_drop(path, rest_tolerance_m=0.001)
    assert strict.config["rest_tolerance_m"] == 0.001
    assert strict.status == Status.FAIL


@pytest.mark.parametrize("name", ["pb_mug", "pb_duck_vhacd", "pb_lego", "pb_jenga", "pb_soccerball"])
def test_real_objects_pass(shared_assets, name):
    result = run_ground_drop(shared_assets / name / "floating_base.usda")
    assert result.status == Status.PASS, result.reason
    assert result.metrics["max_penetration"] < 0.01


@pytest.mark.parametrize("name", ["pb_mug", "pb_soccerball"])
def test_real_objects_as_shipped_are_welded_so_not_applicable(shared_assets, name):
    top = {"pb_mug": "mug.usda", "pb_soccerball": "urdf_robot.usda"}[name]
    result = run_ground_drop(shared_assets / name / top)
    assert result.status == Status.NOT_APPLICABLE
    assert "root_joint" in result.reason


@pytest.mark.parametrize("name", ["pb_traybox", "pb_table"])
def test_mass_zero_objects_fall_with_mass_from_density(shared_assets, name):
    """Authored mass 0 means 'unset' in UsdPhysics: mass comes from density, the object falls and settles."""
    path = shared_assets / name / "floating_base.usda"
    asset = read_asset(path)
    assert all(b.mass is None for b in asset.bodies.values())
    result = run_ground_drop(path)
    assert result.metrics["touched"] is True
    assert result.status == Status.PASS, result.reason


def _add_to_stage(path, build):
    from pxr import Usd

    stage = Usd.Stage.Open(str(path))
    build(stage)
    stage.GetRootLayer().Save()
    return path


def test_a_pendulum_hinged_to_the_world_is_not_applicable(tmp_path):
    from pxr import Sdf, UsdPhysics

    def hinge(stage):
        joint = UsdPhysics.RevoluteJoint.Define(stage, "/Asset/Hinge")
        joint.CreateBody1Rel().SetTargets([Sdf.Path("/Asset/Body")])
        joint.CreateAxisAttr("X")

    result = run_ground_drop(_add_to_stage(box_asset(tmp_path / "pendulum.usda"), hinge))
    assert result.status == Status.NOT_APPLICABLE
    assert "revolute joint /Asset/Hinge" in result.reason


def test_static_scenery_is_not_part_of_the_bounds(tmp_path):
    """A collider on no rigid body (a platform) moves with the asset but never counts in its bounds."""
    from pxr import Gf, UsdGeom, UsdPhysics

    def platform(stage):
        cube = UsdGeom.Cube.Define(stage, "/Asset/Platform")
        cube.AddTranslateOp().Set(Gf.Vec3d(0, 0, 0.39))  # top 1 cm under the box
        cube.AddScaleOp().Set(Gf.Vec3f(1.0, 1.0, 0.05))
        UsdPhysics.CollisionAPI.Apply(cube.GetPrim())

    result = run_ground_drop(_add_to_stage(box_asset(tmp_path / "on_platform.usda", size=0.1), platform))
    assert result.metrics["bbox_height"] == pytest.approx(0.1, abs=1e-4)  # the box only, not the platform
    assert any("static scenery" in w for w in result.warnings)
    # Lifted with the box, the platform holds it up: a clear FAIL that names the scenery.
    assert result.status == Status.FAIL and result.metrics["touched"] is False
    assert "/Asset/Platform" in result.reason and any("world geometry" in h for h in result.fix_hints)


def test_the_tail_after_the_verdict_is_simulated_only_when_something_shows_the_motion(tmp_path):
    """The tail decides nothing: without a video or viewport (ctx.watched) the drop ends with its verdict; with one it
    goes on simulate_after_result_seconds, and the verdict and its metrics are the same."""
    path = box_asset(tmp_path / "box.usda", size=0.1)
    plain = run_ground_drop(path)
    test = GroundDropTest()
    session = TestSession(test, read_asset(path), test.Config(), create_engine("physx"))
    session.start()
    session.ctx.watched = True  # as the recorder and the Kit viewport set it
    watched = session.step_to_end()
    assert plain.status == watched.status == Status.PASS
    assert plain.metrics == watched.metrics
    tail = test.Config().simulate_after_result_seconds
    assert watched.simulated_seconds - plain.simulated_seconds == pytest.approx(tail, abs=1.5 / 240)
    assert plain.simulated_seconds == pytest.approx(plain.metrics["rest_time"], abs=1.5 / 240)
