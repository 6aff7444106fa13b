"""One model of the asset (issue 31), pure logic: what the engine built replaces the USD reading's facts in the model
the tests judge by (core.runtime_model.adopt), each difference is one readback entry (disagreements), and the pieces
that read the adopted model decide by it (the pins, a coupling's chain, the one-sided limit, the coordination window).
The physics behind each fact is measured in tests/engines/conformance/test_built_model.py."""

from __future__ import annotations

import math

import pytest

from omni.simready.physics_validator.core.built_model import BuiltArticulation, from_asset
from omni.simready.physics_validator.core.runtime_model import adopt, disagreements, solver_entries
from omni.simready.physics_validator.core.scene import SceneSpec
from omni.simready.physics_validator.core.usd import read_asset
from omni.simready.physics_validator.engines.pins import held_by_another, plan_pins
from omni.simready.physics_validator.physics_tests.driven.kinematics import moved_bodies
from omni.simready.physics_validator.physics_tests.driven.motion import far_target
from omni.simready.physics_validator.physics_tests.driven.multi_joint_coordination.config import (
    MultiJointCoordinationConfig,
)
from tests.fixtures import runtime_model_assets as R


def test_the_usd_reading_of_an_arm_authored_child_to_parent_takes_its_tip_for_the_base(tmp_path):
    """The reading the runtime corrects: 'the first body that is never a joint's body1' is link6 of the reversed arm."""
    asset = read_asset(R.arm_under_an_xform_root(tmp_path / "arm.usda", reversed_joints=True))
    assert asset.articulations[0].base_body == "/Robot/link6"
    assert from_asset(asset).articulations[0].root_link == "/Robot/link6"


def _rooted_at(asset, root: str):
    """The USD reading with the runtime's articulation rooted at `root`, as an engine reports it."""
    built = from_asset(asset)
    art = built.articulations[0]
    built.articulations = [BuiltArticulation("/Robot", root, (root, *[b for b in art.links if b != root]), art.joints,
                                             fixed_base=True)]
    built.pinned = (root,)
    built.engine = "physx"
    return built


def test_adopting_the_runtime_root_moves_what_each_joint_moves_and_says_so(tmp_path):
    asset = read_asset(R.arm_under_an_xform_root(tmp_path / "arm.usda", reversed_joints=True))
    built = _rooted_at(asset, "/Robot/link3")
    model = adopt(asset, built)
    assert model.articulations[0].base_body == "/Robot/link3" and not model.articulations[0].fixed_base  # our pin
    assert asset.articulations[0].base_body == "/Robot/link6"  # the asset model itself is not changed
    joint5 = model.joints["/Robot/joints/joint5"]
    assert moved_bodies(model, joint5) == ["/Robot/link5", "/Robot/link6"]  # away from link3, the held link
    assert "/Robot/base" in moved_bodies(asset, joint5)  # away from link6: the base hung from joint5
    entries = disagreements(asset, built)
    assert [(e.property, e.authored, e.runtime, e.flag) for e in entries] == [
        ("articulation_root", "/Robot/link6", "/Robot/link3", "differs")]
    assert "link3" in entries[0].note


def test_a_coupling_the_runtime_does_not_build_is_rejected_with_its_reason_and_no_longer_a_follower(tmp_path):
    asset = read_asset(R.mimic_of_a_link(tmp_path / "link.usda", reference_is_a_joint=False))
    follower = "/Robot/joints/finger1_joint"
    assert asset.joints[follower].is_mimic_follower  # as authored
    built = from_asset(asset)
    built.couplings, built.rejected = {}, {follower: "points to prim /Robot/finger0 that is not a UsdPhysicsJoint"}
    model = adopt(asset, built)
    assert not model.joints[follower].is_mimic_follower
    assert "not a UsdPhysicsJoint" in model.joints[follower].mimic.rejected
    assert [(e.property, e.flag) for e in disagreements(asset, built)] == [("mimic", "ignored")]


