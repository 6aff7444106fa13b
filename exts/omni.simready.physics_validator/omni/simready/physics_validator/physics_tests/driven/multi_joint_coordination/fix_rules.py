"""What `fix` may do about multi_joint_coordination's failures: tune the drives (stiffness and maxForce to hold the
targets under the other joints' loads); an explosion is not a drive value's to fix (the family's rule)."""

import math

from ....core.fix_rules import JointAllowance
from ..fix_rules import DrivenFixRules


class MultiJointCoordinationFixRules(DrivenFixRules):
    def allowance(self, test, joint, config, out: JointAllowance) -> None:
        absolute = math.radians(config.position_tolerance_deg) if joint.is_angular else config.position_tolerance_m
        span = (joint.upper - joint.lower) if joint.has_limits else math.inf
        out.deflections.append(("*", f"{test} tolerance", min(absolute, config.range_tolerance_fraction * span)))


FIX_RULES = MultiJointCoordinationFixRules()
