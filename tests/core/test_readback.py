"""The runtime readback's pure logic (core/readback.py, core/readback_links.py): which attribute a value came
from, each flag and its healthy twin, the tolerance, the author's units, and the verdicts a flag explains."""

from __future__ import annotations

import math

import numpy as np
import pytest

from tests.fixtures.hand_models import add_body, arm_model
from omni.simready.physics_validator.core.asset_model import AssetModel, Spelling
from omni.simready.physics_validator.core.readback import REL_TOL, RuntimeValues, close, compare
from omni.simready.physics_validator.core.readback_links import link
from omni.simready.physics_validator.core.results import AssetResult, JointRow, RuntimeReadback, TestResult
from omni.simready.physics_validator.core.status import Status
from omni.simready.physics_validator.physics_tests import default_registry

READS = {"max_velocity": ("physxJointAxis:{inst}:maxJointVelocity", "newton:velocityLimit"),
         "static_friction": ("physxJointAxis:{inst}:staticFrictionEffort", "newton:friction"),
         "stiffness": ("drive:{inst}:physics:stiffness",), "damping": ("drive:{inst}:physics:damping",),
         "max_force": ("drive:{inst}:physics:maxForce",), "lower": ("physics:lowerLimit",), "upper": ("physics:upperLimit",),
         "armature": ("physxJointAxis:{inst}:armature", "newton:armature")}
DEFAULTS = {"max_velocity": (math.inf,), "static_friction": (0.0,), "stiffness": (0.0,), "damping": (0.0,),
            "max_force": (math.inf, 0.0), "armature": (0.0,), "lower": (-math.inf,), "upper": (math.inf,)}
J1 = "/Arm/j1"


def runtime(**joint_values) -> RuntimeValues:
    """PhysX-like runtime description with joint j1's values (SI)."""
    return RuntimeValues(engine="physx", joints={J1: joint_values}, reads=READS, own=("physics:", "drive:", "physx"),
                         defaults=DEFAULTS, body_defaults={"static_friction": (0.5,)})


def entry(model, values: RuntimeValues, prop: str, path: str = J1):
    return next(e for e in compare(model, values) if (e.joint or e.body) == path and e.property == prop)


def with_spellings(**spellings) -> AssetModel:
    model = arm_model()
    model.joints[J1].spellings = {prop: [Spelling(a, v) for a, v in items] for prop, items in spellings.items()}
    return model


def test_a_value_read_from_the_spelling_the_runtime_reads_first_has_no_flag():
    model = with_spellings(max_velocity=[("physxJointAxis:angular:maxJointVelocity", math.radians(120))])
    e = entry(model, runtime(max_velocity=math.radians(120) * (1 + 3e-7)), "max_velocity")  # float32 rounding
    assert (e.flag, e.unit, e.authored, e.runtime) == (None, "°/s", 120.0, 120.0)
    assert e.authored_attribute == "physxJointAxis:angular:maxJointVelocity"


def test_an_attribute_the_runtime_does_not_parse_is_ignored():
    model = with_spellings(max_velocity=[("physxJoint:maxJointVelocity", math.radians(120))])
    e = entry(model, runtime(max_velocity=math.inf), "max_velocity")
    assert e.flag == "ignored" and e.runtime == math.inf and "does not parse physxJoint:maxJointVelocity" in e.note


def test_another_engines_attribute_the_runtime_reads_is_from_other_attribute():
    model = with_spellings(static_friction=[("newton:friction", 1.0)])
    e = entry(model, runtime(static_friction=1.0), "static_friction")
    assert (e.flag, e.authored_attribute, e.runtime, e.unit) == ("from_other_attribute", "newton:friction", 1.0, "N·m")
    zero = entry(with_spellings(static_friction=[("newton:friction", 0.0)]), runtime(static_friction=0.0), "static_friction")
    assert zero.flag is None  # read from Newton's attribute, but it is the default: nothing changes


def test_a_legacy_spelling_beside_the_one_read_names_the_one_read():
    model = with_spellings(max_velocity=[("physxJoint:maxJointVelocity", 2.0), ("newton:velocityLimit", 2.0)])
    e = entry(model, runtime(max_velocity=2.0), "max_velocity")
    assert e.flag == "from_other_attribute" and e.authored_attribute == "newton:velocityLimit"
    assert "physxJoint:maxJointVelocity not parsed" in e.note


def test_a_lower_precedence_spelling_the_runtime_fell_back_to_is_from_other_attribute():
    """A PhysX zero cannot clear a Newton seed (ovphysx PhysxJointAxisAPI.md): the runtime reads newton:armature."""
    model = with_spellings(armature=[("physxJointAxis:angular:armature", 0.0), ("newton:armature", 0.01)])
    e = entry(model, runtime(armature=0.01), "armature")
    assert e.flag == "from_other_attribute" and e.authored_attribute == "newton:armature"


