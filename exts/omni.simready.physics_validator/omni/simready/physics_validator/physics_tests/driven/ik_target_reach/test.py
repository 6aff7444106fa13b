"""ik_target_reach (FET_022, NVIDIA's 1.2.0): NVIDIA's test runs Lula, Isaac Sim's kinematics solver, from a robot
descriptor matched by name against twelve known robots, on Fibonacci-sphere targets. Lula is a Kit extension
(isaacsim.robot_motion.lula, Python 3.12 inside Isaac Sim): a headless run has no Lula and no descriptor, so every arm
SKIPs with that reason (a gripper is NOT_APPLICABLE, as theirs). No headless equivalent was found that would be the same
test: jacobian_ik is the headless check of reaching. It runs only when asked for (`--tests ik_target_reach` or a
FET_022 feature): by default it would make every arm read INCOMPLETE for a check no run of ours can make.
Spec: docs/tests/ik_target_reach.md.
"""

from __future__ import annotations

from typing import Iterator

from ....core.plugin import PhysicsTest, Precheck
from ....core.status import Status
from ..codes import DrivenCode
from ..jacobian_ik.test import is_standalone_gripper
from ..selection import articulation_precheck
from .codes import IkTargetReachCode as Code
from .config import IkTargetReachConfig
from .hints import HINTS

LULA_REASON = ("needs NVIDIA's Lula kinematics solver and a Lula robot descriptor for this arm; Lula runs only inside "
               "Isaac Sim (the isaacsim.robot_motion.lula extension), not headless: nothing to run (jacobian_ik checks "
               "reaching on the runtime's own Jacobian)")


class IkTargetReachTest(PhysicsTest[IkTargetReachConfig]):
    name = "ik_target_reach"
    version = "1.2.0"
    features = ("FET_022_PHYSX", "FET_022_NEWTON", "FET_022_ISAAC")
    summary = "NVIDIA's Lula target reach: Lula runs only inside Isaac Sim, so a headless run SKIPs and says why."
    Config = IkTargetReachConfig
    codes = (DrivenCode, Code)
    hints = HINTS
    runs_by_default = False  # it SKIPs wherever we run: selected only by name or by FET_022, never by default

    def precheck(self, asset, config: IkTargetReachConfig) -> Precheck | None:
        decision = articulation_precheck(asset)
        if decision is not None:
            return decision
        if asset.robot_type in ("gripper", "end_effector") or is_standalone_gripper(asset):  # jacobian_ik's rule
            return Precheck(Status.NOT_APPLICABLE, "a gripper: no arm to reach targets with", code=Code.GRIPPER)
        return Precheck(Status.SKIP, LULA_REASON, HINTS.for_codes([Code.LULA_UNAVAILABLE]), code=Code.LULA_UNAVAILABLE)

    def run(self, ctx) -> Iterator[None]:
        ctx.finish(Status.SKIP, LULA_REASON, code=Code.LULA_UNAVAILABLE)  # the precheck decides; never reached
        return
        yield  # pragma: no cover
