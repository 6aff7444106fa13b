"""What a proposal aims for (`FixTargets`) and what the selected tests allow each joint (`JointAllowance`).

The allowances come from the tests' own configs and pure helpers (`physics_tests.driven.motion`), so a
proposal is sized against the tolerances the re-run will judge it by: full_range_sweep's endpoints, rest and
zero-return tolerances (capped by the range) and segment timing; effort_limit's load and deflection tolerance;
drive_gain_validation's settling band.
"""

from __future__ import annotations

import math
from dataclasses import asdict, dataclass, field
from typing import TYPE_CHECKING

from ..physics_tests.driven.motion import range_scaled_tolerance, sweep_plan

if TYPE_CHECKING:
    from ..core.asset_model import JointInfo
    from ..core.config import ValidationConfig

UNIT_SUSPECT_RANGE = math.radians(1.0)  # a revolute range under 1°: limits authored in radians, read as degrees


@dataclass
class FixTargets:
    """The proposal rules' targets (see docs/fix.md for the formulas)."""

    natural_frequency_hz: float = 5.0  # f_n: stiffness K = I_max (2 pi f_n)^2 at least
    damping_ratio: float = 1.0  # zeta: damping D = 2 zeta sqrt(K I_max)
    damping_band: tuple[float, float] = (0.5, 2.0)  # an authored zeta inside zeta x band is kept
    force_margin: float = 1.5  # maxForce = margin x (peak gravity + dynamic load, or held load + test load)
    deflection_share: float = 0.25  # static deflection under a load <= this share of the tolerance judging it
    max_rounds: int = 3  # re-runs: escalate, revert, re-run at most this often
    escalation: float = 2.0  # each escalation: f_n and margin x this, deflection share / this
    slack: float = 0.02  # an authored value within 2 % of the requirement meets it (idempotence)

    @property
    def omega(self) -> float:
        return 2.0 * math.pi * self.natural_frequency_hz

    def escalated(self, level: int) -> "FixTargets":
        """The targets `level` escalations up."""
        if level <= 0:
            return self
        factor = self.escalation**level
        out = FixTargets(**{**asdict(self), "damping_band": tuple(self.damping_band)})
        out.natural_frequency_hz *= factor
        out.force_margin *= factor
        out.deflection_share /= factor
        return out

    def describe(self) -> dict:
        return {"natural_frequency_hz": self.natural_frequency_hz, "omega_n_rad_s": round(self.omega, 4),
                "damping_ratio": self.damping_ratio, "force_margin": self.force_margin,
                "deflection_share": self.deflection_share, "max_rounds": self.max_rounds, "escalation": self.escalation}


@dataclass
class JointAllowance:
    """For one joint: where the tests take it and how far a load may deflect it there (SI)."""

    hold: float  # the held target (authored drive target clamped into the limits)
    ends: dict[str, float] = field(default_factory=dict)  # sweep endpoints probed: "max", "min"
    deflections: list[tuple[str, str, float]] = field(default_factory=list)  # (pose, what, tolerance)
    effort_tolerance: float = math.nan  # effort_limit: deflection allowed under its load
    effort_force: float = 0.0  # effort_limit's load (N)
    sweep_accel: float = 0.0  # peak commanded acceleration of the sweep (rad/s^2 or m/s^2)
    unit_suspect: bool = False  # revolute range < 1°


def hold_target(joint: "JointInfo") -> float:
    target = joint.drive.target_position if joint.drive is not None else 0.0
    if joint.has_limits:
        target = min(max(target, joint.lower), joint.upper)
    return float(target)


def allowance(joint: "JointInfo", config: "ValidationConfig", tests: list[str]) -> JointAllowance:
    out = JointAllowance(hold=hold_target(joint))
    span = (joint.upper - joint.lower) if joint.has_limits else math.nan
    out.unit_suspect = joint.is_angular and joint.has_limits and span < UNIT_SUSPECT_RANGE
    if "full_range_sweep" in tests and joint.has_limits:
        cfg = config.for_test("full_range_sweep")
        plan = sweep_plan(joint.lower, joint.upper, out.hold, fps=cfg.physics_fps, speed_scale=cfg.sweep_speed_scale,
                          pause_seconds=cfg.pause_at_limits_seconds, margin_ratio=cfg.sweep_margin_ratio,
                          max_sweep_range=cfg.max_sweep_range, velocity_limit=joint.velocity_limit,
                          profile=cfg.interpolation_profile)
        swept = plan.upper - plan.lower
        rest = range_scaled_tolerance(cfg.rest_tolerance, swept, cfg.rest_range_fraction)
        zero = range_scaled_tolerance(cfg.zero_return_tolerance, swept, cfg.zero_range_fraction)
        out.ends = {"max": plan.max_target, "min": plan.min_target}
        out.deflections += [("max", "full_range_sweep hold at max", rest), ("min", "full_range_sweep hold at min", rest)]
        home = "hold" if abs(plan.zero_target - out.hold) < 1e-9 else ("max" if plan.zero_target == plan.max_target else
                                                                        "min" if plan.zero_target == plan.min_target else "*")
        out.deflections.append((home, "full_range_sweep return to zero", zero))
        for seg in plan.segments:
            seconds = seg.frames / cfg.physics_fps
            out.sweep_accel = max(out.sweep_accel, 6.0 * abs(seg.end - seg.start) / seconds**2)
    if "drive_gain_validation" in tests:
        cfg = config.for_test("drive_gain_validation")
        step = math.radians(cfg.step_magnitude_deg) if joint.is_angular else cfg.prismatic_step_m
        out.deflections.append(("*", "drive_gain_validation settling band", cfg.settling_tolerance * step))
    if "effort_limit" in tests:
        cfg = config.for_test("effort_limit")
        basis = span if joint.has_limits else (2 * math.pi if joint.is_angular else cfg.unlimited_prismatic_range_m)
        out.effort_tolerance = cfg.break_tolerance * basis
        out.effort_force = cfg.force_magnitude_newtons
    return out
