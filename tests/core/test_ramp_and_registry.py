"""The ramp's geometry (core.ramp) and selecting tests by feature family (--tests FET022), feature IDs as tier-core 2026.8 names
them."""

from __future__ import annotations

import math

import numpy as np
import pytest

from omni.simready.physics_validator.core.feature_ids import feature_for_engine, is_legacy
from omni.simready.physics_validator.core.plugin import UnknownTestError
from omni.simready.physics_validator.core.results import TestResult
from omni.simready.physics_validator.core.status import Status
from omni.simready.physics_validator.core.ramp import RampSpec, placement_on, ramp_for
from omni.simready.physics_validator.physics_tests import default_registry


def test_the_ramp_surface_and_its_box_agree():
    ramp = RampSpec(angle_deg=45.0, top_height=1.0, top_y=0.0)
    assert ramp.surface_z(0.0) == pytest.approx(1.0) and ramp.bottom_y == pytest.approx(1.0)
    assert ramp.signed_distance([[0.0, 0.5, 0.5]])[0] == pytest.approx(0.0)
    assert ramp.signed_distance([[0.0, 0.5, 0.6]])[0] == pytest.approx(0.1 * math.cos(math.radians(45)))
    # the box's top face centre lies on the surface, and its +Z axis is the surface normal
    from omni.simready.physics_validator.core.geometry import quat_to_matrix

    top = ramp.box_center + quat_to_matrix(ramp.box_quat)[:, 2] * ramp.box_half_extents[2]
    assert ramp.signed_distance([top])[0] == pytest.approx(0.0, abs=1e-9)
    assert np.allclose(quat_to_matrix(ramp.box_quat)[:, 2], ramp.normal)


def test_the_asset_starts_clear_above_the_ramp():
    ramp = ramp_for(0.3)
    lo, hi = np.array([-0.15, -0.15, 0.0]), np.array([0.15, 0.15, 0.05])
    (x, y), bottom = placement_on(ramp, lo, hi, clearance=0.1, margin=0.05)
    assert ramp.length == pytest.approx(2.0) and y == pytest.approx(0.2)
    assert bottom == pytest.approx(float(ramp.surface_z(0.05)) + 0.1)


def test_tests_are_selected_by_feature_family():
    registry = default_registry()
    driven = [t.name for t in registry.select(["FET022"])]
    assert {"velocity_limit", "state_accuracy", "mimic_joint", "multi_joint_coordination"} <= set(driven)
    assert [t.name for t in registry.select(["FET004"])] == ["joint_movement"]
    assert [t.name for t in registry.select(["FET_028"])] == ["gripper_close_lift_sphere", "gripper_close_lift_cube"]
    assert [t.name for t in registry.select(["FET005"])] == ["grasp_and_lift"]
    assert {t.name for t in registry.select(["FET_003"])} == {"ground_drop", "slope_drop", "ground_stability"}
    assert [t.name for t in registry.select(["slope_drop", "FET003"])] == ["slope_drop", "ground_drop", "ground_stability"]
    with pytest.raises(UnknownTestError, match="feature families: FET_003, FET_004, FET_005, FET_022, FET_028"):
        registry.select(["FET999"])


def test_features_carry_tier_core_2026_8_names_and_old_names_are_read_with_a_notice():
    """Every built-in declares the new IDs only; an old ID selects what its new one does, and says so."""
    registry = default_registry()
    declared = {f for _name, test in registry.items() for f in test.features}
    assert declared and all(f.startswith("FET_") for f in declared), declared
    assert not any(is_legacy(f) for f in declared)
    new = [t.name for t in registry.select(["FET_022_PHYSX"])]
    assert [t.name for t in registry.select(["FET022_DRIVEN_JOINTS_PHYSX"])] == new and "velocity_limit" in new
    assert [t.name for t in registry.select(["fet004_robot_physx"])] == ["joint_movement"]
    notices = registry.legacy_notices(["FET022_DRIVEN_JOINTS_PHYSX", "FET_003", "ground_drop"])
    assert len(notices) == 1 and "FET022_DRIVEN_JOINTS_PHYSX" in notices[0] and "FET_022_PHYSX" in notices[0]
    # a result read back from an old report or cache entry carries the new names
    old = TestResult(name="ground_drop", status=Status.PASS, features=["FET003_BASE_PHYSX"])
    assert old.features == ["FET_003_PHYSX"]
    assert feature_for_engine(["FET_022_PHYSX", "FET_022_NEWTON", "FET_022_ISAAC"], "newton") == "FET_022_NEWTON"
    assert feature_for_engine(["FET_022_PHYSX", "FET_022_NEWTON"], "physx") == "FET_022_PHYSX"
    assert feature_for_engine(["FET_028_ISAAC"], "newton") == "FET_028_ISAAC"


def test_a_test_that_runs_only_when_asked_for_is_left_out_of_the_default_selection():
    """ik_target_reach SKIPs wherever we run, ground_stability is a stricter optional check (issue 43): a plain run
    leaves both out; the name or the feature selects each."""
    registry = default_registry()
    default = [t.name for t in registry.select(None)]
    asked_only = {"ik_target_reach", "ground_stability"}
    assert not asked_only & set(default) and "jacobian_ik" in default and len(default) == len(registry) - len(asked_only)
    assert [t.name for t in registry.select(["ground_stability"])] == ["ground_stability"]
    assert [t.name for t in registry.select(["ik_target_reach"])] == ["ik_target_reach"]
    assert "ik_target_reach" in [t.name for t in registry.select(["FET_022_PHYSX"])]
