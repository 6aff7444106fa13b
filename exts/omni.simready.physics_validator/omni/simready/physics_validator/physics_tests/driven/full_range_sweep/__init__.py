"""full_range_sweep (FET_022): every driven joint reaches and holds both authored endpoints and returns to zero."""

from .codes import FullRangeSweepCode
from .test import FullRangeSweepTest

__all__ = ["FullRangeSweepCode", "FullRangeSweepTest"]
