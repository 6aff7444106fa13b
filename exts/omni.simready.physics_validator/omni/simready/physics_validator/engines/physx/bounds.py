"""The asset's bounds from its collider geometry (asset model, SI) posed by the bodies' PhysX poses.

PhysX gives no per-shape AABB through ovphysx, so the engine bounds what it knows exactly: box corners,
every mesh point (the support of the convex hull PhysX cooks from them), sphere and capsule centres
swept by their radius, and cylinders/cones by the exact disc formula. An AABB of each collider's *local*
AABB overestimates rotated meshes: erd_panda read 35 mm below the floor that way while its lowest hull
point sat at +0.2 mm. Residual: PhysX's cooked hull may sit up to ≈ 3 mm inside the authored points
(measured on pb_duck_vhacd and erd_panda; `hullVertexLimit` 64 -> 255 changed nothing).

Static colliders are scenery and never count, nor does a trigger volume (PhysX gives it no contacts: a tote's
trigger zone 5 cm larger than the tote is no part of where it touches). A body's colliders with collisionEnabled =
false count when none of its colliders collides (a box without collisions falls through the floor, and ground_drop
must see it go): `AssetModel.bounding_colliders`, as in `AssetModel.authored_bounds` and the sapien engine.

Only the vertices of each body's point hull are kept (with scipy; all points without it): the extreme point of
a rigidly moved cloud along any axis is a hull vertex, so the box is the same, from fewer points (the KUKA iiwa's
7551 mesh points -> 2664). `outer_bounds` is a cheaper box that holds the exact one (a sphere per body about its
origin), for a watch that runs every step and asks for the exact box only when the outer one could matter.
"""

from __future__ import annotations

import hashlib
import math
from typing import TYPE_CHECKING

import numpy as np

from ...core.engine import EngineError
from ...core.geometry import _QQ_TO_R, AXIS_INDEX, box_corners, quat_to_matrix

if TYPE_CHECKING:
    from ...core.asset_model import AssetModel
    from ...core.units import StageFrame

# rows of core.geometry's quaternion-products-to-matrix map for PhysX's x, y, z, w order (raw binding poses)
_XYZW_TO_WXYZ = (1, 2, 3, 0)
RAW_MAP_POINTS = 24  # bodies padded to at most this many points go through the per-point map (raw_bounds)
HULL_MIN_POINTS = 48  # a body with more mesh points than this keeps only its hull vertices
_HULLS: dict[bytes, np.ndarray] = {}  # a body's points (digest) -> its hull vertices, for the process
_RAW_QQ_TO_R = _QQ_TO_R[[4 * _XYZW_TO_WXYZ[a] + _XYZW_TO_WXYZ[c] for a in range(4) for c in range(4)]]


