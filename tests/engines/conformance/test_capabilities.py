"""Every engine's capabilities() against what it really does, on pxr-built assets with known answers.

A claimed read returns the runtime's value of the right shape and size; an unclaimed one raises
EngineCapabilityMissing. A claimed one-joint setter moves the joint; the revolute target bound is where the
runtime really stops accepting targets; a claimed actuator schema really drives its joint, an unclaimed one
does not. (Velocity targets: test_velocity_targets.py.)"""

from __future__ import annotations

import math

import numpy as np
import pytest
from pxr import Sdf, Usd

from omni.simready.physics_validator.core.engine import EngineCapabilities, EngineCapabilityMissing
from omni.simready.physics_validator.core.scene import SceneSpec
from omni.simready.physics_validator.core.usd import read_asset
from tests.fixtures.arms import ArmSpec, build_arm

from . import usd_builders as ub
from .stepping import run

HINGE = "/Asset/Hinge"
# hinge_arm's link: a 1 kg box 0.5 x 0.02 x 0.02 m hinged at its end, its centre 0.25 m from the axis (Y)
LINK_INERTIA = 1.0 / 12.0 * (0.5**2 + 0.02**2) + 1.0 * 0.25**2  # kg m^2


def _claimed_or_missing(claimed: bool, read):
    """The read's value when the engine claims it; None (after checking it raises) when it does not."""
    if claimed:
        return read()
    with pytest.raises(EngineCapabilityMissing, match="EngineCapabilities"):
        read()
    return None


def test_the_record_is_typed_and_frozen(engine):
    caps = engine.capabilities()
    assert isinstance(caps, EngineCapabilities)
    assert isinstance(caps.simulated_actuator_schemas, frozenset)
    assert caps.revolute_target_bound > 0
    with pytest.raises(AttributeError):
        caps.joint_velocity_targets = not caps.joint_velocity_targets  # type: ignore[misc]


def test_runtime_reads_are_there_exactly_when_claimed(load, tmp_path):
    path = ub.hinge_arm(tmp_path / "reads.usda", stiffness_per_deg=1.0, damping_per_deg=0.05, max_force=50.0,
                        max_velocity_deg=90.0, limits_deg=(-90.0, 90.0))
    engine, _ = load(path, ground=False, gravity=0.0)
    caps = engine.capabilities()
    n, i = len(engine.dof_joints), engine.dof_joints.index(HINGE)

    limits = _claimed_or_missing(caps.reads_joint_limits, engine.joint_limits)
    if limits is not None:
        assert np.shape(limits) == (n, 2)
        assert np.degrees(limits[i]) == pytest.approx([-90.0, 90.0], abs=1e-3)
    gains = _claimed_or_missing(caps.reads_drive_gains, engine.drive_gains)
    if gains is not None:
        per_degree = 180.0 / math.pi  # USD authors gains per degree; the read is per radian
        assert gains["stiffness"][i] == pytest.approx(1.0 * per_degree, rel=1e-4)
        assert gains["damping"][i] == pytest.approx(0.05 * per_degree, rel=1e-4)
        assert gains["max_force"][i] == pytest.approx(50.0, rel=1e-4)
        assert all(np.shape(v) == (n,) for v in gains.values())
    caps_read = _claimed_or_missing(caps.reads_joint_velocity_limits, engine.joint_velocity_limits)
    if caps_read is not None:
        assert np.shape(caps_read) == (n,)
        assert math.degrees(caps_read[i]) == pytest.approx(90.0, rel=1e-3)
    matrix = _claimed_or_missing(caps.reads_mass_matrix, engine.mass_matrix)
    if matrix is not None:
        assert np.shape(matrix) == (n, n)
        assert matrix[i, i] == pytest.approx(LINK_INERTIA, rel=0.01)
    masses = _claimed_or_missing(caps.reads_body_masses, engine.body_masses)
    if masses is not None:
        assert masses["/Asset/Link"] == pytest.approx(1.0, rel=1e-4)

    engine.step()  # the runtime readback reads a stepped scene (run/readback.py)
    values = _claimed_or_missing(caps.reads_runtime_values, engine.runtime_values)
    if values is not None:
        assert values.engine == engine.name
        assert set(values.joints) == {HINGE} and set(values.bodies) >= {"/Asset/Link"}

    described = engine.describe()
    assert described["name"] == engine.name and described["version"] == engine.version
    assert bool(described.get("components")) == caps.describes_components


