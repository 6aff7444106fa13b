"""The engine's DOF joints: where each lives in PhysX, and the joints outside any articulation.

Articulation DOFs have a slot (articulation row, DOF column) in the (A, Dmax) tensors, in the order of
the articulation's `dofJointPath`. Joints outside any articulation (maximal D6 joints) have none: the
session and binding APIs cover articulation DOFs only, so `MaximalJoints` reads their coordinate
from the two bodies' poses and velocities (as the joint frames say) and drives them by writing the USD
drive target into the ovstage at a new control ordinal (measured 0.1 ms per write after the first,
1.3 ms; the input asset is never touched), velocity targets alike. No velocity limit applies to them, as in omni.physx.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import TYPE_CHECKING

import numpy as np

from ...core.geometry import AXIS_INDEX, compose, inverse, rotate

if TYPE_CHECKING:
    from ...core.asset_model import AssetModel, JointInfo
    from ...core.units import StageFrame

WORLD = (np.zeros(3), np.array([1.0, 0.0, 0.0, 0.0]))


@dataclass
class Dof:
    path: str
    angular: bool
    art: int = -1  # articulation row in the DOF tensors; -1 = outside any articulation
    col: int = -1  # DOF column
    scale: float = 1.0  # binding value -> SI (1 for rad; metersPerUnit for prismatic)


def map_dofs(asset: "AssetModel", art_dofs: list[list[str]], frame: "StageFrame") -> list[Dof]:
    """One Dof per DOF joint of the asset model, in `dof_joints` order."""
    where = {j: (a, c) for a, joints in enumerate(art_dofs) for c, j in enumerate(joints)}
    dofs = []
    for joint in asset.dof_joints:
        a, c = where.get(joint.path, (-1, -1))
        dofs.append(Dof(joint.path, joint.is_angular, a, c, 1.0 if joint.is_angular else frame.meters_per_unit))
    return dofs


class MaximalJoints:
    """Coordinates and drive targets of the DOF joints PhysX simulates outside any articulation."""

    def __init__(self, asset: "AssetModel", dofs: list[Dof], frame: "StageFrame"):
        self.asset, self.frame = asset, frame
        self.indices = [i for i, d in enumerate(dofs) if d.art < 0]
        self.joints: list["JointInfo"] = [asset.joints[dofs[i].path] for i in self.indices]
        self.ordinal = 1  # the ovstage ordinal the scene was populated at; targets go to later ones

    def __bool__(self) -> bool:
        return bool(self.indices)

    def positions(self, poses: dict) -> np.ndarray:
        out = np.empty(len(self.indices))
        for k, joint in enumerate(self.joints):
            f0, f1 = self._frames(joint, poses)
            rel_pos, rel_quat = compose(*inverse(*f0), *f1)
            axis = AXIS_INDEX[joint.axis]
            if rel_quat[0] < 0.0:  # q and -q are the same rotation: the angle in (-pi, pi]
                rel_quat = -rel_quat
            out[k] = float(rel_pos[axis]) if not joint.is_angular else 2.0 * math.atan2(float(rel_quat[1 + axis]),
                                                                                        float(rel_quat[0]))
        return out

    def velocities(self, poses: dict, com_world: dict, velocities: dict) -> np.ndarray:
        """Rate along the joint axis of body1 relative to body0 (angular: ω1 - ω0; linear: the two bodies'
        velocities at body1's joint frame origin), axis in body0's joint frame. SI."""
        out = np.empty(len(self.indices))
        zero = (np.zeros(3), np.zeros(3))
        for k, joint in enumerate(self.joints):
            f0, f1 = self._frames(joint, poses)
            axis = rotate(f0[1], np.eye(3)[AXIS_INDEX[joint.axis]])
            v0, w0 = velocities.get(joint.body0, zero) if joint.body0 else zero
            v1, w1 = velocities.get(joint.body1, zero) if joint.body1 else zero
            if joint.is_angular:
                out[k] = float(np.dot(w1 - w0, axis))
                continue
            point = f1[0]
            p0 = v0 + np.cross(w0, point - com_world.get(joint.body0, point)) if joint.body0 else np.zeros(3)
            p1 = v1 + np.cross(w1, point - com_world.get(joint.body1, point)) if joint.body1 else np.zeros(3)
            out[k] = float(np.dot(p1 - p0, axis))
        return out

    def _frames(self, joint: "JointInfo", poses: dict):
        pos0, quat0 = poses.get(joint.body0, WORLD) if joint.body0 else WORLD
        pos1, quat1 = poses.get(joint.body1, WORLD) if joint.body1 else WORLD
        return compose(pos0, quat0, joint.local_pose0.pos, joint.local_pose0.quat), compose(pos1, quat1, joint.local_pose1.pos,
                                                                                            joint.local_pose1.quat)

    def write_targets(self, runtime, physx, stage, values: dict[str, float], velocity: bool = False) -> None:
        """USD drive targets (SI in, degrees / stage length out) at a new control ordinal of the ovstage: position
        targets, or with `velocity` the drives' targetVelocity (deg/s / stage length per s)."""
        ovstage = runtime.ovstage
        self.ordinal += 1
        dictionary = ovstage.PathDictionary(stage)
        dtype = ovstage.DLDataType(ovstage.DLDataTypeCode.kDLFloat, 32, 1)
        for path, value in values.items():
            joint = self.asset.joints[path]
            usd = math.degrees(value) if joint.is_angular else self.frame.length_from_si(value)
            axis, attr = ("angular" if joint.is_angular else "linear"), ("targetVelocity" if velocity else "targetPosition")
            name = f"drive:{axis}:physics:{attr}"
            query = stage.query_from_path_list(dictionary.create_path_list_from_strings([path]))
            try:
                tensor = ovstage.make_dltensor(np.array([usd], np.float32), dtype=dtype, shape=[1], ndim=1)
                stage.write_attribute(query, name, self.ordinal, tensor, is_array=False).wait()
            finally:
                stage.release_query(query).wait()
        stage.advance_write_floor(ordinal=self.ordinal).wait()
        physx.wait_task(physx.update_from_ovstage(self.ordinal, self.ordinal))
