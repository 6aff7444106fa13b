"""Asset model on real converted robots and on pxr fixtures: counts, SI limits, flags, units."""

from __future__ import annotations

import math

import numpy as np
import pytest

from omni.simready.physics_validator.core.usd import AssetLoadError, read_asset
from tests.fixtures.usd_assets import box_asset


def test_ur5_joints_limits_and_velocity_limits_in_si(shared_assets):
    asset = read_asset(shared_assets / "erd_ur5" / "ur5.usda")
    dofs = asset.dof_joints
    assert len(dofs) == 6
    assert all(j.type == "revolute" for j in dofs)
    elbow = next(j for j in dofs if "elbow" in j.name)
    assert elbow.lower == pytest.approx(-math.pi, abs=1e-4) and elbow.upper == pytest.approx(math.pi, abs=1e-4)
    shoulder = next(j for j in dofs if "shoulder_pan" in j.name)
    assert shoulder.upper == pytest.approx(2 * math.pi, abs=1e-4)  # +-360 deg
    # newton:velocityLimit 180.48 deg/s = 3.15 rad/s; converted once, source recorded.
    assert shoulder.velocity_limit == pytest.approx(3.15, rel=1e-3)
    assert shoulder.velocity_limit_source == "newton:velocityLimit"
    assert all(j.is_passive for j in dofs)  # converted URDF: no DriveAPI
    assert len(asset.world_anchors) == 1  # world_joint welds the base
    assert asset.articulations[0].fixed_base


def test_panda_mimic_follower_read_from_raw_api_schemas(shared_assets):
    asset = read_asset(shared_assets / "erd_panda" / "panda.usda")
    assert len(asset.dof_joints) == 9
    followers = [j for j in asset.dof_joints if j.is_mimic_follower]
    assert [j.name for j in followers] == ["panda_finger_joint2"]
    assert followers[0].mimic_reference.endswith("panda_finger_joint1")
    assert followers[0].mimic_schema == "NewtonMimicAPI"
    finger = asset.joint_by_name("panda_finger_joint1")
    assert finger.type == "prismatic"
    assert finger.lower == pytest.approx(0.0) and finger.upper == pytest.approx(0.04)
    assert finger.velocity_limit == pytest.approx(0.2, rel=1e-3)  # m/s, not converted as an angle


def test_floating_base_variant_frees_the_root(shared_assets):
    welded = read_asset(shared_assets / "erd_panda" / "panda.usda")
    floating = read_asset(shared_assets / "erd_panda" / "floating_base.usda")
    assert welded.world_anchors and not floating.world_anchors
    assert welded.articulations[0].fixed_base and not floating.articulations[0].fixed_base


def test_kuka_and_allegro_counts(shared_assets):
    kuka = read_asset(shared_assets / "pb_kuka_iiwa" / "lbr_iiwa.usda")
    assert len(kuka.dof_joints) == 7 and len(kuka.bodies) == 8
    assert kuka.joint_by_name("lbr_iiwa_joint_7").upper == pytest.approx(math.radians(175), abs=1e-4)
    allegro = read_asset(shared_assets / "erd_allegro_right" / "allegro_hand_right.usda")
    assert len(allegro.dof_joints) == 16 and all(j.is_passive for j in allegro.dof_joints)


def test_ant_physx_velocity_limit_and_per_degree_gains(shared_assets):
    asset = read_asset(shared_assets / "newton_test_ant_mixed" / "ant_mixed.usda")
    leg = asset.joint_by_name("front_left_leg")
    assert leg.velocity_limit == pytest.approx(math.radians(100))
    assert leg.velocity_limit_source == "physxJoint:maxJointVelocity"
    # kp 0.04 N m/deg -> N m/rad
    assert leg.drive.stiffness == pytest.approx(0.04 * 180 / math.pi, rel=1e-5)
    assert not leg.is_passive


