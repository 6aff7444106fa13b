"""The robot author's road on arms of our own (issue 37), real physx runs:

- an arm imported without drives whose joints carry joint friction above what a drive sized for its inertia and
  tolerance would beat: `fix --add-drives` gives drives that move it (every driven-joint row PASS), never one that
  stalls behind the friction;
- the `try:` command printed under a failure is one `fix` acts on: run as printed, it proposes a change (or names
  each failing joint with a measured cause), never "no layer proposed: the drives already meet what the tests need".
"""

from __future__ import annotations

import shlex
import subprocess
import sys

import pytest
from pxr import Sdf, Usd, UsdPhysics

from omni.simready.physics_validator.core.status import Status
from omni.simready.physics_validator.fix import FixTargets
from tests.fix.helpers import run_fix, verdicts
from tests.fixtures.arms import ArmSpec, build_arm

pytestmark = pytest.mark.usefixtures("physx_available")
FRICTION = 2.0  # N·m of static and dynamic joint friction on every joint (newton:friction, read by ovphysx)
DRIVEN = ("full_range_sweep", "drive_gain_validation", "state_accuracy", "multi_joint_coordination")


def friction_arm(path, friction: float = FRICTION):
    """The fixture's 3-joint arm without drives (as a URDF import arrives), welded to the world, each joint with
    `friction` N·m of joint friction: a drive sized by I w² alone (I about 0.01 kg·m², 5 Hz: 10 N·m/rad) pulls
    1.6 N·m over a 9° step, short of 2 N·m."""
    build_arm(path, ArmSpec(joints=3, passive=(1, 2, 3), world_anchor=True, velocity_limit_deg=None))
    stage = Usd.Stage.Open(str(path))
    for n in (1, 2, 3):
        joint = stage.GetPrimAtPath(f"/Robot/joints/joint{n}")
        joint.AddAppliedSchema("NewtonJointAPI")
        joint.CreateAttribute("newton:friction", Sdf.ValueTypeNames.Float).Set(friction)
        joint.CreateAttribute("urdf:limit:effort", Sdf.ValueTypeNames.Float, custom=True).Set(40.0)
    stage.GetRootLayer().Save()
    return path


def test_first_drives_beat_the_joint_friction_the_asset_authors(tmp_path):
    asset = friction_arm(tmp_path / "friction_arm.usda")
    fix = run_fix(asset, tmp_path / "out", tests=list(DRIVEN), targets=FixTargets(add_drives=True)).assets[0].fix
    assert fix.status == "accepted", fix.summary
    seen = verdicts(fix)
    assert all(seen[t] == ("SKIP", "PASS") for t in DRIVEN), (seen, fix.not_fixable)
    for joint in fix.joints:
        stiffness = next(c for c in joint.changes if c.attribute.endswith(":stiffness"))
        # the pull over the smallest commanded move (state_accuracy's quarter-step tolerance, 2.25° of a 9° step)
        # beats the friction: K x 2.25° > 2 N·m, i.e. more than 0.9 N·m/°
        assert stiffness.after * 2.25 > FRICTION, (joint.joint, stiffness)
        assert all(v == Status.PASS for v in joint.after.values()), (joint.joint, joint.after)


def test_the_try_command_under_a_failure_proposes_a_change(tmp_path):
    """A weak shoulder (5 N·m/rad) fails the sweep; the console's `try:` line under it, run as printed, acts."""
    asset = build_arm(tmp_path / "weak.usda", ArmSpec(joints=3, overrides={2: {"stiffness": 5.0, "damping": 0.5}}))
    cli = [sys.executable, "-m", "omni.simready.physics_validator.cli"]
    validate = subprocess.run([*cli, "validate", str(asset), "--tests", "full_range_sweep", "--no-video", "--out",
                               str(tmp_path / "v")], capture_output=True, text=True, timeout=600, cwd=tmp_path)
    assert validate.returncode == 1, validate.stderr
    tries = [line.strip()[len("try: "):] for line in validate.stdout.splitlines() if line.strip().startswith("try: ")]
    assert tries and tries[0].startswith("simready-physics fix "), validate.stdout
    args = shlex.split(tries[0])[1:] + ["--out", str(tmp_path / "f"), "-j", "1"]
    fixed = subprocess.run([*cli, *args], capture_output=True, text=True, timeout=900, cwd=tmp_path)
    assert "no layer proposed" not in fixed.stdout + fixed.stderr, fixed.stdout
    assert "accepted" in fixed.stdout and fixed.returncode == 0, fixed.stdout + fixed.stderr


def test_a_first_drive_keeps_the_max_force_authored_on_a_drive_with_no_gains(tmp_path):
    """joint2 carries a DriveAPI with gains 0 and maxForce 5 N·m (an actuator's cap, the gains left for `fix`): its first
    drive's maxForce is that 5 N·m, 'the rated effort (drive:angular:physics:maxForce, authored on a drive with no
    gains)', not an assumed size; joint1, with no drive at all, is sized and marked assumed (the twin)."""
    asset = build_arm(tmp_path / "arm.usda", ArmSpec(joints=2, passive=(1, 2)))
    stage = Usd.Stage.Open(str(asset))
    drive = UsdPhysics.DriveAPI.Apply(stage.GetPrimAtPath("/Robot/joints/joint2"), "angular")
    drive.CreateStiffnessAttr(0.0)
    drive.CreateDampingAttr(0.0)
    drive.CreateMaxForceAttr(5.0)
    stage.GetRootLayer().Save()
    fix = run_fix(asset, tmp_path / "out", tests=["effort_limit"], targets=FixTargets(add_drives=True)).assets[0].fix
    changes = {j.joint: {c.attribute.rsplit(":", 1)[-1]: c for c in j.changes} for j in fix.joints}
    elbow = changes["joint2"]["maxForce"]
    assert elbow.after == pytest.approx(5.0) and not elbow.assumed, elbow
    assert "drive:angular:physics:maxForce, authored on a drive with no gains" in elbow.why
    assert changes["joint1"]["maxForce"].assumed
