"""The driven-joint tests on the converted real robots in shared/assets, as shipped and with a drive overlay.

As converted they carry no UsdPhysics.DriveAPI, so every joint is passive (the Robotiq's two
MjcActuator joints have no drive PhysX can run): all four tests SKIP with the reason. With
tools/drive_overlay.py (a new root layer sublayering the robot; the robot file is untouched) they
get realistic gains and velocity limits and must give sensible verdicts.
"""

import hashlib
import sys
from pathlib import Path

import pytest

from omni.simready.physics_validator.physics_tests import default_registry
from omni.simready.physics_validator.core.session import TestSession
from omni.simready.physics_validator.core.status import Status
from omni.simready.physics_validator.core.usd import read_asset
from tests.fixtures.usd_assets import SHARED_ASSETS

pytest.importorskip("sapien")
from omni.simready.physics_validator.engines import create_engine  # noqa: E402

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "tools"))
from drive_overlay import write_overlay  # noqa: E402

ASSETS = SHARED_ASSETS
ROBOTS = {
    "erd_ur5": "erd_ur5/ur5.usda",
    "erd_panda": "erd_panda/panda.usda",
    "pb_kuka_iiwa": "pb_kuka_iiwa/lbr_iiwa.usda",
    "erd_allegro_right": "erd_allegro_right/allegro_hand_right.usda",
    "robosuite_robotiq_gripper_140": "robosuite_robotiq_gripper_140/robotiq_gripper_140_model.usda",
}
JOINT_TESTS = ("velocity_limit", "full_range_sweep", "drive_gain_validation", "effort_limit")

pytestmark = pytest.mark.skipif(not ASSETS.is_dir(), reason="shared/assets not present")


def run(path, name, engine="physx", **overrides):
    test_cls = default_registry().get(name)
    return TestSession(test_cls(), read_asset(path), test_cls.Config(**overrides), create_engine(engine)).run_to_end()


@pytest.mark.parametrize("robot", sorted(ROBOTS))
def test_converted_robots_skip_without_drives(robot):
    for name in JOINT_TESTS:
        result = run(ASSETS / ROBOTS[robot], name)
        assert result.status is Status.SKIP, (name, result.reason)
        assert "passive" in result.reason
        assert result.metrics["joints_tested"] == 0 and result.metrics["joints_excluded_passive"] >= 4
        if robot == "robosuite_robotiq_gripper_140":  # MjcActuator joints count as driven, but not on PhysX
            assert result.metrics["joints_excluded_actuator_only"] == 2
        if robot == "erd_panda":  # NewtonMimicAPI follower
            assert result.metrics["joints_excluded_mimic_follower"] == 1


@pytest.fixture(scope="module")
def overlays(tmp_path_factory):
    out = tmp_path_factory.mktemp("overlays")
    before = {r: hashlib.sha256((ASSETS / p).read_bytes()).hexdigest() for r, p in ROBOTS.items()}
    paths = {r: write_overlay(ASSETS / p, out / f"{r}_driven.usda") for r, p in ROBOTS.items()}
    after = {r: hashlib.sha256((ASSETS / p).read_bytes()).hexdigest() for r, p in ROBOTS.items()}
    assert before == after  # the robot files are never modified
    return paths


@pytest.mark.parametrize("robot", ["pb_kuka_iiwa", "erd_panda", "erd_allegro_right"])
def test_well_driven_robots_pass_all_four(overlays, robot):
    # On sapien, which these overlays' gains were sized against. The physx engine (the Omni PhysX runtime) gives
    # other verdicts for measured reasons (docs/engine-divergences.md): the kuka's joint_5 overshoots its cap on the
    # first TGS step (+7 %), the panda's NewtonMimicAPI finger pair stalls, the allegro's newton:friction (5-12 N m)
    # exceeds what the overlay's drives can push.
    for name in JOINT_TESTS:
        result = run(overlays[robot], name, engine="sapien")
        if robot == "erd_panda" and name == "effort_limit":
            continue  # its finger gives way: test_panda_overlay_finger_gives_way_under_the_load
        if (robot, name) in KNOWN_FAILURES:
            continue  # test_what_the_second_audit_found_on_the_overlays
        assert result.status is Status.PASS, (name, result.reason)
        assert result.metrics["joints_tested"] >= 7
        if name == "velocity_limit":  # the copied newton:velocityLimit now caps the PhysX articulation
            assert {r.limits["source"] for r in result.joints} == {"physxJoint:maxJointVelocity"}
            assert result.metrics["max_velocity_ratio"] <= 1.05