def test_a_coupling_switched_off_is_no_follower_in_either_reading(tmp_path):
    asset = read_asset(R.newton_mimic_switched_off(tmp_path / "off.usda", enabled=False))
    joint = asset.joints["/Robot/joints/finger1_joint"]
    assert joint.mimic is not None and not joint.mimic.enabled and not joint.is_mimic_follower
    assert from_asset(asset).couplings == {}


def test_bodies_and_shapes_follow_the_runtime(tmp_path):
    """A trigger zone no part of the bounds; a body the runtime builds static or without gravity, as it says."""
    tote = read_asset(R.tote_with_a_trigger(tmp_path / "tote.usda", trigger=True))
    zone = tote.colliders["/Asset/Body/TriggerZone"]
    assert zone.trigger and not zone.collides
    assert [c.path for c in tote.bounding_colliders("/Asset/Body")] == ["/Asset/Body/Geom"]
    assert tote.authored_bounds()[0][2] == pytest.approx(0.5 - 0.025)
    parts = read_asset(R.box_and_a_second_part(tmp_path / "parts.usda", "no_gravity"))
    assert not parts.bodies["/Asset/Part"].gravity
    built = from_asset(parts)
    assert built.no_gravity == {"/Asset/Part"}
    built.no_gravity = frozenset()  # a runtime without a per-body switch (newton)
    assert adopt(parts, built).bodies["/Asset/Part"].gravity
    assert [(e.property, e.authored, e.runtime) for e in disagreements(parts, built)] == [("gravity", "false", "true")]


def test_one_pin_holds_an_arm_and_the_tool_mounted_on_it(tmp_path):
    asset = read_asset(R.arm_with_a_tool_articulation(tmp_path / "tool.usda", tool_is_own_articulation=True))
    articulations = from_asset(asset).articulations
    assert len(articulations) == 2
    assert held_by_another(asset, articulations) == {"/Robot/palm"}
    assert [(p.held, p.body) for p in plan_pins(asset, articulations)] == [("/Robot/base", "/Robot/base")]


def test_a_limit_on_one_side_only_gives_no_range_and_a_far_target_away_from_it(tmp_path):
    from pxr import Sdf, Usd

    from tests.fixtures.driven_arms import single_joint_robot

    path = single_joint_robot(tmp_path / "one.usda", limits=None)
    stage = Usd.Stage.Open(str(path))
    stage.GetPrimAtPath("/Robot/joints/joint").CreateAttribute("physics:upperLimit", Sdf.ValueTypeNames.Float).Set(90.0)
    stage.GetRootLayer().Save()
    joint = read_asset(path).joints["/Robot/joints/joint"]
    assert joint.one_sided == (-math.inf, pytest.approx(math.pi / 2)) and not joint.has_limits and joint.limits is None
    assert far_target(0.0, *joint.one_sided, 1.0, 2.0) == pytest.approx(-4.0)  # down, away from the upper limit
    assert far_target(0.0, None, None, 1.0, 2.0) == pytest.approx(4.0)


def test_the_coordination_window_stretches_for_a_velocity_cap():
    cfg = MultiJointCoordinationConfig()
    assert cfg.timing([(1.0, None), (0.5, math.inf)]) == (2.0, 8.0)  # no cap holds anything back: NVIDIA's timing
    ramp, window = cfg.timing([(math.radians(100.0), math.radians(10.0)), (0.1, None)])
    assert ramp == pytest.approx(15.0) and window == pytest.approx(21.0)  # 1.5 x 100 deg / (10 deg/s), + 6 s after


def test_authored_solver_counts_the_scene_replaces_are_listed(tmp_path):
    from pxr import Sdf, Usd

    path = R.arm_with_a_tool_articulation(tmp_path / "arm.usda", tool_is_own_articulation=False)
    stage = Usd.Stage.Open(str(path))
    base = stage.GetPrimAtPath("/Robot/base")
    base.AddAppliedSchema("PhysxArticulationAPI")
    base.CreateAttribute("physxArticulation:solverPositionIterationCount", Sdf.ValueTypeNames.Int).Set(4)
    stage.GetRootLayer().Save()
    entries = solver_entries(read_asset(path), SceneSpec())
    assert [(e.property, e.authored, e.runtime) for e in entries] == [("solver_position_iterations", 4, 16)]
