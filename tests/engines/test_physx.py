"""The physx engine (ovphysx, the Omni PhysX runtime) specifics, on pxr-built USD with analytic answers:
the wrapper stage, units, pinning, `physx.target` semantics for velocity limits (engine, velocity_limit
test and CLI), forces at a point, reset, the mass matrix, warnings, and no ovphysx import before a load."""

from __future__ import annotations

import hashlib
import json
import math
import shutil
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from tests.engines.conformance import usd_builders as ub
from tests.fixtures.arms import ArmSpec, build_arm
from omni.simready.physics_validator.core.config import ValidationConfig
from omni.simready.physics_validator.core.scene import GroundSpec, SceneSpec
from omni.simready.physics_validator.core.session import TestSession
from omni.simready.physics_validator.core.status import Status
from omni.simready.physics_validator.core.usd import read_asset
from omni.simready.physics_validator.engines import EngineUnavailable, create_engine, engine_settings
from omni.simready.physics_validator.physics_tests import default_registry

try:
    from omni.simready.physics_validator.engines.physx import OvPhysxEngine
except (ImportError, EngineUnavailable) as exc:  # pragma: no cover - the wheel is a base dependency
    pytest.skip(f"physx engine unavailable: {exc}", allow_module_level=True)

G = 9.81
LEGACY, PER_AXIS, NEWTON = "physxJoint:maxJointVelocity", "physxJointAxis:angular:maxJointVelocity", "newton:velocityLimit"


@pytest.fixture
def make():
    engines = []

    def _make(**options):
        engine = OvPhysxEngine(**options)
        engines.append(engine)
        return engine

    yield _make
    for engine in engines:
        engine.close()


def run(engine, seconds, each_step=None):
    for _ in range(int(round(seconds / engine.dt))):
        if each_step is not None:
            each_step()
        engine.step()


def sha(path) -> str:
    return hashlib.sha256(Path(path).read_bytes()).hexdigest()


# -- the wrapper stage ------------------------------------------------------------------------------
def test_wrapper_is_never_beside_the_asset_and_the_asset_is_unchanged(make, tmp_path, monkeypatch):
    path = build_arm(tmp_path / "arm.usda", ArmSpec(joints=2))
    before = {p.name: sha(p) for p in tmp_path.iterdir()}
    warm = make()  # ovphysx keeps a probe folder of its own in the system temp folder for the process's life
    warm.load(read_asset(ub.free_box(tmp_path.parent / f"{tmp_path.name}-warm" / "box.usda")), SceneSpec())
    warm.close()
    monkeypatch.setattr("tempfile.tempdir", str(tmp_path))  # the system temp folder IS the asset's folder
    engine = make(keep_wrapper=True)
    engine.load(read_asset(path), SceneSpec(ground=GroundSpec(), pin_base=True, place_bottom_at=0.0))
    run(engine, 0.1)
    wrapper = Path(engine.wrapper.path).resolve()
    assert tmp_path.resolve() not in wrapper.parents  # not beside the asset, nor below its folder
    assert wrapper.read_text().count(str(path.resolve())) == 1  # the asset is sublayered
    engine.reset()
    engine.close()
    assert {p.name: sha(p) for p in tmp_path.iterdir()} == before  # nothing written, nothing changed
    shutil.rmtree(wrapper.parent)  # kept for the check above


def test_wrapper_goes_to_the_given_folder_and_is_removed_on_close(make, tmp_path):
    path = ub.free_box(tmp_path / "assets" / "box.usda")
    out = tmp_path / "run-outputs"
    engine = make(workdir=str(out))
    engine.load(read_asset(path), SceneSpec(ground=GroundSpec()))
    assert out.resolve() in Path(engine.wrapper.path).resolve().parents
    engine.close()
    assert not any(out.iterdir())