def test_values_beyond_the_runtimes_range_are_clamped_and_within_it_are_not():
    model = with_spellings(upper=[("physics:upperLimit", math.radians(360.00027))])
    values = runtime(upper=math.pi)
    values.clamps[(J1, "upper")] = (-math.pi, math.pi)
    e = entry(model, values, "upper")
    assert (e.flag, e.runtime, e.unit) == ("clamped", 180.0, "°") and e.authored == pytest.approx(360.00027)
    kept = runtime(upper=math.radians(360.00027) * (1 + 1e-7))  # no clamp range: read as authored
    assert entry(model, kept, "upper").flag is None
    # beyond a range but read as authored (the runtime did not clamp): nearer the authored value, not clamped
    kept.clamps[(J1, "upper")] = (-2 * math.pi, 2 * math.pi)
    assert entry(model, kept, "upper").flag is None


def test_not_authored_drive_gains_are_defaulted_other_properties_are_not():
    model = arm_model(drives=False)
    values = runtime(stiffness=0.0, damping=0.0, max_force=0.0, armature=0.0, static_friction=0.0)
    flags = {e.property: e.flag for e in compare(model, values) if e.joint == J1}
    assert flags == {"stiffness": "defaulted", "damping": "defaulted", "max_force": "defaulted", "armature": None,
                     "static_friction": None}
    assert entry(model, values, "stiffness").note.startswith("no drive")


def test_a_value_read_and_still_different_differs():
    model = with_spellings(stiffness=[("drive:angular:physics:stiffness", 1000.0)])
    assert entry(model, runtime(stiffness=1000.0 * (1 + 10 * REL_TOL)), "stiffness").flag == "differs"
    assert entry(model, runtime(stiffness=1000.0 * (1 + 0.1 * REL_TOL)), "stiffness").flag is None


def test_an_engine_that_cannot_say_gives_no_runtime_value_and_no_flag():
    model = with_spellings(stiffness=[("drive:angular:physics:stiffness", 1000.0)])
    values = runtime(stiffness=math.nan)
    values.unreadable[J1] = "outside any articulation"
    e = entry(model, values, "stiffness")
    assert (e.flag, e.runtime, e.note) == (None, None, "outside any articulation")


def test_gains_are_shown_per_degree_and_prismatic_values_in_si():
    model = with_spellings(stiffness=[("drive:angular:physics:stiffness", 1145.9156)])  # 20 N m/deg in N m/rad
    assert entry(model, runtime(stiffness=1145.9156), "stiffness").runtime == pytest.approx(20.0, rel=1e-6)
    model.joints[J1].type = "prismatic"
    e = entry(model, runtime(stiffness=1145.9156), "stiffness")
    assert e.unit == "N/m" and e.runtime == pytest.approx(1145.9156)


def test_close_treats_infinities_exactly_and_near_zero_absolutely():
    assert close(math.inf, math.inf) and not close(math.inf, 1e38) and not close(-math.inf, math.inf)
    assert close(0.0, 1e-12) and not close(0.0, 1e-6)
    assert close((1.0, 2.0), (1.0, 2.0 * (1 + 1e-7))) and not close((1.0,), (1.0, 2.0))


def _body_model(**body) -> AssetModel:
    model = AssetModel(path="hand:bodies", default_prim="/B")
    add_body(model, "/B", (0, 0, 1), mass=body.get("mass"), half_extents=np.full(3, 0.1))
    model.bodies["/B"].spellings = body.get("spellings", {})
    return model


def test_a_body_without_mass_or_density_is_defaulted_and_an_authored_mass_is_compared():
    values = RuntimeValues(engine="physx", bodies={"/B": {"mass": 8.0}})
    assert entry(_body_model(), values, "mass", "/B").flag == "defaulted"
    authored = _body_model(spellings={"mass": [Spelling("physics:mass", 2.0)]})
    assert entry(authored, values, "mass", "/B").flag == "differs"
    density = _body_model(spellings={"mass": [Spelling("physics:density", 1000.0, comparable=False)]})
    assert entry(density, values, "mass", "/B").flag is None


def test_per_shape_materials_compare_as_sets_with_the_default_for_unbound_colliders():
    values = RuntimeValues(engine="physx", bodies={"/B": {"static_friction": (0.5, 0.8)}},
                           body_defaults={"static_friction": (0.5,)})
    partial = _body_model(spellings={"static_friction": [Spelling("physics:staticFriction", (0.8,), partial=True)]})
    assert entry(partial, values, "static_friction", "/B").flag is None
    whole = _body_model(spellings={"static_friction": [Spelling("physics:staticFriction", (0.8,))]})
    assert entry(whole, values, "static_friction", "/B").flag == "differs"


