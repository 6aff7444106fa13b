"""Issue 24 item 12: a verdict must not change with metersPerUnit or upAxis alone.

The same robot authored in metres, in centimetres, Y-up, and Y-up in centimetres (tests/fixtures/arms.py and
driven_arms.py knobs: lengths x100, torques x1e4, masses in kg, angles in degrees) runs the four driven-joint
tests and ground_drop on the default engine. Every twin must get the metre twin's statuses, row by row, and the
same deciding numbers: angular quantities (rad, rad/s, ratios, seconds) within 1e-3 relative (measured: within
1.1e-5), lengths in SI within 1 mm, except where a test breaks a tie on rounding noise (MIRRORED, TIED_LOAD below). The centimetre
arm used to FAIL velocity_limit (a position rate of 131.6 deg/s
against the 120 deg/s cap, 123.1 in metres): PhysX's articulation CFM grows as 1 / metersPerUnit relative to a
revolute joint; the validation layer now authors the metre-equivalent cfmScale (engines/validation_layer.py).

A slider's linear cap is the one known residue (docs/engine-divergences.md): its statuses agree, its position
rate does not (1.034x in metres, 1.00003x in centimetres), because no cfmScale in [0, 1] gives a centimetre
stage the metre CFM of a prismatic joint.
"""

from __future__ import annotations

import math

import pytest

from tests.fixtures.arms import build_arm
from tests.fixtures.driven_arms import horizontal_arm, single_joint_robot
from tests.fixtures.runs import require_engine, run_test
from omni.simready.physics_validator.core.status import Status

DRIVEN = ("velocity_limit", "full_range_sweep", "drive_gain_validation", "effort_limit")
TWINS = {"m": (1.0, "Z"), "cm": (0.01, "Z"), "y_up": (1.0, "Y"), "cm_y_up": (0.01, "Y")}
ANGULAR_REL, ANGULAR_ABS = 1e-3, 1e-6  # rad, rad/s, ratios, s (measured: within 1.1e-5 relative)
LENGTH_ABS = 1e-3  # m, after conversion to SI
FRAME_TIME = 0.02  # s: ground_drop's contact timings may move by a few 240 Hz frames
# Ties the tests break on rounding (float32 poses, the Y-up rotation): a symmetric arm's start pose holds 1e-12 rad, so
# velocity_limit may send a joint to the mirrored far end (the same |target| and rates), and effort_limit may load
# another of the link's corners equally far from the axis (the same lever arm; measured: joint3's deflection 0.000873
# against 0.000891 rad, 2 %, on the Y-up centimetre arm) and name another of two equally bad directions. Compared:
# |target|, the lever arm as any length, deflections within 5 % (the allowance is 18 deg); not: the labels.
MIRRORED = {"target"}
TIED_LOAD = {"max_deflection", "max_deflection_any_joint"}
LABELS = {"worst_direction"}


@pytest.fixture(scope="module")
def folder(tmp_path_factory):
    require_engine("physx")
    return tmp_path_factory.mktemp("unit_twins")


def _twins(folder, name, build) -> dict:
    return {twin: build(folder / f"{name}_{twin}.usda", meters_per_unit=mpu, up_axis=up)
            for twin, (mpu, up) in TWINS.items()}


def _numbers(values: dict) -> dict:
    return {k: float(v) for k, v in values.items() if isinstance(v, (int, float)) and not isinstance(v, bool)}


def _same_rows(reference, twin, name: str, lengths: set[str] = frozenset()) -> None:
    assert [r.joint for r in twin.joints] == [r.joint for r in reference.joints]
    for ref_row, row in zip(reference.joints, twin.joints):
        assert row.status is ref_row.status, f"{name} {row.joint}: {row.reason}"
        for key, expected in _numbers(ref_row.measured).items():
            got = _numbers(row.measured)[key]
            if key in LABELS:
                continue
            if key in MIRRORED:
                expected, got = abs(expected), abs(got)
            if key in TIED_LOAD:
                assert got == pytest.approx(expected, rel=5e-2), f"{name} {row.joint}.{key}"
            elif key in lengths or row.units.get(key) == "m":
                assert got == pytest.approx(expected, abs=LENGTH_ABS), f"{name} {row.joint}.{key}"
            else:
                assert got == pytest.approx(expected, rel=ANGULAR_REL, abs=ANGULAR_ABS), f"{name} {row.joint}.{key}"


@pytest.fixture(scope="module")
def arm_results(folder) -> dict:
    """(test, twin) -> TestResult for the 4R fixture arm (yaw, two pitches, yaw), 120 deg/s caps."""
    paths = _twins(folder, "arm", lambda path, **units: build_arm(path, joints=4, **units))
    return {(test, twin): run_test(path, test) for test in (*DRIVEN, "ground_drop") for twin, path in paths.items()}


