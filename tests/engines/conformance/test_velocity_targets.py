"""Velocity drives (stiffness 0, damping > 0) commanded with joint velocity targets, on every engine.

An engine that claims `joint_velocity_targets` turns a free hinge at the commanded rate, keeps a target
given as NaN, and is back at the load's target after reset(); one that does not claim them raises."""

from __future__ import annotations

import dataclasses

import numpy as np
import pytest

from omni.simready.physics_validator.core.engine import EngineCapabilityMissing

from tests.fixtures.fake_kit import KitOnOpenStage

from . import usd_builders as ub
from .stepping import run

HINGE = "/Asset/Hinge"


def _mean_rate(engine, index: int, seconds: float) -> float:
    rates: list[float] = []
    run(engine, seconds, lambda: rates.append(float(engine.joint_velocities()[index])))
    return float(np.mean(rates))


@pytest.mark.parametrize("articulated", [True, False], ids=["articulation", "maximal"])
def test_velocity_drive_reaches_the_commanded_velocity(load, tmp_path, articulated):
    # a free (unlimited) hinge, no gravity; link inertia about the hinge ~0.12 kg m^2, damping 2.9 N m s/rad: ~0.04 s
    path = ub.hinge_arm(tmp_path / "velocity_drive.usda", articulated=articulated, stiffness_per_deg=0.0, damping_per_deg=0.05)
    engine, _ = load(path, ground=False, gravity=0.0)
    index = engine.dof_joints.index(HINGE)
    command = np.full(len(engine.dof_joints), np.nan)
    command[index] = 2.0
    if not engine.capabilities().joint_velocity_targets:
        with pytest.raises(EngineCapabilityMissing, match="velocity targets"):
            engine.set_joint_velocity_targets(command)
        return
    engine.set_joint_velocity_targets(command)
    run(engine, 0.5)
    assert _mean_rate(engine, index, 0.25) == pytest.approx(2.0, rel=0.01)

    engine.set_joint_velocity_targets(-command)  # the other way
    run(engine, 0.5)
    assert _mean_rate(engine, index, 0.25) == pytest.approx(-2.0, rel=0.01)
    engine.set_joint_velocity_targets(np.full(len(engine.dof_joints), np.nan))  # NaN keeps it
    assert _mean_rate(engine, index, 0.25) == pytest.approx(-2.0, rel=0.01)

    engine.reset()  # the load's target (the authored targetVelocity, 0): the hinge stays at rest
    assert abs(_mean_rate(engine, index, 0.5)) < 1e-3
    with pytest.raises(Exception, match="velocity targets"):
        engine.set_joint_velocity_targets(np.zeros(len(engine.dof_joints) + 1))  # a wrong-size array is refused


def test_an_engine_without_velocity_targets_refuses_them_clearly(engine, monkeypatch):
    """The capabilities record decides: with `joint_velocity_targets` off, the call raises naming the engine and why."""
    without = dataclasses.replace(engine.capabilities(), joint_velocity_targets=False)
    engine_class = type(engine.engine) if isinstance(engine, KitOnOpenStage) else type(engine)  # the double wraps it
    monkeypatch.setattr(engine_class, "CAPABILITIES", without)
    with pytest.raises(EngineCapabilityMissing, match=rf"the {engine.name} engine takes no joint velocity targets"):
        engine.set_joint_velocity_targets(np.zeros(0))
