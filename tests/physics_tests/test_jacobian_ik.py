"""jacobian_ik on real engines: a sound 4R arm reaches every target its kinematics sample and none beyond its reach;
its twin whose shoulder drive cannot carry the arm (maxForce 1 N m against about 4 N m of gravity load) fails with the
shoulder named; its twin whose shoulder cannot travel the range its limits author (a static collar stops the link at
15-25 deg where the limits say 120 deg, and targets are sampled from the limits) fails with the shoulder named; grippers
are not arms; an engine without the runtime's Jacobian skips with the reason."""

from __future__ import annotations

import math

import numpy as np
import pytest
from pxr import Usd

from omni.simready.physics_validator.core.status import Status
from omni.simready.physics_validator.core.usd import read_asset
from omni.simready.physics_validator.physics_tests.driven.jacobian_ik.chain import (
    ArmTree, chain_to, find_end_effector, forward_kinematics,
)
from omni.simready.physics_validator.physics_tests.driven.jacobian_ik.clearance import Clearance, body_poses_at
from omni.simready.physics_validator.physics_tests.driven.jacobian_ik.config import JacobianIkConfig
from omni.simready.physics_validator.physics_tests.driven.jacobian_ik.solve import make_targets, reach_bound
from tests.fixtures.arms import build_arm
from tests.fixtures.runs import ENGINES, require_engine, rows, run_test
from tests.fixtures.suite_assets import gripper

ARM = {"joints": 4, "axes": ("Z", "Y", "Y", "Y")}


@pytest.fixture(params=ENGINES)
def engine(request):
    return require_engine(request.param)


@pytest.fixture(scope="module")
def folder(tmp_path_factory):
    return tmp_path_factory.mktemp("jik")


def test_a_sound_arm_reaches_its_targets_and_a_weak_shoulder_does_not(folder, engine):
    sound = run_test(build_arm(folder / "sound.usda", **ARM), "jacobian_ik", engine)
    assert sound.status is Status.PASS, sound.reason
    assert sound.metrics["pass_rate"] == 1.0 and sound.metrics["unreachable_reached"] == 0
    assert sound.metrics["max_position_error"] <= 0.05 and sound.metrics["end_effector"] == "/Robot/link4"
    weak = run_test(build_arm(folder / "weak.usda", overrides={2: {"max_force": 1.0}}, **ARM), "jacobian_ik", engine)
    assert weak.status is Status.FAIL and weak.code == "TARGETS_MISSED", weak.reason
    assert weak.metrics["pass_rate"] < JacobianIkConfig().min_pass_rate  # the deciding metric
    shoulder = rows(weak)["joint2"]
    assert shoulder.status is Status.FAIL and shoulder.code == "JOINT_BLOCKED" and "joint2" in weak.reason
    assert shoulder.measured["max_lag"] > shoulder.limits["blocked_lag"]


def test_an_arm_whose_shoulder_cannot_travel_its_authored_range_misses_its_targets(folder, engine):
    stopped = run_test(build_arm(folder / "collar.usda", collar=2, **ARM), "jacobian_ik", engine)
    assert stopped.status is Status.FAIL and stopped.code == "TARGETS_MISSED", stopped.reason
    assert stopped.metrics["pass_rate"] < JacobianIkConfig().min_pass_rate  # the deciding metric
    shoulder = rows(stopped)["joint2"]
    assert shoulder.status is Status.FAIL and shoulder.code == "JOINT_BLOCKED" and "joint2" in stopped.reason
    assert shoulder.measured["max_lag"] > math.radians(45)  # held by the collar far short of targets inside its limits


def test_targets_come_from_the_authored_kinematics_and_unreachable_ones_are_beyond_any_pose(folder):
    asset = read_asset(build_arm(folder / "kin.usda", **ARM))
    base = asset.articulations[0].base_body
    tree = ArmTree(asset, base)
    end = find_end_effector(asset, tree)
    links = tree.links
    chain = chain_to(links, end.body)
    base_pose = (asset.bodies[base].world_pose.pos, asset.bodies[base].world_pose.quat)
    home = {j.path: 0.0 for j in asset.dof_joints}
    # at zero the joint frames put the tip where the file does
    tip = forward_kinematics(chain, base_pose, home, end)
    assert np.allclose(tip[0], asset.bodies["/Robot/link4"].world_pose.pos, atol=1e-6)
    clearance = Clearance(asset, links, base)
    clearance.ignore_touching_at(body_poses_at(links, base, base_pose, home))
    commanded = [link.joint for link in chain]
    targets, reach, _ = make_targets(chain, end, base_pose, commanded, home, JacobianIkConfig(), tip, clearance)
    first, bound = reach_bound(chain, body_poses_at(links, base, base_pose, home), end)
    assert bound == pytest.approx(3 * 0.2 + 0.1)  # joint1 to joint4 (0.2 m apart), joint4 to link4's centre
    reachable = [t for t in targets if t.reachable]
    assert len(reachable) == 5 and all(np.linalg.norm(t.pose[0] - tip[0]) >= 0.05 for t in reachable)
    for target in targets:
        distance = float(np.linalg.norm(target.pose[0] - first))
        assert (distance <= bound + 1e-9) if target.reachable else distance == pytest.approx(1.4 * bound)


def test_grippers_are_not_arms(folder):
    path = gripper(folder / "gripper.usda")
    stage = Usd.Stage.Open(str(path))
    stage.GetDefaultPrim().CreateAttribute("isaac:robotType", __import__("pxr").Sdf.ValueTypeNames.Token).Set("Gripper")
    stage.Save()
    result = run_test(path, "jacobian_ik", "physx")
    assert result.status is Status.NOT_APPLICABLE and result.code == "GRIPPER"


def test_an_engine_without_the_runtimes_jacobian_skips_with_the_reason(folder):
    engine = require_engine("sapien")
    result = run_test(build_arm(folder / "sapien.usda", **ARM), "jacobian_ik", engine)
    assert result.status is Status.SKIP and result.code == "NO_JACOBIAN" and "Jacobian" in result.reason


def test_ik_target_reach_skips_with_the_lula_reason_and_grippers_are_not_arms(folder):
    from tests.fixtures.manipulation import build_gripper

    arm = run_test(build_arm(folder / "lula.usda", **ARM), "ik_target_reach", "physx")
    assert arm.status is Status.SKIP and arm.code == "LULA_UNAVAILABLE"
    assert "Lula" in arm.reason and "Isaac Sim" in arm.reason and arm.simulated_seconds == 0
    one_joint = run_test(build_arm(folder / "one.usda", joints=1), "ik_target_reach", "physx")
    assert one_joint.code == "LULA_UNAVAILABLE", one_joint.reason  # no gripper signal: an arm, as NVIDIA's rule
    gripper_asset = build_gripper(folder / "parallel.usda")
    for name in ("ik_target_reach", "jacobian_ik"):
        result = run_test(gripper_asset, name, "physx")
        assert result.status is Status.NOT_APPLICABLE and result.code == "GRIPPER", (name, result.reason)