def test_single_joint_position_target_moves_only_that_joint(load, tmp_path):
    engine, _ = load(ub.hinge_arm(tmp_path / "one.usda", stiffness_per_deg=1.0, damping_per_deg=0.05), ground=False, gravity=0.0)
    if not engine.capabilities().single_joint_position_targets:
        pytest.skip(f"{engine.name} commands joints through full target arrays only")
    i = engine.dof_joints.index(HINGE)
    engine.set_joint_position_target(i, math.radians(30.0))
    engine.set_joint_position_target(i, float("nan"))  # NaN keeps it
    run(engine, 1.5)
    assert math.degrees(engine.joint_positions()[i]) == pytest.approx(30.0, abs=0.3)


def test_revolute_target_bound_is_where_the_runtime_stops_accepting(load, tmp_path):
    """An unlimited hinge reaches a target of 3 rad everywhere; a target past a finite bound is refused (the old one
    stands, the hinge stays still), while an engine without a bound takes 7 rad (the pb_r2d2 case) and moves."""
    engine, _ = load(ub.hinge_arm(tmp_path / "free.usda", stiffness_per_deg=1.0, damping_per_deg=0.05), ground=False, gravity=0.0)
    bound = engine.capabilities().revolute_target_bound
    i = engine.dof_joints.index(HINGE)
    targets = np.full(len(engine.dof_joints), np.nan)
    targets[i] = 3.0
    engine.set_joint_position_targets(targets)
    run(engine, 1.5)
    assert engine.joint_positions()[i] == pytest.approx(3.0, abs=0.01)

    engine.reset()
    engine.step()  # physx: before the first step a target goes through the session API, which raises instead
    targets[i] = bound + 0.7 if math.isfinite(bound) else 7.0
    engine.set_joint_position_targets(targets)
    rates: list[float] = []
    run(engine, 0.25, lambda: rates.append(abs(float(engine.joint_velocities()[i]))))
    if math.isfinite(bound):
        assert max(rates) < 0.01 and abs(engine.joint_positions()[i]) < 0.01  # refused: the load's target (0) stands
    else:
        assert max(rates) > 1.0  # taken: the drive turns the hinge toward it


def _add_newton_actuator(path, joint: str, kp: float, kd: float) -> None:
    stage = Usd.Stage.Open(str(path))
    prim = stage.DefinePrim("/Robot/actuator1", "NewtonActuator")
    prim.CreateRelationship("newton:targets").SetTargets([joint])
    prim.AddAppliedSchema("NewtonPDControlAPI")
    prim.CreateAttribute("newton:kp", Sdf.ValueTypeNames.Float).Set(kp)
    prim.CreateAttribute("newton:kd", Sdf.ValueTypeNames.Float).Set(kd)
    stage.GetRootLayer().Save()


def test_an_actuator_drives_its_joint_exactly_where_its_schema_is_simulated(engine, tmp_path):
    """A joint with no DriveAPI, targeted only by a NewtonActuator PD: it follows a target on engines that claim
    NewtonActuator, and nothing moves it on the others."""
    path = build_arm(tmp_path / "arm.usda", ArmSpec(joints=1, passive=(1,), velocity_limit_deg=None))
    _add_newton_actuator(path, "/Robot/joints/joint1", kp=0.5,
                         kd=0.02)  # explicit PD: stable for the link's 2e-4 kg m^2 at 240 Hz
    asset = read_asset(path)
    assert asset.joints["/Robot/joints/joint1"].actuator_schemas == ["NewtonActuator"]
    engine.load(asset, SceneSpec(pin_base=True, gravity=0.0))
    engine.set_joint_position_targets(np.array([math.radians(30.0)]))
    run(engine, 1.5)
    moved = math.degrees(engine.joint_positions()[0])
    if "NewtonActuator" in engine.capabilities().simulated_actuator_schemas:
        assert moved == pytest.approx(30.0, abs=1.0)
    else:
        assert abs(moved) < 0.5


def test_outer_bounds_and_one_body_pose_are_there_exactly_when_claimed(load, tmp_path):
    """A claimed outer box holds the exact one, in every pose the arm swings through; a claimed one-body pose is
    body_poses()'s entry; unclaimed, both raise."""
    engine, _ = load(ub.hinge_arm(tmp_path / "outer.usda", stiffness_per_deg=0.0, damping_per_deg=0.0), ground=False)
    caps = engine.capabilities()
    for _ in range(60):
        engine.step()
        outer = _claimed_or_missing(caps.outer_bounds, engine.outer_bounds)
        if outer is None:
            break
        lo, hi = engine.bounds()
        assert np.all(outer[0] <= lo + 1e-9) and np.all(outer[1] >= hi - 1e-9)
    pose = _claimed_or_missing(caps.single_body_pose, lambda: engine.body_pose("/Asset/Link"))
    if pose is not None:
        expected = engine.body_poses()["/Asset/Link"]
        np.testing.assert_allclose(pose[0], expected[0])
        np.testing.assert_allclose(pose[1], expected[1])
        assert engine.body_pose("/Asset/NoSuchBody") is None
