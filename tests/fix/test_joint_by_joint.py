"""Joint by joint (issue 41 items 2 and 4): a round that improved one joint and broke a row on another is not thrown
away whole. The joints whose own rows the re-run shows better and none worse are kept in a round of their own (their
proposals as they were, re-run to prove it), the others reverted and named; the fix then reads `partially_accepted`
and says exactly which joints it kept. Pure: verdicts built by hand over a pxr fixture; the salvage round's layer is
written for real (the re-run that proves it is the pipeline's, exercised by the physics suites)."""

from __future__ import annotations

from omni.simready.physics_validator.core.config import ValidationConfig
from omni.simready.physics_validator.core.results import AssetResult, JointRow, TestResult
from omni.simready.physics_validator.core.status import Status
from omni.simready.physics_validator.core.usd import read_asset
from omni.simready.physics_validator.fix import FixTargets
from omni.simready.physics_validator.fix.diagnose import diagnose
from omni.simready.physics_validator.fix.outcome import build_result
from omni.simready.physics_validator.fix.pipeline import _path, _salvage
from omni.simready.physics_validator.fix.rounds import Round, compare, ledger
from omni.simready.physics_validator.fix.rules import Proposal
from omni.simready.physics_validator.fix.state import AssetFix
from omni.simready.physics_validator.physics_tests import default_registry
from tests.fixtures.arms import build_arm

J1, J2 = "/Robot/joints/joint1", "/Robot/joints/joint2"
TESTS = ["velocity_limit", "full_range_sweep"]


def result(path, sweep: tuple[Status, Status], velocity: tuple[Status, Status]) -> AssetResult:
    """velocity_limit and full_range_sweep with a row per joint (joint1's, joint2's verdicts)."""
    def test(name, statuses):
        rows = [JointRow(joint=p.rsplit("/", 1)[-1], path=p, status=s, reason="" if s == Status.PASS else f"{name} failed")
                for p, s in zip((J1, J2), statuses)]
        worst = Status.FAIL if Status.FAIL in statuses else Status.PASS
        return TestResult(name=name, status=worst, joints=rows)
    return AssetResult(path=str(path), tests=[test("velocity_limit", velocity), test("full_range_sweep", sweep)])


def proposal(path: str, stiffness: float) -> Proposal:
    return Proposal(path, path.rsplit("/", 1)[-1], True, current={"stiffness": 10.0, "damping": 1.0, "maxForce": 50.0},
                    proposed={"stiffness": stiffness}, why={"stiffness": "by hand"})


def state_after_a_mixed_round(tmp_path):
    """As authored: the sweep fails on both joints, velocity_limit passes. Round 1 changes both: joint1's sweep passes,
    joint2's sweep still fails and its velocity_limit row goes PASS -> FAIL (broken)."""
    asset = build_arm(tmp_path / "arm.usda", joints=2, velocity_limit_deg=None)  # no legacy spelling to carry
    before = result(asset, (Status.FAIL, Status.FAIL), (Status.PASS, Status.PASS))
    state = AssetFix(before=before, work=tmp_path / "work", config=ValidationConfig.defaults(default_registry()), names=TESTS)
    state.diagnosis = diagnose(before, read_asset(asset), default_registry())
    state.allow = {J1: None, J2: None}
    rnd = Round(1, {J1: proposal(J1, 100.0), J2: proposal(J2, 200.0)}, {}, tmp_path / "l1", tmp_path / "c1",
                after=result(asset, (Status.PASS, Status.FAIL), (Status.PASS, Status.FAIL)))
    compare(before, rnd)
    state.rounds.append(rnd)
    return state, asset


def test_the_ledger_tells_each_changed_joints_gains_and_losses(tmp_path):
    state, _ = state_after_a_mixed_round(tmp_path)
    rnd = state.rounds[0]
    assert not rnd.clean and rnd.worth and rnd.broken == ["velocity_limit"]
    assert ledger(state.before, rnd, lambda j: _path(state, j)) == {J1: ({"full_range_sweep"}, set()),
                                                                    J2: (set(), {"velocity_limit"})}


