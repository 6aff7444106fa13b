"""multi_joint_coordination (FET_022): every driven joint commanded at once reaches and holds its target."""

from .codes import MultiJointCoordinationCode
from .test import MultiJointCoordinationTest

__all__ = ["MultiJointCoordinationCode", "MultiJointCoordinationTest"]
