"""sapien-engine (PhysX 5.3 via SAPIEN) specifics on hand-built asset models: mass precedence, shape fallbacks, filters, reset."""

from __future__ import annotations

import math

import numpy as np
import pytest

from tests.fixtures.hand_models import add_body, arm_model, box_model
from omni.simready.physics_validator.core.asset_model import AssetModel, MaterialInfo
from omni.simready.physics_validator.core.scene import GroundSpec, SceneSpec
from omni.simready.physics_validator.engines import EngineError

sapien = pytest.importorskip("sapien")
from omni.simready.physics_validator.engines import create_engine  # noqa: E402


@pytest.fixture
def engine():
    eng = create_engine("sapien")
    assert eng.name == "sapien"
    yield eng
    eng.close()


def test_mass_precedence(engine):
    model = AssetModel(path="hand:mass", default_prim="/M")
    add_body(model, "/M/authored", (0, 0, 1), mass=3.0, half_extents=np.full(3, 0.05))
    add_body(model, "/M/default", (1, 0, 1), mass=None, half_extents=np.full(3, 0.05))
    body = add_body(model, "/M/body_density", (2, 0, 1), mass=None, half_extents=np.full(3, 0.05))
    body.density = 200.0
    add_body(model, "/M/collider_density", (3, 0, 1), mass=None, half_extents=np.full(3, 0.05))
    model.colliders["/M/collider_density/collider"].density = 500.0
    model.bodies["/M/collider_density"].density = 200.0  # the collider's density wins
    add_body(model, "/M/material", (4, 0, 1), mass=None, half_extents=np.full(3, 0.05))
    model.colliders["/M/material/collider"].material = MaterialInfo(path="/heavy", density=2000.0)
    add_body(model, "/M/sphere", (5, 0, 1), mass=None, shape="sphere", radius=0.1)
    engine.load(model, SceneSpec())
    masses = engine.body_masses()
    assert masses["/M/authored"] == pytest.approx(3.0)
    assert masses["/M/default"] == pytest.approx(1.0)
    assert masses["/M/body_density"] == pytest.approx(0.2)
    assert masses["/M/collider_density"] == pytest.approx(0.5)
    assert masses["/M/material"] == pytest.approx(2.0)
    assert masses["/M/sphere"] == pytest.approx(1000 * 4 / 3 * math.pi * 0.001)


def test_authored_inertia_and_com_are_used(engine):
    model = box_model()
    body = model.bodies["/Box"]
    body.center_of_mass = np.array([0.01, 0.0, 0.0])
    body.diagonal_inertia = np.array([0.1, 0.2, 0.3])
    engine.load(model, SceneSpec())
    com, inertia = engine.body_inertia("/Box")
    assert np.allclose(inertia, [0.1, 0.2, 0.3])
    assert np.allclose(com, [0.01, 0, 0])


def test_dynamic_triangle_mesh_falls_back_to_hull_with_warning(engine):
    model = AssetModel(path="hand:mesh", default_prim="/M")
    pts = np.array([[x, y, z] for x in (-0.1, 0.1) for y in (-0.1, 0.1) for z in (-0.1, 0.1)])
    add_body(model, "/M/body", (0, 0, 1), mass=None, shape="mesh", mesh_points=pts,
             mesh_face_vertex_indices=np.array([0, 1, 2, 1, 3, 2]), approximation="none")
    engine.load(model, SceneSpec())
    assert any("convex hull" in w for w in engine.warnings)
    assert engine.body_masses()["/M/body"] == pytest.approx(8.0)  # 0.2^3 m^3 hull at 1000 kg/m^3


def test_convex_decomposition_uses_one_hull_per_part(engine):
    model = AssetModel(path="hand:parts", default_prim="/M")
    cube = np.array([[x, y, z] for x in (0, 0.1) for y in (0, 0.1) for z in (0, 0.1)])
    faces = np.array([[0, 1, 3, 2], [4, 6, 7, 5], [0, 4, 5, 1], [2, 3, 7, 6], [0, 2, 6, 4], [1, 5, 7, 3]])
    pts = np.vstack([cube, cube + [0.5, 0, 0]])
    idx = np.concatenate([faces.ravel(), faces.ravel() + 8])
    add_body(model, "/M/body", (0, 0, 1), mass=None, shape="mesh", mesh_points=pts,
             mesh_face_vertex_counts=np.full(12, 4), mesh_face_vertex_indices=idx, approximation="convexDecomposition")
    engine.load(model, SceneSpec())
    assert any("2 part(s)" in w for w in engine.warnings)
    assert engine.body_masses()["/M/body"] == pytest.approx(2.0)  # two 1-litre cubes, not their 6-litre hull


