"""A converter's physics layer validated alone is one layer of an asset, named as such, with the file to validate.

Converters write `crate.usda` -> payload `Payload/Contents.usda` -> sublayers `Physics.usda` (physics schemas on
`over` prims) and `Geometry.usda` (the prims defined). `Physics.usda` alone used to read "no prim has
UsdPhysics.RigidBodyAPI" plus an engine ERROR; now every test is a PRECHECK_FAILURE that names the top file.
"""

from __future__ import annotations

import os
from pathlib import Path

from pxr import Sdf, Usd, UsdGeom, UsdPhysics

from tests.fixtures.runs import require_engine, run_test
from omni.simready.physics_validator.core.status import Status
from omni.simready.physics_validator.core.usd import read_asset
from omni.simready.physics_validator.core.usd.layer_role import including_root


def _layered_crate(folder: Path) -> Path:
    payload = folder / "Payload"
    payload.mkdir(parents=True)
    geometry = Usd.Stage.CreateNew(str(payload / "Geometry.usda"))
    UsdGeom.Xform.Define(geometry, "/crate")
    cube = UsdGeom.Cube.Define(geometry, "/crate/body")
    cube.CreateSizeAttr(0.2)
    cube.AddTranslateOp().Set((0, 0, 0.5))
    geometry.GetRootLayer().Save()
    physics = Usd.Stage.CreateNew(str(payload / "Physics.usda"))
    body = physics.OverridePrim("/crate/body")
    UsdPhysics.RigidBodyAPI.Apply(body)
    UsdPhysics.CollisionAPI.Apply(body)
    UsdPhysics.MassAPI.Apply(body).CreateMassAttr(2.0)
    physics.GetRootLayer().Save()
    contents = Sdf.Layer.CreateNew(str(payload / "Contents.usda"))
    contents.subLayerPaths.append("./Physics.usda")
    contents.subLayerPaths.append("./Geometry.usda")
    contents.defaultPrim = "crate"
    contents.Save()
    top = Usd.Stage.CreateNew(str(folder / "crate.usda"))
    UsdGeom.SetStageUpAxis(top, UsdGeom.Tokens.z)
    UsdGeom.SetStageMetersPerUnit(top, 1.0)
    prim = top.DefinePrim("/crate", "Xform")
    prim.GetPayloads().AddPayload("./Payload/Contents.usda")
    top.SetDefaultPrim(prim)
    top.GetRootLayer().Save()
    return folder / "crate.usda"


def test_a_physics_layer_alone_names_the_file_that_brings_it_in(tmp_path):
    top = _layered_crate(tmp_path / "crate")
    layer = tmp_path / "crate" / "Payload" / "Physics.usda"
    assert including_root(layer) == top.resolve()
    issues = [i for i in read_asset(layer).errors() if i.code == "LAYER_OF_ANOTHER_ASSET"]
    assert issues and str(top.resolve()) in issues[0].message and issues[0].path == "/crate/body"
    result = run_test(layer, "ground_drop", require_engine("physx"))
    assert result.status is Status.PRECHECK_FAILURE and result.code == "ASSET_CONTENT", result.reason
    assert "one layer of an asset" in result.reason and any("top-level file" in h for h in result.fix_hints)


def test_the_top_file_of_the_same_asset_validates(tmp_path):
    """The healthy twin: the top file composes the layers and the crate drops and rests."""
    top = _layered_crate(tmp_path / "crate")
    assert not [i for i in read_asset(top).errors() if i.code == "LAYER_OF_ANOTHER_ASSET"]
    result = run_test(top, "ground_drop", require_engine("physx"))
    assert result.status is Status.PASS, result.reason


def test_a_fifo_beside_the_layer_is_never_opened(tmp_path):
    """The climb reads regular files only: a FIFO named like a layer would block an open() forever."""
    _layered_crate(tmp_path / "crate")
    os.mkfifo(tmp_path / "crate" / "Payload" / "trap.usda")
    assert including_root(tmp_path / "crate" / "Payload" / "Physics.usda") is not None
