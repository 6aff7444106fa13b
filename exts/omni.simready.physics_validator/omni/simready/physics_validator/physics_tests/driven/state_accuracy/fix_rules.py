"""What `fix` may do about state_accuracy's failures: tune the drive (stiffness and maxForce to reach the waypoints,
damping against swinging past them); an explosion is not a drive value's to fix (the family's rule). The re-run
judges each joint by the test's own tolerance (`StateAccuracyConfig.thresholds_for`: capped by the step, which the
joint's range caps), so proposals are sized against it."""

from ....core.fix_rules import JointAllowance
from ..fix_rules import DrivenFixRules


class StateAccuracyFixRules(DrivenFixRules):
    def allowance(self, test, joint, config, out: JointAllowance) -> None:
        out.deflections.append(("*", f"{test} waypoint tolerance", config.thresholds_for(joint).tolerance))


FIX_RULES = StateAccuracyFixRules()
