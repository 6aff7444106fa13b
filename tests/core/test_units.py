"""core.units.StageFrame: the one conversion between a stage's up axis and units and the SI Z-up world.

The USD reader, the video recorder, the USD replay layer and the Kit engine all convert through
StageFrame, so these tests pin the rule itself: `world_si = R_up * (stage_world * metersPerUnit)`,
R_up = +90 deg about X for a Y-up stage, identity for Z-up.
"""

from __future__ import annotations

import math
from types import SimpleNamespace

import numpy as np
import pytest

from omni.simready.physics_validator.core.geometry import quat_from_axis_angle, quat_to_matrix
from omni.simready.physics_validator.core.units import StageFrame, quat_xyzw_to_wxyz, up_to_z_quat

Z_UP_M = StageFrame("Z", 1.0, 1.0)
Y_UP_CM = StageFrame("Y", 0.01, 1.0)
FRAMES = [Z_UP_M, Y_UP_CM, StageFrame("Y", 1.0, 1.0), StageFrame("Z", 0.001, 2.5), StageFrame("Y", 0.0254, 0.453592)]
POINTS = np.array([[1.0, 2.0, 3.0], [-0.5, 0.0, 7.25], [0.0, 0.0, 0.0], [123.0, -45.6, 0.001]])


def _quat(axis, degrees) -> np.ndarray:
    return quat_from_axis_angle(axis, math.radians(degrees))


def _same_rotation(q1, q2) -> None:
    """q and -q are the same rotation."""
    np.testing.assert_allclose(quat_to_matrix(q1), quat_to_matrix(q2), atol=1e-12)


def test_z_up_metres_is_the_identity():
    np.testing.assert_array_equal(Z_UP_M.to_si_rotation, np.eye(3))
    np.testing.assert_array_equal(Z_UP_M.to_si_matrix(), np.eye(4))
    for p in POINTS:
        np.testing.assert_array_equal(Z_UP_M.point_to_si(p), p)
        np.testing.assert_array_equal(Z_UP_M.point_from_si(p), p)
    q = _quat([0.2, -0.4, 1.0], 37.0)
    np.testing.assert_allclose(Z_UP_M.quat_to_si(q), q, atol=1e-15)
    np.testing.assert_array_equal(Z_UP_M.force_from_si([1.0, -2.0, 9.81]), [1.0, -2.0, 9.81])


def test_y_up_centimetres_turn_stage_up_into_z_and_centimetres_into_metres():
    # Stage (x, y, z) cm with +Y up -> SI (x, -z, y) m: up stays up, the right-handed frame stays right-handed.
    np.testing.assert_allclose(Y_UP_CM.point_to_si([100.0, 200.0, 300.0]), [1.0, -3.0, 2.0], atol=1e-12)
    np.testing.assert_allclose(Y_UP_CM.vector_to_si(Y_UP_CM.up_vector), [0.0, 0.0, 1.0], atol=1e-15)
    np.testing.assert_array_equal(Y_UP_CM.up_vector, [0.0, 1.0, 0.0])
    assert np.linalg.det(Y_UP_CM.to_si_rotation) == pytest.approx(1.0)
    # A body-local direction points the same physical way whether the body's pose is given in the stage or in SI.
    body_in_stage = _quat([0.2, 1, -0.4], 75.0)
    body_in_si = Y_UP_CM.quat_to_si(body_in_stage)
    for d in ([1.0, 0, 0], [0, 0, 1.0], [0.3, 0.4, -0.5]):
        np.testing.assert_allclose(
            quat_to_matrix(body_in_si) @ np.asarray(d),
            Y_UP_CM.vector_to_si(quat_to_matrix(body_in_stage) @ np.asarray(d)),
            atol=1e-12,
        )
    assert Y_UP_CM.length_to_si(50.0) == pytest.approx(0.5)
    assert Y_UP_CM.length_from_si(0.5) == pytest.approx(50.0)


@pytest.mark.parametrize("frame", FRAMES, ids=lambda f: f"{f.up_axis}-{f.meters_per_unit}-{f.kilograms_per_unit}")
def test_points_quaternions_and_forces_round_trip(frame):
    for p in POINTS:
        np.testing.assert_allclose(frame.point_from_si(frame.point_to_si(p)), p, rtol=1e-12, atol=1e-12)
        np.testing.assert_allclose(frame.point_to_si(frame.point_from_si(p)), p, rtol=1e-12, atol=1e-12)
    for axis, degrees in (([1, 0, 0], 30.0), ([0.3, -0.7, 0.2], 123.0), ([0, 0, 1], -90.0)):
        q = _quat(axis, degrees)
        _same_rotation(frame.quat_from_si(frame.quat_to_si(q)), q)
        pos_si, q_si = frame.pose_to_si([1.0, 2.0, 3.0], q)
        np.testing.assert_allclose(pos_si, frame.point_to_si([1.0, 2.0, 3.0]))
        _same_rotation(q_si, frame.quat_to_si(q))
    # A force in newtons -> stage units (kgpu * mpu / s^2) -> back: rotate and multiply by mpu * kgpu.
    f_si = np.array([3.0, -4.0, 10.0])
    f_stage = frame.force_from_si(f_si)
    np.testing.assert_allclose(frame.vector_to_si(f_stage, frame.meters_per_unit * frame.kilograms_per_unit), f_si, atol=1e-12)


