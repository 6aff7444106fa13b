"""What a proposal aims for (`FixTargets`) and what the selected tests allow each joint (`JointAllowance`).

The allowances come from each test's own fix rules (core.fix_rules.FixRules.allowance, in the test's folder),
computed from its config, so a proposal is sized against the tolerances the re-run will judge it by: endpoints
and the tolerances held there, ramp accelerations, a test load and the deflection it may cause, settling bands.
"""

from __future__ import annotations

import math
from dataclasses import asdict, dataclass
from typing import TYPE_CHECKING

from ..core.fix_rules import JointAllowance

if TYPE_CHECKING:
    from ..core.asset_model import JointInfo
    from ..core.config import ValidationConfig
    from ..core.plugin import TestRegistry

UNIT_SUSPECT_RANGE = math.radians(1.0)  # a revolute range under 1°: limits authored in radians, read as degrees
MAX_LEVEL = 2  # escalations of a joint's targets (FixTargets.escalated) before it is said not to be met


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
    steps_per_period: float = 10.0  # stiffness bound: a drive's natural period spans at least this many physics steps
    raise_max_force: bool = False  # --raise-max-force: maxForce may exceed the authored value (the actuator's rating)
    add_drives: bool = False  # --add-drives: joints with no drive (or zero gains) get first drives

    def omega_max(self, fps: float) -> float:
        """The stiffest natural frequency (rad/s) a drive keeps at this step, on a joint of any inertia: K <= I x this².
        At 240 Hz: 150.8 rad/s (24 Hz), a natural period of 10 steps. Measured on physx (tests/fix/test_stability_bound.py):
        a critically damped drive of that period reaches 10 % of a step within 3 % of its design, one of 2 steps 27 %
        late, and below one step it arrives in a step whatever its gains. PhysX's drives are implicit: stiffer ones did
        not diverge (a 6-joint arm under gravity at half a step per period), but they stop behaving as their gains
        say, and a held load's error then shrinks with 1/omega, not 1/K."""
        return 2.0 * math.pi * fps / self.steps_per_period

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
                "deflection_share": self.deflection_share, "max_rounds": self.max_rounds, "escalation": self.escalation,
                "steps_per_period": self.steps_per_period, "raise_max_force": self.raise_max_force,
                "add_drives": self.add_drives}


def endpoint_tolerance(allow: JointAllowance, pose: str) -> float:
    """The widest tolerance the selected tests judge the joint by at that endpoint (0 when none judges it there)."""
    return max((tol for where, _, tol in allow.deflections if where == pose), default=0.0)


def hold_target(joint: "JointInfo") -> float:
    target = joint.drive.target_position if joint.drive is not None else 0.0
    if joint.limits is not None:
        target = min(max(target, joint.limits[0]), joint.limits[1])
    return float(target)


def allowance(joint: "JointInfo", config: "ValidationConfig", tests: list[str], registry: "TestRegistry") -> JointAllowance:
    """What the selected tests will judge `joint` by on the re-run: each test adds its own (its FixRules)."""
    out = JointAllowance(hold=hold_target(joint))
    out.unit_suspect = joint.is_angular and joint.limits is not None and (joint.limits[1] - joint.limits[0]) < UNIT_SUSPECT_RANGE
    for name in [n for n in registry.names() if n in tests]:  # registry order: the same list whatever the order asked
        registry.fix_rules_of(name).allowance(name, joint, config.for_test(name), out)
    return out