def test_filtered_pair_lets_bodies_pass_through(engine):
    model = AssetModel(path="hand:filter", default_prim="/M")
    add_body(model, "/M/top", (0, 0, 0.5), half_extents=np.full(3, 0.05))
    add_body(model, "/M/bottom", (0, 0, 0.05), half_extents=np.full(3, 0.05))
    model.bodies["/M/bottom"].kinematic = True
    engine.load(model, SceneSpec())  # no ground: only the kinematic box can stop the top one
    for _ in range(240):
        engine.step()
    assert engine.body_poses()["/M/top"][0][2] == pytest.approx(0.15, abs=0.002)
    model.filtered_pairs.append(("/M/top", "/M/bottom"))
    engine.load(model, SceneSpec())
    for _ in range(240):
        engine.step()
    assert engine.body_poses()["/M/top"][0][2] < -0.5


def test_a_filtered_body_stands_for_its_own_colliders_not_those_of_bodies_nested_below_it(engine):
    """UsdPhysics: a rigid-body target of FilteredPairsAPI means the colliders that body owns. pb_r2d2 nests every link
    under base_link's prim: its (base_link, left_base) pair used to switch off every self-collision of the robot."""
    model = AssetModel(path="hand:nested", default_prim="/M")
    add_body(model, "/M/base", (0, 0, 2.0), half_extents=np.full(3, 0.05))
    add_body(model, "/M/base/falling", (0, 0, 0.5), half_extents=np.full(3, 0.05))
    add_body(model, "/M/floor", (0, 0, 0.05), half_extents=np.full(3, 0.05))
    add_body(model, "/M/other", (3, 0, 0.05), half_extents=np.full(3, 0.05))
    for path in ("/M/floor", "/M/other", "/M/base"):
        model.bodies[path].kinematic = True
    model.filtered_pairs.append(("/M/base", "/M/floor"))  # base against the floor only
    engine.load(model, SceneSpec())  # no ground: only the kinematic floor box can stop the nested body
    for _ in range(240):
        engine.step()
    assert engine.body_poses()["/M/base/falling"][0][2] == pytest.approx(0.15, abs=0.002)


def test_a_body_with_neither_mass_nor_collider_gets_omni_physx_defaults(engine):
    """1 kg and a small sphere's 0.004 kg m² (what ovphysx reads back), not unit inertia: robosuite's massless iiwa
    hand was 250x heavier to turn on sapien than on physx (joint_7 overshoot 89 % vs 17 %)."""
    from omni.simready.physics_validator.core.asset_model import BodyInfo

    from tests.fixtures.hand_models import pose

    model = AssetModel(path="hand:massless", default_prim="/M")
    add_body(model, "/M/box", (0, 0, 1), half_extents=np.full(3, 0.05))
    model.bodies["/M/ghost"] = BodyInfo(path="/M/ghost", world_pose=pose((1, 0, 1)), mass=None)
    engine.load(model, SceneSpec())
    assert engine.body_masses()["/M/ghost"] == pytest.approx(1.0)
    _, inertia = engine.body_inertia("/M/ghost")
    assert inertia == pytest.approx(np.full(3, 0.004), rel=1e-4)
    assert any("/M/ghost" in w and "0.004" in w for w in engine.warnings)


def test_reset_restores_state_targets_and_time(engine):
    engine.load(arm_model(), SceneSpec())
    engine.set_joint_position_targets(np.array([1.0, np.nan, -0.5]))
    for _ in range(240):
        engine.step()
    assert abs(engine.joint_positions()[0] - 1.0) < 0.05
    engine.reset()
    assert engine.time == 0.0
    assert np.allclose(engine.joint_positions(), 0.0, atol=1e-6)
    for _ in range(120):
        engine.step()
    assert np.allclose(engine.joint_positions(), 0.0, atol=0.02)  # original targets (0) are back


