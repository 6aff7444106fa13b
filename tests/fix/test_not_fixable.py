"""What drive values cannot fix is said, with the cause and the bodies: the UR5's shoulder_lift_joint is stopped by
its upper arm meeting the base before its sweep endpoint (the shared robot with the generic drive overlay), and a
revolute range under 1° is a limit authored in the wrong unit. Real physx runs."""

from __future__ import annotations

import pytest

from tests.fix.helpers import run_fix, tree_digest, verdicts
from tests.fixtures.driven_arms import tiny_range_revolute
from tests.fixtures.weak_drives import ROBOTS, overlay

pytestmark = pytest.mark.usefixtures("physx_available")


def test_ur5_collision_limited_sweep_is_not_fixable_by_drives_with_the_colliding_bodies_named(tmp_path, shared_assets):
    robot = ROBOTS["ur5"]
    before = tree_digest(robot.parent)
    fix = run_fix(overlay(robot, tmp_path, "ur5"), tmp_path / "out", tests=["full_range_sweep"]).assets[0].fix
    # FAIL as authored and still FAIL: only the per-axis velocity spelling may be accepted (its warnings gone)
    assert verdicts(fix)["full_range_sweep"][0] == "FAIL" and verdicts(fix)["full_range_sweep"][1] in (None, "FAIL")
    assert fix.fixed == 0 and fix.broken == 0
    (blocked,) = [n for n in fix.not_fixable if n.cause == "collision"]
    assert blocked.joint == "shoulder_lift_joint" and blocked.test == "full_range_sweep"
    assert {b.rsplit("/", 1)[-1] for b in blocked.bodies} == {"base_link", "upper_arm_link"}
    assert "collision geometry stops it, not the drive" in blocked.why
    assert all("stiffness" not in c.attribute for j in fix.joints if j.joint == "shoulder_lift_joint" for c in j.changes)
    assert tree_digest(robot.parent) == before  # the shared robot's folder, byte for byte


def test_a_limit_authored_in_radians_is_not_fixable_by_drives(tmp_path):
    asset = tiny_range_revolute(tmp_path / "tiny.usda", range_deg=0.5)  # ±0.25°: radians read as degrees
    fix = run_fix(asset, tmp_path / "out", tests=["full_range_sweep"]).assets[0].fix
    assert verdicts(fix) == {"full_range_sweep": ("FAIL", None)}
    assert fix.status == "not_fixable" and fix.rounds == 0 and not fix.layer
    (unit,) = fix.not_fixable
    assert unit.cause == "limit_unit" and unit.joint == "joint"
    assert "authored in radians and read as degrees" in unit.why and "14.3°" in unit.why
