"""jacobian_ik (and the driven family) on the chain the runtime built (issue 40 items 4 and 7).

Item 4: an arm whose joint3 carries physics:excludeFromArticulation (it closes no loop) is built by PhysX as a 2-DOF
articulation with joint3 and joint4 ordinary (maximal) joints; rooted on its Xform, as two articulations both named by
/Robot (the build crashed: "Pattern '/Robot' did not match any articulations"). The driven tests drive the maximal
joints; jacobian_ik, which solves on the runtime's articulation Jacobian, says it cannot reach past the articulation;
Newton 1.8's importer builds another mechanism and the newton engine says so. An articulation root with
physxArticulation:articulationEnabled = false: PhysX builds none (NO_ARTICULATION, the attribute named), Newton does.

Item 7: the end effector from the articulation's tree and the joints it simulates, never a name: an arm whose every
link is named right_gripper_hand_pad_<n> is judged as its neutrally named twin; two equal branches are chosen by a site
or by robotLinks (the hint's two ways), and refused without; a six-joint arm with a gripper is an arm, and the chain
stops at the hand its coupled fingers part at.
"""

from __future__ import annotations

import pytest
from pxr import Sdf, Usd, UsdPhysics

from omni.simready.physics_validator.core.status import Status
from omni.simready.physics_validator.core.usd import read_asset
from omni.simready.physics_validator.physics_tests.driven.jacobian_ik.chain import (
    ArmTree, NoEndEffector, chain_to, find_end_effector,
)
from omni.simready.physics_validator.physics_tests.driven.jacobian_ik.config import JacobianIkConfig
from omni.simready.physics_validator.physics_tests.driven.jacobian_ik.test import JacobianIkTest
from tests.fixtures.arms import build_arm, build_two_branch_arm
from tests.fixtures.runs import require_engine, rows, run_test

ARM = {"joints": 4, "axes": ("Z", "Y", "Y", "Y")}


@pytest.fixture(scope="module")
def folder(tmp_path_factory):
    return tmp_path_factory.mktemp("chains")


def _arm(path, exclude: str | None = None, xform_root: bool = False, disabled: bool = False, **spec):
    """The 4R arm; `exclude`: that joint gets physics:excludeFromArticulation; `xform_root`: ArticulationRootAPI on
    /Robot instead of the base body; `disabled`: physxArticulation:articulationEnabled = false on the root."""
    path = build_arm(path, **{**ARM, **spec})
    stage = Usd.Stage.Open(str(path))
    root = stage.GetPrimAtPath("/Robot/base")
    if xform_root:
        root.RemoveAPI(UsdPhysics.ArticulationRootAPI)
        root = stage.GetPrimAtPath("/Robot")
        UsdPhysics.ArticulationRootAPI.Apply(root)
    if exclude:
        UsdPhysics.Joint(stage.GetPrimAtPath(f"/Robot/joints/{exclude}")).CreateExcludeFromArticulationAttr(True)
    if disabled:
        root.AddAppliedSchema("PhysxArticulationAPI")
        root.CreateAttribute("physxArticulation:articulationEnabled", Sdf.ValueTypeNames.Bool).Set(False)
    stage.Save()
    return path


def _end(path):
    asset = read_asset(path)
    art = asset.articulations[0]
    tree = ArmTree(asset, art.base_body, [asset.joints[j] for j in art.joints])
    end = find_end_effector(asset, tree)
    return end, ([link.joint.name for link in chain_to(tree.links, end.body) if link.joint.is_dof]
                 if not isinstance(end, NoEndEffector) else [])


# -- item 4: what the runtime built ----------------------------------------------------------------------------------

