"""body_jacobian: the runtime's articulation Jacobian, where an engine claims it (`reads_jacobian`), against finite
differences of the body poses the same engine simulates, on a branched arm (fingers on the last link) whose last link
carries an offset centre of mass, on a metre Z-up stage and on a centimetre Y-up twin, and on a tree of two arms whose
links PhysX numbers otherwise than its session lists them (the first arm's tip read the second arm's elbow rows before).
Unclaimed, the read raises."""

from __future__ import annotations

import numpy as np
import pytest
from pxr import Gf, Usd, UsdPhysics

from omni.simready.physics_validator.core.engine import EngineCapabilityMissing
from omni.simready.physics_validator.core.geometry import quat_mul, quat_conj
from tests.fixtures.arms import build_arm, build_two_branch_arm

from .stepping import run

MOVES = np.array([0.3, 0.5, -0.4])


def _arm(tmp_path, **spec):
    path = build_arm(tmp_path / "jac.usda", joints=3, axes=("Z", "Y", "Y"), fingers="physx", **spec)
    stage = Usd.Stage.Open(str(path))  # the last link's centre of mass 5 cm and 8 cm off its origin
    scale = 1.0 / spec.get("meters_per_unit", 1.0)
    UsdPhysics.MassAPI(stage.GetPrimAtPath("/Robot/link3")).CreateCenterOfMassAttr(Gf.Vec3f(0.05 * scale, 0, 0.08 * scale))
    stage.Save()
    return path


@pytest.mark.parametrize("units", [{}, {"meters_per_unit": 0.01, "up_axis": "Y"}], ids=["m_zup", "cm_yup"])
def test_the_jacobian_predicts_how_each_link_moves(load, tmp_path, units):
    engine, _ = load(_arm(tmp_path, **units), ground=False, gravity=0.0, pin_base=True)
    if not engine.capabilities().reads_jacobian:
        with pytest.raises(EngineCapabilityMissing, match="reads_jacobian"):
            engine.body_jacobian("/Robot/link3")
        return
    n = len(engine.dof_joints)
    start = np.zeros(n)
    start[:3] = MOVES
    engine.set_joint_position_targets(start)
    run(engine, 2.5)
    step = np.zeros(n)
    step[1:4] = (0.01, -0.01, 0.05)  # two arm joints and the finger
    for body in ("/Robot/link2", "/Robot/link3", "/Robot/finger_a"):
        q0 = engine.joint_positions()
        jacobian = engine.body_jacobian(body)
        assert jacobian.shape == (6, n)
        pos0, quat0 = engine.body_poses()[body]
        engine.set_joint_position_targets(q0 + step)
        run(engine, 2.5)
        moved = engine.joint_positions() - q0
        pos1, quat1 = engine.body_poses()[body]
        predicted = jacobian @ moved
        assert np.allclose(pos1 - pos0, predicted[:3], atol=1e-4), (body, pos1 - pos0, predicted[:3])
        turn = quat_mul(quat1, quat_conj(quat0))  # small rotation: 2 x its vector part is the rotation vector
        assert np.allclose(2.0 * turn[1:] * np.sign(turn[0]), predicted[3:], atol=2e-3), (body, turn, predicted[3:])
        engine.set_joint_position_targets(q0)
        run(engine, 2.5)
    # the finger's joint moves the finger and nothing above it
    finger = list(engine.dof_joints).index("/Robot/joints/finger_a_joint")
    assert np.allclose(engine.body_jacobian("/Robot/link3")[:, finger], 0.0, atol=1e-9)
    assert np.abs(engine.body_jacobian("/Robot/finger_a")[:, finger]).max() > 1e-3


def test_the_jacobian_of_each_arm_of_a_tree(load, tmp_path):
    engine, _ = load(build_two_branch_arm(tmp_path / "tree.usda"), ground=False, gravity=0.0, pin_base=True)
    if not engine.capabilities().reads_jacobian:
        return
    joints = list(engine.dof_joints)
    step = np.zeros(len(joints))
    for name, move in (("joint1", 0.02), ("a2", 0.03), ("a3", -0.04), ("b2", -0.02), ("b3", 0.05)):
        step[joints.index(f"/Robot/joints/{name}")] = move
    q0 = engine.joint_positions()
    before = {body: (engine.body_jacobian(body), engine.body_poses()[body][0]) for body in ("/Robot/a3", "/Robot/b3")}
    engine.set_joint_position_targets(q0 + step)
    run(engine, 2.5)
    moved = engine.joint_positions() - q0
    for body, (jacobian, pos0) in before.items():
        assert np.allclose(engine.body_poses()[body][0] - pos0, (jacobian @ moved)[:3], atol=2e-4), body
