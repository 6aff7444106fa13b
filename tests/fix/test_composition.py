"""The accepted layer as a file: an over-only layer of the changed attributes that usd-core opens and composes over
the asset; validating that composition as a plain file gives the verdicts the fix's re-run gave; the asset and its
folder are byte-identical after `fix`; fixing the fixed composition proposes nothing (real physx runs)."""

from __future__ import annotations

from pathlib import Path

import pytest
from pxr import Sdf, Usd

from omni.simready.physics_validator.core.config import ValidationConfig
from omni.simready.physics_validator.physics_tests import default_registry
from omni.simready.physics_validator.run.batch import validate_batch
from omni.simready.physics_validator.fix import FixTargets
from tests.fix.helpers import assert_fixed_and_nothing_broken, run_fix, tree_digest
from tests.fixtures.driven_arms import horizontal_arm

pytestmark = pytest.mark.usefixtures("physx_available")

JOINT = "/Robot/joints/joint"


@pytest.fixture(scope="module")
def fixed(tmp_path_factory, physx_available):
    """The weak-maxForce horizontal arm in a folder of its own (with a sibling file), fixed into another folder."""
    root = tmp_path_factory.mktemp("composition")
    folder = root / "asset"
    folder.mkdir()
    asset = horizontal_arm(folder / "arm.usda", max_force=0.1)
    (folder / "notes.txt").write_text("a sibling file the fix must not touch\n")
    before = tree_digest(folder)
    mtimes = {p: p.stat().st_mtime_ns for p in folder.iterdir()}
    fix = run_fix(asset, root / "out", targets=FixTargets(raise_max_force=True)).assets[0].fix  # 0.1 N·m is too weak
    return dict(root=root, folder=folder, asset=asset, fix=fix, before=before, mtimes=mtimes)


def test_the_asset_and_its_folder_are_byte_identical(fixed):
    assert fixed["fix"].status == "accepted"
    assert tree_digest(fixed["folder"]) == fixed["before"]  # same files, same bytes, nothing added
    assert {p: p.stat().st_mtime_ns for p in fixed["folder"].iterdir()} == fixed["mtimes"]
    assert not Path(fixed["fix"].layer).is_relative_to(fixed["folder"])


def test_the_layer_is_overs_of_only_the_changed_attributes(fixed):
    fix = fixed["fix"]
    layer = Sdf.Layer.FindOrOpen(fix.layer)
    assert list(layer.subLayerPaths) == []  # an override layer: it sublayers nothing itself
    specs = []
    layer.Traverse(layer.pseudoRoot.path, lambda p: specs.append(layer.GetObjectAtPath(p)))
    prims = [s for s in specs if isinstance(s, Sdf.PrimSpec)]
    assert prims and all(p.specifier == Sdf.SpecifierOver for p in prims)  # nothing defined, only overs
    attrs = {s.name: s.default for s in specs if isinstance(s, Sdf.AttributeSpec)}
    (joint,) = fix.joints
    assert attrs == pytest.approx({c.attribute: c.after for c in joint.changes}, rel=1e-5)
    assert "Verdicts as authored -> with this layer" in layer.GetPrimAtPath(JOINT).comment


def test_usd_core_composition_validates_as_the_fix_re_run_did(fixed):
    """Sublayer the fix layer over the asset with plain usd-core (a root of our own), validate it as a plain file.
    A root layer's stage metadata is its own (sublayers' upAxis, metersPerUnit, kilogramsPerUnit are not composed),
    so the root copies the asset's, as the fix's own <asset>.fixed.usda does."""
    fix, root = fixed["fix"], fixed["root"]
    mine = Sdf.Layer.CreateNew(str(root / "composed_by_usd_core.usda"))
    mine.subLayerPaths.append(fix.layer)
    mine.subLayerPaths.append(str(fixed["asset"]))
    source = Sdf.Layer.FindOrOpen(str(fixed["asset"]))
    for key in ("upAxis", "metersPerUnit", "kilogramsPerUnit", "defaultPrim"):
        if source.pseudoRoot.HasInfo(key):
            mine.pseudoRoot.SetInfo(key, source.pseudoRoot.GetInfo(key))
    mine.Save()
    stage = Usd.Stage.Open(mine.identifier)
    prim = stage.GetPrimAtPath(JOINT)
    for change in fix.joints[0].changes:
        assert prim.GetAttribute(change.attribute).Get() == pytest.approx(change.after, rel=1e-5)
    assert stage.GetRootLayer().identifier != fixed["asset"]
    config = ValidationConfig.defaults(default_registry())
    config.run.video = False
    config.run.isolate = False
    report = validate_batch([mine.realPath, fix.composed], None, config, "physx", root / "revalidate", jobs=1)
    expected = {t.test: t.after for t in fix.tests}
    for asset in report.assets:
        assert {t.name: t.status for t in asset.tests} == expected, asset.path


def test_fixing_the_fixed_composition_proposes_nothing(fixed):
    again = run_fix(fixed["fix"].composed, fixed["root"] / "again").assets[0].fix
    assert again.rounds == 0 and not again.layer and not again.joints, again.summary
    assert again.status in ("nothing_to_fix", "not_fixable")  # not_fixable: velocity_limit SKIPs (no cap authored)
    assert {n.cause for n in again.not_fixable} <= {"no_velocity_limit"}


def test_a_fix_that_breaks_a_passing_verdict_is_never_accepted(fixed):
    """rounds.best_round takes only clean rounds: a round that fixed a test and broke another is not accepted."""
    from omni.simready.physics_validator.fix.rounds import Round, best_round

    good = Round(1, {}, {}, Path("a"), Path("b"), after=object(), fixed=["effort_limit"])
    bad = Round(2, {}, {}, Path("a"), Path("b"), after=object(), fixed=["effort_limit", "full_range_sweep"],
                broken=["drive_gain_validation"])
    regressed = Round(3, {}, {}, Path("a"), Path("b"), after=object(), fixed=["effort_limit", "full_range_sweep"],
                      regressed=[("velocity_limit", "/R/j")])
    assert best_round([good, bad, regressed]) is good
    assert best_round([bad, regressed]) is None
    assert_fixed_and_nothing_broken(fixed["fix"])
