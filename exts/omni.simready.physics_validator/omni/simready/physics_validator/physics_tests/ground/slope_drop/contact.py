"""How close the asset's collision geometry is to the ramp's plane, from the bodies' poses: exact for boxes, spheres
and capsules, the rim points for cylinders and cones, the vertices for meshes (their hulls). An axis-aligned bounding
box can only bound this distance: on a 45 degree ramp a box lying flat has AABB corners 10 cm under the plane, which
is why NVIDIA's test can only fail a whole bounding box under the ramp. Pure numpy over the AssetModel."""

from __future__ import annotations

import math
from typing import TYPE_CHECKING

import numpy as np

from ....core.geometry import collider_surface, quat_to_matrix

if TYPE_CHECKING:
    from ....core.asset_model import AssetModel

class GeometryProbe:
    """Every collider of the asset's dynamic bodies that makes its bounds (`AssetModel.bounding_colliders`: a trigger
    zone touches nothing) as points in its body's frame plus a radius."""

    def __init__(self, asset: "AssetModel"):
        self.parts: list[tuple[str, np.ndarray, float]] = []
        for body in asset.dynamic_bodies:
            for collider in asset.bounding_colliders(body.path):
                shaped = collider_surface(collider)
                if shaped is None:
                    continue
                points, radius = shaped
                rot = quat_to_matrix(collider.local_pose.quat)
                self.parts.append((body.path, points @ rot.T + np.asarray(collider.local_pose.pos, float), radius))

    @property
    def empty(self) -> bool:
        return not self.parts

    def lowest_distance(self, poses, plane_point, normal) -> float:
        """The smallest signed distance of any collider's surface from the plane (m; < 0: under it)."""
        best = math.inf
        normal = np.asarray(normal, float)
        for body, points, radius in self.parts:
            pose = poses.get(body)
            if pose is None:
                continue
            pos, quat = pose
            world = points @ quat_to_matrix(quat).T + np.asarray(pos, float)
            best = min(best, float(((world - plane_point) @ normal).min()) - radius)
        return best
