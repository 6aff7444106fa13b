"""Legacy PhysxJointAPI spellings carried per axis (issue 25): the armature as well as the velocity cap, so the fixed
asset shows no forward-compatibility warning (the fixed ant showed 8-16 per test); the fix table names the spelling a
value was authored in instead of saying "not authored" (real physx runs of a one-joint fixture)."""

from __future__ import annotations

import pytest
from pxr import Sdf, Usd

from omni.simready.physics_validator.core.config import ValidationConfig
from omni.simready.physics_validator.physics_tests import default_registry
from omni.simready.physics_validator.run.batch import validate_batch
from tests.fix.helpers import run_fix, verdicts
from tests.fixtures.driven_arms import single_joint_robot

pytestmark = pytest.mark.usefixtures("physx_available")
JOINT = "/Robot/joints/joint"
FORWARD_COMPAT = "to stay forward-compatible"  # the isaacsim-5 carry-over warning (engines/physx/legacy.py)


def test_armature_and_velocity_cap_are_carried_and_the_fixed_asset_warns_no_more(tmp_path):
    asset = single_joint_robot(tmp_path / "legacy.usda", velocity_limit=90.0)
    stage = Usd.Stage.Open(str(asset))
    stage.GetPrimAtPath(JOINT).CreateAttribute("physxJoint:armature", Sdf.ValueTypeNames.Float).Set(0.02)
    stage.Save()
    fix = run_fix(asset, tmp_path / "out", tests=["velocity_limit"]).assets[0].fix
    assert fix.status == "accepted", fix.summary
    assert "forward-compatibility warning(s) gone" in fix.summary
    (joint,) = fix.joints
    changes = {c.attribute: c for c in joint.changes}
    cap, armature = changes["physxJointAxis:angular:maxJointVelocity"], changes["physxJointAxis:angular:armature"]
    assert (cap.before, cap.before_attribute, cap.after) == (90.0, "physxJoint:maxJointVelocity", 90.0)
    assert (armature.before_attribute, armature.after) == ("physxJoint:armature", pytest.approx(0.02))
    assert verdicts(fix)["velocity_limit"][0] == "PASS"
    config = ValidationConfig.defaults(default_registry())
    config.run.isolate, config.run.video = False, False
    again = validate_batch([fix.composed], ["velocity_limit", "drive_gain_validation"], config, "physx", tmp_path / "again")
    warnings = [w for t in again.assets[0].tests for w in t.warnings]
    assert not [w for w in warnings if FORWARD_COMPAT in w], warnings
