"""effort_limit (FET_022): the drives hold a stable configuration against a 10 N load from 12 directions."""

from .codes import EffortLimitCode
from .test import EffortLimitTest

__all__ = ["EffortLimitCode", "EffortLimitTest"]
