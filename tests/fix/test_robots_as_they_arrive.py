"""Robots as they arrive (issue 25), real physx runs on the shared robots:

- drive-less (the KUKA iiwa as converted from URDF: no DriveAPI, a rated effort in `urdf:limit:effort`):
  `fix --add-drives` writes a layer whose re-run takes the driven-joint tests from SKIP to PASS, or names per joint
  why not; every first drive's maxForce is the rated effort, never above it;
- without the flag, `fix` on a drive-less robot says what to do and exits 1 (nothing done), with no empty lines;
- the UR5 with weak drives: `fix` keeps every maxForce at its authored value (the actuator's rating) and reports the
  shoulder's needed torque against it instead of raising it.
"""

from __future__ import annotations

import subprocess
import sys

import pytest
from pxr import Usd

from omni.simready.physics_validator.core.usd import read_asset
from tests.fix.helpers import run_fix, tree_digest, verdicts
from tests.fixtures.weak_drives import ROBOTS, weak_overlay

pytestmark = pytest.mark.usefixtures("physx_available")
JOINT_TESTS = ("velocity_limit", "full_range_sweep", "drive_gain_validation", "effort_limit")


def test_add_drives_takes_a_drive_less_robot_from_skip_to_judged_within_its_rated_effort(tmp_path, shared_assets):
    from omni.simready.physics_validator.fix import FixTargets

    robot = ROBOTS["kuka"]
    before = tree_digest(robot.parent)
    fix = run_fix(robot, tmp_path / "out", targets=FixTargets(add_drives=True)).assets[0].fix
    assert fix.status == "accepted", fix.summary
    seen = verdicts(fix)
    assert all(seen[t][0] == "SKIP" for t in JOINT_TESTS), seen
    passing = [t for t in JOINT_TESTS if seen[t][1] == "PASS"]
    assert len(passing) >= 3, seen  # measured: sweep, step response and load PASS; velocity_limit names its joint
    for test in set(JOINT_TESTS) - set(passing):  # per joint, why not
        named = [n for n in fix.not_fixable if n.test == test and n.joint]
        assert named and all(n.why for n in named), (test, fix.not_fixable)
    asset = read_asset(robot)
    stage = Usd.Stage.Open(fix.composed)
    assert len(fix.joints) == 7
    for joint in fix.joints:
        changes = {c.attribute: c for c in joint.changes}
        assert {"PhysicsDriveAPI:angular", "drive:angular:physics:stiffness", "drive:angular:physics:damping",
                "drive:angular:physics:maxForce"} <= set(changes)
        rated = asset.joints[joint.path].effort_limit
        assert changes["drive:angular:physics:maxForce"].after == rated == 300.0  # urdf:limit:effort, not exceeded
        assert not changes["drive:angular:physics:maxForce"].assumed
        prim = stage.GetPrimAtPath(joint.path)
        assert "PhysicsDriveAPI:angular" in prim.GetAppliedSchemas()
        assert prim.GetAttribute("drive:angular:physics:type").Get() == "force"
    composed = read_asset(fix.composed)
    assert all(composed.joints[j.path].drive.active for j in fix.joints)
    assert tree_digest(robot.parent) == before  # the robot's folder is never written


def test_fix_without_add_drives_says_what_to_do_and_exits_1(tmp_path, shared_assets):
    proc = subprocess.run([sys.executable, "-m", "omni.simready.physics_validator.cli", "fix", str(ROBOTS["ur5"]),
                           "--out", str(tmp_path / "out"), "--tests", "full_range_sweep,effort_limit"],
                          capture_output=True, text=True, timeout=600)
    assert proc.returncode == 1, proc.stderr  # nothing was done: not a green run
    lines = proc.stdout.splitlines()
    assert lines[0].startswith("fix erd_ur5/ur5.usda: not_fixable — nothing done: the driven-joint tests skip joints that "
                               "have no drive; `simready-physics fix --add-drives` proposes first drives")
    assert lines[1] == "    tests: full_range_sweep SKIP  effort_limit SKIP"
    assert lines[2].startswith("    time: ") and " s (validate as authored " in lines[2]
    assert lines[3].startswith("    no drive: 6 joint(s) have no drive (shoulder_pan_joint, shoulder_lift_joint, elbow_joint,")
    assert not any(line.rstrip().endswith("|") for line in lines) and "rejected" not in proc.stdout
    assert not list((tmp_path / "out").glob("*.fix.usda"))  # no layer for nothing


def test_weak_ur5_reports_the_shoulders_need_against_its_rating_instead_of_raising_it(tmp_path, shared_assets):
    weak = weak_overlay(ROBOTS["ur5"], tmp_path, "ur5")  # the generic overlay at 2 % stiffness, no damping, 10 % maxForce
    authored = {p: j.drive.max_force for p, j in read_asset(weak).joints.items() if j.drive is not None}
    fix = run_fix(weak, tmp_path / "out").assets[0].fix
    rated = {n.joint: n.why for n in fix.not_fixable if n.cause == "actuator_rating"}
    assert rated["shoulder_lift_joint"].startswith("needs ")
    need = float(rated["shoulder_lift_joint"].split()[1])
    assert need > 100.0  # 1.5 x its gravity + sweep load (about 87 N·m measured)
    expected = "rated 15 N·m (drive:angular:physics:maxForce): kept at the rating; pass --raise-max-force"
    assert expected in rated["shoulder_lift_joint"]
    for joint in fix.joints:  # no maxForce above the authored value
        for change in joint.changes:
            if change.attribute.endswith("maxForce"):
                assert change.after <= authored[joint.path] * 1.000001, (joint.joint, change)
    if fix.composed:
        composed = read_asset(fix.composed).joints
        assert all(composed[p].drive.max_force <= f * 1.000001 for p, f in authored.items())