def test_actuator_targets_make_joints_driven(shared_assets):
    gripper = read_asset(shared_assets / "robosuite_robotiq_gripper_140" / "robotiq_gripper_140_model.usda")
    driven = sorted(j.name for j in gripper.dof_joints if not j.is_passive)
    assert driven == ["finger_joint", "right_outer_knuckle_joint"]
    cartpole = read_asset(shared_assets / "dmc_suite_cartpole" / "cart-pole.usda")
    assert not cartpole.joint_by_name("slider").is_passive
    assert cartpole.joint_by_name("hinge_1").is_passive and not cartpole.joint_by_name("hinge_1").has_limits


def test_humanoid_d6_limits_and_drives(shared_assets):
    asset = read_asset(shared_assets / "newton_ex_humanoid" / "humanoid.usda")
    waist = asset.joint_by_name("lower_waist")
    assert waist.type == "d6"
    assert set(waist.d6_drives) == {"rotX", "rotY"}
    assert waist.d6_limits["transX"].lower > waist.d6_limits["transX"].upper  # locked axis convention


def test_y_up_centimetre_twin_matches_z_up_metre(tmp_path):
    metre = read_asset(box_asset(tmp_path / "m.usda", size=0.1, position=(0.2, 0.3, 0.5)))
    cm = read_asset(box_asset(tmp_path / "cm.usda", size=0.1, position=(0.2, 0.3, 0.5), up_axis="Y", meters_per_unit=0.01))
    assert cm.meters_per_unit == pytest.approx(0.01) and cm.up_axis == "Y"
    for a, b in zip(metre.authored_bounds(), cm.authored_bounds()):
        np.testing.assert_allclose(a, b, atol=1e-6)


def test_mass_zero_is_unset_and_nan_mass_is_an_error(tmp_path):
    zero = read_asset(box_asset(tmp_path / "zero.usda", mass=0.0))
    assert zero.bodies["/Asset/Body"].mass is None and not zero.errors()
    nan = read_asset(box_asset(tmp_path / "nan.usda", mass=float("nan")))
    assert [e.code for e in nan.errors()] == ["MASS_NAN"]
    negative = read_asset(box_asset(tmp_path / "neg.usda", mass=-2.0))
    assert [e.code for e in negative.errors()] == ["MASS_NEGATIVE"]


def test_reader_never_writes_the_asset(shared_assets, tmp_path):
    path = shared_assets / "erd_panda" / "panda.usda"
    before = (path.read_bytes(), path.stat().st_mtime_ns)
    read_asset(path)
    assert (path.read_bytes(), path.stat().st_mtime_ns) == before


@pytest.mark.parametrize(
    "content, expected",
    [
        (None, "file not found"),
        (b"", "empty file"),
        (b"#usda 1.0\ndef Xform \"A\" {\n  float x = \n", "cannot open"),
    ],
)
def test_unreadable_files_raise_one_clear_reason(tmp_path, content, expected):
    path = tmp_path / "bad.usda"
    if content is not None:
        path.write_bytes(content)
    with pytest.raises(AssetLoadError, match=expected):
        read_asset(path)


