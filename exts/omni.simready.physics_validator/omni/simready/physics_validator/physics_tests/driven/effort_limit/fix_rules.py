"""What `fix` may do about effort_limit's failures: stiffen and strengthen the drive that gave way (the loaded
joint, and the joint the load moved most when that is another), and judge on the re-run the joints the test did
not reach because it stopped at the first failure. The re-run loads each joint with the force and judges it by
the deflection tolerance below."""

import math

from ....core.fix_rules import JointAllowance
from ..fix_rules import DrivenFixRules
from ..load_point import deflection_tolerance
from .codes import EffortLimitCode as Code


class EffortLimitFixRules(DrivenFixRules):
    tune_on_skip = {Code.NOT_LOADED.value: "not loaded (the test stopped at the first failing joint)"}

    def more_joints_to_tune(self, test, row) -> list[tuple[str, str]]:
        other = str(row.measured.get("most_deflected_joint") or "")
        return [(other, f"{test}: gave way under the load on {row.joint}")] if other else []

    def allowance(self, test, joint, config, out: JointAllowance) -> None:
        out.effort_tolerance = deflection_tolerance(joint, config.break_tolerance,
                                                    math.radians(config.max_judged_revolute_range_deg),
                                                    config.unlimited_prismatic_range_m)
        out.effort_force = config.force_magnitude_newtons
        out.load_test = test


FIX_RULES = EffortLimitFixRules()