def test_joints_outside_the_articulation_are_driven_and_jacobian_ik_says_it_cannot_reach_them(folder):
    for path in (_arm(folder / "excluded.usda", exclude="joint3"), _arm(folder / "excluded_xform.usda", "joint3", True)):
        ik = run_test(path, "jacobian_ik", "physx")  # was ERROR TEST_RAISED (the Xform twin's build crashed)
        assert ik.status is Status.SKIP and ik.code == "CHAIN_OUTSIDE_ARTICULATION", (path.name, ik.reason)
        assert "joint3" in ik.reason and "excludeFromArticulation" in ik.reason
        assert any("Remove physics:excludeFromArticulation" in h for h in ik.fix_hints)
        sweep = run_test(path, "full_range_sweep", "physx")
        assert sweep.status is Status.PASS, (path.name, sweep.reason)
        assert {name: row.status for name, row in rows(sweep).items()} == {f"joint{n}": Status.PASS for n in range(1, 5)}
    twin = run_test(_arm(folder / "twin.usda"), "jacobian_ik", "physx")  # the hint applied: the attribute removed
    assert twin.status is Status.PASS and twin.metrics["chain_joints"] == 4, twin.reason


def test_an_articulation_the_runtime_does_not_build_is_no_articulation(folder):
    path = _arm(folder / "disabled.usda", disabled=True)
    for name in ("jacobian_ik", "full_range_sweep"):
        result = run_test(path, name, "physx")  # jacobian_ik said "no single tip", full_range_sweep FAIL exploded
        assert result.status is Status.PRECHECK_FAILURE and result.code == "NO_ARTICULATION", (name, result.reason)
        assert "physxArticulation:articulationEnabled = false on /Robot/base" in result.reason
        assert any(h.startswith("Remove physxArticulation:articulationEnabled = false") for h in result.fix_hints)


@pytest.mark.slow
def test_newton_says_it_builds_another_mechanism_and_builds_the_disabled_articulation(folder):
    require_engine("newton")
    for path in (_arm(folder / "n_excluded.usda", exclude="joint3"), _arm(folder / "n_xform.usda", "joint3", True)):
        result = run_test(path, "full_range_sweep", "newton")
        assert result.status is Status.ERROR and "Newton 1.8" in result.reason, result.reason
        assert "joint3" in result.reason and "excludeFromArticulation" in result.reason and "physx" in result.reason
    built = run_test(_arm(folder / "n_disabled.usda", disabled=True), "full_range_sweep", "newton", joints=["joint1"])
    assert built.status is Status.PASS, built.reason  # a PhysX attribute: Newton builds the articulation (one joint: time)


# -- item 7: the end effector, never a name ---------------------------------------------------------------------------

def test_link_names_decide_nothing(folder):
    named = run_test(build_arm(folder / "named.usda", link_name="right_gripper_hand_pad_", **ARM), "jacobian_ik", "physx")
    neutral = run_test(build_arm(folder / "neutral.usda", **ARM), "jacobian_ik", "physx")
    assert named.status is neutral.status is Status.PASS, (named.reason, neutral.reason)
    assert named.metrics["end_effector"] == "/Robot/right_gripper_hand_pad_4"
    assert neutral.metrics["end_effector"] == "/Robot/link4"
    for key in ("chain_joints", "targets", "targets_reached", "reach"):
        assert named.metrics[key] == pytest.approx(neutral.metrics[key]), key


def test_two_equal_branches_are_chosen_by_a_site_or_robot_links_and_refused_without(folder):
    refused, chain = _end(build_two_branch_arm(folder / "branches.usda"))
    assert isinstance(refused, NoEndEffector) and sorted(refused.tips) == ["/Robot/a3", "/Robot/b3"] and not chain
    skipped = run_test(folder / "branches.usda", "jacobian_ik", "physx")
    assert skipped.status is Status.SKIP and skipped.code == "NO_END_EFFECTOR" and "a3, b3" in skipped.reason
    assert any("isaac:physics:robotLinks" in h and "site" in h for h in skipped.fix_hints)
    site = run_test(build_two_branch_arm(folder / "site_b.usda", site_on="b"), "jacobian_ik", "physx")
    assert site.status is Status.PASS and site.metrics["end_effector"] == "/Robot/b3/tip_site", site.reason
    links = run_test(build_two_branch_arm(folder / "links_a.usda", robot_links="a"), "jacobian_ik", "physx")
    assert links.status is Status.PASS and links.metrics["end_effector"] == "/Robot/a3", links.reason
    assert {r.joint for r in links.joints if r.code == "OK"} == {"joint1", "a2", "a3"}


