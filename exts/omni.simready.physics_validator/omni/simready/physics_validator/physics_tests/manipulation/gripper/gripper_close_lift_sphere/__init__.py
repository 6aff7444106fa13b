"""gripper_close_lift_sphere (FET_028): the gripper closes on a sphere at 50 % of its rated payload, lifts it 20 cm,
holds and shakes it without letting it slip, and lets it fall when it opens."""

from .test import GripperCloseLiftSphereTest

__all__ = ["GripperCloseLiftSphereTest"]
