"""What every part of one reading pass shares: the stage, its frame, the model being filled, the issues.

The prim readers (bodies, shapes, joints, articulations) are plain functions over a `ReadContext`
so each kind of prim lives in its own module; none of them raises on bad content, they record an
AssetIssue and carry on, so one broken prim never hides the rest of the asset.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from ..asset_model import AssetIssue, AssetModel, MaterialInfo, Pose
from ..geometry import quat_normalize
from ..units import StageFrame


@dataclass
class ReadContext:
    """One read-only pass over a stage: stage-space values go in, SI Z-up values go into `model`."""

    stage: Any
    frame: StageFrame
    model: AssetModel
    xform_cache: Any  # UsdGeom.XformCache, shared so each prim's world transform is computed once
    materials: dict[str, MaterialInfo] = field(default_factory=dict)  # physics material path -> info

    @property
    def mpu(self) -> float:
        return self.frame.meters_per_unit

    @property
    def kpu(self) -> float:
        return self.frame.kilograms_per_unit

    def issue(self, severity: str, code: str, path: str, message: str) -> None:
        self.model.issues.append(AssetIssue(severity=severity, code=code, path=path, message=message))

    def world_pose(self, pos, quat) -> Pose:
        """A stage-world pose in the SI Z-up world."""
        return Pose(self.frame.point_to_si(pos), self.frame.quat_to_si(as_quat(quat)))

    def local_pose(self, pos, quat) -> Pose:
        """A pose relative to a body: only lengths change (the up-axis rotation cancels between frames)."""
        return Pose(np.array(pos, dtype=float) * self.mpu, quat_normalize(as_quat(quat)))


def as_quat(q) -> np.ndarray:
    """GfQuat (real, imaginary) or a 4-sequence (w, x, y, z) -> numpy wxyz."""
    if hasattr(q, "GetReal"):
        im = q.GetImaginary()
        return np.array([q.GetReal(), im[0], im[1], im[2]], dtype=float)
    return np.array(q, dtype=float)


def authored(prim, name: str):
    """An attribute's value when it is authored (fallbacks from schemas that may not be installed are not)."""
    attr = prim.GetAttribute(name) if prim else None
    if attr and attr.HasAuthoredValue():
        return attr.Get()
    return None


def api_tokens(prim) -> list[str]:
    """Every API schema token applied to `prim`, codeless ones included (PhysxTriggerAPI, PhysxRigidBodyAPI,
    Newton*API: `GetAppliedSchemas()` leaves out those this process has no definition of)."""
    listop = prim.GetMetadata("apiSchemas") if prim else None
    return [str(t) for t in listop.ApplyOperations([])] if listop else []


def finite(value) -> bool:
    try:
        return all(math.isfinite(float(v)) for v in np.ravel(value))
    except (TypeError, ValueError):
        return False


def axis_letter(axis, default: str) -> str:
    """UsdPhysics axis enum (…Axis.X) -> "X"; `default` when the parser leaves it empty."""
    return str(axis).rsplit(".", 1)[-1][-1] if str(axis) else default
