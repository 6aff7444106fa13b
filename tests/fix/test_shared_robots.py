"""A shared robot with every drive weakened (tests/fixtures/weak_drives.py: the generic overlay at 2 % stiffness, no
damping, 10 % maxForce): the KUKA iiwa's failing sweep and step response PASS with the accepted layer and nothing that
passed fails (real physx runs of all five tests; the robot's folder is byte-identical afterwards)."""

from __future__ import annotations

import pytest

from omni.simready.physics_validator.fix import FixTargets
from tests.fix.helpers import assert_fixed_and_nothing_broken, run_fix, tree_digest, verdicts
from tests.fixtures.weak_drives import ROBOTS, weak_overlay

pytestmark = pytest.mark.usefixtures("physx_available")


def test_weak_kuka_is_fixed_and_nothing_that_passed_fails(tmp_path, shared_assets):
    robot = ROBOTS["kuka"]
    before = tree_digest(robot.parent)
    # the weak overlay's maxForce (10 % of the rated effort) is below the gravity load: raised only when asked
    fix = run_fix(weak_overlay(robot, tmp_path, "kuka"), tmp_path / "out", targets=FixTargets(raise_max_force=True)).assets[0].fix
    assert {t for t, (b, _) in verdicts(fix).items() if b in ("FAIL", "WARN")} >= {"full_range_sweep", "drive_gain_validation"}
    assert_fixed_and_nothing_broken(fix)
    tuned = {j.joint for j in fix.joints if any(not c.attribute.startswith("physxJointAxis") for c in j.changes)}
    assert "lbr_iiwa_joint_2" in tuned  # the gravity-loaded shoulder
    for joint in fix.joints:  # the per-axis spelling the runtime parses, carried from the overlay's legacy attribute
        assert any(c.attribute == "physxJointAxis:angular:maxJointVelocity" for c in joint.changes), joint.joint
    assert tree_digest(robot.parent) == before
