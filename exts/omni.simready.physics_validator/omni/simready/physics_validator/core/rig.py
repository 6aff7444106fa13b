"""A test rig: what a test builds around the asset before the engine loads it (a gantry holding a gripper, an object to
grasp, a test-owned parallel jaw), as a USD layer of its own that sublayers the asset, and the asset model read from
it.

An engine then simulates the rig as it would an asset (physx composes it, newton imports it, sapien builds from its
model; the Kit engine simulates the stage open in Kit and says so: EngineCapabilities.simulates_given_model): the rig's
joints are DOF joints of `dof_joints`, its bodies are in `body_poses()`. The layer lives in a temporary folder of its
own (the worker's TMPDIR), never beside the asset, and is removed when the test's session closes; the asset's own
layers are only sublayered. A test asks for a rig through `SceneSpec.rig`; the session loads `rig.model` instead of the
asset and the test sees it as `ctx.asset`. The runtime readback never reads a rig.
"""

from __future__ import annotations

import os
import shutil
import tempfile
from dataclasses import dataclass
from typing import TYPE_CHECKING, Callable

if TYPE_CHECKING:
    from .asset_model import AssetModel

RIG_ROOT = "/PhysicsValidatorRig"


@dataclass
class TestRig:
    __test__ = False  # not a pytest class

    folder: str
    path: str  # the rig's root layer (it sublayers the asset)
    model: "AssetModel"  # read from it, for the engine and the test

    def close(self) -> None:
        shutil.rmtree(self.folder, ignore_errors=True)


def build_rig(asset: "AssetModel", author: Callable, name: str = "rig") -> TestRig:
    """Write `<tmp>/<name>.usda` sublayering the asset (its stage metadata copied), let `author(stage)` add to it in
    the stage's units and axes, save, and read it back for the asset's physics runtime. The folder is removed when
    anything fails."""
    from pxr import Sdf, Usd, UsdGeom, UsdPhysics

    from .usd import read_asset

    folder = tempfile.mkdtemp(prefix="simready-rig-")
    try:
        path = os.path.join(folder, f"{name}.usda")
        source = Sdf.Layer.FindOrOpen(asset.path)
        layer = Sdf.Layer.CreateNew(path)
        layer.subLayerPaths.append(os.path.abspath(asset.path))
        stage = Usd.Stage.Open(layer)
        stage.SetEditTarget(Usd.EditTarget(layer))
        up = source.pseudoRoot.GetInfo("upAxis") if source and source.pseudoRoot.HasInfo("upAxis") else asset.up_axis
        UsdGeom.SetStageUpAxis(stage, up)
        UsdGeom.SetStageMetersPerUnit(stage, asset.meters_per_unit)
        UsdPhysics.SetStageKilogramsPerUnit(stage, asset.kilograms_per_unit)
        if asset.default_prim:
            layer.defaultPrim = asset.default_prim.strip("/").split("/")[0]
        author(stage)
        layer.Save()
        return TestRig(folder, path, read_asset(path, asset.physics_runtime))
    except BaseException:
        shutil.rmtree(folder, ignore_errors=True)
        raise
