"""The panel's Propose fix on a failing joint row (ui/fix_action.py through the view-model): a real headless physx run
finds the weak joint, the fixer proves a layer for that joint, and the layer goes onto the open stage's session layer
only — the root layer and the file stay as they were — and Remove fix takes it off. The stage is a pxr stage opened
from the file, as Kit's open stage would be; no omni import."""

from __future__ import annotations

import hashlib
import math

import pytest
from pxr import Usd

from omni.simready.physics_validator.core.status import Status
from omni.simready.physics_validator.ui.headless_runner import HeadlessRunner
from omni.simready.physics_validator.ui.rows import VerdictRow
from omni.simready.physics_validator.ui.view_model import ValidatorViewModel
from tests.fixtures.driven_arms import horizontal_arm

pytestmark = pytest.mark.usefixtures("physx_available")

JOINT = "/Robot/joints/joint"
MAX_FORCE = "drive:angular:physics:maxForce"
STIFFNESS = "drive:angular:physics:stiffness"


def _joint_rows(vm):
    return [child for row in vm.rows() for child in row.children if child.kind == "joint"]


def _only(vm, *names):
    for option in vm.tests:
        vm.set_test_enabled(option.name, option.name in names)


@pytest.fixture(scope="module")
def weak_arm_panel(tmp_path_factory):
    """The horizontal arm on a soft drive (1 N·m/rad against its 0.49 N·m gravity load: it sags 28°) rated 5 N·m:
    effort_limit FAILs its joint, and a stiffer drive within the rating fixes it (fix never raises the rating)."""
    folder = tmp_path_factory.mktemp("panel_fix")
    asset = horizontal_arm(folder / "arm.usda", max_force=5.0, stiffness=1.0, damping=0.1)
    vm = ValidatorViewModel(runner=HeadlessRunner("physx"))
    _only(vm, "effort_limit")
    vm.set_stage(str(asset), "/Robot")
    vm.validate()
    return vm, asset


def test_only_failing_joint_rows_offer_a_fix(weak_arm_panel):
    vm, _ = weak_arm_panel
    assert vm.result("effort_limit").status == Status.FAIL
    failing = [r for r in _joint_rows(vm) if r.status in ("FAIL", "WARN")]
    assert failing and all(vm.can_propose_fix(r) for r in failing)
    assert not vm.can_propose_fix(vm.rows()[0])  # the test row itself
    assert not vm.can_propose_fix(VerdictRow(test="effort_limit", name="j", status="PASS", joint="/j", kind="joint"))
    assert not vm.can_propose_fix(None)


def test_propose_fix_applies_the_proven_layer_to_the_session_layer_only_and_remove_takes_it_off(weak_arm_panel):
    vm, asset = weak_arm_panel
    row = next(r for r in _joint_rows(vm) if r.status == "FAIL")
    file_before = hashlib.sha256(asset.read_bytes()).hexdigest()
    stage = Usd.Stage.Open(str(asset))
    root_before = stage.GetRootLayer().ExportToString()
    vm.fix_stage = lambda: stage

    result = vm.propose_fix(row.test, row.joint)

    assert result.status == "accepted", result.summary
    assert {t.test: (t.before.value, t.after.value) for t in result.tests} == {"effort_limit": ("FAIL", "PASS")}
    session = list(stage.GetSessionLayer().subLayerPaths)
    assert len(session) == 1 and session[0].endswith(".fix.usda")
    proposed = stage.GetPrimAtPath(JOINT).GetAttribute(STIFFNESS).Get()  # N·m/°
    assert proposed * 180.0 / math.pi > 0.49 / math.radians(18.0)  # holds its gravity load inside the 18° allowance
    assert stage.GetPrimAtPath(JOINT).GetAttribute(MAX_FORCE).Get() == pytest.approx(5.0)  # the rating, kept
    assert "applied to the session only" in vm.message
    # the user's layers and the file are untouched
    assert stage.GetRootLayer().ExportToString() == root_before and not stage.GetRootLayer().dirty
    assert hashlib.sha256(asset.read_bytes()).hexdigest() == file_before

    vm.remove_fix()
    assert list(stage.GetSessionLayer().subLayerPaths) == []
    assert stage.GetPrimAtPath(JOINT).GetAttribute(STIFFNESS).Get() == pytest.approx(math.pi / 180.0, rel=1e-4)  # 1 N·m/rad
    assert vm.message == "fix removed from the session"


def test_propose_fix_without_an_open_stage_says_where_the_layer_is(weak_arm_panel):
    vm, _ = weak_arm_panel
    vm.fix_stage = None
    row = next(r for r in _joint_rows(vm) if r.status == "FAIL")
    result = vm.propose_fix(row.test, row.joint)
    assert result.status == "accepted"
    assert vm.message.startswith("fix proposed (no open stage to apply it to)") and result.layer in vm.message