def _result(readback_entries, velocity_status=Status.FAIL, row_path=J1) -> AssetResult:
    test = TestResult(name="velocity_limit", status=velocity_status,
                      joints=[JointRow(joint="j1", path=row_path, status=velocity_status)])
    drive = TestResult(name="drive_gain_validation", status=Status.PASS)
    return AssetResult(path="a.usda", tests=[test, drive],
                       runtime_readback=RuntimeReadback(engine="physx", entries=readback_entries))


def test_a_flag_is_linked_to_the_verdicts_it_explains_and_to_its_fix():
    model = with_spellings(max_velocity=[("physxJoint:maxJointVelocity", math.radians(120))])
    entries = compare(model, runtime(max_velocity=math.inf))
    result = _result(entries)
    link(result, default_registry())
    cap = next(e for e in result.runtime_readback.entries if e.property == "max_velocity")
    assert cap.explains == ["velocity_limit FAIL"]
    assert "physxJointAxis:angular:maxJointVelocity" in cap.fix and "simready-physics fix" in cap.fix
    other_joint = _result(compare(model, runtime(max_velocity=math.inf)), row_path="/Arm/j2")
    link(other_joint, default_registry())
    assert next(e for e in other_joint.runtime_readback.entries if e.property == "max_velocity").explains == []
    passing = _result(compare(model, runtime(max_velocity=math.inf)), velocity_status=Status.PASS)
    link(passing, default_registry())
    assert next(e for e in passing.runtime_readback.entries if e.property == "max_velocity").explains == []


def test_the_block_survives_json_with_infinities():
    model = with_spellings(max_velocity=[("physxJoint:maxJointVelocity", 2.0)])
    block = RuntimeReadback(engine="physx", entries=compare(model, runtime(max_velocity=math.inf)))
    again = RuntimeReadback.model_validate_json(block.model_dump_json())
    cap = next(e for e in again.entries if e.property == "max_velocity")
    assert cap.runtime == math.inf and '"inf"' in block.model_dump_json()


def test_a_negligible_joint_friction_is_flagged_but_explains_no_verdict():
    """Friction links a verdict only when it can hold the drive off by a tenth of the tightest tolerance (1e-3 rad)."""
    def result_with(friction_nm: float) -> AssetResult:
        model = with_spellings(static_friction=[("newton:friction", friction_nm)],
                               stiffness=[("drive:angular:physics:stiffness", 1000.0)])
        entries = compare(model, runtime(static_friction=friction_nm, stiffness=1000.0))
        result = AssetResult(path="a.usda", runtime_readback=RuntimeReadback(engine="physx", entries=entries),
                             tests=[TestResult(name="full_range_sweep", status=Status.FAIL,
                                               joints=[JointRow(joint="j1", path=J1, status=Status.FAIL)])])
        link(result, default_registry())
        return result

    def friction(result):
        return next(e for e in result.runtime_readback.entries if e.property == "static_friction")

    assert friction(result_with(0.5)).flag == "from_other_attribute" and friction(result_with(0.5)).explains == []
    assert friction(result_with(2.0)).explains == ["full_range_sweep FAIL"]  # 2 N m >= 1000 N m/rad x 1e-3 rad


def test_a_velocity_cap_explains_velocity_limit_only_when_the_runtime_cap_is_not_the_judged_one():
    def explains(runtime_cap: float, judged_cap: float):
        model = with_spellings(max_velocity=[("newton:velocityLimit", runtime_cap)])
        row = JointRow(joint="j1", path=J1, status=Status.FAIL, limits={"velocity_limit": judged_cap})
        result = AssetResult(path="a.usda", tests=[TestResult(name="velocity_limit", status=Status.FAIL, joints=[row])],
                             runtime_readback=RuntimeReadback(engine="physx",
                                                              entries=compare(model, runtime(max_velocity=runtime_cap))))
        link(result, default_registry())
        return next(e for e in result.runtime_readback.entries if e.property == "max_velocity").explains

    assert explains(2.0, 2.0) == []  # Newton's cap is the one judged: the FAIL has another cause
    assert explains(2.5, 2.0) == ["velocity_limit FAIL"]
    ignored = with_spellings(max_velocity=[("physxJoint:maxJointVelocity", 2.0)])
    row = JointRow(joint="j1", path=J1, status=Status.FAIL, limits={"velocity_limit": 2.0})
    result = AssetResult(path="a.usda", tests=[TestResult(name="velocity_limit", status=Status.FAIL, joints=[row])],
                         runtime_readback=RuntimeReadback(engine="physx",
                                                          entries=compare(ignored, runtime(max_velocity=math.inf))))
    link(result, default_registry())
    assert next(e for e in result.runtime_readback.entries if e.property == "max_velocity").explains == ["velocity_limit FAIL"]
