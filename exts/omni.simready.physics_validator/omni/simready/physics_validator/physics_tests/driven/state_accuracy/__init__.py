"""state_accuracy (FET_022): each driven joint holds the positions it is commanded to, out and back, within tolerance."""

from .codes import StateAccuracyCode
from .test import StateAccuracyTest

__all__ = ["StateAccuracyCode", "StateAccuracyTest"]
