"""The USD replay layer of a recorded run, opened with pxr: time-sampled body transforms in the
stage's own units and up axis that reproduce the engine's bounds and poses, asset untouched."""

from __future__ import annotations

import hashlib

import numpy as np
import pytest
from pxr import Gf, Usd, UsdGeom

from tests.fixtures.recording import record_ground_drop, require_rendering
from tests.fixtures.usd_assets import box_asset, shared_asset

pytestmark = pytest.mark.usefixtures("physx_available")

Y_UP_TO_Z_UP = np.array([[1.0, 0.0, 0.0], [0.0, 0.0, -1.0], [0.0, 1.0, 0.0]])


def sha256(path) -> str:
    return hashlib.sha256(open(path, "rb").read()).hexdigest()


def first_contact_frame(timeline: dict, floor: float = 0.0, margin: float = 0.1) -> int:
    for index, frame in enumerate(timeline["frames"]):
        if frame["bounds_min"][2] <= floor + margin:
            return index
    raise AssertionError("the recording never reached the floor")


def test_replay_of_a_tumbling_y_up_centimetre_box_matches_the_recorded_bounds(tmp_path):
    require_rendering()
    asset = box_asset(tmp_path / "box_cm_yup.usda", size=0.1, up_axis="Y", meters_per_unit=0.01,
                      angular_velocity=(120.0, 200.0, 0.0))
    before = sha256(asset)
    run = record_ground_drop(asset, tmp_path / "out", width=160, height=90, drop_rule="spec_8x")  # a long tumble
    assert sha256(asset) == before, "the asset file was modified"

    stage = Usd.Stage.Open(run.artifacts["replay"])
    assert UsdGeom.GetStageUpAxis(stage) == UsdGeom.Tokens.y
    assert UsdGeom.GetStageMetersPerUnit(stage) == pytest.approx(0.01)
    assert stage.GetTimeCodesPerSecond() == pytest.approx(15.0)
    assert stage.GetDefaultPrim().GetPath() == "/Asset"
    body = UsdGeom.Xformable(stage.GetPrimAtPath("/Asset/Body"))
    samples = body.GetTimeSamples()
    assert len(samples) == run.timeline["frame_count"] > 10
    assert samples == [float(i) for i in range(len(samples))]

    index = first_contact_frame(run.timeline)
    recorded = run.timeline["frames"][index]
    cache = UsdGeom.BBoxCache(Usd.TimeCode(index), [UsdGeom.Tokens.default_, UsdGeom.Tokens.render,
                                                    UsdGeom.Tokens.proxy, UsdGeom.Tokens.guide])
    box = cache.ComputeWorldBound(stage.GetPrimAtPath("/Asset/Body/Geom")).ComputeAlignedRange()
    corners = np.array([list(box.GetCorner(i)) for i in range(8)]) * 0.01 @ Y_UP_TO_Z_UP.T  # -> SI Z-up
    np.testing.assert_allclose(corners.min(axis=0), recorded["bounds_min"], atol=2e-3)
    np.testing.assert_allclose(corners.max(axis=0), recorded["bounds_max"], atol=2e-3)
    # The box really tumbled, so this compares rotations too, not only a translation.
    rotation = Gf.Transform(body.ComputeLocalToWorldTransform(Usd.TimeCode(index))).GetRotation()
    assert abs(rotation.GetAngle()) > 5.0
    # And it fell: the replay's first frame is high above the contact frame.
    cache.SetTime(Usd.TimeCode(0))
    high = cache.ComputeWorldBound(stage.GetPrimAtPath("/Asset/Body/Geom")).ComputeAlignedRange()
    assert high.GetMin()[1] * 0.01 > recorded["bounds_min"][2] + 0.5


def test_replay_of_nested_bodies_reproduces_every_engine_pose(tmp_path, shared_assets):
    require_rendering()
    asset = shared_asset("erd_panda/floating_base.usda")
    run = record_ground_drop(asset, tmp_path / "out", width=160, height=90, simulation_seconds=1.0)
    stage = Usd.Stage.Open(run.artifacts["replay"])
    poses = run.recording.poses
    assert len(poses) == run.timeline["frame_count"]
    nested = [p for p in poses[0] if p.count("/") > 4]
    assert len(nested) >= 5  # panda links are nested prims: each over must undo its moving parent
    for index in (0, len(poses) // 2, len(poses) - 1):
        cache = UsdGeom.XformCache(Usd.TimeCode(index))
        for path, (pos, quat) in poses[index].items():
            world = Gf.Transform(cache.GetLocalToWorldTransform(stage.GetPrimAtPath(path)))
            np.testing.assert_allclose(np.array(world.GetTranslation()), pos, atol=1e-5, err_msg=f"{path} @ {index}")
            q = world.GetRotation().GetQuat()
            got = np.array([q.GetReal(), *q.GetImaginary()])
            assert abs(abs(float(np.dot(got, quat / np.linalg.norm(quat)))) - 1.0) < 1e-6, f"{path} @ {index}"
