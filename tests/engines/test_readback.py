"""The runtime readback on real engines (issue 28): pxr-built assets, each authoring what one flag is about, read back
through the physx engine's tensor bindings (and Newton's model arrays where the flag applies), each beside a twin
that must read clean."""

from __future__ import annotations

import math

import pytest
from pxr import Sdf

from tests.fixtures.arms import build_arm
from tests.fixtures.driven_arms import edit_usd, set_limits_deg, single_joint_robot
from tests.fixtures.runs import require_engine
from omni.simready.physics_validator.core.readback import compare
from omni.simready.physics_validator.core.scene import SceneSpec
from omni.simready.physics_validator.core.usd import read_asset
from omni.simready.physics_validator.engines import engine_class

J1, J2 = "/Robot/joints/joint1", "/Robot/joints/joint2"


def read_back(path, engine: str = "physx", target: str | None = None, step: bool = True):
    """(entries keyed by (prim, property), the RuntimeValues) of the asset loaded on `engine`."""
    require_engine(engine)
    cls = engine_class(engine)
    eng = cls(target=target) if target else cls()
    asset = read_asset(path)
    eng.load(asset, SceneSpec(pin_base=True))
    try:
        if step:
            eng.step()
        values = eng.runtime_values()
        return {(e.joint or e.body, e.property): e for e in compare(asset, values)}, values
    finally:
        eng.close()


def flagged(entries) -> dict:
    return {key: e.flag for key, e in entries.items() if e.flag}


def clean_arm(path, **kw):
    """A tuned arm with no velocity cap: every value spelled the way each engine reads it."""
    return build_arm(path, joints=2, velocity_limit_deg=None, **kw)


@pytest.mark.parametrize("engine", ["physx", "newton"])
def test_a_clean_asset_reads_back_with_no_flag(tmp_path, engine):
    entries, _ = read_back(clean_arm(tmp_path / "clean.usda"), engine)
    assert flagged(entries) == {}
    stiffness = entries[(J1, "stiffness")]
    assert stiffness.unit == "N·m/°" and stiffness.authored_attribute == "drive:angular:physics:stiffness"
    assert stiffness.runtime == pytest.approx(2000.0 * math.pi / 180.0, rel=1e-6)  # per degree, as USD authors it
    assert entries[(J1, "upper")].runtime == pytest.approx(170.0, rel=1e-6) and entries[(J1, "upper")].unit == "°"
    assert entries[("/Robot/link1", "mass")].runtime == pytest.approx(0.5)


def test_a_legacy_cap_under_latest_is_ignored_and_carried_under_isaacsim5(tmp_path):
    path = build_arm(tmp_path / "legacy.usda", joints=2, velocity_attr="physxJoint:maxJointVelocity")
    entries, values = read_back(path, target="latest")
    cap = entries[(J1, "max_velocity")]
    assert (cap.flag, cap.authored, cap.runtime, cap.unit) == ("ignored", pytest.approx(120.0), math.inf, "°/s")
    assert cap.authored_attribute == "physxJoint:maxJointVelocity" and values.settings == {"physx.target": "latest"}
    carried, _ = read_back(path, target="isaacsim-5")  # the twin: carried to the per-axis spelling, enforced
    assert carried[(J1, "max_velocity")].flag is None and carried[(J1, "max_velocity")].runtime == pytest.approx(120.0, rel=1e-6)


def test_a_per_axis_cap_reads_as_authored(tmp_path):
    path = build_arm(tmp_path / "per_axis.usda", joints=2, velocity_attr="physxJointAxis:angular:maxJointVelocity")
    entries, _ = read_back(path, target="latest")
    assert entries[(J1, "max_velocity")].flag is None and entries[(J1, "max_velocity")].runtime == pytest.approx(120.0, rel=1e-6)


def _newton_friction(path):
    def change(stage):
        prim = stage.GetPrimAtPath(J2)
        prim.CreateAttribute("newton:friction", Sdf.ValueTypeNames.Float).Set(1.0)
        prim.CreateAttribute("newton:damping", Sdf.ValueTypeNames.Float).Set(0.0017)
    return edit_usd(clean_arm(path), change)


def test_newton_friction_read_by_ovphysx_is_from_other_attribute(tmp_path):
    entries, _ = read_back(_newton_friction(tmp_path / "newton_friction.usda"))
    for prop in ("static_friction", "dynamic_friction"):
        entry = entries[(J2, prop)]
        assert (entry.flag, entry.authored_attribute, entry.runtime, entry.unit) == ("from_other_attribute", "newton:friction",
                                                                                     1.0, "N·m")
    viscous = entries[(J2, "viscous_friction")]  # 0.0017 N m s/deg: the binding reads 0.0974 N m s/rad
    assert viscous.flag == "from_other_attribute" and viscous.runtime == pytest.approx(0.0017, rel=1e-5)
    assert entries[(J1, "static_friction")].flag is None and entries[(J1, "static_friction")].runtime == 0.0


