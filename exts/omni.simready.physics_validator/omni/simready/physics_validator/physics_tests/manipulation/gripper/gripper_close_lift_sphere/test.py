"""gripper_close_lift_sphere (FET_028, NVIDIA's 1.4.0): a sphere (a single point of each pad: the pads' friction
decides) at 50 % of the rated payload, closed on, lifted, held, shaken and released (manipulation/gripper/base.py, close_lift.py).
Spec: docs/tests/gripper_close_lift_sphere.md."""

from __future__ import annotations

from ..base import GripperCloseLiftTest
from .config import GripperCloseLiftSphereConfig


class GripperCloseLiftSphereTest(GripperCloseLiftTest[GripperCloseLiftSphereConfig]):
    name = "gripper_close_lift_sphere"
    version = "1.4.0"
    summary = ("Closes on a sphere at 50 % of the rated payload, lifts it 20 cm, holds and shakes it with at most 1 cm "
               "of slip, then lets it fall when it opens.")
    Config = GripperCloseLiftSphereConfig
    shape = "sphere"
