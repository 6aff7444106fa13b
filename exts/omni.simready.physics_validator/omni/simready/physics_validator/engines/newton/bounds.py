"""World AABBs of Newton collision shapes, computed from shape transforms (Newton has no per-body AABB getter).

Pure numpy over arrays read from a Newton model, so it also works on a builder's lists before finalize
(`builder_aabb`, for the drop placement). Only the rigid bodies' colliding shapes count: planes,
height fields and static scenery (body -1) never do.
Transforms are Newton's (p xyz, quaternion xyzw). Shape geometry follows Newton's conventions: a box's
scale holds half extents, a sphere's scale[0] is its radius, capsules, cylinders and cones lie along
local Z with radius scale[0] and half height scale[1], an ellipsoid's scale holds its semi-axes, and a
mesh's vertices are multiplied by its scale.
"""

from __future__ import annotations

import numpy as np

# newton.GeoType values (checked against newton in tests/test_newton_engine.py)
PLANE, HFIELD, SPHERE, CAPSULE, ELLIPSOID, CYLINDER, BOX, MESH, CONE, CONVEX_MESH = 1, 2, 3, 4, 5, 6, 7, 8, 9, 10
COLLIDE = 1 << 1  # newton.ShapeFlags.COLLIDE_SHAPES


def quat_xyzw_to_matrix(q: np.ndarray) -> np.ndarray:
    """Rotation matrices (..., 3, 3) from quaternions (..., 4) in xyzw order."""
    q = np.asarray(q, float)
    q = q / np.linalg.norm(q, axis=-1, keepdims=True)
    x, y, z, w = q[..., 0], q[..., 1], q[..., 2], q[..., 3]
    return np.stack(
        [
            np.stack([1 - 2 * (y * y + z * z), 2 * (x * y - z * w), 2 * (x * z + y * w)], -1),
            np.stack([2 * (x * y + z * w), 1 - 2 * (x * x + z * z), 2 * (y * z - x * w)], -1),
            np.stack([2 * (x * z - y * w), 2 * (y * z + x * w), 1 - 2 * (x * x + y * y)], -1),
        ],
        -2,
    )


def shape_world_transforms(body_q: np.ndarray, shape_body: np.ndarray, shape_transform: np.ndarray):
    """(positions (n, 3), rotations (n, 3, 3)) of shapes in the world; shape_body -1 = already world."""
    body_q = np.asarray(body_q, float).reshape(-1, 7)
    xf = np.asarray(shape_transform, float).reshape(-1, 7)
    local_p, local_r = xf[:, :3], quat_xyzw_to_matrix(xf[:, 3:])
    pos, rot = local_p.copy(), local_r.copy()
    attached = np.asarray(shape_body) >= 0
    if np.any(attached):
        bq = body_q[np.asarray(shape_body)[attached]]
        br = quat_xyzw_to_matrix(bq[:, 3:])
        pos[attached] = bq[:, :3] + np.einsum("nij,nj->ni", br, local_p[attached])
        rot[attached] = br @ local_r[attached]
    return pos, rot


def shape_half_extents(geo_type: int, scale: np.ndarray, rot: np.ndarray, vertices: np.ndarray | None) -> np.ndarray | None:
    """World-axis half extents of one shape about its centre, or None for unbounded/unknown shapes."""
    s = np.asarray(scale, float)
    if geo_type == BOX:
        return np.abs(rot) @ s
    if geo_type == SPHERE:
        return np.full(3, s[0])
    if geo_type == ELLIPSOID:
        return np.sqrt((rot * rot) @ (s * s))
    axis = rot[:, 2]
    if geo_type == CAPSULE:
        return np.abs(axis) * s[1] + s[0]
    if geo_type in (CYLINDER, CONE):
        radius = max(s[0], s[2]) if len(s) > 2 else s[0]
        return np.abs(axis) * s[1] + radius * np.sqrt(np.clip(1.0 - axis * axis, 0.0, 1.0))
    return None


def world_aabb(body_q, shape_body, shape_transform, shape_type, shape_scale, indices, mesh_vertices) -> tuple[np.ndarray,
                                                                                                              np.ndarray] | None:
    """Union AABB (min, max) of the shapes in `indices`; mesh_vertices: shape index -> (n, 3) local vertices."""
    indices = list(indices)
    if not indices:
        return None
    pos, rot = shape_world_transforms(body_q, np.asarray(shape_body)[indices], np.asarray(shape_transform)[indices])
    lows, highs = [], []
    for k, s in enumerate(indices):
        geo = int(shape_type[s])
        scale = np.asarray(shape_scale[s], float)
        if geo in (MESH, CONVEX_MESH):
            verts = mesh_vertices.get(s)
            if verts is None or len(verts) == 0:
                continue
            pts = (np.asarray(verts, float) * scale) @ rot[k].T + pos[k]
            lows.append(pts.min(axis=0))
            highs.append(pts.max(axis=0))
            continue
        half = shape_half_extents(geo, scale, rot[k], None)
        if half is None:
            continue
        lows.append(pos[k] - half)
        highs.append(pos[k] + half)
    if not lows:
        return None
    return np.min(lows, axis=0), np.max(highs, axis=0)


class ShapeBounds:
    """The engine's bounds(): shape arrays read once from the finalized model, body poses each call."""

    def __init__(self, model, ground_shape: int) -> None:
        flags, types, bodies = model.shape_flags.numpy(), model.shape_type.numpy(), model.shape_body.numpy()
        self.shapes = [  # the rigid bodies' shapes: static scenery (body -1) never counts
            s for s in range(model.shape_count)
            if s != ground_shape and int(flags[s]) & COLLIDE and int(types[s]) not in (PLANE, HFIELD)
            and int(bodies[s]) >= 0
        ]
        self.mesh_vertices = {}
        for s in self.shapes:
            if int(types[s]) in (MESH, CONVEX_MESH):
                source = model.shape_source[s]
                if source is not None:
                    self.mesh_vertices[s] = np.asarray(source.vertices, float)
        self.arrays = (model.shape_body.numpy(), model.shape_transform.numpy(), types, model.shape_scale.numpy())

    def aabb(self, body_q) -> tuple[np.ndarray, np.ndarray] | None:
        shape_body, shape_xf, types, scales = self.arrays
        return world_aabb(body_q, shape_body, shape_xf, types, scales, self.shapes, self.mesh_vertices)


def builder_aabb(builder) -> tuple[np.ndarray, np.ndarray] | None:
    """Authored collision bounds from a ModelBuilder's lists, before finalize (for place_bottom_at)."""
    types = np.asarray(builder.shape_type, int)
    flags = np.asarray(builder.shape_flags, int)
    owners = np.asarray(builder.shape_body, int)
    shapes = [
        s for s in range(len(types))
        if flags[s] & COLLIDE and types[s] not in (PLANE, HFIELD) and owners[s] >= 0
    ]
    if not shapes:
        return None
    body_q = np.array([list(t) for t in builder.body_q], float).reshape(-1, 7)
    xforms = np.array([list(t) for t in builder.shape_transform], float)
    scales = np.array([list(s) for s in builder.shape_scale], float)
    vertices = {
        s: np.asarray(builder.shape_source[s].vertices, float)
        for s in shapes
        if types[s] in (MESH, CONVEX_MESH) and builder.shape_source[s] is not None
    }
    return world_aabb(body_q, np.asarray(builder.shape_body, int), xforms, types, scales, shapes, vertices)