def test_pin_base_and_place_bottom(engine):
    engine.load(box_model(height=2.0), SceneSpec(ground=GroundSpec(), pin_base=True, place_bottom_at=0.3))
    assert engine.bounds()[0][2] == pytest.approx(0.3, abs=1e-5)
    for _ in range(120):
        engine.step()
    assert engine.bounds()[0][2] == pytest.approx(0.3, abs=1e-5)


def test_pin_base_holds_the_base_only_when_a_maximal_joint_splits_the_tree(engine):
    """A spherical joint splits the articulation into two sapien trees; pinning holds the base's tree only, the
    other hangs from the maximal joint (as in omni.physx). Pinning both roots locked newton_ex_humanoid's abdomen_x
    between two held links (a dead drive on sapien only, docs/engine-divergences.md)."""
    from omni.simready.physics_validator.core.asset_model import ArticulationInfo, JointInfo
    from tests.fixtures.hand_models import pose

    model = AssetModel(path="hand:split", default_prim="/R")
    add_body(model, "/R/base", (0, 0, 1.0), mass=2.0, half_extents=np.full(3, 0.05))
    add_body(model, "/R/mid", (0.2, 0, 1.0), mass=1.0, half_extents=np.array([0.1, 0.02, 0.02]))
    add_body(model, "/R/tip", (0.5, 0, 1.0), mass=0.5, half_extents=np.array([0.1, 0.02, 0.02]))
    model.joints["/R/ball"] = JointInfo(path="/R/ball", type="spherical", body0="/R/base", body1="/R/mid",
                                        local_pose0=pose(), local_pose1=pose((-0.2, 0, 0)), articulation="/R")
    model.joints["/R/hinge"] = JointInfo(path="/R/hinge", type="revolute", body0="/R/mid", body1="/R/tip",
                                         local_pose0=pose((0.2, 0, 0)), local_pose1=pose((-0.1, 0, 0)), axis="Y",
                                         articulation="/R")
    bodies = ["/R/base", "/R/tip", "/R/mid"]  # the split-off tree starts at the tip: pinned, it locked the hinge
    model.articulations.append(ArticulationInfo(root="/R", bodies=bodies, joints=[*model.joints], base_body="/R/base"))
    for b in bodies:
        model.bodies[b].articulation = "/R"
    engine.load(model, SceneSpec(pin_base=True))
    start = engine.body_poses()
    for _ in range(120):
        engine.step()
    end = engine.body_poses()
    assert np.allclose(end["/R/base"][0], start["/R/base"][0], atol=1e-4)  # the base is held
    assert end["/R/mid"][0][2] < start["/R/mid"][0][2] - 0.05  # the rest swings down from the ball joint
    assert end["/R/tip"][0][2] < start["/R/tip"][0][2] - 0.1


def test_joint_to_missing_body_is_an_engine_error(engine):
    model = arm_model()
    model.joints["/Arm/j2"].body1 = "/Arm/nowhere"
    with pytest.raises(EngineError, match="nowhere"):
        engine.load(model, SceneSpec())


def test_reversed_joint_reads_in_usd_sign(engine):
    """A joint authored child->parent (body0 = the link) reads and commands in the USD convention."""
    model = arm_model(drives=True)
    j = model.joints["/Arm/j2"]
    j.body0, j.body1 = j.body1, j.body0
    j.local_pose0, j.local_pose1 = j.local_pose1, j.local_pose0
    engine.load(model, SceneSpec(gravity=0.0))
    engine.set_joint_position_targets(np.array([np.nan, 0.4, np.nan]))
    for _ in range(480):
        engine.step()
    assert engine.joint_positions()[1] == pytest.approx(0.4, abs=0.01)
    # USD angle = rotation of body1 (now link1) relative to body0 (link2) about +Y, so link2 turns by -0.4
    q = engine.body_poses()["/Arm/link2"][1]
    assert 2 * math.atan2(q[2], q[0]) == pytest.approx(-0.4, abs=0.01)
