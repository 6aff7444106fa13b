"""What `fix` may do about drive_gain_validation's failures: tune the drive (damping for overshoot and
oscillation, stiffness and maxForce to settle). The re-run judges each joint by the settling band below."""

import math

from ....core.fix_rules import JointAllowance
from ..fix_rules import DrivenFixRules


class DriveGainValidationFixRules(DrivenFixRules):
    def allowance(self, test, joint, config, out: JointAllowance) -> None:
        step = math.radians(config.step_magnitude_deg) if joint.is_angular else config.prismatic_step_m
        out.deflections.append(("*", f"{test} settling band", config.settling_tolerance * step))


FIX_RULES = DriveGainValidationFixRules()
