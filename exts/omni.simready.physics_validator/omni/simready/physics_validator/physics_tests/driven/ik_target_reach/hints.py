"""ik_target_reach's hints, by code."""

from ....core.hints import HintTable
from .codes import IkTargetReachCode as Code

LULA = ("Run NVIDIA's ik_target_reach inside Isaac Sim (isaacsim.robot_motion.lula with a robot descriptor for the arm); "
        "headless, jacobian_ik checks that the arm reaches poses its kinematics reach, on the runtime's own Jacobian.")

HINTS = HintTable({Code.LULA_UNAVAILABLE: (LULA,)})
