"""What `fix` may do about full_range_sweep's failures: tune the drive of a joint that misses or drifts off an
endpoint or does not return home; not when the joint is blocked at an endpoint (collision geometry, friction,
a mimic constraint hold it, and no drive value frees it). The re-run judges each joint at the endpoints, hold
tolerances and ramp speeds below, so proposals are sized against them."""

from ....core.fix_rules import JointAllowance
from ..fix_rules import DrivenFixRules
from ..motion import range_scaled_tolerance, sweep_plan


class FullRangeSweepFixRules(DrivenFixRules):
    blocked_endpoint_explains = True

    def allowance(self, test, joint, config, out: JointAllowance) -> None:
        if not joint.has_limits:
            return
        plan = sweep_plan(joint.lower, joint.upper, out.hold, fps=config.physics_fps, speed_scale=config.sweep_speed_scale,
                          pause_seconds=config.pause_at_limits_seconds, margin_ratio=config.sweep_margin_ratio,
                          max_sweep_range=config.max_sweep_range, velocity_limit=joint.velocity_limit,
                          profile=config.interpolation_profile)
        swept = plan.upper - plan.lower
        rest = range_scaled_tolerance(config.rest_tolerance_for(joint.is_angular), swept, config.rest_range_fraction)
        zero = range_scaled_tolerance(config.zero_return_tolerance_for(joint.is_angular), swept, config.zero_range_fraction)
        out.ends = {"max": plan.max_target, "min": plan.min_target}
        out.ends_test, out.fps = test, config.physics_fps
        out.deflections += [("max", f"{test} hold at max", rest), ("min", f"{test} hold at min", rest)]
        home = "hold" if abs(plan.zero_target - out.hold) < 1e-9 else ("max" if plan.zero_target == plan.max_target else
                                                                        "min" if plan.zero_target == plan.min_target else "*")
        out.deflections.append((home, f"{test} return to zero", zero))
        for seg in plan.segments:
            seconds = seg.frames / config.physics_fps
            out.sweep_accel = max(out.sweep_accel, 6.0 * abs(seg.end - seg.start) / seconds**2)


FIX_RULES = FullRangeSweepFixRules()
