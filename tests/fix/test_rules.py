"""The pure proposal rules (fix/rules.py, fix/targets.py, fix/layers.UsdUnits): hand-computed numbers, no engine.

The case every test starts from (SI, per radian): joint-space inertia I = 0.01 kg·m², gravity load 1 N·m held and
2 N·m at the sweep's max endpoint, full_range_sweep allows 0.1 rad there, effort_limit allows 0.2 rad under a 10 N
load on a 0.1 m lever (1 N·m), the sweep commands at most 50 rad/s². Default targets: f_n = 5 Hz, zeta = 1,
margin 1.5, deflection share 0.25.

    I w²                     = 0.01 x (10 pi)²          =  9.8696 N·m/rad
    sweep hold at max        = 2 / (0.25 x 0.1)         = 80      N·m/rad   <- the largest: K = 80
    effort_limit             = (1 + 1) / (0.25 x 0.2)   = 40      N·m/rad
    D = 2 zeta sqrt(K I)     = 2 sqrt(0.8)              =  1.78885 N·m·s/rad
    maxForce = 1.5 x max(2 + 0.01 x 50, 1 + 1)          =  3.75   N·m
"""

from __future__ import annotations

import math
from types import SimpleNamespace

import pytest

from omni.simready.physics_validator.core.config import ValidationConfig
from omni.simready.physics_validator.core.usd import read_asset
from omni.simready.physics_validator.fix.layers import UsdUnits
from omni.simready.physics_validator.fix.probe import JointMeasure
from omni.simready.physics_validator.fix.rules import propose
from omni.simready.physics_validator.fix.targets import FixTargets, JointAllowance, allowance, hold_target
from omni.simready.physics_validator.physics_tests import default_registry
from tests.fixtures.driven_arms import horizontal_arm, tiny_range_revolute

K_HAND, D_HAND, F_HAND = 80.0, 2.0 * math.sqrt(0.8), 3.75
RAISE = FixTargets(raise_max_force=True)  # the authored maxForce (1 N·m here) may be exceeded


def joint(stiffness=10.0, damping=0.0, max_force=1.0, angular=True):
    drive = SimpleNamespace(stiffness=stiffness, damping=damping, max_force=max_force, target_position=0.0)
    return SimpleNamespace(path="/R/j", name="j", is_angular=angular, drive=drive, effort_limit=None, effort_limit_source=None)


def measure(**kw):
    m = JointMeasure("/R/j", "j", True, inertia={"hold": 0.008, "max": 0.01}, load={"hold": 1.0, "max": 2.0},
                     lever_arm=0.1)
    for key, value in kw.items():
        setattr(m, key, value)
    return m


def allow(**kw):
    a = JointAllowance(hold=0.0, ends={"max": 1.0}, deflections=[("max", "full_range_sweep hold at max", 0.1)],
                       effort_tolerance=0.2, effort_force=10.0, sweep_accel=50.0)
    for key, value in kw.items():
        setattr(a, key, value)
    return a


def test_stiffness_damping_and_max_force_by_hand():
    p = propose(joint(), measure(), allow(), RAISE)
    assert p.proposed["stiffness"] == pytest.approx(K_HAND)
    assert p.proposed["damping"] == pytest.approx(D_HAND)
    assert p.proposed["maxForce"] == pytest.approx(F_HAND)
    assert p.derived["inertia"] == pytest.approx(0.01)  # the heaviest probed pose
    assert p.derived["omega_n"] == pytest.approx(math.sqrt(K_HAND / 0.01))
    assert p.derived["zeta"] == pytest.approx(1.0)
    assert "full_range_sweep hold at max" in p.why["stiffness"]
    assert "gravity + sweep acceleration" in p.why["maxForce"]


def test_unloaded_joint_gets_the_natural_frequency_floor():
    """No load, no test load: K = I (2 pi f_n)², D = 2 zeta sqrt(K I) (f_n = 5 Hz, zeta = 0.3: hand numbers)."""
    m = measure(load={"hold": 0.0, "max": 0.0}, lever_arm=0.0)
    p = propose(joint(stiffness=1.0, max_force=500.0), m, allow(sweep_accel=0.0), FixTargets(damping_ratio=0.3))
    k = 0.01 * (2 * math.pi * 5.0) ** 2
    assert p.proposed["stiffness"] == pytest.approx(k) == pytest.approx(9.8696, rel=1e-4)
    assert p.proposed["damping"] == pytest.approx(2 * 0.3 * math.sqrt(k * 0.01)) == pytest.approx(0.18850, rel=1e-4)
    assert "maxForce" not in p.proposed  # 500 N·m is far above any load here


