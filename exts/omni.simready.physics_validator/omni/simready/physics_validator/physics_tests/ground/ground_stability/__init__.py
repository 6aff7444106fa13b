"""ground_stability (FET_003, RB.007): released just above the floor, upright and tilted, the asset comes to rest."""

from .codes import GroundStabilityCode
from .config import GroundStabilityConfig
from .test import GroundStabilityTest

__all__ = ["GroundStabilityCode", "GroundStabilityConfig", "GroundStabilityTest"]