class ColliderBounds:
    """World AABB of the bodies' colliders for given body poses (SI, rotation matrices)."""

    def __init__(self, asset: "AssetModel", body_paths: list[str]):
        index = {p: i for i, p in enumerate(body_paths)}
        points, radii, owner = [], [], []
        self.discs: list[tuple[int, np.ndarray, np.ndarray, float, float]] = []  # (body, centre, axis, half height, radius)
        for body, c in ((index[p], c) for p in body_paths for c in asset.bounding_colliders(p)):  # as authored_bounds
            rot = quat_to_matrix(c.local_pose.quat)
            pos = np.asarray(c.local_pose.pos, float)
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
        self._keep_hull_vertices()
        self.any_radius = bool(np.any(self.radii))
        # per body (body_paths order): the radius of a sphere about its origin holding all its colliders (-inf: none)
        self.origin_radii = np.full(len(body_paths), -np.inf)
        if len(self.owner):
            np.maximum.at(self.origin_radii, self.owner, np.linalg.norm(self.points, axis=1) + self.radii[:, 0])
        for body, centre, _axis, half_height, radius in self.discs:
            reach = float(np.linalg.norm(centre)) + math.hypot(half_height, radius)
            self.origin_radii[body] = max(self.origin_radii[body], reach)
        self._pad()

    def _keep_hull_vertices(self) -> None:
        """Per body, drop the points (of radius 0) inside the hull of its others: the box is the same for any pose."""
        try:
            from scipy.spatial import ConvexHull
        except ImportError:
            return
        keep = np.ones(len(self.owner), bool)
        for body in np.unique(self.owner):
            group = np.flatnonzero((self.owner == body) & (self.radii[:, 0] == 0.0))
            if len(group) <= HULL_MIN_POINTS:  # boxes, small meshes: nothing worth dropping
                continue
            points = np.ascontiguousarray(self.points[group])
            key = hashlib.sha1(points.tobytes()).digest()  # every test of an asset loads the same colliders
            vertices = _HULLS.get(key)
            if vertices is None:
                try:
                    vertices = ConvexHull(points).vertices
                except Exception:  # noqa: BLE001 - flat or degenerate: keep every point
                    vertices = np.arange(len(group))
                if len(_HULLS) >= 512:
                    _HULLS.clear()
                _HULLS[key] = vertices
            keep[group] = False
            keep[group[vertices]] = True
        self.points, self.radii, self.owner = self.points[keep], self.radii[keep], self.owner[keep]

    def _pad(self) -> None:
        """Points grouped per body in one (bodies, most points, 3) array, short groups padded with copies of their
        own first point (min/max unchanged): one batched matrix product per call instead of a gather per point."""
        self.bodies = np.unique(self.owner)
        groups = [np.flatnonzero(self.owner == b) for b in self.bodies]
        width = max((len(g) for g in groups), default=0)
        take = np.array([np.concatenate([g, np.full(width - len(g), g[0])]) for g in groups], int).reshape(len(groups), width)
        self.padded = self.points[take]  # (B, P, 3)
        self.padded_radii = self.radii[take]  # (B, P, 1)

    def for_raw_poses(self, frame: "StageFrame", rows: int) -> "ColliderBounds":
        """Prepare `raw_bounds` for a binding of `rows` poses `[p, q_xyzw]` in stage units and axes.

        The SI rotation of a body is a linear map of the 16 products of its quaternion's components (and its SI
        position one of its stage position), so both corners of the box come from one max over the posed points
        and the same points negated:
        - few points per body (boxes, spheres, capsules: ≤ RAW_MAP_POINTS): one (19, 6 P) map per body from
          [products, position] straight to its points, [+points, -points] — one matrix product, one max;
        - many points (mesh hulls): the [R; -R] rows per body, then the points laid out (bodies, xyz, points), so
          the max runs along contiguous memory (an (N, 3) min over axis 0 took 56 µs for erd_panda's 1672 hull
          points, the (3, N) one 2.5 µs)."""
        # the outer box from raw poses: radii in stage units; a Y-up box's corners are turned to Z up
        self._outer_radii = (self.origin_radii / frame.meters_per_unit)[:, None]
        self._outer_frame = None if frame.up_axis.upper() != "Y" and frame.meters_per_unit == 1.0 else frame
        self._raw_ok = bool(len(self.owner)) and not self.discs
        if not self._raw_ok:
            return self
        to_si = np.asarray(frame.to_si_rotation, float) if frame.up_axis.upper() == "Y" else np.eye(3)
        count, width = self.padded.shape[:2]
        rot = np.einsum("mk,rkj->rmj", to_si, _RAW_QQ_TO_R.reshape(16, 3, 3))  # 16 products -> SI rotation (m, j)
        shift = to_si.T * frame.meters_per_unit  # stage position (row) -> SI world position (row)
        self._raw_rows = None if np.array_equal(self.bodies, np.arange(rows)) else self.bodies
        self._raw_input = np.zeros((count, 1, 19))  # per body: [q_a q_c (16, x y z w order), p (3)]
        self._raw_products = self._raw_input[:, 0, :16].reshape(count, 4, 4)  # a view into it
        self._raw_map_points = width <= RAW_MAP_POINTS
        if self._raw_map_points:
            maps = np.zeros((count, 19, 3, width))  # columns: axis, then point
            maps[:, :16] = np.einsum("rmj,bij->brmi", rot, self.padded)
            maps[:, 16:] = shift[None, :, :, None]
            maps = maps.reshape(count, 19, 3 * width)
            self._raw_maps = np.concatenate([maps, -maps], axis=2)  # (B, 19, 6 P): [+x, +y, +z, -x, -y, -z] x points
            self._raw_radii = np.tile(self.padded_radii[:, :, 0], 6)[:, None, :] if self.any_radius else None
        else:
            self._raw_to_rot = np.concatenate([rot, -rot], axis=1).reshape(16, 18)  # [R; -R]
            self._raw_shift = np.concatenate([shift, -shift], axis=1)  # (3, 6)
            self._raw_points = np.ascontiguousarray(self.padded.transpose(0, 2, 1))  # (B, 3, P)
            self._raw_radii = self.padded_radii.transpose(0, 2, 1) if self.any_radius else None  # (B, 1, P)
        return self

    def raw_bounds(self, raw: np.ndarray) -> tuple[np.ndarray, np.ndarray] | None:
        """(min, max) SI from the raw (N, 7) binding poses (float64 arithmetic), or None when this asset's shapes need
        the general path (`bounds`: cylinders and cones, or nothing posed). Measured (quiet machine): the 6-DOF arm
        (7 boxes) 5 µs, erd_panda (11 hull bodies) 17 µs, against 15 and 74 µs through SI poses and matrices."""
        if not getattr(self, "_raw_ok", False):
            return None
        if self._raw_rows is not None:
            raw = raw[self._raw_rows]
        np.multiply(raw[:, 3:7, None], raw[:, None, 3:7], out=self._raw_products, dtype=float)
        if self._raw_map_points:
            self._raw_input[:, 0, 16:] = raw[:, :3]
            both = np.matmul(self._raw_input, self._raw_maps)  # (B, 1, 6 P)
            if self._raw_radii is not None:
                both += self._raw_radii
            extreme = both.reshape(len(raw), -1).max(axis=0).reshape(6, -1).max(axis=1)  # [max xyz, -min xyz]
        else:
            rot = (self._raw_input[:, 0, :16] @ self._raw_to_rot).reshape(len(raw), 6, 3)
            both = np.matmul(rot, self._raw_points)  # (B, 6, P): the points in SI world axes, then negated
            both += (raw[:, :3] @ self._raw_shift)[:, :, None]
            if self._raw_radii is not None:
                both += self._raw_radii
            extreme = both.max(axis=(0, 2))
        return -extreme[3:], extreme[:3]

    def outer_bounds(self, pos: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """A box holding `bounds` for SI body positions (N, 3), whatever their rotations: each body's sphere about its
        origin (`origin_radii`). NaN positions make it NaN."""
        radii = self.origin_radii[:, None]
        return (pos - radii).min(axis=0), (pos + radii).max(axis=0)

    def raw_outer_bounds(self, raw: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """`outer_bounds` (SI) from the raw (N, 7) binding poses (stage units and axes)."""
        pos = raw[:, :3]
        lo, hi = (pos - self._outer_radii).min(axis=0), (pos + self._outer_radii).max(axis=0)
        if self._outer_frame is None:
            return lo, hi
        a, b = self._outer_frame.points_to_si(np.stack([lo, hi]))
        return np.minimum(a, b), np.maximum(a, b)

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
