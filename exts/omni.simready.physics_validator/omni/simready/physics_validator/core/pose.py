"""A pose in the asset model's SI Z-up world: position (m) and wxyz quaternion (core/asset_model.py re-exports it)."""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

IDENTITY_QUAT = (1.0, 0.0, 0.0, 0.0)


@dataclass
class Pose:
    pos: np.ndarray = field(default_factory=lambda: np.zeros(3))
    quat: np.ndarray = field(default_factory=lambda: np.array(IDENTITY_QUAT))
