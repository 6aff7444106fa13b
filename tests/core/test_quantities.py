"""Numbers for people: degrees for revolute joints, mm for small lengths, units attached; JSON stays SI."""

import math

from omni.simready.physics_validator.core.quantities import for_people, joint_unit, joint_value


def test_revolute_angles_and_rates_read_in_degrees():
    assert for_people(math.radians(0.74), "rad") == "0.74°"
    assert for_people(math.radians(120.0), "rad/s") == "120°/s"
    assert joint_value(math.radians(30.0), angular=True) == "30°"


def test_lengths_forces_and_plain_numbers_keep_their_unit():
    assert for_people(0.0123, "m") == "12.3 mm"
    assert for_people(0.5, "m") == "0.5 m"
    assert joint_value(0.2, angular=False, rate=True) == "0.2 m/s"
    assert for_people(10.0, "N") == "10 N"
    assert for_people(4.2, "") == "4.2"
    assert for_people(float("nan"), "rad") == "nan" and for_people(None, "m") == "n/a"


def test_joint_units_are_si():
    assert (joint_unit(True), joint_unit(True, rate=True), joint_unit(False), joint_unit(False, rate=True)) == ("rad", "rad/s",
                                                                                                                "m", "m/s")