# -- units and frames -------------------------------------------------------------------------------
def test_y_up_centimetre_arm_reads_like_the_z_up_metre_arm(make, tmp_path):
    readings = []
    for up, mpu in (("Z", 1.0), ("Y", 0.01)):
        path = two_link_arm(tmp_path / f"arm_{up}.usda", up_axis=up, meters_per_unit=mpu, stiffness_per_deg=2.0, axis="Z")
        engine = make()
        engine.load(read_asset(path), SceneSpec())
        lo, hi = engine.bounds()
        gains = engine.drive_gains()["stiffness"]
        engine.set_joint_position_targets(np.array([0.3, -0.2]))
        run(engine, 1.0)
        link = engine.body_poses()["/Asset/Link2"][0]
        readings.append((lo, hi, gains, engine.joint_positions(), link, engine.mass_matrix()))
        engine.close()  # one PhysX SDK per process: a live instance at other stage units refuses the next attach
    (lo_m, hi_m, k_m, q_m, p_m, m_m), (lo_c, hi_c, k_c, q_c, p_c, m_c) = readings
    assert lo_c == pytest.approx(lo_m, abs=1e-6) and hi_c == pytest.approx(hi_m, abs=1e-6)  # metres, Z up
    assert k_c == pytest.approx(k_m, rel=1e-5) and k_m == pytest.approx(np.full(2, 2.0 * 180 / math.pi), rel=1e-5)
    assert q_c == pytest.approx(q_m, abs=2e-4) and p_c == pytest.approx(p_m, abs=2e-4)
    assert m_c == pytest.approx(m_m, rel=1e-4)


# -- pinning ----------------------------------------------------------------------------------------
@pytest.mark.parametrize("root_on", ["body", "body+newton", "xform"])
def test_pinning_gives_a_fixed_base_articulation(make, tmp_path, root_on):
    from pxr import Usd, UsdPhysics

    path = build_arm(tmp_path / "arm.usda", ArmSpec(joints=3))
    stage = Usd.Stage.Open(str(path))
    if root_on == "xform":  # ArticulationRootAPI on the robot's Xform: PhysX elects the root over the subtree
        stage.GetPrimAtPath("/Robot/base").RemoveAPI(UsdPhysics.ArticulationRootAPI)
        UsdPhysics.ArticulationRootAPI.Apply(stage.GetPrimAtPath("/Robot"))
    if root_on == "body+newton":  # converted assets (erd_panda) also carry Newton's root API: it must move too
        stage.GetPrimAtPath("/Robot/base").AddAppliedSchema("NewtonArticulationRootAPI")
    stage.GetRootLayer().Save()
    engine = make()
    engine.load(read_asset(path), SceneSpec(pin_base=True, place_bottom_at=0.3))
    assert list(engine.fixed_base.values()) == [True]
    base = engine.body_poses()["/Robot/base"][0].copy()
    engine.set_joint_position_targets(np.array([1.0, 0.8, -0.8]))
    drift = []
    run(engine, 1.5, lambda: drift.append(np.linalg.norm(engine.body_poses()["/Robot/base"][0] - base)))
    assert max(drift) < 1e-6  # a floating articulation held by a maximal joint drifted 2e-5 m (FINDINGS)
    assert engine.joint_positions() == pytest.approx([1.0, 0.8, -0.8], abs=0.02)
    assert not [w for w in engine.warnings if "pinning" in w]


def test_a_joint_to_the_world_is_not_welded_by_pinning(make, tmp_path):
    """ArticulationRootAPI on a link hinged to the world: pinning must not weld it (the hinge is its base)."""
    from pxr import Usd, UsdPhysics

    path = ub.hinge_arm(tmp_path / "pendulum.usda", stiffness_per_deg=1.0, damping_per_deg=0.05)
    stage = Usd.Stage.Open(str(path))  # the link hinged straight to the world, no base body
    stage.RemovePrim("/Asset/Base")
    stage.RemovePrim("/Asset/BaseAnchor")
    stage.GetPrimAtPath("/Asset/Hinge").GetRelationship("physics:body0").ClearTargets(True)
    stage.GetPrimAtPath("/Asset").RemoveAPI(UsdPhysics.ArticulationRootAPI)
    UsdPhysics.ArticulationRootAPI.Apply(stage.GetPrimAtPath("/Asset/Link"))
    stage.GetRootLayer().Save()
    engine = make()
    engine.load(read_asset(path), SceneSpec(pin_base=True, gravity=0.0))
    engine.set_joint_position_targets(np.array([0.5]))
    run(engine, 2.0)
    assert engine.joint_positions()[0] == pytest.approx(0.5, abs=0.02)


