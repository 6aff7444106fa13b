"""Render geometry read for the video: in each body's SI frame, whatever the stage's units and up axis,
so that posing it with the asset model's body frames puts it where the colliders are."""

from __future__ import annotations

import numpy as np
import pytest

from omni.simready.physics_validator.core.geometry import quat_to_matrix
from omni.simready.physics_validator.core.usd import read_asset
from omni.simready.physics_validator.recording.render_geometry import load_render_geometry
from tests.fixtures.usd_assets import box_asset, shared_asset


def posed_bounds(asset, geometry):
    points = []
    for path, body in geometry.items():
        pose = asset.bodies[path].world_pose
        points.append(body.points @ quat_to_matrix(pose.quat).T + pose.pos)
    points = np.vstack(points)
    return points.min(axis=0), points.max(axis=0)


@pytest.mark.parametrize("up_axis,meters_per_unit", [("Z", 1.0), ("Y", 0.01), ("Y", 1.0), ("Z", 0.001)])
def test_box_geometry_is_in_metres_in_the_body_frame(tmp_path, up_axis, meters_per_unit):
    path = box_asset(tmp_path / "box.usda", size=0.2, position=(0.3, -0.4, 1.5), up_axis=up_axis,
                     meters_per_unit=meters_per_unit)
    asset = read_asset(path)
    frames = {p: (b.world_pose.pos, b.world_pose.quat) for p, b in asset.bodies.items()}
    geometry = load_render_geometry(str(path), frames, list(asset.bodies))
    body = geometry["/Asset/Body"]
    np.testing.assert_allclose(body.points.min(axis=0), [-0.1] * 3, atol=1e-6)
    np.testing.assert_allclose(body.points.max(axis=0), [0.1] * 3, atol=1e-6)
    lo, hi = posed_bounds(asset, geometry)
    np.testing.assert_allclose(lo, [0.2, -0.5, 1.4], atol=1e-6)  # SI Z-up world, like the engine's
    np.testing.assert_allclose(hi, [0.4, -0.3, 1.6], atol=1e-6)


@pytest.mark.parametrize("relative,tolerance", [("pb_mug/floating_base.usda", 0.01), ("erd_panda/floating_base.usda", 0.04)])
def test_render_meshes_sit_where_the_colliders_are(shared_assets, relative, tolerance):
    path = shared_asset(relative)
    asset = read_asset(path)
    frames = {p: (b.world_pose.pos, b.world_pose.quat) for p, b in asset.bodies.items()}
    geometry = load_render_geometry(str(path), frames, list(asset.bodies))
    assert set(geometry) == set(asset.bodies)  # every body drawn, nested ones included
    lo, hi = posed_bounds(asset, geometry)
    collision_lo, collision_hi = asset.authored_bounds()
    np.testing.assert_allclose(lo, collision_lo, atol=tolerance)
    np.testing.assert_allclose(hi, collision_hi, atol=tolerance)
    # Visual meshes, not the (guide-purpose) collision meshes, when a body has both.
    if relative.startswith("pb_mug"):
        assert all("mug_col" not in p for p in geometry["/mug/Geometry/base_link"].source_prims)


def test_body_without_visible_geometry_falls_back_to_its_colliders(tmp_path):
    from pxr import Usd, UsdGeom

    path = box_asset(tmp_path / "box.usda", size=0.1)
    stage = Usd.Stage.Open(str(path))
    UsdGeom.Imageable(stage.GetPrimAtPath("/Asset/Body/Geom")).CreatePurposeAttr(UsdGeom.Tokens.guide)
    stage.GetRootLayer().Save()
    geometry = load_render_geometry(str(path))
    assert geometry["/Asset/Body"].source_prims == ["/Asset/Body/Geom"]
