"""What `fix` may do about state_accuracy's failures: tune the drive (stiffness and maxForce to reach the waypoints,
damping against swinging past them); an explosion is not a drive value's to fix (the family's rule)."""

import math

from ....core.fix_rules import JointAllowance
from ..fix_rules import DrivenFixRules


class StateAccuracyFixRules(DrivenFixRules):
    def allowance(self, test, joint, config, out: JointAllowance) -> None:
        if joint.is_angular:
            absolute = math.radians(config.position_tolerance_deg)
            step = math.radians(config.max_step_deg)
        else:
            absolute, step = config.position_tolerance_m, config.max_step_m
        out.deflections.append(("*", f"{test} waypoint tolerance", min(absolute, config.step_tolerance_fraction * step)))


FIX_RULES = StateAccuracyFixRules()