def test_max_force_sized_by_the_held_plus_test_load_when_larger():
    """A heavy effort_limit load: held 1 + 10 N x 0.5 m = 6 N·m > gravity + sweep 2.5 N·m -> 1.5 x 6 = 9 N·m."""
    p = propose(joint(), measure(lever_arm=0.5), allow(effort_tolerance=10.0), RAISE)
    assert p.proposed["maxForce"] == pytest.approx(9.0)
    assert "10 N test load" in p.why["maxForce"]


def test_friction_raises_stiffness_floor_and_max_force():
    """Static friction 0.5 N·m: K >= 0.5 / (0.25 x 0.1) = 20 (below 80 here); maxForce 1.5 x (2.5 + 0.5) = 4.5."""
    p = propose(joint(), measure(friction=0.5), allow(), RAISE)
    assert p.proposed["stiffness"] == pytest.approx(K_HAND)
    assert p.proposed["maxForce"] == pytest.approx(4.5)
    p = propose(joint(), measure(friction=5.0, load={"hold": 0.0, "max": 0.0}), allow(effort_force=0.0), RAISE)
    assert p.proposed["stiffness"] == pytest.approx(5.0 / (0.25 * 0.1))  # 200: friction dominates
    assert "joint friction" in p.why["stiffness"]


def test_values_that_meet_the_requirement_are_not_changed_idempotence():
    assert not propose(joint(K_HAND, D_HAND, F_HAND), measure(), allow(), FixTargets()).changed
    # within the 2 % slack: kept; beyond it: raised to the requirement
    assert "stiffness" not in propose(joint(0.985 * K_HAND, D_HAND, F_HAND), measure(), allow(), FixTargets()).proposed
    assert propose(joint(0.97 * K_HAND, D_HAND, F_HAND), measure(), allow(),
                   FixTargets()).proposed["stiffness"] == pytest.approx(K_HAND)


@pytest.mark.parametrize("zeta, kept", [(0.49, False), (0.5, True), (1.5, True), (2.0, True), (2.1, False)])
def test_authored_damping_inside_the_band_is_kept(zeta, kept):
    """zeta_now = D / (2 sqrt(K I)) with K = 80, I = 0.01: kept inside [0.5, 2] x the target."""
    d = zeta * 2.0 * math.sqrt(K_HAND * 0.01)
    p = propose(joint(K_HAND, d, F_HAND), measure(), allow(), FixTargets())
    assert ("damping" not in p.proposed) is kept
    assert p.value("damping") == pytest.approx(d if kept else D_HAND)


def test_a_blocked_pose_sizes_nothing():
    """Blocked at max (collision): its deflection tolerance and its load are left out; effort_limit sizes K:
    (1 + 1) / (0.25 x 0.2) = 40; maxForce 1.5 x max(1 + 0.5, 2) = 3."""
    m = measure(blocked={"max": {"error": 0.5, "pairs": [], "collision": True}})
    p = propose(joint(), m, allow(), RAISE)
    assert p.proposed["stiffness"] == pytest.approx(40.0)
    assert p.proposed["maxForce"] == pytest.approx(3.0)


def test_escalation_doubles_frequency_and_margin_and_halves_the_share():
    t = FixTargets().escalated(1)
    assert (t.natural_frequency_hz, t.force_margin, t.deflection_share) == (10.0, 3.0, 0.125)
    assert FixTargets().escalated(2).natural_frequency_hz == 20.0
    assert FixTargets().escalated(0) == FixTargets()
    p = propose(joint(), measure(), allow(), RAISE, level=1)
    assert p.proposed["stiffness"] == pytest.approx(2.0 / (0.125 * 0.1))  # 160
    assert p.proposed["maxForce"] == pytest.approx(3.0 * 2.5)  # 7.5
    assert p.level == 1


