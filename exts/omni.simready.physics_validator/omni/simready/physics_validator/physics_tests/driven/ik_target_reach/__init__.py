"""ik_target_reach (FET_022): NVIDIA's Lula target reach. Lula runs inside Isaac Sim only: headless it SKIPs, saying so."""

from .test import IkTargetReachTest

__all__ = ["IkTargetReachTest"]
