"""slope_drop (FET_003): dropped onto a 45 degree ramp, the asset touches it, slides or rolls down, does not sink in."""

from .codes import SlopeDropCode
from .test import SlopeDropTest

__all__ = ["SlopeDropCode", "SlopeDropTest"]