def test_max_force_stays_within_the_authored_rating_and_says_what_it_needs():
    """Authored maxForce 1 N·m is the actuator's rating: not raised; the need (1.5 x 2.5 = 3.75 N·m) is said against it."""
    p = propose(joint(), measure(), allow(), FixTargets())
    assert "maxForce" not in p.proposed
    assert p.proposed["stiffness"] == pytest.approx(K_HAND)  # the gains are still tuned
    (cause, sentence), = p.limits
    assert cause == "actuator_rating"
    assert sentence.startswith("needs 3.75 N·m (1.5 x gravity + sweep acceleration (2.5 N·m)), rated 1 N·m "
                               "(drive:angular:physics:maxForce)")
    # an escalation raises the target margin, not what the load needs: still reported against 1.5 x the load
    assert propose(joint(), measure(), allow(), FixTargets(), level=2).limits[0][1].startswith("needs 3.75 N·m")
    # within the rating: raised up to the requirement, nothing said
    p = propose(joint(max_force=2.0), measure(), allow(), FixTargets())
    assert p.proposed.get("maxForce") is None and p.limits  # 2 < 3.75: kept at 2, said
    p = propose(joint(max_force=1.0), measure(load={"hold": 0.1, "max": 0.2}, lever_arm=0.0), allow(sweep_accel=0.0,
                effort_force=0.0), FixTargets())
    assert not p.limits and "maxForce" not in p.proposed  # 1.5 x 0.2 = 0.3 <= 1


def test_a_first_drive_takes_the_rated_effort_or_states_its_assumption():
    """No drive: stiffness, damping and maxForce are all proposed; maxForce is the rated effort when authored (the need
    above it is said), else the sized requirement, marked assumed."""
    rated = SimpleNamespace(path="/R/j", name="j", is_angular=True, drive=None, effort_limit=2.0,
                            effort_limit_source="urdf:limit:effort")
    p = propose(rated, measure(), allow(), FixTargets())
    assert p.added and p.proposed["stiffness"] == pytest.approx(K_HAND) and p.proposed["damping"] == pytest.approx(D_HAND)
    assert p.proposed["maxForce"] == 2.0 and not p.assumed
    assert [cause for cause, _ in p.limits] == ["actuator_rating"]
    assert "rated 2 N·m (urdf:limit:effort)" in p.limits[0][1]
    unrated = SimpleNamespace(path="/R/j", name="j", is_angular=True, drive=None, effort_limit=None, effort_limit_source=None)
    p = propose(unrated, measure(), allow(), FixTargets())
    assert p.proposed["maxForce"] == pytest.approx(F_HAND) and p.assumed == {"maxForce"} and not p.limits
    assert "assumed" in p.why["maxForce"]


@pytest.mark.parametrize("authored, rated", [(40.0, True), (math.inf, False), (0.0, False)])
def test_a_max_force_authored_on_a_drive_with_no_gains_is_the_first_drives_rating(authored, rated):
    """A drive whose gains are 0 moves nothing (a first drive is proposed), but its authored maxForce is the actuator's
    rating (a gripper's 40 N became 0.0227 N, "assumed"); its twins, no maxForce (unlimited) or 0, rate nothing."""
    gainless = joint(stiffness=0.0, damping=0.0, max_force=authored)
    p = propose(gainless, measure(), allow(), FixTargets())
    assert p.added
    if rated:
        assert p.proposed["maxForce"] == 40.0 and not p.assumed and not p.limits
        assert p.why["maxForce"] == ("the rated effort (drive:angular:physics:maxForce, authored on a drive with no "
                                     "gains)")
    else:
        assert p.proposed["maxForce"] == pytest.approx(F_HAND) and p.assumed == {"maxForce"}


def test_stiffness_goes_past_the_steps_resolution_when_a_tolerance_needs_it_and_says_so():
    """The step resolves K = I (2 pi 240 / 10)² = 0.01 x 150.8² = 227.4 N·m/rad. A 0.001 rad band under 2 N·m needs
    2 / (0.25 x 0.001) = 8000: proposed, past the resolution, said in its why (no dead-end 'stability' cause: PhysX's
    drives are implicit, and the Z1 gripper needs 690x its resolution to move); the verify pass then measures it."""
    resolved = 0.01 * (2 * math.pi * 240 / 10) ** 2
    tight = allow(deflections=[("max", "full_range_sweep return to zero", 0.001)], effort_tolerance=math.inf, sweep_accel=0.0)
    p = propose(joint(max_force=math.inf), measure(), tight, FixTargets())
    assert p.proposed["stiffness"] == pytest.approx(2.0 / (0.25 * 0.001)) and p.proposed["stiffness"] > 30 * resolved
    assert "past the 240 Hz step's resolution" in p.why["stiffness"] and not p.limits
    loose = allow(deflections=[("max", "full_range_sweep return to zero", 0.1)], effort_tolerance=math.inf, sweep_accel=0.0)
    p = propose(joint(max_force=math.inf), measure(), loose, FixTargets())
    assert p.proposed["stiffness"] < resolved and "resolution" not in p.why["stiffness"]