# -- physx.target: legacy, per-axis and Newton velocity-limit spellings -----------------------------
@pytest.mark.parametrize("attr", [LEGACY, PER_AXIS, NEWTON])
@pytest.mark.parametrize("target", ["isaacsim-5", "latest"])
def test_enforced_velocity_limit_follows_the_target(make, tmp_path, attr, target):
    path = build_arm(tmp_path / "arm.usda", ArmSpec(joints=2, velocity_attr=attr, velocity_limit_deg=90.0))
    engine = make(target=target)
    engine.load(read_asset(path), SceneSpec(pin_base=True))
    ignored = attr == LEGACY and target == "latest"
    expected = math.inf if ignored else math.radians(90.0)
    assert engine.joint_velocity_limits() == pytest.approx(np.full(2, expected))
    engine.set_joint_position_targets(np.array([2.5, 0.0]))
    peak = []
    run(engine, 1.0, lambda: peak.append(abs(engine.joint_velocities()[0])))
    if ignored:
        assert max(peak) > 3 * math.radians(90.0)  # uncapped (the joint ran at ~1665 deg/s in the findings)
    else:
        assert math.radians(90.0) * 0.95 < max(peak) <= math.radians(90.0) * 1.05
    carried = [w for w in engine.warnings if "carried over" in w]
    assert len(carried) == (2 if attr == LEGACY and target == "isaacsim-5" else 0)
    if carried:
        assert LEGACY in carried[0] and PER_AXIS in carried[0] and "PhysxJointAxisAPI:angular" in carried[0]


def test_an_authored_per_axis_value_wins_over_the_legacy_one(make, tmp_path):
    from pxr import Sdf, Usd

    path = build_arm(tmp_path / "arm.usda", ArmSpec(joints=1, velocity_attr=LEGACY, velocity_limit_deg=90.0))
    stage = Usd.Stage.Open(str(path))  # both spellings: the runtime reads the per-axis one, so must the carry-over
    joint = stage.GetPrimAtPath("/Robot/joints/joint1")
    joint.AddAppliedSchema("PhysxJointAxisAPI:angular")
    joint.CreateAttribute(PER_AXIS, Sdf.ValueTypeNames.Float).Set(60.0)
    stage.GetRootLayer().Save()
    engine = make(target="isaacsim-5")
    engine.load(read_asset(path), SceneSpec(pin_base=True))
    assert engine.joint_velocity_limits() == pytest.approx([math.radians(60.0)])
    assert not [w for w in engine.warnings if "carried over" in w]


def _velocity_limit(path, target):
    config = ValidationConfig.defaults(default_registry(), engine_settings())
    config.apply_set([f"physx.target={target}"])
    test_cls = default_registry().get("velocity_limit")
    engine = create_engine("physx", config)
    return TestSession(test_cls(), read_asset(path), test_cls.Config(), engine).run_to_end()


def test_legacy_velocity_limit_passes_with_a_warning_under_isaacsim_5_and_fails_under_latest(tmp_path):
    path = build_arm(tmp_path / "arm.usda", ArmSpec(joints=2, velocity_attr=LEGACY))
    isaac = _velocity_limit(path, "isaacsim-5")
    assert isaac.status is Status.PASS, isaac.reason
    forward = [w for w in isaac.warnings if w.startswith("engine: ") and "carried over" in w]
    assert len(forward) == 2 and all(LEGACY in w and PER_AXIS in w for w in forward)
    latest = _velocity_limit(path, "latest")
    assert latest.status is Status.FAIL
    assert all(r.status is Status.FAIL and r.measured["ratio"] > 2 for r in latest.joints)
    assert "does not parse physxJoint:maxJointVelocity" in latest.joints[0].reason
    assert any(PER_AXIS in hint and "PhysxJointAxisAPI:angular" in hint for hint in latest.fix_hints)


@pytest.mark.parametrize("attr", [PER_AXIS, NEWTON])
def test_per_axis_and_newton_spellings_pass_under_both_targets(tmp_path, attr):
    path = build_arm(tmp_path / "arm.usda", ArmSpec(joints=2, velocity_attr=attr))
    for target in ("isaacsim-5", "latest"):
        result = _velocity_limit(path, target)
        assert result.status is Status.PASS, (target, result.reason)
        assert not [w for w in result.warnings if "carried over" in w or "not parsed" in w]


