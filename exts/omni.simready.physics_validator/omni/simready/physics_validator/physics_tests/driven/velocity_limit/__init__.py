"""velocity_limit (FET_022): the authored joint velocity cap is enforced at every physics frame."""

from .codes import VelocityLimitCode
from .test import VelocityLimitTest

__all__ = ["VelocityLimitCode", "VelocityLimitTest"]
