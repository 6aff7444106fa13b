"""What `fix` may do about drive_gain_validation's failures: tune the drive (damping for overshoot and
oscillation, stiffness and maxForce to settle). The re-run judges each joint by the settling band below."""

from ....core.fix_rules import JointAllowance
from ..fix_rules import DrivenFixRules


class DriveGainValidationFixRules(DrivenFixRules):
    def allowance(self, test, joint, config, out: JointAllowance) -> None:
        thresholds = config.thresholds_for(joint)  # the band of the full step (the run scales it where the range is short)
        out.deflections.append(("*", f"{test} settling band", thresholds.band(thresholds.magnitude)))


FIX_RULES = DriveGainValidationFixRules()
