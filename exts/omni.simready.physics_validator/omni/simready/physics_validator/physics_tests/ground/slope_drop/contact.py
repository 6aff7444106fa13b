"""How close the asset's collision geometry is to the ramp's plane, from the bodies' poses: exact for boxes, spheres
and capsules, the rim points for cylinders and cones, the vertices for meshes (their hulls). An axis-aligned bounding
box can only bound this distance: on a 45 degree ramp a box lying flat has AABB corners 10 cm under the plane, which
is why NVIDIA's test can only fail a whole bounding box under the ramp. Pure numpy over the AssetModel."""

from __future__ import annotations

import math
from typing import TYPE_CHECKING

import numpy as np

from ....core.geometry import AXIS_INDEX, box_corners, quat_to_matrix

if TYPE_CHECKING:
    from ....core.asset_model import AssetModel, ColliderInfo

RIM_POINTS = 24


def _shape_points(collider: "ColliderInfo") -> tuple[np.ndarray, float] | None:
    """(points in the collider's frame, radius swept around them)."""
    shape, r, hh = collider.shape, collider.radius, collider.half_height or 0.0
    if shape == "box" and collider.half_extents is not None:
        he = np.asarray(collider.half_extents, float)
        return box_corners(-he, he), 0.0
    if shape == "sphere" and r is not None:
        return np.zeros((1, 3)), float(r)
    axis = AXIS_INDEX.get(collider.axis, 2)
    if shape == "capsule" and r is not None:
        ends = np.zeros((2, 3))
        ends[:, axis] = (-hh, hh)
        return ends, float(r)
    if shape in ("cylinder", "cone") and r is not None:
        angles = np.linspace(0.0, 2 * math.pi, RIM_POINTS, endpoint=False)
        others = [i for i in range(3) if i != axis]
        rim = np.zeros((RIM_POINTS, 3))
        rim[:, others[0]], rim[:, others[1]] = r * np.cos(angles), r * np.sin(angles)
        bottom, top = rim.copy(), rim.copy()
        bottom[:, axis], top[:, axis] = -hh, hh
        if shape == "cone":
            apex = np.zeros((1, 3))
            apex[0, axis] = hh
            return np.vstack([bottom, apex]), 0.0
        return np.vstack([bottom, top]), 0.0
    if shape == "mesh" and collider.mesh_points is not None and len(collider.mesh_points):
        return np.asarray(collider.mesh_points, float), 0.0
    return None


class GeometryProbe:
    """Every collider of the asset's dynamic bodies as points in its body's frame plus a radius."""

    def __init__(self, asset: "AssetModel"):
        self.parts: list[tuple[str, np.ndarray, float]] = []
        for body in asset.dynamic_bodies:
            for path in body.colliders:
                collider = asset.colliders.get(path)
                shaped = _shape_points(collider) if collider is not None else None
                if collider is None or shaped is None:
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
