"""mimic_joint (FET_022): every mimic follower moves with its reference as the authored coupling says, within its limits."""

from .codes import MimicJointCode
from .test import MimicJointTest

__all__ = ["MimicJointCode", "MimicJointTest"]
