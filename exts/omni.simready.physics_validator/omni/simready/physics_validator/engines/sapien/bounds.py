"""World bounds of the asset's rigid bodies: the union of their collision shapes' world AABBs.

Bodies with only boxes, spheres or meshes use PhysX's tight AABB. Capsules and cylinders do not: PhysX
bounds them by a rotated box around them, which overestimates a tilted capsule (a tilted ant foot read
3 cm below the ground while its contact distance was 0), so those bodies are bounded exactly here.
Planes (infinite) never count, and neither does static scenery.
"""

from __future__ import annotations

import numpy as np
from sapien import physx

from ...core.geometry import quat_to_matrix
from .poses import np_pose

ROUND = (physx.PhysxCollisionShapeCapsule, physx.PhysxCollisionShapeCylinder)


class BodyBounds:
    """bounds() of the engine: the rigid bodies (not statics) among `components` that have a bounded shape."""

    def __init__(self, components) -> None:
        bounded = [c for c in components if isinstance(c, physx.PhysxRigidBodyComponent) and has_bounded_shape(c)]
        has_round = lambda c: any(isinstance(s, ROUND) for s in c.get_collision_shapes())  # noqa: E731
        self.tight = [c for c in bounded if not has_round(c)]
        round_bodies = [c for c in bounded if has_round(c)]
        self.round = RoundShapeBounds(round_bodies) if round_bodies else None

    @property
    def empty(self) -> bool:
        return not (self.tight or self.round)

    def aabb(self) -> tuple[np.ndarray, np.ndarray]:
        boxes = [c.compute_global_aabb_tight() for c in self.tight]
        if self.round is not None:
            boxes.append(self.round.aabb())
        if len(boxes) == 1:  # the common single-body case, without numpy reductions
            box = boxes[0]
            return box[0].astype(float), box[1].astype(float)
        if not boxes:
            return np.zeros(3), np.zeros(3)
        stack = np.array(boxes)  # (n, 2, 3): one array and two reductions, the cheapest union measured
        return stack[:, 0].min(axis=0).astype(float), stack[:, 1].max(axis=0).astype(float)


def has_bounded_shape(component) -> bool:
    return any(not isinstance(s, physx.PhysxCollisionShapePlane) for s in component.get_collision_shapes())


class RoundShapeBounds:
    """Exact world AABB of bodies with capsules or cylinders, vectorised over their shapes."""

    def __init__(self, components):
        self.components = components
        rows = []  # (component index, local pos, local rot, half along X, radius, kind)
        self.meshes = []  # (component index, local pos, local rot, scaled vertices)
        for index, component in enumerate(components):
            for shape in component.get_collision_shapes():
                pos, quat = np_pose(shape.get_local_pose())
                rot = quat_to_matrix(quat)
                if isinstance(shape, ROUND):
                    rows.append((index, pos, rot, float(shape.get_half_length()), float(shape.get_radius()), 1))
                elif isinstance(shape, physx.PhysxCollisionShapeSphere):
                    rows.append((index, pos, rot, 0.0, float(shape.get_radius()), 1))
                elif isinstance(shape, physx.PhysxCollisionShapeBox):
                    rows.append((index, pos, rot, np.asarray(shape.get_half_size(), float), 0.0, 0))
                elif isinstance(shape, (physx.PhysxCollisionShapeConvexMesh, physx.PhysxCollisionShapeTriangleMesh)):
                    verts = np.asarray(shape.get_vertices(), float) * np.asarray(shape.get_scale(), float)
                    self.meshes.append((index, pos, rot, verts))
        self.index = np.array([r[0] for r in rows], int)
        self.pos = np.array([r[1] for r in rows]).reshape(-1, 3)
        self.rot = np.array([r[2] for r in rows]).reshape(-1, 3, 3)
        self.is_box = np.array([r[5] == 0 for r in rows], bool)
        self.box_half = np.array([r[3] if r[5] == 0 else np.zeros(3) for r in rows]).reshape(-1, 3)
        self.half_length = np.array([0.0 if r[5] == 0 else r[3] for r in rows])
        self.radius = np.array([r[4] for r in rows])
        self.cylinder = np.array(
            [isinstance(s, physx.PhysxCollisionShapeCylinder) for c in components for s in c.get_collision_shapes()
             if isinstance(s, (*ROUND, physx.PhysxCollisionShapeSphere, physx.PhysxCollisionShapeBox))], bool)

    def aabb(self) -> np.ndarray:
        poses = [c.entity.pose for c in self.components]
        body_p = np.array([p.p for p in poses], float)
        body_r = np.array([quat_to_matrix(p.q) for p in poses])
        lows, highs = [], []
        if len(self.index):
            r_b = body_r[self.index]
            centre = body_p[self.index] + np.einsum("nij,nj->ni", r_b, self.pos)
            rot = np.einsum("nij,njk->nik", r_b, self.rot)
            axis = rot[:, :, 0]
            round_half = np.abs(axis) * self.half_length[:, None] + self.radius[:, None] * np.where(
                self.cylinder[:, None], np.sqrt(np.clip(1.0 - axis * axis, 0.0, 1.0)), 1.0
            )
            box_half = np.einsum("nij,nj->ni", np.abs(rot), self.box_half)
            half = np.where(self.is_box[:, None], box_half, round_half)
            lows.append((centre - half).min(axis=0))
            highs.append((centre + half).max(axis=0))
        for index, pos, rot, verts in self.meshes:
            world = verts @ (body_r[index] @ rot).T + body_p[index] + body_r[index] @ pos
            lows.append(world.min(axis=0))
            highs.append(world.max(axis=0))
        return np.stack([np.min(lows, axis=0), np.max(highs, axis=0)])
