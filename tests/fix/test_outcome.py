"""Every failure a fix leaves is said with its cause: a ground_drop failure is not the drives' (`not_drive`), and a
joint still failing when no layer was accepted is `not_fixed` with the round that was tried (seen on the corpus:
rejected assets listed failing verdicts with no cause). Pure: verdicts built by hand over a pxr fixture, no engine."""

from __future__ import annotations

from pathlib import Path

from omni.simready.physics_validator.core.config import ValidationConfig
from omni.simready.physics_validator.core.results import AssetResult, JointRow, TestResult
from omni.simready.physics_validator.core.status import Status
from omni.simready.physics_validator.core.usd import read_asset
from omni.simready.physics_validator.fix import FixTargets
from omni.simready.physics_validator.fix.diagnose import diagnose
from omni.simready.physics_validator.fix.outcome import build_result
from omni.simready.physics_validator.fix.rounds import Round, compare
from omni.simready.physics_validator.fix.state import AssetFix
from omni.simready.physics_validator.physics_tests import default_registry
from tests.fixtures.driven_arms import horizontal_arm

JOINT = "/Robot/joints/joint"


def _result(path: Path, drop: Status, effort: Status) -> AssetResult:
    row = JointRow(joint="joint", path=JOINT, status=effort,
                   reason="gave way 12° from its held pose > 18°" if effort != Status.PASS else "")
    return AssetResult(path=str(path), tests=[
        TestResult(name="ground_drop", status=drop, reason="did not settle: 0.4 m/s > 0.05 m/s" if drop != Status.PASS else ""),
        TestResult(name="effort_limit", status=effort, joints=[row]),
    ])


def test_a_ground_drop_failure_is_not_the_drives(tmp_path):
    asset = horizontal_arm(tmp_path / "arm.usda")
    found = diagnose(_result(asset, Status.FAIL, Status.PASS), read_asset(asset), default_registry())
    (item,) = [n for n in found.not_fixable if n.test == "ground_drop"]
    assert item.cause == "not_drive" and "did not settle" in item.why
    assert not found.drive  # nothing to tune for it


def test_a_joint_still_failing_when_no_layer_was_accepted_is_not_fixed_with_the_round_tried(tmp_path):
    asset = horizontal_arm(tmp_path / "arm.usda", max_force=0.1)
    before = _result(asset, Status.PASS, Status.FAIL)
    state = AssetFix(before=before, work=tmp_path, config=ValidationConfig.defaults(default_registry()),
                     names=["ground_drop", "effort_limit"])
    state.diagnosis = diagnose(before, read_asset(asset), default_registry())
    assert JOINT in state.diagnosis.drive
    state.allow = {JOINT: object()}
    tried = Round(1, {}, {}, tmp_path / "l", tmp_path / "c", after=_result(asset, Status.PASS, Status.FAIL))
    compare(before, tried)
    state.rounds.append(tried)

    result = build_result(state, None, FixTargets())

    assert result.status == "rejected"
    (item,) = [n for n in result.not_fixable if n.cause == "not_fixed"]
    assert (item.joint, item.test) == ("joint", "effort_limit")
    assert "round 1" in item.why and "no layer accepted" in item.why and "gave way" in item.why
    assert "not_fixed" in result.summary


def test_an_asset_whose_tests_cannot_run_is_not_fixable_without_a_round(tmp_path):
    """anymal_c / go1 of the corpus: every test a PRECHECK_FAILURE, yet the legacy velocity spelling was carried in
    a round whose re-run could prove nothing, and the fix read 'rejected'."""
    from pxr import Usd, UsdPhysics

    from tests.fix.helpers import run_fix

    asset = horizontal_arm(tmp_path / "arm.usda", velocity_limit=90.0)
    stage = Usd.Stage.Open(str(asset))
    UsdPhysics.MassAPI(stage.GetPrimAtPath("/Robot/child")).GetMassAttr().Set(float("nan"))
    stage.GetRootLayer().Save()

    fix = run_fix(asset, tmp_path / "out").assets[0].fix

    assert {t.before for t in fix.tests} <= {Status.PRECHECK_FAILURE, Status.NOT_APPLICABLE}
    assert (fix.status, fix.rounds, fix.layer) == ("not_fixable", 0, ""), fix.summary
    assert "no test could run" in fix.summary
    assert {n.cause for n in fix.not_fixable} == {"precheck"}


def test_an_asset_where_no_test_applies_has_nothing_to_fix(tmp_path):
    """Not one that could not run: every test NOT_APPLICABLE is nothing to fix, not 'not fixable'."""
    from omni.simready.physics_validator.fix.pipeline import _prepare

    asset = horizontal_arm(tmp_path / "arm.usda")
    before = AssetResult(path=str(asset), tests=[TestResult(name=n, status=Status.NOT_APPLICABLE)
                                                 for n in ("ground_drop", "effort_limit")])
    state = AssetFix(before=before, work=tmp_path, config=ValidationConfig.defaults(default_registry()),
                     names=["ground_drop", "effort_limit"])
    _prepare(state, set(), FixTargets())
    assert (state.done, state.status) == (True, "nothing_to_fix"), state.summary
