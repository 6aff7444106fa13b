"""Every engine's built_model() against what its physics does (issue 31): the same analytic cases for each engine that
claims the read (`EngineCapabilities.reads_built_model`); one that does not raises EngineCapabilityMissing.

Each claim is checked by moving the physics, never by reading the claim back: the root link the engine says it holds
does not move while every joint sags under gravity; a coupling it says acts moves the follower with its reference, and
one it says does not leaves the follower where its own drive holds it; a shape it says collides holds the body up, one
it says does not lets it sink to the next; a body it says is dynamic and feels gravity falls, the others do not; the
start poses it reports are the poses the engine steps from; the mass, centre of mass and inertia it states are what a
push and a twist move, whichever MassAPI spelling the asset authors."""

from __future__ import annotations

import math

import numpy as np
import pytest

from omni.simready.physics_validator.core.built_model import from_asset
from omni.simready.physics_validator.core.engine import EngineCapabilityMissing
from omni.simready.physics_validator.core.geometry import quat_to_matrix
from omni.simready.physics_validator.core.scene import GroundSpec, SceneSpec
from omni.simready.physics_validator.core.usd import read_asset
from tests.fixtures import runtime_model_assets as R
from tests.fixtures.props import BLOCK, BLOCK_MASS, MASS_SPELLINGS, STEEL, steel_block

from .stepping import body_position, run


def _built(engine, path, **scene):
    """The engine loaded with the asset at `path` and what it says it built (skips an engine that does not claim it)."""
    asset = read_asset(path)
    engine.load(asset, SceneSpec(**scene))
    if not engine.capabilities().reads_built_model:
        with pytest.raises(EngineCapabilityMissing, match="EngineCapabilities"):
            engine.built_model()
        pytest.skip(f"{engine.name} does not read what it built (the USD reading stands)")
    return engine.built_model(), asset


@pytest.mark.parametrize("reversed_joints", [False, True], ids=["parent_child", "child_parent"])
def test_the_root_link_is_the_link_the_pin_holds(engine, tmp_path, reversed_joints):
    """A 7-body arm under an Xform ArticulationRootAPI, pinned, its drives switched off by a 1 mN max force, every body
    pushed sideways by 5 N: the link the engine names as the root stays where it is authored to within 1 mm while the
    others swing (more than 5 cm)."""
    path = R.arm_under_an_xform_root(tmp_path / "arm.usda", reversed_joints, max_force=1e-3)
    built, asset = _built(engine, path, pin_base=True, gravity=9.81)
    assert len(built.articulations) == 1
    art = built.articulations[0]
    assert set(art.links) == {b for b in asset.bodies}
    assert art.root_link in built.pinned and art.fixed_base
    start = {p: body_position(engine, p).copy() for p in art.links}
    push = np.array([5.0, 0.0, 0.0])
    run(engine, 1.0, lambda: [engine.apply_force(p, push) for p in art.links])
    moved = {p: float(np.linalg.norm(body_position(engine, p) - start[p])) for p in art.links}
    assert moved[art.root_link] < 1e-3, moved
    assert max(moved.values()) > 0.05, moved


def _finger_travel(engine, follower: str, reference: str, target: float) -> tuple[float, float]:
    i_ref, i_fol = engine.dof_joints.index(reference), engine.dof_joints.index(follower)
    targets = np.full(len(engine.dof_joints), np.nan)
    targets[i_ref] = target
    engine.set_joint_position_targets(targets)
    run(engine, 1.0)
    q = engine.joint_positions()
    return float(q[i_ref]), float(q[i_fol])