def test_a_round_of_only_the_joints_that_improved_is_written_and_the_rest_named(tmp_path):
    state, asset = state_after_a_mixed_round(tmp_path)
    assert _salvage(state, 2, "")
    kept = state.rounds[-1]
    assert (kept.index, kept.kept_from, set(kept.proposals)) == (2, 1, {J1})
    assert kept.proposals[J1].proposed == {"stiffness": 100.0}  # as round 1 proposed it: nothing measured again
    layer = kept.layer.read_text()
    assert "joint1" in layer and "joint2" not in layer
    assert J2 in state.dropped and "velocity_limit worse" in state.reverted[J2]
    # the re-run of that round (here by hand): joint1's sweep passes, nothing that passed fails
    kept.after = result(asset, (Status.PASS, Status.FAIL), (Status.PASS, Status.PASS))
    compare(state.before, kept)
    assert kept.clean and kept.worth

    fix = build_result(state, kept, FixTargets())

    assert fix.status == "partially_accepted" and fix.accepted
    assert "kept 1 joint(s) (joint1), left 1 as authored (joint2: what their change did is named below)" in fix.summary
    assert [j.joint for j in fix.joints] == ["joint1"]
    (reverted,) = [n for n in fix.not_fixable if n.cause == "reverted"]
    assert reverted.joint == "joint2" and "velocity_limit worse with round 1's layer" in reverted.why


def test_nothing_is_salvaged_from_a_clean_round_or_one_whose_rows_blame_no_joint(tmp_path):
    state, asset = state_after_a_mixed_round(tmp_path)
    state.rounds[0].after = result(asset, (Status.PASS, Status.FAIL), (Status.PASS, Status.PASS))
    state.rounds[0].broken, state.rounds[0].regressed = [], []
    assert state.rounds[0].clean and not _salvage(state, 2, "")
    state, asset = state_after_a_mixed_round(tmp_path / "b")
    state.rounds[0].proposals.pop(J2)  # only joint1 changed: the round's rows cannot narrow it further
    assert not _salvage(state, 2, "")


def test_first_drives_are_counted_as_the_layer_holds_them(tmp_path):
    """The ViperX summary said 'first drives on 6 joints' where the layer held 5: the count is the accepted round's
    first drives, not the joints the diagnosis meant to give one."""
    asset = build_arm(tmp_path / "arm.usda", joints=2, passive=(1, 2))
    before = AssetResult(path=str(asset), tests=[TestResult(name="full_range_sweep", status=Status.SKIP)])
    state = AssetFix(before=before, work=tmp_path, config=ValidationConfig.defaults(default_registry()),
                     names=["full_range_sweep"])
    state.diagnosis = diagnose(before, read_asset(asset), default_registry())
    state.diagnosis.added = {J1, J2}
    state.allow = {}
    first = proposal(J1, 100.0)
    first.added = True
    rnd = Round(1, {J1: first}, {}, tmp_path / "l", tmp_path / "c",
                after=AssetResult(path=str(asset), tests=[TestResult(name="full_range_sweep", status=Status.PASS)]))
    compare(before, rnd)
    assert "with first drives on 1 joint(s)" in build_result(state, rnd, FixTargets()).summary


def test_a_mimic_coupling_on_a_fixed_joint_names_what_applies(tmp_path):
    """The TALOS gripper's followers are fixed joints in its URDF carrying <mimic>: the converter writes NewtonMimicAPI on
    a PhysicsFixedJoint, mimic_joint FAILs COUPLING_REJECTED, and `fix` said 'the mimic coupling's reference, which no
    drive value changes'. What applies: the joint has no degree of freedom; remove the schema, or make it the joint it is."""
    from pxr import Usd

    asset = build_arm(tmp_path / "arm.usda", joints=2, fingers="newton")
    stage = Usd.Stage.Open(str(asset))
    stage.GetPrimAtPath("/Robot/joints/finger_b_joint").SetTypeName("PhysicsFixedJoint")
    stage.GetRootLayer().Save()
    row = JointRow(joint="finger_b_joint", path="/Robot/joints/finger_b_joint", status=Status.FAIL, code="COUPLING_REJECTED",
                   reason="its NewtonMimicAPI coupling to finger_a_joint does not act")
    before = AssetResult(path=str(asset), tests=[TestResult(name="mimic_joint", status=Status.FAIL, code="JOINTS_FAILED",
                                                            joints=[row])])
    (item,) = [n for n in diagnose(before, read_asset(asset), default_registry()).not_fixable if n.joint == "finger_b_joint"]
    assert item.cause == "mimic" and "a fixed joint: it has no degree of freedom" in item.why
    assert "remove NewtonMimicAPI from it" in item.why and "reference" not in item.why.split(":")[0]