def test_newton_friction_is_newtons_own_on_newton(tmp_path):
    entries, _ = read_back(_newton_friction(tmp_path / "newton_friction.usda"), "newton")
    assert entries[(J2, "static_friction")].flag is None and entries[(J2, "static_friction")].runtime == pytest.approx(1.0)
    assert flagged(entries) == {}


def test_a_360_00027_degree_limit_is_clamped_outside_an_articulation(tmp_path):
    """ovphysx clamps a revolute joint outside any articulation (a D6) to +-180 deg and logs it; inside an
    articulation it keeps the range (measured: the binding reads 360.00027 deg, 6.2831903 rad, not 2 pi)."""
    path = single_joint_robot(tmp_path / "maximal.usda", limits=(-360.00027, 360.00027), articulated=False)
    entries, _ = read_back(path)
    for prop, bound in (("lower", -180.0), ("upper", 180.0)):
        entry = entries[("/Robot/joints/joint", prop)]
        assert (entry.flag, entry.runtime, entry.unit) == ("clamped", bound, "°")
        assert entry.authored == pytest.approx(math.copysign(360.00027, bound), rel=1e-6)
    inside = set_limits_deg(clean_arm(tmp_path / "articulated.usda"), J1, -360.00027, 360.00027)
    entries, _ = read_back(inside)
    assert entries[(J1, "upper")].flag is None and entries[(J1, "upper")].runtime == pytest.approx(360.00027, abs=1e-3)
    within = single_joint_robot(tmp_path / "maximal_180.usda", limits=(-180.0, 180.0), articulated=False)
    entries, _ = read_back(within)
    assert entries[("/Robot/joints/joint", "upper")].flag is None and entries[("/Robot/joints/joint", "upper")].runtime is None


@pytest.mark.parametrize("engine", ["physx", "newton"])
def test_a_drive_less_joint_shows_defaulted_gains(tmp_path, engine):
    entries, _ = read_back(clean_arm(tmp_path / "passive.usda", passive=(2,)), engine)
    for prop in ("stiffness", "damping", "max_force"):
        entry = entries[(J2, prop)]
        assert entry.flag == "defaulted" and entry.authored is None and entry.note.startswith("no drive")
    assert entries[(J2, "stiffness")].runtime == 0.0
    assert {k for k, f in flagged(entries).items()} == {(J2, "stiffness"), (J2, "damping"), (J2, "max_force")}


def test_mujoco_armature_is_ignored_and_per_axis_friction_is_read(tmp_path):
    def change(stage):
        prim = stage.GetPrimAtPath(J1)
        prim.CreateAttribute("mjc:armature", Sdf.ValueTypeNames.Float).Set(0.2)
        prim.AddAppliedSchema("PhysxJointAxisAPI:angular")
        prim.CreateAttribute("physxJointAxis:angular:staticFrictionEffort", Sdf.ValueTypeNames.Float).Set(2.0)
        prim.CreateAttribute("physxJointAxis:angular:dynamicFrictionEffort", Sdf.ValueTypeNames.Float).Set(1.5)
    entries, _ = read_back(edit_usd(clean_arm(tmp_path / "mjc.usda"), change))
    assert entries[(J1, "armature")].flag == "ignored" and entries[(J1, "armature")].runtime == 0.0
    assert entries[(J1, "static_friction")].flag is None and entries[(J1, "static_friction")].runtime == 2.0
    assert entries[(J1, "dynamic_friction")].flag is None and entries[(J1, "dynamic_friction")].runtime == 1.5


def test_reading_before_the_first_step_leaves_the_engine_at_its_load_state(tmp_path):
    """Binding reads before the first step warm PhysX up (measured: a step happens; a joint authored outside its
    limit then runs one step ahead): the engine resets itself afterwards, so the run is the unread one."""
    require_engine("physx")

    def outside_its_limit(stage):
        prim = stage.GetPrimAtPath("/Robot/joints/joint")
        prim.AddAppliedSchema("PhysicsJointStateAPI:angular")
        prim.CreateAttribute("state:angular:physics:position", Sdf.ValueTypeNames.Float).Set(40.0)

    asset = read_asset(edit_usd(single_joint_robot(tmp_path / "out_of_limit.usda", limits=(-10.0, 10.0)), outside_its_limit))
    runs = []
    for probe in (False, True):
        eng = engine_class("physx")()
        eng.load(asset, SceneSpec(pin_base=True))
        if probe:
            eng.runtime_values()
        velocities = []
        for _ in range(5):
            eng.step()
            velocities.append(float(eng.joint_velocities()[0]))
        runs.append(velocities)
        eng.close()
    assert abs(runs[0][1]) > 0.1  # the limit pushes the joint back: a warm-up step would shift this sequence
    assert runs[1] == runs[0]
