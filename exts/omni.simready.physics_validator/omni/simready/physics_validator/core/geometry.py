"""Small rigid-transform helpers (quaternions are w, x, y, z) and collider bounds. Pure numpy."""

from __future__ import annotations

import math

import numpy as np

AXIS_INDEX = {"X": 0, "Y": 1, "Z": 2}


def vec3(values) -> tuple[float, float, float]:
    """Three numbers (a numpy vector, say) as a plain float triple, e.g. for a USD Gf.Vec3d."""
    x, y, z = (float(v) for v in values)
    return x, y, z


def quat4(values) -> tuple[float, float, float, float]:
    """A quaternion (w, x, y, z) as a plain float quadruple."""
    w, x, y, z = (float(v) for v in values)
    return w, x, y, z


def quat_mul(a, b) -> np.ndarray:
    aw, ax, ay, az = a
    bw, bx, by, bz = b
    return np.array(
        [
            aw * bw - ax * bx - ay * by - az * bz,
            aw * bx + ax * bw + ay * bz - az * by,
            aw * by - ax * bz + ay * bw + az * bx,
            aw * bz + ax * by - ay * bx + az * bw,
        ]
    )


def quats_mul(a, b) -> np.ndarray:
    """`quat_mul` broadcast over leading axes: (..., 4) x (..., 4) -> (..., 4), wxyz."""
    aw, ax, ay, az = np.moveaxis(np.asarray(a, float), -1, 0)
    bw, bx, by, bz = np.moveaxis(np.asarray(b, float), -1, 0)
    return np.stack(
        [
            aw * bw - ax * bx - ay * by - az * bz,
            aw * bx + ax * bw + ay * bz - az * by,
            aw * by - ax * bz + ay * bw + az * bx,
            aw * bz + ax * by - ay * bx + az * bw,
        ],
        axis=-1,
    )


# R (row-major, 9) as a linear map of the products q_i q_j (16) of a unit quaternion (w, x, y, z)
_QQ_TO_R = np.zeros((16, 9))
for _r, _terms in enumerate((
    ((0, 0, 1), (1, 1, 1), (2, 2, -1), (3, 3, -1)), ((1, 2, 2), (0, 3, -2)), ((1, 3, 2), (0, 2, 2)),
    ((1, 2, 2), (0, 3, 2)), ((0, 0, 1), (1, 1, -1), (2, 2, 1), (3, 3, -1)), ((2, 3, 2), (0, 1, -2)),
    ((1, 3, 2), (0, 2, -2)), ((2, 3, 2), (0, 1, 2)), ((0, 0, 1), (1, 1, -1), (2, 2, -1), (3, 3, 1)),
)):
    for _i, _j, _c in _terms:
        _QQ_TO_R[4 * _i + _j, _r] += _c


def quats_to_matrices(q) -> np.ndarray:
    """(N, 4) unit quaternions wxyz -> (N, 3, 3) rotation matrices (no normalisation: engine output).
    Two numpy calls (outer products, one matrix product): this runs every physics step."""
    q = np.asarray(q, float)
    return ((q[:, :, None] * q[:, None, :]).reshape(len(q), 16) @ _QQ_TO_R).reshape(len(q), 3, 3)  # 3.5 us for 7 (was 32)


def quat_conj(q) -> np.ndarray:
    return np.array([q[0], -q[1], -q[2], -q[3]])


def quat_normalize(q) -> np.ndarray:
    q = np.asarray(q, dtype=float)
    n = np.linalg.norm(q)
    return np.array([1.0, 0.0, 0.0, 0.0]) if not np.isfinite(n) or n < 1e-12 else q / n


def quat_to_matrix(q) -> np.ndarray:
    w, x, y, z = quat_normalize(q)
    return np.array(
        [
            [1 - 2 * (y * y + z * z), 2 * (x * y - z * w), 2 * (x * z + y * w)],
            [2 * (x * y + z * w), 1 - 2 * (x * x + z * z), 2 * (y * z - x * w)],
            [2 * (x * z - y * w), 2 * (y * z + x * w), 1 - 2 * (x * x + y * y)],
        ]
    )


def quat_from_axis_angle(axis, angle: float) -> np.ndarray:
    axis = np.asarray(axis, dtype=float)
    axis = axis / np.linalg.norm(axis)
    s = np.sin(angle / 2.0)
    return np.array([np.cos(angle / 2.0), *(axis * s)])


def rotate(q, v) -> np.ndarray:
    return quat_to_matrix(q) @ np.asarray(v, dtype=float)


def compose(pos_a, quat_a, pos_b, quat_b) -> tuple[np.ndarray, np.ndarray]:
    """Pose a * pose b (b expressed in a's frame)."""
    return np.asarray(pos_a) + rotate(quat_a, pos_b), quat_mul(quat_a, quat_b)


