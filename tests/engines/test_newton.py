"""Newton engine specifics on pxr-built assets: velocity-limit spellings, placement, pinning, forces at a point,
reset, NewtonActuator targets, and the kernel-cache notice. Skipped when newton is not installed."""

from __future__ import annotations

import math

import numpy as np
import pytest

pytest.importorskip("newton", reason="newton is not installed (pip install -e .[newton])")

from pxr import Sdf, Usd  # noqa: E402

from tests.fixtures.arms import ArmSpec, build_arm  # noqa: E402
from omni.simready.physics_validator.core.scene import GroundSpec, SceneSpec  # noqa: E402
from omni.simready.physics_validator.core.usd import read_asset  # noqa: E402
from omni.simready.physics_validator.engines.newton import bounds as nb  # noqa: E402
from omni.simready.physics_validator.engines.newton import runtime as newton_runtime  # noqa: E402
from omni.simready.physics_validator.engines.newton import NewtonEngine  # noqa: E402
from tests.fixtures.usd_assets import box_asset  # noqa: E402


def _run(engine, seconds, each=None):
    for _ in range(int(round(seconds / engine.dt))):
        if each:
            each()
        engine.step()


@pytest.fixture
def engine():
    eng = NewtonEngine()
    yield eng
    eng.close()


def test_geo_type_numbers_match_newton():
    import newton

    for name in ("PLANE", "HFIELD", "SPHERE", "CAPSULE", "ELLIPSOID", "CYLINDER", "BOX", "MESH", "CONE", "CONVEX_MESH"):
        assert getattr(nb, name) == int(getattr(newton.GeoType, name)), name


def test_physx_axis_velocity_limit_spelling_is_applied_and_enforced(engine, tmp_path):
    """Newton 1.8 ignores physxJointAxis:angular:maxJointVelocity; the engine writes it from the asset model."""
    path = build_arm(tmp_path / "arm.usda", ArmSpec(joints=1, velocity_attr="physxJointAxis:angular:maxJointVelocity"))
    asset = read_asset(path)
    engine.load(asset, SceneSpec(pin_base=True))
    limit = asset.joints[engine.dof_joints[0]].velocity_limit
    assert limit == pytest.approx(math.radians(120.0), rel=1e-6)
    assert engine.joint_velocity_limits()[0] == pytest.approx(limit, rel=1e-6)
    engine.set_joint_position_targets(np.array([math.radians(150.0)]))
    peak = []
    _run(engine, 1.0, lambda: peak.append(abs(engine.joint_velocities()[0])))
    assert max(peak) <= limit * 1.01
    assert max(peak) >= limit * 0.95  # the stiff drive really pushed against the cap


def test_place_bottom_and_pin_base(engine, tmp_path):
    asset = read_asset(box_asset(tmp_path / "box.usda", size=0.1, position=(0.3, 0.0, 0.5)))
    engine.load(asset, SceneSpec(ground=GroundSpec(), place_bottom_at=0.2, pin_base=True))
    lo, hi = engine.bounds()
    assert lo[2] == pytest.approx(0.2, abs=1e-5)
    assert hi - lo == pytest.approx(np.full(3, 0.1), abs=1e-5)
    _run(engine, 0.25)
    assert engine.bounds()[0][2] == pytest.approx(0.2, abs=1e-5)  # pinned: gravity does not move it
    engine.load(asset, SceneSpec(ground=GroundSpec(), place_bottom_at=0.2))
    _run(engine, 0.25)
    assert engine.bounds()[0][2] < 0.2 - 0.1  # free: it falls (0.31 m in 0.25 s)