def test_a_six_joint_arm_with_a_gripper_is_an_arm_up_to_its_hand(folder):
    passive = build_arm(folder / "talos_like.usda", joints=6, fingers="physx", passive=(1, 2, 3, 4, 5, 6))
    assert JacobianIkTest().precheck(read_asset(passive), JacobianIkConfig()) is None  # was NOT_APPLICABLE GRIPPER
    end, chain = _end(passive)
    assert end.body == "/Robot/link6" and chain == [f"joint{n}" for n in range(1, 7)], end  # not finger_a
    assert "finger_b_joint follows finger_a_joint" in end.source
    skipped = run_test(passive, "jacobian_ik", "physx")
    assert skipped.status is Status.SKIP and skipped.code == "CHAIN_NOT_DRIVEN" and "joint1" in skipped.reason
    driven = run_test(build_arm(folder / "arm_gripper.usda", joints=6, fingers="physx"), "jacobian_ik", "physx")
    assert driven.status is Status.PASS and driven.metrics["end_effector"] == "/Robot/link6", driven.reason
    # the TALOS import: the follower a fixed joint (PhysX couples nothing); the coupling still says where the hand is
    fixed = build_arm(folder / "fixed_follower.usda", joints=6, fingers="physx")
    stage = Usd.Stage.Open(str(fixed))
    follower = stage.GetPrimAtPath("/Robot/joints/finger_b_joint")
    follower.SetTypeName("PhysicsFixedJoint")
    stage.Save()
    welded = run_test(fixed, "jacobian_ik", "physx")
    assert welded.status is Status.PASS and welded.metrics["end_effector"] == "/Robot/link6", welded.reason  # not finger_a


def test_the_command_under_a_chain_that_cannot_be_commanded_commands_it(folder):
    """CHAIN_NOT_DRIVEN's hint and the console's command: `fix --add-drives`; with jacobian_ik alone it adds the chain's
    first drives (it added none: only the other driven tests' NOTHING_TO_TEST asked for them) and the re-run passes."""
    from omni.simready.physics_validator.fix import FixTargets
    from tests.fix.helpers import run_fix

    passive = build_arm(folder / "drive_less.usda", passive=(1, 2, 3, 4), **ARM)
    skipped = run_test(passive, "jacobian_ik", "physx")
    assert skipped.code == "CHAIN_NOT_DRIVEN" and JacobianIkTest.fix_rules.fix_flags(skipped) == ["--add-drives"]
    fixed = run_fix(passive, folder / "fix_out", tests=["jacobian_ik"], targets=FixTargets(add_drives=True)).assets[0].fix
    assert fixed.status == "accepted", fixed.summary
    assert [(t.test, t.before.value, t.after.value) for t in fixed.tests] == [("jacobian_ik", "SKIP", "PASS")]


def test_a_joint_spun_past_its_limits_while_settling_is_an_explosion_not_a_kinematics_error(folder):
    """A converted Kinova given drives spun its limited joints to 1e6-1e10 degrees while its links stayed in their
    bounds: the kinematics check then blamed the joint frames (ERROR KINEMATICS_DISAGREE). The settled state is judged
    first: a joint more than its range beyond its limits is an explosion, named."""
    from types import SimpleNamespace

    import numpy as np

    from omni.simready.physics_validator.physics_tests.driven.jacobian_ik.test import runaway_joints

    asset = read_asset(build_arm(folder / "runaway.usda", **ARM))
    joints = [asset.joints[f"/Robot/joints/joint{n}"] for n in range(1, 5)]
    ctx = SimpleNamespace(config=JacobianIkConfig(), dof_index=lambda path: int(path[-1]) - 1)
    assert runaway_joints(ctx, joints, np.radians([170.0, 119.0, -119.0, 0.0])) == ""  # inside the limits
    assert runaway_joints(ctx, joints, np.radians([0.0, 300.0, 0.0, 0.0])) == ""  # 180 deg past: less than a range
    story = runaway_joints(ctx, joints, np.array([0.0, -2.7e8, np.nan, 0.0]))
    assert story.startswith("joint2 at") and "joint3 at nan" in story and "(limits -120° … 120°)" in story