def test_a_joint_every_failing_row_of_which_a_measured_cause_explains_is_not_escalated(tmp_path):
    """joint1 sits at its actuator's rating (named for the joint as a whole): escalating its targets changes nothing its
    sweep row fails for, so no further round is measured and re-run for it; joint2's failure has no cause named."""
    from omni.simready.physics_validator.fix.causes import explained_joints
    from omni.simready.physics_validator.fix.plan import Plan

    state, asset = state_after_a_mixed_round(tmp_path)
    rated = proposal(J1, 100.0)
    rated.limits.append(("actuator_rating", "needs 61.6 N·m, rated 30 N·m"))
    state.plan = Plan(probe=None, proposals={J1: rated, J2: state.rounds[0].proposals[J2]})
    state.rounds[0].proposals[J1] = rated
    after = result(asset, (Status.FAIL, Status.FAIL), (Status.PASS, Status.PASS))
    assert explained_joints(state, after) == {J1}


def test_a_first_drive_that_improved_nothing_is_left_out_so_the_test_judges_the_joints_that_improved(tmp_path):
    """The xArm 7's joint7 is stuck as imported: its first drive makes the sweep FAIL on it (named: blocked) where the
    other joints' first drives pass. The clean round is kept, and a round without joint7 is tried: the sweep then
    judges the joints the fix improved (joint7 stays drive-less, named)."""
    asset = build_arm(tmp_path / "arm.usda", joints=2, passive=(1, 2), velocity_limit_deg=None)
    before = AssetResult(path=str(asset), tests=[TestResult(name="full_range_sweep", status=Status.SKIP)])
    state = AssetFix(before=before, work=tmp_path / "work", config=ValidationConfig.defaults(default_registry()),
                     names=["full_range_sweep"])
    state.diagnosis = diagnose(before, read_asset(asset), default_registry())
    state.allow = {J1: None, J2: None}
    first = {p: proposal(p, 100.0) for p in (J1, J2)}
    rnd = Round(1, first, {}, tmp_path / "l1", tmp_path / "c1",
                after=AssetResult(path=str(asset), tests=[TestResult(name="full_range_sweep", status=Status.FAIL, joints=[
                    JointRow(joint="joint1", path=J1, status=Status.PASS),
                    JointRow(joint="joint2", path=J2, status=Status.FAIL, reason="blocked")])]))
    compare(before, rnd)  # joint2's row named elsewhere (blocked): the round is clean
    state.rounds.append(rnd)
    assert rnd.clean and rnd.worth and rnd.worse == [("full_range_sweep", J2)]

    assert _salvage(state, 2, "")
    assert set(state.rounds[-1].proposals) == {J1} and state.rounds[-1].kept_from == 1
    assert "made full_range_sweep fail on it" in state.reverted[J2]
    assert not _salvage(state, 3, "") or set(state.rounds[-1].proposals) == {J1}  # nothing left to take out


def test_a_round_whose_layer_an_earlier_round_already_re_ran_is_not_re_run(tmp_path):
    """The TALOS arm re-ran round 1's layer as round 2 (an escalation whose values came out the same): a layer that
    says what an earlier one said, its header aside, shows nothing new."""
    from omni.simready.physics_validator.fix.outcome import write_round_layers
    from omni.simready.physics_validator.fix.pipeline import _repeats

    state, _ = state_after_a_mixed_round(tmp_path)
    state.rounds = [write_round_layers(state, 1, "", proposals={J1: proposal(J1, 100.0)})]
    assert _repeats(state, write_round_layers(state, 2, "", proposals={J1: proposal(J1, 100.0)}))
    assert not _repeats(state, write_round_layers(state, 3, "", proposals={J1: proposal(J1, 400.0)}))
