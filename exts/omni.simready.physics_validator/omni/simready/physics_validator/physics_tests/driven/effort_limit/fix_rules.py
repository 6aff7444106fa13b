"""What `fix` may do about effort_limit's failures: stiffen and strengthen the drive that gave way (the loaded
joint, and the joint the load moved most when that is another), and judge on the re-run the joints the test did
not reach because it stopped at the first failure. The re-run loads each joint with the force and judges it by
the deflection tolerance below."""

from ....core.fix_rules import JointAllowance
from ..fix_rules import DrivenFixRules
from .codes import EffortLimitCode as Code


class EffortLimitFixRules(DrivenFixRules):
    tune_on_skip = {Code.NOT_LOADED.value: "not loaded (the test stopped at the first failing joint)"}

    def more_joints_to_tune(self, test, row) -> list[tuple[str, str]]:
        other = str(row.measured.get("most_deflected_joint") or "")
        return [(other, f"{test}: gave way under the load on {row.joint}")] if other else []

    def allowance(self, test, joint, config, out: JointAllowance) -> None:
        thresholds = config.thresholds_for(joint)
        out.effort_tolerance, out.effort_force, out.load_test = thresholds.deflection, thresholds.force, test


FIX_RULES = EffortLimitFixRules()