def test_cli_physx_target_latest_fails_the_legacy_spelling(tmp_path):
    path = build_arm(tmp_path / "assets" / "arm.usda", ArmSpec(joints=2, velocity_attr=LEGACY))
    out = tmp_path / "out"
    cli = [sys.executable, "-m", "omni.simready.physics_validator.cli", "validate", str(path), "--tests", "velocity_limit",
           "--no-video", "--no-html", "--out", str(out), "--set", "physx.target=latest"]
    proc = subprocess.run(cli, capture_output=True, text=True, timeout=600)  # a worker process: the setting crosses it
    assert proc.returncode == 1, proc.stderr
    report = json.loads((out / "report.json").read_text())
    assert report["engine"]["settings"] == {"physx.target": "latest"}
    result = report["assets"][0]["tests"][0]
    assert result["status"] == "FAIL"
    assert any(PER_AXIS in hint for hint in result["fix_hints"])
    assert any("is not parsed by PhysX 5.12" in w for w in result["warnings"])


def test_physx_target_is_part_of_the_cache_key(tmp_path):
    from omni.simready.physics_validator import validate

    path = build_arm(tmp_path / "arm.usda", ArmSpec(joints=1))
    out = tmp_path / "out"
    config = ValidationConfig.defaults(default_registry(), engine_settings())
    config.run.video, config.run.isolate = False, False
    validate([path], ["velocity_limit"], config, "physx", out)
    again = validate([path], ["velocity_limit"], config, "physx", out, changed_only=True)
    assert again.assets[0].from_cache == ["velocity_limit"]
    config.apply_set(["physx.target=latest"])
    latest = validate([path], ["velocity_limit"], config, "physx", out, changed_only=True)
    assert latest.assets[0].from_cache == [] and latest.engine.settings == {"physx.target": "latest"}


# -- forces, reset, mass matrix ---------------------------------------------------------------------
@pytest.mark.parametrize("up, mpu", [("Z", 1.0), ("Y", 0.01)])
def test_force_at_a_point_gives_its_impulse_and_torque(make, tmp_path, up, mpu):
    # at the origin: PhysX integrates poses in float32, whose steps near z = 1 m are 1e-3 of this motion
    path = ub.free_box(tmp_path / "box.usda", half=0.05, position=(0, 0, 0.0), mass=1.0, up_axis=up, meters_per_unit=mpu)
    engine = make()
    engine.load(read_asset(path), SceneSpec(gravity=0.0))
    body = "/Asset/Body"
    start = engine.body_poses()[body][0].copy()
    engine.apply_force(body, np.array([0.0, 0.0, 10.0]), np.array([0.05, 0.0, 0.0]))  # 5 cm +x of the COM
    engine.step()
    after_push = [a.copy() for a in engine.body_poses()[body]]
    engine.step()  # one free step: displacement = velocity x dt
    pos, quat = engine.body_poses()[body]
    v = (pos[2] - after_push[0][2]) / engine.dt
    assert v == pytest.approx(10.0 / 1.0 * engine.dt, rel=1e-3)  # F/m dt
    pitch = 2 * math.atan2(quat[2], quat[0]) - 2 * math.atan2(after_push[1][2], after_push[1][0])
    assert pitch / engine.dt == pytest.approx(-0.5 / (1.0 * 0.02 / 12) * engine.dt, rel=2e-3)  # tau/I dt, about -Y
    assert pos[:2] == pytest.approx(start[:2], abs=1e-9)


def test_reset_restores_poses_joints_targets_and_time(make, tmp_path):
    path = build_arm(tmp_path / "arm.usda", ArmSpec(joints=3))
    engine = make()
    engine.load(read_asset(path), SceneSpec(pin_base=True))
    poses = {p: (x.copy(), q.copy()) for p, (x, q) in engine.body_poses().items()}
    q0 = engine.joint_positions().copy()
    engine.set_joint_position_targets(np.array([0.8, -0.5, 0.5]))
    engine.apply_force("/Robot/link3", np.array([5.0, 0.0, 0.0]))
    run(engine, 0.5)
    assert np.abs(engine.joint_positions() - q0).max() > 0.3
    engine.reset()
    assert engine.time == 0.0
    assert engine.joint_positions() == pytest.approx(q0, abs=1e-7)
    for path_, (x, _q) in poses.items():
        assert engine.body_poses()[path_][0] == pytest.approx(x, abs=1e-7)
    run(engine, 0.5)  # the authored targets (0) are back: the arm stays where it was
    assert engine.joint_positions() == pytest.approx(q0, abs=1e-3)


