"""Each proposal rule, proved on a real engine run (physx = ovphysx, the default) of a one-joint fixture.

Tolerances (stated in docs/fix.md, "Proposal rules"): the natural frequency the re-run shows is within 5 % of the
target f_n; the damping ratio estimated from the re-run's step response (log decrement of the first two peaks, or
overshoot -> zeta) is within 0.05 of the target; critical damping (the default) overshoots by under 1 %.
"""

from __future__ import annotations

import math

import pytest
from pxr import Sdf

from omni.simready.physics_validator.core.usd import read_asset
from omni.simready.physics_validator.fix import FixTargets
from omni.simready.physics_validator.fix.layers import UsdUnits
from tests.fix.helpers import (
    assert_fixed_and_nothing_broken, damped_oscillation, run_fix, step_response, verdicts, zeta_from_overshoot,
)
from tests.fixtures.driven_arms import horizontal_arm, single_joint_robot, turntable

pytestmark = pytest.mark.usefixtures("physx_available")

JOINT = "/Robot/joints/joint"
STEP = 0.2  # rad: the re-run's step, well inside the ±170° range
OMEGA_TOL, ZETA_TOL = 0.05, 0.05
# the turntable's gain tests: no gravity load about its axis, so K is the natural-frequency floor I (2 pi f_n)²
SOFT = dict(stiffness=0.5, damping=0.05)  # N·m/rad, N·m·s/rad: full_range_sweep FAILs, drive_gain_validation WARNs
GAIN_TESTS = ["full_range_sweep", "drive_gain_validation"]


def soft_turntable_fix(tmp_path, zeta: float):
    asset = turntable(tmp_path / "soft_turntable.usda", **SOFT)
    report = run_fix(asset, tmp_path / "out", tests=GAIN_TESTS, targets=FixTargets(damping_ratio=zeta))
    fix = report.assets[0].fix
    assert_fixed_and_nothing_broken(fix)
    return fix


def test_stiffness_meets_the_natural_frequency_target_and_damping_its_ratio(tmp_path):
    """Target f_n = 5 Hz, zeta = 0.3 (underdamped, so the re-run rings): period and decrement of the step response."""
    fix = soft_turntable_fix(tmp_path, 0.3)
    (joint,) = fix.joints
    assert {c.attribute.rsplit(":", 1)[-1] for c in joint.changes} == {"stiffness", "damping"}
    assert joint.measured["omega_n"] == pytest.approx(2 * math.pi * 5.0, rel=1e-6)  # K = I w² exactly
    zeta, omega = damped_oscillation(step_response(fix.composed, JOINT, STEP))
    assert omega == pytest.approx(2 * math.pi * 5.0, rel=OMEGA_TOL)
    assert zeta == pytest.approx(0.3, abs=ZETA_TOL)


@pytest.mark.parametrize("zeta", [0.6, 1.0])
def test_damping_ratio_from_the_step_response_overshoot(tmp_path, zeta):
    fix = soft_turntable_fix(tmp_path, zeta)
    error = step_response(fix.composed, JOINT, STEP)
    if zeta < 1.0:
        assert zeta_from_overshoot(error, STEP) == pytest.approx(zeta, abs=ZETA_TOL)
    else:  # critically damped: no overshoot to speak of, and it has arrived within 0.5 s (~2.5 / omega_n)
        assert error.max() < 0.01 * STEP
        assert abs(error[int(0.5 * 240)]) < 0.02 * STEP


def test_max_force_has_margin_over_the_peak_gravity_load_and_the_joint_holds(tmp_path):
    """The horizontal arm (0.5 kg at 0.1 m: m g r = 0.4905 N·m at the held pose) with maxForce 0.1 N·m sags and gives
    way; the probe measures the gravity load through the engine, maxForce = 1.5 x (peak load + I x sweep accel) or
    1.5 x (held load + effort_limit's 10 N on its lever), and effort_limit passes with it."""
    asset = horizontal_arm(tmp_path / "weak_force.usda", max_force=0.1)
    fix = run_fix(asset, tmp_path / "out", targets=FixTargets(raise_max_force=True)).assets[0].fix
    assert_fixed_and_nothing_broken(fix)
    assert verdicts(fix)["effort_limit"] == ("FAIL", "PASS")
    (joint,) = fix.joints
    m = joint.measured
    assert m["load_hold"] == pytest.approx(0.5 * 9.81 * 0.1, rel=0.1)
    max_force = next(c.after for c in joint.changes if c.attribute.endswith("maxForce"))  # N·m (USD = SI here)
    assert max_force >= 1.5 * m["load_max"] * 0.999  # margin over the peak gravity load over the range
    assert max_force >= 1.5 * (m["load_hold"] + m["test_load"]) * 0.999  # and over the held + effort_limit load
    assert max_force == pytest.approx(m["max_force_required"], rel=1e-3)
    composed = read_asset(fix.composed).joints[JOINT]
    assert composed.drive.max_force == pytest.approx(max_force, rel=1e-4)
    assert composed.drive.stiffness == pytest.approx(UsdUnits().to_si("stiffness", joint.changes[0].after, True), rel=1e-4)


def test_legacy_velocity_limit_is_carried_to_the_per_axis_spelling(tmp_path):
    """physxJoint:maxJointVelocity = 90°/s is not parsed by PhysX 5.12 (physx.target=latest): velocity_limit FAILs
    "the engine enforces no cap"; the layer authors physxJointAxis:angular:maxJointVelocity = 90 with its API."""
    asset = single_joint_robot(tmp_path / "legacy.usda", velocity_limit=90.0)
    fix = run_fix(asset, tmp_path / "out", tests=["velocity_limit"], sets=["physx.target=latest"]).assets[0].fix
    assert verdicts(fix) == {"velocity_limit": ("FAIL", "PASS")}
    (joint,) = fix.joints
    (change,) = joint.changes
    assert (change.attribute, change.before, change.after) == ("physxJointAxis:angular:maxJointVelocity", 90.0, 90.0)
    assert change.before_attribute == "physxJoint:maxJointVelocity"  # authored, in the legacy spelling
    from pxr import Usd

    stage = Usd.Stage.Open(fix.layer)
    layer_only = stage.GetPrimAtPath(JOINT)  # the layer alone: an over with the API prepended
    assert layer_only.GetSpecifier() == Sdf.SpecifierOver
    assert "PhysxJointAxisAPI:angular" in layer_only.GetMetadata("apiSchemas").GetAddedOrExplicitItems()
    composed = Usd.Stage.Open(fix.composed)
    prim = composed.GetPrimAtPath(JOINT)
    assert prim.GetAttribute("physxJointAxis:angular:maxJointVelocity").Get() == pytest.approx(90.0)
    assert prim.GetAttribute("physxJoint:maxJointVelocity").Get() == pytest.approx(90.0)  # the authored one stays
    assert "PhysxJointAxisAPI:angular" in prim.GetPrimTypeInfo().GetAppliedAPISchemas()
