"""gripper_close_lift_sphere's settings: the family's (manipulation/gripper/gripper_config.py), the object at 50 % of the rated
payload (NVIDIA's), and what they make of one gripper in SI (`thresholds_for`, the family's)."""

from __future__ import annotations

from pydantic import Field

from .....core.setting_units import unit
from ..gripper_config import GripperConfig


class GripperCloseLiftSphereConfig(GripperConfig):
    payload_mass_fraction: float = Field(0.5, gt=0, description="Object mass as a fraction of the site's maxPayload "
                                                               "(NVIDIA's 50 %).", json_schema_extra=unit("fraction"))