def two_link_arm(path, up_axis="Z", meters_per_unit=1.0, stiffness_per_deg=None, length=0.4, thickness=0.02, masses=(1.0, 0.5),
                 axis="Y"):
    """A base welded to the world and two links along +X hinged about `axis` (a planar 2R arm). On a Y-up twin
    only a Z axis keeps its sense (the writer's world Y is stage -Z, and an axis token has no sign)."""
    from pxr import UsdPhysics

    w = ub.StageWriter(path, up_axis, meters_per_unit)
    UsdPhysics.ArticulationRootAPI.Apply(w.stage.GetPrimAtPath("/Asset"))
    w.body("/Asset/Base", (0, 0, 1.0), mass=5.0)
    w.box("/Asset/Base/Geom", (0.05, 0.05, 0.05))
    w.world_anchor("/Asset/BaseAnchor", "/Asset/Base", (0, 0, 1.0))
    half, x0 = length / 2, 0.06
    for i, (name, parent, mass) in enumerate((("Link1", "/Asset/Base", masses[0]), ("Link2", "/Asset/Link1", masses[1]))):
        hinge_x = x0 + i * length
        w.body(f"/Asset/{name}", (hinge_x + half, 0, 1.0), mass=mass)
        w.box(f"/Asset/{name}/Geom", (half, thickness / 2, thickness / 2))
        pos0 = (x0, 0, 0) if i == 0 else (half, 0, 0)
        joint = w.revolute(f"/Asset/Joint{i + 1}", parent, f"/Asset/{name}", pos0, (-half, 0, 0), axis, (-170, 170))
        if stiffness_per_deg is not None:  # SI (N m/deg) written in stage units (kg u^2/s^2 per degree)
            w.angular_drive(joint, stiffness_per_deg * w.units**2, stiffness_per_deg * w.units**2 / 10)
    return w.save()


@pytest.mark.parametrize("joints", [1, 2])
def test_mass_matrix_matches_the_analytic_planar_arm(make, tmp_path, joints):
    length, thickness, (m1, m2) = 0.4, 0.02, (1.0, 0.5)
    path = two_link_arm(tmp_path / "arm.usda", length=length, thickness=thickness, masses=(m1, m2))
    if joints == 1:  # weld the second link: one DOF carrying both links
        from pxr import Usd

        stage = Usd.Stage.Open(str(path))
        stage.GetPrimAtPath("/Asset/Joint2").SetTypeName("PhysicsFixedJoint")
        stage.GetRootLayer().Save()
    engine = make()
    engine.load(read_asset(path), SceneSpec(gravity=0.0))
    inertia = lambda m: m * (length**2 + thickness**2) / 12  # noqa: E731 - a box about its centre, about Y
    lc, l1 = length / 2, length
    m22 = inertia(m2) + m2 * lc**2
    m12 = inertia(m2) + m2 * (lc**2 + l1 * lc)
    m11 = inertia(m1) + m1 * lc**2 + inertia(m2) + m2 * (l1**2 + lc**2 + 2 * l1 * lc)
    expected = np.array([[m11]]) if joints == 1 else np.array([[m11, m12], [m12, m22]])
    assert engine.mass_matrix() == pytest.approx(expected, rel=1e-4)


# -- warnings and process safety --------------------------------------------------------------------
def test_runtime_warnings_reach_the_verdict(tmp_path):
    """The runtime's own log (here: a per-axis attribute on the turntable, a joint outside any articulation)
    becomes 'engine: ovphysx warning: ...' on the verdict."""
    path = build_arm(tmp_path / "arm.usda", ArmSpec(joints=1, turntable=True, velocity_attr=PER_AXIS))
    test_cls = default_registry().get("velocity_limit")
    result = TestSession(test_cls(), read_asset(path), test_cls.Config(), create_engine("physx")).run_to_end()
    runtime = [w for w in result.warnings if w.startswith("engine: ovphysx warning:")]
    assert any("PhysxJointAxisAPI is supported only for joints that are part of an articulation" in w
               and "/Robot/joints/turntable_joint" in w for w in runtime), result.warnings