@pytest.mark.parametrize("case", ["on", "switched_off", "reference_is_a_link"])
def test_a_coupling_acts_exactly_when_the_engine_says_it_does(engine, tmp_path, case):
    """A finger driven 15 mm; its neighbour coupled one to one (NewtonMimicAPI), switched off (newton:mimicEnabled =
    false, its own drive dead), or pointed at a link (PhysxMimicJointAPI: the runtime drops it). The follower travels the
    reference's distance (within 10 %) exactly when the engine lists the coupling; otherwise less than 1 mm."""
    if not engine.capabilities().mimic_joints:
        pytest.skip(f"{engine.name} does not simulate mimic couplings")
    if case == "reference_is_a_link":
        path, gearing = R.mimic_of_a_link(tmp_path / "link.usda", reference_is_a_joint=False), -1.0
    else:
        path, gearing = R.newton_mimic_switched_off(tmp_path / "off.usda", enabled=case == "on"), 1.0
    built, _asset = _built(engine, path, pin_base=True, gravity=0.0)
    follower, reference = "/Robot/joints/finger1_joint", "/Robot/joints/finger0_joint"
    ref, fol = _finger_travel(engine, follower, reference, 0.015)
    assert ref == pytest.approx(0.015, abs=1e-3)
    if built.couplings and built.couplings.get(follower) == reference:
        assert fol == pytest.approx(abs(gearing) * ref, rel=0.1)
    else:
        assert abs(fol) < 1e-3, (case, fol)
        assert case != "on"


def test_a_shape_holds_the_body_up_exactly_when_the_engine_says_it_collides(engine, tmp_path):
    """A 5 cm slab carrying a zone 15 cm tall (PhysxTriggerAPI), dropped on the ground: it rests on the zone (its centre
    at least 5 cm up) exactly when the engine lists the zone among the colliding shapes, on the slab (2.5 cm) otherwise."""
    path = R.tote_with_a_trigger(tmp_path / "tote.usda", trigger=True)
    built, _asset = _built(engine, path, ground=GroundSpec(), gravity=9.81)
    assert built.colliding is not None and "/Asset/Body/Geom" in built.colliding
    run(engine, 1.5)
    z = float(body_position(engine, "/Asset/Body")[2])
    if "/Asset/Body/TriggerZone" in built.colliding:
        assert z > 0.05, z
    else:
        assert z == pytest.approx(0.025, abs=0.01)


@pytest.mark.parametrize("second", ["no_gravity", "disabled", "falls"])
def test_a_body_falls_exactly_when_the_engine_says_it_moves_and_feels_gravity(engine, tmp_path, second):
    """A box beside a second part, 0.5 m up, no ground: after 0.3 s the part has fallen 0.44 m (g t^2 / 2) exactly when
    the engine says it is dynamic and gravity acts on it; it has not moved otherwise."""
    path = R.box_and_a_second_part(tmp_path / "parts.usda", second)
    built, _asset = _built(engine, path, gravity=9.81)
    assert built.dynamic is not None and built.no_gravity is not None
    falls = "/Asset/Part" in built.dynamic and "/Asset/Part" not in built.no_gravity
    start = float(built.poses["/Asset/Part"][0][2]) if "/Asset/Part" in built.poses else 0.5
    run(engine, 0.3)
    poses = engine.body_poses()
    now = float(poses["/Asset/Part"][0][2]) if "/Asset/Part" in poses else start
    if falls:
        assert start - now == pytest.approx(0.5 * 9.81 * 0.3**2, rel=0.05)
    else:
        assert abs(start - now) < 1e-3
    assert second != "falls" or falls


def test_the_start_poses_are_where_the_engine_steps_from_a_lifted_reset_body_included(engine, tmp_path):
    """A crate that resets its xform stack, dropped from 2x its height: the start pose the engine reports for it is the
    pose it steps from (the lift reached it: its bottom 0.4 m up, not on the floor)."""
    path = R.crate_resetting_its_xform_stack(tmp_path / "crate.usda", resets=True)
    built, _asset = _built(engine, path, ground=GroundSpec(), gravity=9.81, place_bottom_at=0.4)
    pos, quat = built.poses["/Asset/Body"]
    now, now_quat = engine.body_poses()["/Asset/Body"]
    np.testing.assert_allclose(pos, now, atol=1e-6)
    assert abs(abs(float(np.dot(quat, now_quat))) - 1.0) < 1e-6
    assert float(pos[2]) == pytest.approx(0.4 + 0.1, abs=1e-3)
    assert math.isfinite(float(engine.bounds()[0][2]))


