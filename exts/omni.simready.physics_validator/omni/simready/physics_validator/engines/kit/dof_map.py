"""What the Kit engine computes from tensor-view arrays and PhysX poses, with no Kit call in it.

- `DofMap`: engine joint order <-> tensor-view (articulation, dof) slots; full-size target arrays.
- `BodyCornerCache`: asset bounds from PhysX body poses and each body's collider box corners
  (USD poses are stale when Fabric is on, so PhysX poses are the only trustworthy source).
- `centre_of_mass_world`: the default point of an applied force.
- `usd_drive_target`: a drive target as USD authors it (joints outside any articulation).
- `maximal_joint_state`: position and velocity of a joint outside every articulation, from its bodies'
  PhysX poses and velocities (the tensor API has no DOF view of such joints).
- `parse_state_rows`, `dofs_before_step`: the state to put back after the warm-up step the tensor views
  need (so the test starts from the parsed scene at t = 0, like every other engine).
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING, Mapping

import numpy as np

from ...core.geometry import box_corners, collider_local_extent, compose, inverse, quat_conj, quat_to_matrix, rotate
from ...core.units import StageFrame

if TYPE_CHECKING:
    from ...core.asset_model import AssetModel, JointInfo


# -- joint order and units ----------------------------------------------------------------------------
class DofMap:
    """Where each engine joint lives in the tensor view's (count, max_dofs) arrays, and its unit scale.

    Tensor arrays hold revolute DOFs in radians and prismatic DOFs in stage length units; the engine
    speaks rad and m. Joints outside every articulation (maximal-coordinate joints) have no slot:
    the tensor API cannot read or drive them, so they are reported in `unmapped`.
    """

    def __init__(self, joints: list["JointInfo"], view_dof_paths: list[list[str]], frame: StageFrame, shape: tuple[int, int]):
        self.joints = [j.path for j in joints]
        self.shape = shape
        self.slots: list[tuple[int, int] | None] = []
        self.scale = np.ones(len(joints))
        where = {path: (a, d) for a, paths in enumerate(view_dof_paths) for d, path in enumerate(paths)}
        for i, joint in enumerate(joints):
            self.slots.append(where.get(joint.path))
            self.scale[i] = 1.0 if joint.is_angular else frame.meters_per_unit
        self.unmapped = [p for p, s in zip(self.joints, self.slots) if s is None]

    @classmethod
    def build(cls, asset: "AssetModel", view_dof_paths: list[list[str]], frame: StageFrame | None = None) -> "DofMap":
        count = len(view_dof_paths)
        max_dofs = max((len(p) for p in view_dof_paths), default=0)
        return cls(asset.dof_joints, view_dof_paths, frame or StageFrame.of_asset(asset), (count, max_dofs))

    def gather(self, view_array) -> np.ndarray:
        """(count, max_dofs) view data -> engine-order SI array; NaN where a joint has no slot."""
        data = np.asarray(view_array, float).reshape(self.shape)
        out = np.full(len(self.joints), np.nan)
        for i, slot in enumerate(self.slots):
            if slot is not None:
                out[i] = data[slot] * self.scale[i]
        return out

    def scatter_targets(self, current_view_targets, targets_si) -> tuple[np.ndarray, np.ndarray]:
        """Full-size target array for `set_dof_position_targets` and the uint32 indices of the
        articulations that changed. NaN keeps a joint's current target (the tensor API has no
        sparse per-DOF write: read, modify, write back)."""
        targets_si = np.asarray(targets_si, float)
        if targets_si.shape != (len(self.joints),):
            raise ValueError(f"expected {len(self.joints)} joint targets, got shape {targets_si.shape}")
        out = np.array(current_view_targets, dtype=np.float32).reshape(self.shape).copy()
        touched: set[int] = set()
        for i, slot in enumerate(self.slots):
            if slot is None or not np.isfinite(targets_si[i]):
                continue
            out[slot] = targets_si[i] / self.scale[i]
            touched.add(slot[0])
        return out, np.array(sorted(touched), dtype=np.uint32)


def usd_drive_target(joint: "JointInfo", value_si: float, frame: StageFrame) -> float:
    """A drive target as USD authors it: degrees for revolute joints, stage units for prismatic (per second for a
    velocity target). Used for joints outside any articulation, which the tensor API cannot drive."""
    return math.degrees(value_si) if joint.is_angular else frame.length_from_si(value_si)


def maximal_joint_state(joint: "JointInfo", poses: Mapping, velocities: Mapping | None = None) -> tuple[float, float]:
    """(position, velocity) of a one-DOF joint outside every articulation, SI, in the USD sense: body1's
    joint frame relative to body0's about (along) the joint axis. `poses`: body -> (pos, wxyz) SI; a body
    missing (or None for body0/body1) is the world. `velocities`: body -> (linear, angular) SI world; the
    velocity is the relative angular (linear, without the w x r term) rate along the axis."""
    world = (np.zeros(3), np.array([1.0, 0.0, 0.0, 0.0]))
    pos0, quat0 = poses.get(joint.body0, world) if joint.body0 else world
    pos1, quat1 = poses.get(joint.body1, world) if joint.body1 else world
    f0 = compose(pos0, quat0, joint.local_pose0.pos, joint.local_pose0.quat)
    f1 = compose(pos1, quat1, joint.local_pose1.pos, joint.local_pose1.quat)
    rel_pos, rel_quat = compose(*inverse(*f0), *f1)
    axis = "XYZ".index(joint.axis.upper()[0])
    if joint.is_angular:
        position = 2.0 * math.atan2(float(rel_quat[1 + axis]), float(rel_quat[0]))
        position = (position + math.pi) % (2.0 * math.pi) - math.pi
    else:
        position = float(rel_pos[axis])
    if velocities is None:
        return position, float("nan")
    still = (np.zeros(3), np.zeros(3))
    v0 = velocities.get(joint.body0, still) if joint.body0 else still
    v1 = velocities.get(joint.body1, still) if joint.body1 else still
    direction = rotate(f0[1], np.eye(3)[axis])
    index = 1 if joint.is_angular else 0
    return position, float(np.dot(np.asarray(v1[index]) - np.asarray(v0[index]), direction))


# -- bounds -------------------------------------------------------------------------------------------
class BodyCornerCache:
    """Each body's collider box corners in the body frame (SI), computed once from the asset model.

    World bounds each step = these corners moved by the body's PhysX pose. Corners rather than a
    merged box keep the result exact for boxes under rotation (a box of a box only grows).
    """

    def __init__(self, asset: "AssetModel"):
        self.corners: dict[str, np.ndarray] = {}
        for collider in asset.colliders.values():
            # A collider with collisionEnabled = false still is the asset's shape (it touches nothing): it counts,
            # as in every engine, so ground_drop sees such a body fall through the floor.
            extent = collider_local_extent(collider)
            if extent is None:
                continue  # planes and empty meshes have no bounded box
            local = box_corners(*extent)
            if collider.body is None or collider.body not in asset.bodies:
                continue  # static scenery: not part of the asset's bounds
            pos, quat = collider.local_pose.pos, collider.local_pose.quat
            in_body = local @ quat_to_matrix(quat).T + np.asarray(pos, float)
            previous = self.corners.get(collider.body)
            self.corners[collider.body] = in_body if previous is None else np.vstack([previous, in_body])

    def world_bounds(self, poses: Mapping[str, tuple[np.ndarray, np.ndarray]]) -> tuple[np.ndarray, np.ndarray]:
        """Union AABB from body poses (SI, wxyz). A body missing from `poses` is an error: a stale
        bound would hide exactly the falls and penetrations the tests look for."""
        points = []  # the rigid bodies' colliders only: static scenery never counts (as in every engine)
        for body, corners in self.corners.items():
            if body not in poses:
                raise KeyError(f"no PhysX pose for body {body}")
            pos, quat = poses[body]
            points.append(corners @ quat_to_matrix(quat).T + np.asarray(pos, float))
        if not points:
            raise ValueError("the asset has no bounded collision shape")
        stacked = np.vstack(points)
        return stacked.min(axis=0), stacked.max(axis=0)


def centre_of_mass_world(asset: "AssetModel", body: str, pose: tuple[np.ndarray, np.ndarray]) -> np.ndarray:
    """Default force point: the authored centre of mass, else the body origin."""
    info = asset.bodies.get(body)
    com = None if info is None else info.center_of_mass
    if com is None:
        return np.asarray(pose[0], float)
    return compose(pose[0], pose[1], np.asarray(com, float), np.array([1.0, 0.0, 0.0, 0.0]))[0]


# -- the warm-up step undone --------------------------------------------------------------------------
def parse_state_rows(paths: list[str], parse_poses: Mapping[str, np.ndarray], asset: "AssetModel", frame: StageFrame):
    """(N, 7) transforms (stage units, xyz + qxyzw, as PhysX reported them before its first step) and (N, 6)
    velocities (stage length / s, rad / s, stage axes: the authored initial velocities) of `paths`, in the
    tensor views' row layout. Tensor views need one step before they exist (the Kit tensors test runner
    warm-starts: omni.physics.tensors.tests/python/scripts/scenario.py), so the engine puts this back after it."""
    to_stage = quat_conj(frame.to_si_quat)
    transforms = np.zeros((len(paths), 7), np.float32)
    velocities = np.zeros((len(paths), 6), np.float32)
    for i, path in enumerate(paths):
        transforms[i] = parse_poses[path]
        body = asset.bodies.get(path)
        if body is not None:
            velocities[i, :3] = rotate(to_stage, np.asarray(body.linear_velocity, float)) / frame.meters_per_unit
            velocities[i, 3:] = rotate(to_stage, np.asarray(body.angular_velocity, float))
    return transforms, velocities


def dofs_before_step(positions, velocities, dt: float) -> np.ndarray:
    """DOF positions one step back: PhysX integrates q += qd * dt with the step's solved velocity."""
    return (np.asarray(positions, np.float64) - np.asarray(velocities, np.float64) * dt).astype(np.float32)
