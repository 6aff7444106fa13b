"""What `fix` may do about full_range_sweep's failures: tune the drive of a joint that misses or drifts off an
endpoint or does not return home; not when the joint is blocked at an endpoint (collision geometry, friction,
a mimic constraint hold it, and no drive value frees it). The re-run judges each joint at the endpoints, hold
tolerances and ramp speeds below, so proposals are sized against them."""

from ....core.fix_rules import JointAllowance
from ..fix_rules import DrivenFixRules
from ..motion import PEAK_ACCELERATION_FACTOR


class FullRangeSweepFixRules(DrivenFixRules):
    blocked_endpoint_explains = True

    def allowance(self, test, joint, config, out: JointAllowance) -> None:
        if not joint.has_limits:
            return
        sweep = config.thresholds_for(joint, out.hold)  # the test's own plan and tolerances, from the held target
        plan = sweep.plan
        out.ends = {"max": plan.max_target, "min": plan.min_target}
        out.ends_test, out.fps = test, config.physics_fps
        out.deflections += [("max", f"{test} hold at max", sweep.rest_tolerance),
                            ("min", f"{test} hold at min", sweep.rest_tolerance)]
        home = "hold" if abs(plan.zero_target - out.hold) < 1e-9 else ("max" if plan.zero_target == plan.max_target else
                                                                        "min" if plan.zero_target == plan.min_target else "*")
        out.deflections.append((home, f"{test} return to zero", sweep.zero_return_tolerance))
        for seg in plan.segments:
            seconds = seg.frames / config.physics_fps
            out.sweep_accel = max(out.sweep_accel, PEAK_ACCELERATION_FACTOR * abs(seg.end - seg.start) / seconds**2)


FIX_RULES = FullRangeSweepFixRules()
