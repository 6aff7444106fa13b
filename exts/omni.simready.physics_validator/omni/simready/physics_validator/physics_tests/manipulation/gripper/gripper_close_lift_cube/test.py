"""gripper_close_lift_cube (FET_028, NVIDIA's 1.4.0): a cube (flat faces: the jaws' squeeze decides) at 85 % of the
rated payload, closed on, lifted, held, shaken and released (manipulation/gripper/base.py, close_lift.py).
Spec: docs/tests/gripper_close_lift_cube.md."""

from __future__ import annotations

from ..base import GripperCloseLiftTest
from .config import GripperCloseLiftCubeConfig


class GripperCloseLiftCubeTest(GripperCloseLiftTest[GripperCloseLiftCubeConfig]):
    name = "gripper_close_lift_cube"
    version = "1.4.0"
    summary = ("Closes on a cube at 85 % of the rated payload, lifts it 20 cm, holds and shakes it with at most 1 cm "
               "of slip, then lets it fall when it opens.")
    Config = GripperCloseLiftCubeConfig
    shape = "cube"
