"""ground_drop (FET_003): dropped onto a floor, the asset touches it, does not sink, comes to rest."""

from .codes import GroundDropCode
from .config import GroundDropConfig
from .test import GroundDropTest

__all__ = ["GroundDropCode", "GroundDropConfig", "GroundDropTest"]
