"""gripper_close_lift_cube (FET_028): the gripper closes on a cube at 85 % of its rated payload, lifts it 20 cm,
holds and shakes it without letting it slip, and lets it fall when it opens."""

from .test import GripperCloseLiftCubeTest

__all__ = ["GripperCloseLiftCubeTest"]
