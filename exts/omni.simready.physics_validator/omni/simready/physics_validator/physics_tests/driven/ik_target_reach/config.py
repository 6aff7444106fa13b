"""ik_target_reach's settings: none of its own. NVIDIA's thresholds (targets on a Fibonacci sphere at 0.5 / 0.7 / 0.9
of the reach, 0.02 m, 0.25 rad, success rate 0.50) belong to a Lula run, which cannot happen here (docs/tests/
ik_target_reach.md); jacobian_ik judges reaching on the runtime's own Jacobian."""

from __future__ import annotations

from ....core.config import TestConfig


class IkTargetReachConfig(TestConfig):
    def thresholds_for(self) -> None:
        """Nothing is judged: the test SKIPs wherever Lula is absent."""
        return None