def inverse(pos, quat) -> tuple[np.ndarray, np.ndarray]:
    qi = quat_conj(quat)
    return -rotate(qi, pos), qi


def box_corners(lo, hi) -> np.ndarray:
    lo, hi = np.asarray(lo, float), np.asarray(hi, float)
    return np.array([[x, y, z] for x in (lo[0], hi[0]) for y in (lo[1], hi[1]) for z in (lo[2], hi[2])])


def collider_local_extent(collider) -> tuple[np.ndarray, np.ndarray] | None:
    """AABB of the collider in its own frame, or None for unbounded shapes (plane)."""
    shape = collider.shape
    if shape == "box" and collider.half_extents is not None:
        he = np.asarray(collider.half_extents, float)
        return -he, he
    if shape == "sphere" and collider.radius is not None:
        r = collider.radius
        return np.full(3, -r), np.full(3, r)
    if shape in ("capsule", "cylinder", "cone") and collider.radius is not None:
        r, hh = collider.radius, collider.half_height or 0.0
        along = hh + (r if shape == "capsule" else 0.0)
        he = np.full(3, r)
        he[AXIS_INDEX.get(collider.axis, 2)] = along
        return -he, he
    if shape == "mesh" and collider.mesh_points is not None and len(collider.mesh_points):
        pts = np.asarray(collider.mesh_points, float)
        return pts.min(axis=0), pts.max(axis=0)
    return None


def transform_aabb(lo, hi, pos, quat) -> tuple[np.ndarray, np.ndarray]:
    corners = box_corners(lo, hi) @ quat_to_matrix(quat).T + np.asarray(pos, float)
    return corners.min(axis=0), corners.max(axis=0)


def collider_world_aabb(collider, pose=None):
    """World AABB of a collider at its authored pose, or at `pose` (pos, quat) of its own frame."""
    extent = collider_local_extent(collider)
    if extent is None:
        return None
    pos, quat = pose if pose is not None else (collider.world_pose.pos, collider.world_pose.quat)
    return transform_aabb(extent[0], extent[1], pos, quat)


def aabb_volume(lo, hi) -> float:
    d = np.maximum(np.asarray(hi) - np.asarray(lo), 0.0)
    return float(d[0] * d[1] * d[2])


def collider_points(asset, body: str, pose) -> np.ndarray:
    """World corners of the local AABBs of the colliders that make a body's bounds (`AssetModel.bounding_colliders`:
    those the runtime gives contacts, else all of them) at `pose` (position, wxyz quaternion; conservative for meshes):
    (n, 3), empty when the body has none."""
    out = []
    pos, quat = pose
    rot = quat_to_matrix(quat)
    for collider in asset.bounding_colliders(body):
        extent = collider_local_extent(collider)
        if extent is None:
            continue
        local = box_corners(*extent) @ quat_to_matrix(collider.local_pose.quat).T + np.asarray(collider.local_pose.pos, float)
        out.append(local @ rot.T + np.asarray(pos, float))
    return np.vstack(out) if out else np.zeros((0, 3))


def bodies_box(asset, bodies, poses) -> tuple[np.ndarray, np.ndarray] | None:
    """The world AABB of the colliders of `bodies` posed by `poses` (body path -> (position, wxyz quaternion)), or
    None when none of them has a posed collider."""
    points = [collider_points(asset, b, poses[b]) for b in bodies if b in poses]
    points = [p for p in points if len(p)]
    if not points:
        return None
    cloud = np.vstack(points)
    return cloud.min(axis=0), cloud.max(axis=0)


RIM_POINTS = 24  # per rim of a cylinder or cone: within 0.9 % of its radius


def collider_surface(collider) -> tuple[np.ndarray, float] | None:
    """The collider's surface as (points in its own frame, a radius swept around them): exact for boxes (corners),
    spheres and capsules (centres, ends), RIM_POINTS per rim of cylinders and cones, the vertices of meshes (the hull
    PhysX cooks); None for unbounded shapes. Its extreme points in any direction are these points plus the radius."""
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


def skew(v) -> np.ndarray:
    """The matrix of v x (): skew(v) @ w == cross(v, w)."""
    x, y, z = (float(c) for c in v)
    return np.array([[0.0, -z, y], [z, 0.0, -x], [-y, x, 0.0]])


def shift_jacobian(jacobian, offset) -> np.ndarray:
    """A body's (6, n) Jacobian (linear rows of one point, then angular rows) moved to the point `offset` (world
    vector) away on the same body: v' = v + w x offset, so J_v' = J_v - skew(offset) J_w."""
    out = np.array(jacobian, dtype=float)
    out[:3] -= skew(offset) @ out[3:]
    return out
