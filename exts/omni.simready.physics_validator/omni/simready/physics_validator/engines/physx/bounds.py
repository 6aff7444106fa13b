"""The asset's bounds from its collider geometry (asset model, SI) posed by the bodies' PhysX poses.

PhysX gives no per-shape AABB through ovphysx, so the engine bounds what it knows exactly: box corners,
every mesh point (the support of the convex hull PhysX cooks from them), sphere and capsule centres
swept by their radius, and cylinders/cones by the exact disc formula. An AABB of each collider's *local*
AABB overestimates rotated meshes: erd_panda read 35 mm below the floor that way while its lowest hull
point sat at +0.2 mm. Residual: PhysX's cooked hull may sit up to ≈ 3 mm inside the authored points
(measured on pb_duck_vhacd and erd_panda; `hullVertexLimit` 64 -> 255 changed nothing).

Static colliders are scenery and never count, while a body's collider with collisionEnabled = false does
(it is part of the body's shape: a box without collisions falls through the floor, and ground_drop must
see it go), as in `AssetModel.authored_bounds` and the sapien engine.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

from ...core.engine import EngineError
from ...core.geometry import AXIS_INDEX, box_corners, quat_to_matrix

if TYPE_CHECKING:
    from ...core.asset_model import AssetModel


class ColliderBounds:
    """World AABB of the bodies' colliders for given body poses (SI, rotation matrices)."""

    def __init__(self, asset: "AssetModel", body_paths: list[str]):
        index = {p: i for i, p in enumerate(body_paths)}
        points, radii, owner = [], [], []
        self.discs: list[tuple[int, np.ndarray, np.ndarray, float, float]] = []  # (body, centre, axis, half height, radius)
        for c in asset.colliders.values():
            if c.body is None or c.body not in index:  # collisionEnabled = false still bounds its body (as sapien)
                continue
            rot = quat_to_matrix(c.local_pose.quat)
            pos = np.asarray(c.local_pose.pos, float)
            body = index[c.body]
            axis = np.eye(3)[AXIS_INDEX.get(c.axis, 2)]
            if c.shape == "box" and c.half_extents is not None:
                he = np.asarray(c.half_extents, float)
                local, radius = box_corners(-he, he), 0.0
            elif c.shape == "mesh" and c.mesh_points is not None and len(c.mesh_points):
                local, radius = np.asarray(c.mesh_points, float), 0.0
            elif c.shape == "sphere" and c.radius is not None:
                local, radius = np.zeros((1, 3)), float(c.radius)
            elif c.shape == "capsule" and c.radius is not None:
                tip = axis * float(c.half_height or 0.0)
                local, radius = np.stack([tip, -tip]), float(c.radius)
            elif c.shape in ("cylinder", "cone") and c.radius is not None:
                self.discs.append((body, pos, rot @ axis, float(c.half_height or 0.0), float(c.radius)))
                continue
            else:
                continue  # planes: unbounded
            points.append(local @ rot.T + pos)
            radii.extend([radius] * len(local))
            owner.extend([body] * len(local))
        self.points = np.vstack(points) if points else np.zeros((0, 3))
        self.radii = np.asarray(radii, float)[:, None]
        self.owner = np.asarray(owner, int)
        self.any_radius = bool(np.any(self.radii))
        self._pad()

    def _pad(self) -> None:
        """Points grouped per body in one (bodies, most points, 3) array, short groups padded with copies of their
        own first point (min/max unchanged): one batched matrix product per call instead of a gather per point."""
        self.bodies = np.unique(self.owner)
        groups = [np.flatnonzero(self.owner == b) for b in self.bodies]
        width = max((len(g) for g in groups), default=0)
        take = np.array([np.concatenate([g, np.full(width - len(g), g[0])]) for g in groups], int).reshape(len(groups), width)
        self.padded = self.points[take]  # (B, P, 3)
        self.padded_radii = self.radii[take]  # (B, P, 1)

    @property
    def empty(self) -> bool:
        return not len(self.owner) and not self.discs

    def bounds(self, pos: np.ndarray, rot: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """(min xyz, max xyz) for body positions (N, 3) and rotation matrices (N, 3, 3), SI world."""
        lows, highs = [], []
        if len(self.owner):
            world = np.matmul(self.padded, rot[self.bodies].transpose(0, 2, 1)) + pos[self.bodies, None, :]
            if self.any_radius:
                lows.append((world - self.padded_radii).min(axis=(0, 1)))
                highs.append((world + self.padded_radii).max(axis=(0, 1)))
            else:
                lows.append(world.min(axis=(0, 1)))
                highs.append(world.max(axis=(0, 1)))
            if not self.discs:
                return lows[0], highs[0]
        for body, centre, axis, half_height, radius in self.discs:  # exact for a cylinder, conservative for a cone
            c = pos[body] + rot[body] @ centre
            a = rot[body] @ axis
            half = np.abs(a) * half_height + radius * np.sqrt(np.clip(1.0 - a * a, 0.0, 1.0))
            lows.append(c - half)
            highs.append(c + half)
        if not lows:
            raise EngineError("the asset has no bounded collision shape on a rigid body")
        return np.min(lows, axis=0), np.max(highs, axis=0)