KNOWN_FAILURES = {("erd_panda", "velocity_limit"), ("erd_allegro_right", "effort_limit")}


def test_what_the_second_audit_found_on_the_overlays(overlays):
    """Issue 24, on sapien: (1) each joint now starts from home, so the panda's finger is tested with the arm at its
    home pose, where gravity runs along the finger: it slides 1.5 % past its cap by the position rate (0.213 m/s
    against 0.21 m/s allowed; its reported velocity stays within). (2) A load now reaches the parts welded to a
    link: joint_30's load goes to the allegro's welded fingertip, and joint_20 gives way 10.9° (10.8° allowed)."""
    panda = run(overlays["erd_panda"], "velocity_limit", engine="sapien")
    finger = next(r for r in panda.joints if r.joint == "panda_finger_joint1")
    assert panda.status is Status.FAIL and finger.code == "OVERSPEED", panda.reason
    assert 1.0 < finger.measured["ratio"] < 1.1 and finger.measured["peak_velocity"] <= finger.limits["allowed"]
    allegro = run(overlays["erd_allegro_right"], "effort_limit", engine="sapien")
    row = next(r for r in allegro.joints if r.status is Status.FAIL)
    assert row.code == "GAVE_WAY" and row.limits["loaded_body"].endswith("_tip_VH"), allegro.reason


def test_panda_overlay_finger_gives_way_under_the_load(overlays):
    """Issue 13 item 1 on a real robot: the overlay sizes gains from gravity, so the panda's finger (no gravity load)
    gets the 200 N/m floor, and 10 N would push it 50 mm, past its 40 mm range. effort_limit used to PASS it because
    the hard limit stopped it; now the deflection from the held pose decides. Every other panda joint holds."""
    result = run(overlays["erd_panda"], "effort_limit", engine="sapien")
    assert result.status is Status.FAIL, result.reason
    finger = next(r for r in result.joints if r.joint == "panda_finger_joint1")
    assert finger.status is Status.FAIL and finger.measured["gave_way"] == "deflected"
    assert finger.limits["deflection_tolerance"] == pytest.approx(0.004)  # 10 % of the 0.04 m range
    assert finger.measured["max_deflection"] > finger.limits["deflection_tolerance"]
    assert "driveStiffness 200 N/m" in finger.reason
    assert all(r.status is Status.PASS for r in result.joints[:result.joints.index(finger)])  # the arm holds


def test_ur5_overlay_velocity_and_effort_pass_sweep_finds_blocked_joints(overlays):
    assert run(overlays["erd_ur5"], "velocity_limit").status is Status.PASS
    assert run(overlays["erd_ur5"], "effort_limit").status is Status.PASS
    sweep = run(overlays["erd_ur5"], "full_range_sweep")
    # The UR5's +-360 deg joints are swept over a 2 pi window: folding the straight arm at +144 deg drives
    # links into the base/forearm, so the shoulder-lift endpoint is blocked by collision geometry.
    assert sweep.status is Status.FAIL
    failed = {r.joint: r for r in sweep.joints if r.status is Status.FAIL}
    assert "shoulder_lift_joint" in failed and "shoulder_pan_joint" not in failed
    assert failed["shoulder_lift_joint"].measured["hold_error_max"] > 0.1
    assert any("colliding bodies" in h for h in failed["shoulder_lift_joint"].fix_hints)  # fix probes the blocking contact


def test_robotiq_overlay_degenerate_ranges(overlays):
    # No velocity limit anywhere -> SKIP; the ~0.9 deg ranges (radians read as degrees) leave a 30 deg
    # step no room: the step is clamped to the limit and the 5 % band is tighter than the solver settles to.
    assert run(overlays["robosuite_robotiq_gripper_140"], "velocity_limit").status is Status.SKIP
    step = run(overlays["robosuite_robotiq_gripper_140"], "drive_gain_validation")
    assert step.status is Status.WARN
    assert all(abs(r.measured["target"] - r.measured["start"]) < 0.02 for r in step.joints)
