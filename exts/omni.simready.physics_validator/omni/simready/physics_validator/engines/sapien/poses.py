"""SAPIEN poses to and from the asset model's (position, quaternion wxyz) pairs, and a joint's twist angle.

SAPIEN stores float32; every pose passes through here so the conversion is done one way everywhere.
"""

from __future__ import annotations

import math

import numpy as np
import sapien

from ...core.geometry import quat_normalize

IDENTITY = np.array([1.0, 0.0, 0.0, 0.0])


def pose(pos, quat) -> "sapien.Pose":
    return sapien.Pose(np.asarray(pos, np.float32), np.asarray(quat_normalize(quat), np.float32))


def np_pose(p: "sapien.Pose") -> tuple[np.ndarray, np.ndarray]:
    return np.asarray(p.p, float), np.asarray(p.q, float)


def twist_angle(quat) -> float:
    """Rotation about X in (-pi, pi]: a revolute joint's position (joint frames put the axis on X)."""
    w, x = float(quat[0]), float(quat[1])
    angle = 2.0 * math.atan2(x, w)
    return (angle + math.pi) % (2.0 * math.pi) - math.pi
