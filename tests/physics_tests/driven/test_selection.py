"""Joint selection and prechecks shared by the four driven-joint tests, on pxr-built assets (no engine)."""

import pytest

from omni.simready.physics_validator.core.codes import ExclusionCode as Code

from tests.fixtures.arms import build_arm, build_unarticulated
from omni.simready.physics_validator.physics_tests.driven.selection import articulation_precheck, select_driven_joints
from omni.simready.physics_validator.core.status import Status
from omni.simready.physics_validator.core.usd import read_asset


def codes(selection):
    return {e.joint: e.code for e in selection.excluded}


@pytest.mark.parametrize("schema", ["physx", "newton"])
def test_mimic_follower_excluded_for_both_schemas(tmp_path, schema):
    asset = read_asset(build_arm(tmp_path / "arm.usda", fingers=schema))
    selection = select_driven_joints(asset)
    assert codes(selection) == {"finger_b_joint": Code.MIMIC_FOLLOWER}
    assert [j.name for j in selection.tested][-1] == "finger_a_joint"


def test_passive_and_unlimited_and_velocity_requirements(tmp_path):
    asset = read_asset(build_arm(tmp_path / "arm.usda", passive=(2,), unlimited=(3,), velocity_limit_deg=None))
    assert codes(select_driven_joints(asset)) == {"joint2": Code.PASSIVE}
    assert codes(select_driven_joints(asset, require_limits=True)) == {"joint2": Code.PASSIVE, "joint3": Code.NO_LIMITS}
    selection = select_driven_joints(asset, require_velocity_limit=True)
    assert not selection.tested
    assert selection.counts() == {Code.PASSIVE: 1, Code.NO_VELOCITY_LIMIT: 5}
    assert "1 passive (joint2)" in selection.summary()


@pytest.mark.parametrize("attr", ["physxJoint:maxJointVelocity", "physxJointAxis:angular:maxJointVelocity",
                                  "newton:velocityLimit"])
def test_velocity_limit_spellings_qualify(tmp_path, attr):
    asset = read_asset(build_arm(tmp_path / "arm.usda", joints=2, velocity_attr=attr, velocity_limit_deg=90.0))
    selection = select_driven_joints(asset, require_velocity_limit=True)
    assert len(selection.tested) == 2
    assert {j.velocity_limit_source for j in selection.tested} == {attr}
    assert selection.tested[0].velocity_limit == pytest.approx(1.5707963, rel=1e-6)  # deg/s -> rad/s


def test_actuator_only_joint_is_driven_where_its_actuator_runs(tmp_path):
    asset = read_asset(build_arm(tmp_path / "arm.usda", joints=2, passive=(1, 2)))
    joint1 = asset.joints["/Robot/joints/joint1"]
    joint1.actuated_by.append("/Robot/actuators/a1")  # as an MjcActuator would
    joint1.actuator_schemas.append("MjcActuator")
    assert [j.name for j in select_driven_joints(asset).tested] == ["joint1"]
    selection = select_driven_joints(asset, simulated_actuator_schemas=())  # physx runs no actuator prim
    assert codes(selection) == {"joint1": Code.ACTUATOR_ONLY, "joint2": Code.PASSIVE}
    selection = select_driven_joints(asset, simulated_actuator_schemas={"NewtonActuator"})  # newton: not an MjcActuator
    assert codes(selection) == {"joint1": Code.ACTUATOR_ONLY, "joint2": Code.PASSIVE}
    joint1.actuator_schemas = ["NewtonActuator"]
    selection = select_driven_joints(asset, simulated_actuator_schemas={"NewtonActuator"})
    assert [j.name for j in selection.tested] == ["joint1"] and codes(selection) == {"joint2": Code.PASSIVE}


def test_not_simulated_joint_is_reported(tmp_path):
    asset = read_asset(build_arm(tmp_path / "arm.usda", joints=2))
    selection = select_driven_joints(asset, simulated=["/Robot/joints/joint2"])
    assert codes(selection) == {"joint1": Code.NOT_SIMULATED}


def test_prechecks(tmp_path):
    decision = articulation_precheck(read_asset(build_unarticulated(tmp_path / "loose.usda")))
    assert decision is not None and decision.status is Status.PRECHECK_FAILURE
    assert "ArticulationRootAPI" in decision.reason
    assert articulation_precheck(read_asset(build_arm(tmp_path / "arm.usda", joints=1))) is None


def test_a_prop_without_joints_is_not_applicable_to_joint_tests(tmp_path):
    from omni.simready.physics_validator.core.status import Status
    from tests.fixtures.usd_assets import box_asset

    decision = articulation_precheck(read_asset(box_asset(tmp_path / "prop.usda")))
    assert decision.status is Status.NOT_APPLICABLE
    assert "no revolute or prismatic joint" in decision.reason