@pytest.mark.parametrize("twin", [t for t in TWINS if t != "m"])
@pytest.mark.parametrize("test", DRIVEN)
def test_driven_joint_verdicts_do_not_depend_on_stage_units(arm_results, test, twin):
    reference, result = arm_results[(test, "m")], arm_results[(test, twin)]
    assert reference.status is Status.PASS, reference.reason  # the healthy arm: every row exercised and judged
    assert result.status is reference.status, result.reason
    assert result.metrics.keys() == reference.metrics.keys()
    for key, expected in _numbers(reference.metrics).items():
        assert _numbers(result.metrics)[key] == pytest.approx(expected, rel=ANGULAR_REL, abs=ANGULAR_ABS), key
    _same_rows(reference, result, f"{test}/{twin}")


@pytest.mark.parametrize("twin", [t for t in TWINS if t != "m"])
def test_velocity_caps_of_the_centimetre_arm_hold_as_in_metres(arm_results, twin):
    """The item's own numbers: the pitch joints' position rates were 131.6 and 138.5 deg/s in cm (FAIL)."""
    reference, result = arm_results[("velocity_limit", "m")], arm_results[("velocity_limit", twin)]
    for ref_row, row in zip(reference.joints, result.joints):
        assert 0.9 <= row.measured["ratio"] <= 1.05
        assert math.degrees(row.measured["peak_displacement_rate"]) == pytest.approx(
            math.degrees(ref_row.measured["peak_displacement_rate"]), abs=0.01)  # deg/s


@pytest.mark.parametrize("twin", [t for t in TWINS if t != "m"])
def test_ground_drop_of_the_arm_does_not_depend_on_stage_units(arm_results, twin):
    reference, result = arm_results[("ground_drop", "m")], arm_results[("ground_drop", twin)]
    assert reference.status is Status.PASS and result.status is Status.PASS, result.reason
    for key, expected in _numbers(reference.metrics).items():
        tolerance = FRAME_TIME if ("time" in key or "seconds" in key) else LENGTH_ABS
        assert _numbers(result.metrics)[key] == pytest.approx(expected, abs=tolerance), key


@pytest.fixture(scope="module")
def single_joint_results(folder) -> dict:
    """(robot, test, twin) -> TestResult: a gravity-loaded horizontal link (revolute Y, 60 deg/s cap) and a
    5 cm slider along X (0.1 m/s cap, 50 N)."""
    robots = {
        "hinge": lambda path, **units: horizontal_arm(path, velocity_limit=60.0, **units),
        "slider": lambda path, **units: single_joint_robot(
            path, joint_type="prismatic", axis="X", limits=(-0.1, 0.1), stiffness=400.0, damping=40.0, max_force=50.0,
            velocity_limit=0.1, child_center=(0.0, 0.0, 0.14), child_half=(0.01, 0.02, 0.03), child_mass=0.05,
            joint_at=(0.0, 0.0, 0.11), **units),
    }
    out = {}
    for robot, build in robots.items():
        for twin, path in _twins(folder, robot, build).items():
            if twin in ("m", "cm_y_up"):
                for test in DRIVEN:
                    out[(robot, test, twin)] = run_test(path, test)
    return out


@pytest.mark.parametrize("test", DRIVEN)
def test_a_gravity_loaded_hinge_gets_the_same_numbers_in_centimetres(single_joint_results, test):
    reference, result = single_joint_results[("hinge", test, "m")], single_joint_results[("hinge", test, "cm_y_up")]
    assert reference.status is Status.PASS, reference.reason
    assert result.status is reference.status, result.reason
    _same_rows(reference, result, f"hinge {test}", lengths={"load_point"})


@pytest.mark.parametrize("test", DRIVEN)
def test_a_slider_gets_the_same_statuses_in_centimetres(single_joint_results, test):
    """Lengths agree after conversion (limits, holds, deflections within 1 mm); the slider's position rate under
    its cap is the runtime's known residue and is not compared (module docstring)."""
    reference, result = single_joint_results[("slider", test, "m")], single_joint_results[("slider", test, "cm_y_up")]
    assert reference.status is Status.PASS, reference.reason
    assert result.status is reference.status, result.reason
    for ref_row, row in zip(reference.joints, result.joints):
        assert row.status is ref_row.status
        for key in ("max_deflection", "hold_error_max", "hold_error_min", "zero_error", "final_error", "target",
                    "travel", "peak_velocity"):
            if key in ref_row.measured:
                assert row.measured[key] == pytest.approx(ref_row.measured[key], abs=LENGTH_ABS), key
