"""drive_gain_validation (FET_022): the authored drive gains give a stable, settling step response."""

from .codes import DriveGainValidationCode
from .test import DriveGainValidationTest

__all__ = ["DriveGainValidationCode", "DriveGainValidationTest"]