def test_nothing_imports_ovphysx_before_a_load(tmp_path):
    code = (
        "import sys\n"
        "import omni.simready.physics_validator, omni.simready.physics_validator.cli\n"
        "from omni.simready.physics_validator.engines import create_engine\n"
        "from omni.simready.physics_validator.run.batch import engine_info\n"
        "e = create_engine('physx'); print(e.version); print(engine_info('physx').settings)\n"
        "assert 'ovphysx' not in sys.modules and 'ovstage' not in sys.modules, 'ovphysx imported'\n"
    )
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.splitlines()[0] == "ovphysx 0.7.0.74035321 / PhysX 5.12"


def test_articulations_with_different_dof_counts_load_read_and_drive(make, tmp_path):
    """A 3-joint arm beside a 1-joint arm in one stage: PhysX's view over both is heterogeneous (its tensor binding
    has no common DOF metadata; the corpus' planar manipulator with its peg read 'heterogeneous or empty view')."""
    from pxr import Usd, UsdGeom, UsdPhysics

    parts = {"big": (build_arm(tmp_path / "big.usda", ArmSpec(joints=3)), 0.0),
             "small": (build_arm(tmp_path / "small.usda", ArmSpec(joints=1)), 1.0)}
    path = tmp_path / "two_articulations.usda"
    stage = Usd.Stage.CreateNew(str(path))
    UsdGeom.SetStageUpAxis(stage, UsdGeom.Tokens.z)
    UsdGeom.SetStageMetersPerUnit(stage, 1.0)
    UsdPhysics.SetStageKilogramsPerUnit(stage, 1.0)
    stage.SetDefaultPrim(UsdGeom.Xform.Define(stage, "/World").GetPrim())
    for name, (source, x) in parts.items():
        prim = UsdGeom.Xform.Define(stage, f"/World/{name}")
        prim.GetPrim().GetReferences().AddReference(str(source), "/Robot")
        prim.AddTranslateOp().Set((x, 0.0, 0.0))
    stage.GetRootLayer().Save()

    engine = make()
    engine.load(read_asset(path), SceneSpec(physics_fps=240.0, pin_base=True))
    joints = list(engine.dof_joints)
    assert sorted(j.split("/")[2] for j in joints) == ["big"] * 3 + ["small"]
    moved = joints.index("/World/small/joints/joint1")
    targets = np.zeros(len(joints))
    targets[moved] = 0.3
    engine.set_joint_position_targets(targets)
    run(engine, 1.0)
    q = engine.joint_positions()
    assert q[moved] == pytest.approx(0.3, abs=0.01)
    assert np.all(np.abs(np.delete(q, moved)) < 0.01)


def test_pinning_holds_free_bodies_beside_the_articulation(make, tmp_path):
    """The driven-joint tests have no floor: a free body beside the robot (newton's sensor_contact_scene: a cube and a
    sphere) fell for ever and grew the explosion watch's bounds. It is held where it is authored (kinematic, in the
    wrapper layer only), as the sapien engine holds it; the asset's own body stays dynamic in the file."""
    from pxr import Usd

    from tests.fixtures.arms import _box_body

    path = build_arm(tmp_path / "arm_and_box.usda", joints=2)
    stage = Usd.Stage.Open(str(path))
    _box_body(stage, "/Robot/loose_box", (0.6, 0.0, 0.5), (0.05, 0.05, 0.05), 1.0)
    stage.GetRootLayer().Save()
    engine = make()
    engine.load(read_asset(path), SceneSpec(physics_fps=240.0, gravity=9.81, pin_base=True))
    run(engine, 1.0)
    assert engine.body_poses()["/Robot/loose_box"][0][2] == pytest.approx(0.5, abs=1e-4)
    assert not Usd.Stage.Open(str(path)).GetPrimAtPath("/Robot/loose_box").GetAttribute("physics:kinematicEnabled").Get()
    engine.load(read_asset(path), SceneSpec(physics_fps=240.0, gravity=9.81, pin_base=False))
    run(engine, 0.5)  # without pinning it falls (no ground here)
    assert engine.body_poses()["/Robot/loose_box"][0][2] < 0.5 - 0.5 * 9.81 * 0.25 * 0.9