@pytest.mark.parametrize("spelling", [*MASS_SPELLINGS, "none"])
def test_the_mass_properties_are_what_a_push_and_a_twist_move(engine, tmp_path, spelling):
    """The 6 x 6 x 10 cm steel block, its box 2 cm off the body's origin along X, its mass authored as a body mass, a
    body density, a collider mass, a collider density (2.826 kg) or not at all (1000 kg/m^3: 0.36 kg), no gravity. The
    engine's stated mass properties (built_model(); the USD reading's statement, from_asset, for an engine that cannot
    read its own) are the analytic ones, and they are what moves: a push of m x 1 m/s^2 at the stated centre of mass
    carries the block 1/2 x 1 x t^2 (5 %) without turning it, and a couple of I_z x 4 rad/s^2 about Z turns it
    1/2 x 4 x t^2 (5 %), over t = 0.5 s."""
    path = steel_block(tmp_path / f"steel_{spelling}.usda", spelling, offset=0.02)
    asset = read_asset(path)
    engine.load(asset, SceneSpec(gravity=0.0))
    reads = engine.capabilities().reads_built_model
    stated = (engine.built_model() if reads else from_asset(asset)).mass_properties
    assert stated is not None and "/Prop" in stated
    props = stated["/Prop"]
    mass = BLOCK_MASS if spelling != "none" else BLOCK_MASS / STEEL * 1000.0
    w, d, h = BLOCK
    assert props.mass == pytest.approx(mass, rel=1e-3)
    np.testing.assert_allclose(props.com, [0.02, 0.0, 0.0], atol=1e-4)
    np.testing.assert_allclose(sorted(props.principal_moments),
                               sorted([mass / 12 * (d * d + h * h), mass / 12 * (w * w + h * h), mass / 12 * (w * w + d * d)]),
                               rtol=1e-3)
    start, quat0 = (np.array(v, float) for v in engine.body_poses()["/Prop"])
    centre = start + props.com  # the body starts unturned
    run(engine, 0.5, lambda: engine.apply_force("/Prop", np.array([props.mass * 1.0, 0.0, 0.0]),
                                                engine.body_poses()["/Prop"][0] + props.com))
    now, quat = engine.body_poses()["/Prop"]
    assert float(now[0] - start[0]) == pytest.approx(0.5 * 1.0 * 0.5**2, rel=0.05)
    assert abs(float(np.dot(quat, quat0))) > 1 - 1e-5, quat  # pushed at its centre of mass: it did not turn
    engine.reset()
    i_z = float(props.inertia[2, 2])
    force, arm = i_z * 4.0 / 0.1, 0.05  # two opposite forces 10 cm apart along Y: a couple of i_z x 4 N m about Z

    def twist():
        pos, q = engine.body_poses()["/Prop"]
        rot = quat_to_matrix(q)
        along, across = rot @ np.array([1.0, 0.0, 0.0]), rot @ np.array([0.0, 1.0, 0.0])
        middle = pos + rot @ props.com
        engine.apply_force("/Prop", -force * along, middle + arm * across)
        engine.apply_force("/Prop", force * along, middle - arm * across)

    run(engine, 0.5, twist)
    _, quat = engine.body_poses()["/Prop"]
    turned = 2.0 * math.acos(min(1.0, abs(float(np.dot(quat, quat0)))))
    assert turned == pytest.approx(0.5 * 4.0 * 0.5**2, rel=0.05)
    assert float(np.linalg.norm(engine.body_poses()["/Prop"][0] + quat_to_matrix(quat) @ props.com - centre)) < 2e-3
