"""Needs no actuator could have, and readings that are no explosion (issue 41 items 3 and 4): pure rules, no engine.

The TALOS left arm's probe read 1,322 N·m holding arm_left_4_joint at another joint's endpoint, for 15.3 N·m of weight
at its farthest reach: `fix` reported it as "needs ..., rated 17.9" and `--raise-max-force` set maxForce from it (the
verify pass doubled a saturated maxForce four times: 16x the rating). A ViperX wrist whose link the runtime gives no
mass read 0.000182 N·m at its waypoint and was called `exploded` (1000x a bound of 0)."""

from __future__ import annotations

import math

import pytest

from omni.simready.physics_validator.fix.plausible import BOUND_FACTOR, IMPLAUSIBLE_FACTOR, exploded, plausible_need
from omni.simready.physics_validator.fix.rules import cap_max_force, propose
from omni.simready.physics_validator.fix.targets import FixTargets
from tests.fix.test_rules import F_HAND, RAISE, allow, joint, measure


def test_a_need_no_mass_explains_is_named_and_sizes_nothing():
    """2.5 N·m of weight bounds the loads (x4 for dynamics and contacts: 10 N·m): the 1,322 N·m read at joint2's
    endpoint is named with its numbers, the maxForce is sized from the loads the masses explain (3.75 N·m, as without
    the odd reading), even with --raise-max-force, and no 'needs 1.98e+03 N·m, rated' is said."""
    m = measure(load={"hold": 1.0, "max": 2.0, "joint2@max": 1322.0}, gravity_bound=2.5, moved_mass=1.2)
    p = propose(joint(max_force=1.0), m, allow(), RAISE)
    (story,) = [why for cause, why in p.limits if cause == "implausible_need"]
    assert "joint2's max endpoint read 1.322e+03 N·m" in story or "joint2's max endpoint read 1322 N·m" in story, story
    assert "1.2 kg" in story and "2.5 N·m" in story and "10 N·m" in story and "not an actuator's rating" in story
    assert p.proposed["maxForce"] == pytest.approx(F_HAND)
    assert not [why for cause, why in p.limits if cause == "actuator_rating"]


def test_without_the_flag_the_rating_is_judged_against_the_need_the_masses_explain():
    """Rated 1 N·m: the need reported is 3.75 N·m (the explained loads), beside the implausible reading named apart."""
    m = measure(load={"hold": 1.0, "max": 2.0, "hold@x": 500.0}, gravity_bound=2.5)
    p = propose(joint(max_force=1.0), m, allow(), FixTargets())
    causes = dict(p.limits)
    assert "needs 3.75 N·m" in causes["actuator_rating"] and "implausible_need" in causes


def test_the_verify_pass_never_raises_a_max_force_past_what_the_masses_can_need():
    """A drive that sat at its maxForce is doubled (within the rating, or freely with --raise-max-force), but never past
    m (4 G + F r + I a_sweep): one already there is named, not doubled again (TALOS: four doublings, 16x the rating)."""
    p = propose(joint(max_force=1.0), measure(gravity_bound=2.5), allow(), RAISE)
    plausible = p.derived["plausible_need"]
    assert plausible == pytest.approx(plausible_need(2.5, 1.0, 0.01, 50.0, 1.5)) == pytest.approx(1.5 * (10 + 1 + 0.5))
    assert cap_max_force(p, 2.0 * p.value("maxForce"), "; x2", RAISE)  # 7.5 N·m wanted: 17.25 allows it
    assert p.value("maxForce") == pytest.approx(7.5)
    cap_max_force(p, 40.0, "; x2", RAISE)  # capped at the plausible need
    assert p.value("maxForce") == pytest.approx(plausible) and not p.limits
    assert not cap_max_force(p, 2 * plausible, "; x2", RAISE)  # sat there again: named, not raised
    assert p.value("maxForce") == pytest.approx(plausible)
    (story,) = [why for cause, why in p.limits if cause == "implausible_need"]
    assert "the most everything it moves can need" in story and "not raised past it" in story


def test_no_bound_measured_limits_nothing():
    p = propose(joint(max_force=1.0), measure(load={"hold": 1.0, "max": 500.0}), allow(), RAISE)
    assert not [c for c, _ in p.limits if c == "implausible_need"] and math.isinf(p.derived["plausible_need"])


@pytest.mark.parametrize("error, load, bound, stiffness, blown", [
    (1e-5, 0.000182, 0.0, 18.2, False),  # the ViperX wrist: at its waypoint, its link massless: no explosion
    (0.5, 0.000182 * 5e4, 0.0, 18.2, False),  # off its waypoint, a massless link, 9.1 N·m: no explosion either
    (25.0, 455.0, 0.0, 18.2, True),  # flung 25 rad off: past 1000x what the probe reads at its tolerance
    (3.0, 6.9e10, 30.0, 1000.0, True),  # the Kinova Gen3's joint_2
    (float("nan"), 1.0, 30.0, 1000.0, True),
    (0.01, 10.0, 30.0, 1000.0, False),
])
def test_exploded_is_a_reading_no_load_explains(error, load, bound, stiffness, blown):
    assert exploded(error, load, bound, stiffness, 0.02) is blown


def test_the_bounds_state_their_margins():
    """1.5x the weight at a joint's own endpoint is a push (blocked); 4x anywhere, no mass explains it."""
    assert (BOUND_FACTOR, IMPLAUSIBLE_FACTOR) == (1.5, 4.0)
