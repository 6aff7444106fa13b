"""joint_movement (FET_004): every movable joint, pushed toward its open end by a velocity drive, moves its bodies."""

from .codes import JointMovementCode
from .test import JointMovementTest

__all__ = ["JointMovementCode", "JointMovementTest"]