def test_force_at_a_point_adds_its_torque(engine, tmp_path):
    asset = read_asset(box_asset(tmp_path / "box.usda", size=0.1, position=(0.0, 0.0, 1.0)))
    engine.load(asset, SceneSpec(gravity=0.0))
    body = "/Asset/Body"
    centre = engine.body_poses()[body][0]
    _run(engine, 0.1, lambda: engine.apply_force(body, np.array([1.0, 0.0, 0.0])))
    pos, quat = engine.body_poses()[body]
    assert pos[0] > centre[0]
    assert np.allclose(quat, [1, 0, 0, 0], atol=1e-6)  # through the COM: no spin
    engine.reset()
    assert engine.time == 0.0
    assert np.allclose(engine.body_poses()[body][0], centre, atol=1e-7)
    above = centre + np.array([0.0, 0.0, 0.05])
    _run(engine, 0.1, lambda: engine.apply_force(body, np.array([1.0, 0.0, 0.0]), above))
    w, x, y, z = engine.body_poses()[body][1]
    pitch = 2 * math.atan2(y, w)
    assert pitch > 0.01  # r x F = (0, 0, 0.05) x (1, 0, 0) = +Y torque
    assert abs(x) < 1e-6 and abs(z) < 1e-6


def _add_newton_actuator(path, joint: str, kp: float, kd: float) -> None:
    stage = Usd.Stage.Open(str(path))
    prim = stage.DefinePrim("/Robot/actuator1", "NewtonActuator")
    prim.CreateRelationship("newton:targets").SetTargets([joint])
    prim.AddAppliedSchema("NewtonPDControlAPI")
    prim.CreateAttribute("newton:kp", Sdf.ValueTypeNames.Float).Set(kp)
    prim.CreateAttribute("newton:kd", Sdf.ValueTypeNames.Float).Set(kd)
    stage.GetRootLayer().Save()


def test_newton_actuator_targets_are_honoured(engine, tmp_path):
    """A joint with no DriveAPI, driven only by a NewtonActuator PD, follows the commanded target."""
    path = build_arm(tmp_path / "arm.usda", ArmSpec(joints=1, passive=(1,), velocity_limit_deg=None))
    passive = read_asset(path)
    engine.load(passive, SceneSpec(pin_base=True, gravity=0.0))
    engine.set_joint_position_targets(np.array([math.radians(30.0)]))
    _run(engine, 0.5)
    assert abs(engine.joint_positions()[0]) < math.radians(0.5)  # nothing drives it

    _add_newton_actuator(path, "/Robot/joints/joint1", kp=0.5,
                         kd=0.02)  # explicit PD: stable for the link's 2e-4 kg m^2 at 240 Hz
    asset = read_asset(path)
    assert asset.joints["/Robot/joints/joint1"].actuated_by == ["/Robot/actuator1"]
    assert asset.joints["/Robot/joints/joint1"].actuator_schemas == ["NewtonActuator"]
    engine.load(asset, SceneSpec(pin_base=True, gravity=0.0))
    engine.set_joint_position_targets(np.array([math.radians(30.0)]))
    _run(engine, 1.5)
    assert math.degrees(engine.joint_positions()[0]) == pytest.approx(30.0, abs=1.0)


def test_cache_folder_and_cold_compile_notice(tmp_path, monkeypatch, capsys):
    monkeypatch.setenv(newton_runtime.CACHE_ENV, str(tmp_path / "cache"))
    assert newton_runtime.cache_root() == tmp_path / "cache"
    monkeypatch.delenv(newton_runtime.CACHE_ENV)
    monkeypatch.delenv("WARP_CACHE_PATH", raising=False)
    assert newton_runtime.cache_root() == newton_runtime.DEFAULT_CACHE

    # The notice shows while the ready marker is missing and stops once a step has run.
    monkeypatch.setattr(newton_runtime, "cache_root", lambda: tmp_path)
    monkeypatch.setitem(newton_runtime.PROCESS_STATE, "announced", False)
    monkeypatch.setitem(newton_runtime.PROCESS_STATE, "warm", False)
    assert newton_runtime.announce_cold_compile() is True
    err = capsys.readouterr().err
    assert newton_runtime.compile_notice() in err and "first run only" in err
    monkeypatch.setitem(newton_runtime.PROCESS_STATE, "announced", False)
    newton_runtime.mark_warm()
    assert list(tmp_path.glob("simready-newton-*.ready"))
    assert newton_runtime.announce_cold_compile() is False
    assert capsys.readouterr().err == ""