def test_past_the_resolution_a_shortfall_is_bought_at_the_square():
    """verify: below the resolution the static error falls as 1/K, past it as 1/sqrt(K) (docs/fix.md)."""
    from omni.simready.physics_validator.fix.plan import raise_factor

    assert raise_factor(3.0, 10.0, 1000.0) == pytest.approx(3.0)  # stays below: linear
    assert raise_factor(3.0, 1000.0, 1000.0) == pytest.approx(9.0)  # at it: squared
    assert raise_factor(4.0, 500.0, 1000.0) == pytest.approx(2.0 * 2.0**2)  # x2 to it, the rest x2 squared


def test_unmeasured_inertia_gives_no_proposal():
    assert propose(joint(), measure(inertia={"hold": math.nan}), allow(), FixTargets()) is None


def test_targets_describe_states_omega():
    d = FixTargets(natural_frequency_hz=2.0).describe()
    assert d["omega_n_rad_s"] == pytest.approx(4 * math.pi, abs=1e-4)
    assert d["damping_ratio"] == 1.0 and d["force_margin"] == 1.5


def test_usd_units_angular_gains_are_per_degree():
    """1 N·m/rad = pi/180 N·m/° (and damping alike); maxForce N·m unchanged; cm/g stages scale by kpu mpu²."""
    u = UsdUnits()
    assert u.to_usd("stiffness", 180.0 / math.pi, True) == pytest.approx(1.0)
    assert u.to_usd("damping", 1.0, True) == pytest.approx(math.pi / 180.0)
    assert u.to_usd("maxForce", 3.0, True) == pytest.approx(3.0)
    assert u.to_usd("stiffness", 400.0, False) == pytest.approx(400.0)  # N/m
    cm_g = UsdUnits(kpu=0.001, mpu=0.01)  # 1 g·cm² = 1e-7 kg·m²
    assert cm_g.to_si("maxForce", 1.0, True) == pytest.approx(1e-7)
    assert cm_g.to_si("maxForce", 1.0, False) == pytest.approx(1e-5)  # g·cm/s² -> N
    assert cm_g.to_usd("stiffness", cm_g.to_si("stiffness", 7.0, True), True) == pytest.approx(7.0)
    assert UsdUnits.label("stiffness", True) == "N·m/°" and UsdUnits.label("damping", False) == "N·s/m"


def test_allowance_from_the_tests_configs(tmp_path):
    """The horizontal arm (±90°, hold 0): effort_limit allows break_tolerance 0.1 x the range pi = 0.314 rad under
    its 10 N load; drive_gain_validation's band is 5 % of the 30° step = 0.0262 rad; the sweep probes both ends."""
    asset = read_asset(horizontal_arm(tmp_path / "arm.usda"))
    j = next(iter(asset.joints.values()))
    config = ValidationConfig.defaults(default_registry())
    a = allowance(j, config, ["full_range_sweep", "drive_gain_validation", "effort_limit"], default_registry())
    assert a.hold == hold_target(j) == 0.0
    assert a.effort_tolerance == pytest.approx(0.1 * math.pi) and a.effort_force == 10.0
    assert ("*", "drive_gain_validation settling band", pytest.approx(0.05 * math.radians(30.0))) in a.deflections
    assert set(a.ends) == {"max", "min"} and a.ends["min"] < 0 < a.ends["max"] < math.pi / 2
    assert a.sweep_accel > 0 and not a.unit_suspect
    none = allowance(j, config, ["ground_drop"], default_registry())
    assert none.deflections == [] and math.isnan(none.effort_tolerance) and none.ends == {}


def test_a_range_under_one_degree_is_a_unit_suspect(tmp_path):
    asset = read_asset(tiny_range_revolute(tmp_path / "tiny.usda", range_deg=0.5))
    j = next(iter(asset.joints.values()))
    assert allowance(j, ValidationConfig.defaults(default_registry()), ["full_range_sweep"], default_registry()).unit_suspect


def test_a_probe_that_blew_up_gives_no_proposal_and_says_so():
    """The Kinova Gen3 with its Robotiq gripper read 6.9e10 N·m on joint_2 under the probe: no drive is sized for
    that (it read 'needs 1.035e+11 N·m, rated 39 N·m'); the joint is named `exploded` with both numbers."""
    p = propose(joint(), measure(exploded={"max": 6.9e10}, gravity_bound=12.0), allow(), FixTargets())
    assert not p.changed and [cause for cause, _ in p.limits] == ["exploded"]
    assert "6.900e+10 N·m" in p.limits[0][1] and "12 N·m" in p.limits[0][1]
