"""What `fix` may do about multi_joint_coordination's failures: tune the drives (stiffness and maxForce to hold the
targets under the other joints' loads); an explosion is not a drive value's to fix (the family's rule). The re-run
judges each joint by the test's own tolerance (`MultiJointCoordinationConfig.thresholds_for`)."""

from ....core.fix_rules import JointAllowance
from ..fix_rules import DrivenFixRules


class MultiJointCoordinationFixRules(DrivenFixRules):
    def allowance(self, test, joint, config, out: JointAllowance) -> None:
        out.deflections.append(("*", f"{test} tolerance", config.thresholds_for(joint).tolerance))


FIX_RULES = MultiJointCoordinationFixRules()