def test_full_range_sweep_holds_zero_only_until_settled_on_every_engine(tmp_path):
    """full_range_sweep 1.6.0: every engine keeps the zero target until the joint has stayed in the band for
    zero_settled_seconds (the spec's Newton flavour, now the rule everywhere), at most zero_max_settle_seconds more: a
    joint that settles within the pause needs no extra time, and the cap bounds the rest (it was Newton-only)."""
    from omni.simready.physics_validator.core.config import ValidationConfig
    from omni.simready.physics_validator.physics_tests import default_registry
    from omni.simready.physics_validator import validate

    path = build_arm(tmp_path / "arm1.usda", ArmSpec(joints=1))
    for engine in ("physx", "newton"):
        simulated = {}
        for hold in (0.0, 2.0):
            config = ValidationConfig.defaults(default_registry())
            config.run.video = False
            config.run.isolate = False
            config.apply_set([f"full_range_sweep.zero_max_settle_seconds={hold}"])
            result = validate([path], ["full_range_sweep"], config, engine).assets[0].tests[0]
            assert result.status.value == "PASS", (engine, hold, result.reason)
            simulated[hold] = result.simulated_seconds
        extra = simulated[2.0] - simulated[0.0]
        assert -1e-9 <= extra <= 2.0 + 1e-6, (engine, extra)  # ends once settled, never past the cap


def test_a_recorded_step_is_the_eager_step_to_the_last_bit(tmp_path, monkeypatch):
    """engines/newton/stepper.py replays one recorded Warp step after the first: the same joint and body positions as
    stepping eagerly, pinned with targets and forces and through a reset, and dropped onto the ground."""
    from omni.simready.physics_validator.engines.newton.stepper import EAGER_ENV

    arm = read_asset(build_arm(tmp_path / "arm.usda", ArmSpec(joints=3)))
    box = read_asset(box_asset(tmp_path / "box.usda", size=0.1, position=(0.0, 0.0, 0.5)))
    for asset, spec in ((arm, SceneSpec(pin_base=True)), (box, SceneSpec(ground=GroundSpec(), place_bottom_at=0.05))):
        engines = []
        for eager in ("1", ""):
            monkeypatch.setenv(EAGER_ENV, eager)
            engine = NewtonEngine()
            engine.load(asset, spec)
            engines.append(engine)
        assert [e._stepper.record for e in engines] == [False, True]
        body = next(iter(asset.bodies))
        for round_ in range(2):
            for k in range(150):
                for engine in engines:
                    if k % 50 == 0 and engine.dof_joints:
                        engine.set_joint_position_targets(np.full(len(engine.dof_joints), 0.3 * (k // 50 - 1)))
                    engine.apply_force(body, np.array([0.0, 2.0, 0.0]), np.array([0.0, 0.0, 0.0]) if k % 3 else None)
                    engine.step()
                eager, recorded = (np.array([p for p, _ in e.body_poses().values()]) for e in engines)
                assert np.array_equal(eager, recorded), (asset.path, round_, k)
            assert engines[1]._stepper._graph is not None  # it really replayed a recording
            for engine in engines:
                engine.reset()
        moved = np.array([p for p, _ in engines[1].body_poses().values()])
        for engine in engines:
            engine.close()
        assert np.isfinite(moved).all()


def test_a_kernel_compiled_during_a_test_is_announced_as_a_first_run_phase(tmp_path, monkeypatch):
    """runtime._announce_compiles: a Warp module compiled in this process (its binary not in the cache) tells the notice
    the worker's prepare_process gave (a phase the parent's watchdog does not count) before Warp compiles it; a cached
    one says nothing."""
    wp, _newton = newton_runtime.import_newton()
    told = []
    monkeypatch.setitem(newton_runtime.PROCESS_STATE, "notice", told.append)
    monkeypatch.setattr(wp.config, "kernel_cache_dir", str(tmp_path))  # an empty cache: this module compiles

    @wp.kernel(module="unique")
    def double(values: wp.array(dtype=float)):
        i = wp.tid()
        values[i] = 2.0 * values[i]

    values = wp.array(np.ones(4, np.float32), device="cpu")
    wp.launch(double, dim=4, inputs=[values], device="cpu")
    assert told == [newton_runtime.compile_notice()] and values.numpy().tolist() == [2.0] * 4
    wp.launch(double, dim=4, inputs=[values], device="cpu")  # loaded now: nothing more to say
    assert len(told) == 1
