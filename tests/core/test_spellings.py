"""core/usd/spellings.py on pxr-built USD: every authored spelling of a runtime property, in SI, with its attribute."""

from __future__ import annotations

import math

import pytest
from pxr import Sdf, UsdGeom

from tests.fixtures.arms import build_arm
from tests.fixtures.driven_arms import edit_usd
from omni.simready.physics_validator.core.usd import read_asset

J1 = "/Robot/joints/joint1"


def _author(stage):
    prim = stage.GetPrimAtPath(J1)
    for name, value in (("newton:velocityLimit", 90.0), ("physxJointAxis:rotX:maxJointVelocity", 60.0),
                        ("newton:friction", 1.0), ("mjc:frictionloss", 0.5), ("newton:damping", 0.0017),
                        ("mjc:damping", 0.1), ("mjc:armature", 0.2)):
        prim.CreateAttribute(name, Sdf.ValueTypeNames.Float).Set(value)


def test_every_spelling_is_read_in_si_with_its_attribute(tmp_path):
    path = edit_usd(build_arm(tmp_path / "arm.usda", joints=1), _author)
    spellings = read_asset(path).joints[J1].spellings
    velocity = {s.attribute: s.value for s in spellings["max_velocity"]}
    assert velocity == pytest.approx({"physxJoint:maxJointVelocity": math.radians(120), "newton:velocityLimit": math.radians(90),
                                      "physxJointAxis:rotX:maxJointVelocity": math.radians(60)})
    assert [s.attribute for s in spellings["static_friction"]] == ["newton:friction", "mjc:frictionloss"]
    viscous = {s.attribute: s.value for s in spellings["viscous_friction"]}
    assert viscous["newton:damping"] == pytest.approx(0.0017 * 180 / math.pi, rel=1e-6)  # per degree -> per radian
    assert viscous["mjc:damping"] == pytest.approx(0.1, rel=1e-6)  # MuJoCo authors per radian
    assert spellings["stiffness"][0].value == pytest.approx(2000.0, rel=1e-6)
    assert spellings["upper"][0].value == pytest.approx(math.radians(170.0))
    assert "dynamic_friction" in spellings and spellings["armature"][0].attribute == "mjc:armature"


def test_stage_units_scale_efforts_and_inertias(tmp_path):
    def centimetres(stage):
        UsdGeom.SetStageMetersPerUnit(stage, 0.01)
        _author(stage)

    spellings = read_asset(edit_usd(build_arm(tmp_path / "arm_cm.usda", joints=1), centimetres)).joints[J1].spellings
    friction = {s.attribute: s.value for s in spellings["static_friction"]}
    assert friction["newton:friction"] == pytest.approx(1.0 * 0.01**2)  # kg cm^2/s^2 -> N m
    assert spellings["armature"][0].value == pytest.approx(0.2 * 0.01**2)
    assert spellings["max_force"][0].value == pytest.approx(500.0 * 0.01**2)


def test_bodies_record_mass_materials_and_offsets(tmp_path):
    def author(stage):
        from tests.fixtures.usd_assets import add_material, bind_physics_material

        bind_physics_material(stage.GetPrimAtPath("/Robot/link1/collider"), add_material(stage, "/Robot/Steel", 0.8, 0.6, 0.1))
        collider = stage.GetPrimAtPath("/Robot/base/collider")
        collider.CreateAttribute("physxCollision:contactOffset", Sdf.ValueTypeNames.Float).Set(0.02)

    model = read_asset(edit_usd(build_arm(tmp_path / "arm.usda", joints=1), author))
    link1, base = model.bodies["/Robot/link1"].spellings, model.bodies["/Robot/base"].spellings
    assert link1["mass"][0].attribute == "physics:mass" and link1["mass"][0].value == pytest.approx(0.5)
    assert link1["static_friction"][0].value == pytest.approx((0.8,)) and not link1["static_friction"][0].partial
    assert "static_friction" not in base and base["contact_offset"][0].value == pytest.approx((0.02,))