def _world_hinged_link(path):
    """One link hinged to the world (body0 empty) with a position drive: the parser lists only the world."""
    from pxr import Gf, Usd, UsdGeom, UsdPhysics

    stage = Usd.Stage.CreateNew(str(path))
    UsdGeom.SetStageUpAxis(stage, "Z")
    UsdGeom.SetStageMetersPerUnit(stage, 1.0)
    root = UsdGeom.Xform.Define(stage, "/R")
    stage.SetDefaultPrim(root.GetPrim())
    link = UsdGeom.Xform.Define(stage, "/R/link")
    link.AddTranslateOp().Set(Gf.Vec3d(0.25, 0, 1))
    UsdPhysics.RigidBodyAPI.Apply(link.GetPrim())
    UsdPhysics.ArticulationRootAPI.Apply(link.GetPrim())
    UsdPhysics.MassAPI.Apply(link.GetPrim()).CreateMassAttr(1.0)
    geom = UsdGeom.Cube.Define(stage, "/R/link/geom")
    geom.AddScaleOp().Set(Gf.Vec3f(0.5, 0.05, 0.05))
    UsdPhysics.CollisionAPI.Apply(geom.GetPrim())
    joint = UsdPhysics.RevoluteJoint.Define(stage, "/R/hinge")
    joint.CreateAxisAttr("Z")
    joint.CreateBody1Rel().SetTargets(["/R/link"])
    joint.CreateLocalPos0Attr(Gf.Vec3f(0, 0, 1))
    joint.CreateLocalPos1Attr(Gf.Vec3f(-0.25, 0, 0))
    joint.CreateLowerLimitAttr(-90)
    joint.CreateUpperLimitAttr(90)
    drive = UsdPhysics.DriveAPI.Apply(joint.GetPrim(), "angular")
    drive.CreateStiffnessAttr(10.0)
    drive.CreateDampingAttr(1.0)
    drive.CreateMaxForceAttr(100.0)
    stage.GetRootLayer().Save()
    return path


def test_link_hinged_to_the_world_is_an_articulation_body_and_can_be_driven(tmp_path, physx_available):
    from omni.simready.physics_validator.core.scene import SceneSpec
    from omni.simready.physics_validator.engines import create_engine

    asset = read_asset(_world_hinged_link(tmp_path / "hinged.usda"))
    art = asset.articulations[0]
    assert art.bodies == ["/R/link"] and art.fixed_base
    assert asset.bodies["/R/link"].articulation == "/R/link"
    engine = create_engine("physx")
    engine.load(asset, SceneSpec(pin_base=True))  # pinning must not freeze a link whose base is the world
    engine.set_joint_position_targets(np.array([0.5]))
    for _ in range(480):
        engine.step()
    assert engine.joint_positions()[0] == pytest.approx(0.5, abs=0.02)


def test_a_rated_effort_comes_from_a_mujoco_actuators_force_range_and_a_zero_rating_is_said(tmp_path):
    """The UMI gripper's servos carry their ±20 N in the MjcActuator (mjc:forceLimited, mjc:forceRange), not on the
    joint: that is the joint's rated effort. The KUKA KR 210's URDF authors urdf:limit:effort = 0: no rating, said."""
    from pxr import Sdf, Usd

    from omni.simready.physics_validator.core.usd import read_asset
    from tests.fixtures.arms import build_arm

    path = build_arm(tmp_path / "arm.usda", joints=2, passive=(1, 2))
    stage = Usd.Stage.Open(str(path))
    actuator = stage.DefinePrim("/Robot/servo1", "MjcActuator")
    actuator.CreateRelationship("mjc:target").SetTargets(["/Robot/joints/joint1"])
    actuator.CreateAttribute("mjc:forceLimited", Sdf.ValueTypeNames.Token).Set("true")
    actuator.CreateAttribute("mjc:forceRange:min", Sdf.ValueTypeNames.Double).Set(-20.0)
    actuator.CreateAttribute("mjc:forceRange:max", Sdf.ValueTypeNames.Double).Set(20.0)
    stage.GetPrimAtPath("/Robot/joints/joint2").CreateAttribute("urdf:limit:effort", Sdf.ValueTypeNames.Float,
                                                                   custom=True).Set(0.0)
    stage.GetRootLayer().Save()
    joints = read_asset(path).joints
    assert joints["/Robot/joints/joint1"].effort_limit == 20.0
    assert joints["/Robot/joints/joint1"].effort_limit_source == "mjc:forceRange of servo1"
    assert joints["/Robot/joints/joint2"].effort_limit is None
    assert "urdf:limit:effort is authored as 0" in joints["/Robot/joints/joint2"].effort_limit_note