def test_force_to_stage_units_rotates_and_scales():
    # 10 N straight up in SI is +Y in a Y-up stage, and 1000 kg*cm/s^2 in centimetre units.
    np.testing.assert_allclose(Y_UP_CM.force_from_si([0, 0, 10.0]), [0, 1000.0, 0], atol=1e-9)
    np.testing.assert_allclose(StageFrame("Z", 0.01, 0.5).force_from_si([0, 0, 10.0]), [0, 0, 2000.0], atol=1e-9)


@pytest.mark.parametrize("frame", FRAMES, ids=lambda f: f"{f.up_axis}-{f.meters_per_unit}")
def test_to_si_matrix_and_points_to_si_agree_with_point_to_si(frame):
    matrix = frame.to_si_matrix()
    np.testing.assert_array_equal(matrix[3], [0.0, 0.0, 0.0, 1.0])
    np.testing.assert_array_equal(matrix[:3, 3], [0.0, 0.0, 0.0])
    homogeneous = np.c_[POINTS, np.ones(len(POINTS))]
    by_point = np.array([frame.point_to_si(p) for p in POINTS])
    np.testing.assert_allclose((matrix @ homogeneous.T).T[:, :3], by_point, rtol=1e-14, atol=1e-14)
    np.testing.assert_allclose(frame.points_to_si(POINTS), by_point, rtol=1e-14, atol=1e-14)
    assert frame.points_to_si(np.zeros((0, 3))).shape == (0, 3)


@pytest.mark.parametrize("frame", FRAMES, ids=lambda f: f"{f.up_axis}-{f.meters_per_unit}")
def test_rigid_from_si_undoes_pose_to_si(frame):
    """The replay layer writes SI engine poses back as stage-space matrices."""
    pos_stage, q_stage = np.array([12.0, -3.0, 40.0]), _quat([0.1, 0.9, -0.3], 71.0)
    rigid = frame.rigid_from_si(*frame.pose_to_si(pos_stage, q_stage))
    np.testing.assert_allclose(rigid[:3, 3], pos_stage, rtol=1e-12)
    np.testing.assert_allclose(rigid[:3, :3], quat_to_matrix(q_stage), atol=1e-12)
    np.testing.assert_array_equal(rigid[3], [0.0, 0.0, 0.0, 1.0])


def test_frame_of_a_real_stage_and_of_hostile_metadata():
    from pxr import Usd, UsdGeom, UsdPhysics

    stage = Usd.Stage.CreateInMemory()
    UsdGeom.SetStageUpAxis(stage, UsdGeom.Tokens.y)
    UsdGeom.SetStageMetersPerUnit(stage, 0.01)
    UsdPhysics.SetStageKilogramsPerUnit(stage, 0.001)
    assert StageFrame.of_stage(stage) == StageFrame("Y", 0.01, 0.001)

    stage.SetMetadata("metersPerUnit", float("nan"))
    up, mpu, kpu = StageFrame.stage_metadata(stage)  # raw, so the reader can report it
    assert up == "Y" and math.isnan(mpu) and kpu == 0.001
    # Invalid values fall back to Z-up, metres, kilograms (the reader reports them as asset issues).
    assert StageFrame.from_metadata("X", float("nan"), -2.0) == StageFrame("Z", 1.0, 1.0)
    assert StageFrame.from_metadata("y", float("inf"), 0.0) == StageFrame("Z", 1.0, 1.0)
    assert StageFrame.from_metadata("Y", 0.01, 2.0) == StageFrame("Y", 0.01, 2.0)


def test_frame_of_an_asset_model_and_the_up_quaternion():
    asset = SimpleNamespace(up_axis="Y", meters_per_unit=0.01, kilograms_per_unit=None)
    assert StageFrame.of_asset(asset) == StageFrame("Y", 0.01, 1.0)
    np.testing.assert_array_equal(up_to_z_quat("Z"), [1.0, 0.0, 0.0, 0.0])
    _same_rotation(up_to_z_quat("Y"), _quat([1, 0, 0], 90.0))


def test_physx_quaternion_order_is_converted():
    np.testing.assert_array_equal(quat_xyzw_to_wxyz([0.1, 0.2, 0.3, 0.9]), [0.9, 0.1, 0.2, 0.3])
