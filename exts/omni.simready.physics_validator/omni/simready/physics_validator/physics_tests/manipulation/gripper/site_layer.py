"""A FET028 gripper site (GR.001-004) in a layer of its own: the file `simready-physics gripper-site` writes.

The layer sublayers the asset (by a path relative to the layer) and carries its stage metadata, so validating the
layer is validating the asset with a site; the asset is never opened for writing. The site is an Xform under the
gripper's base body at the grasp centre, world-aligned (its children's points are world directions), marked
`simready:attactment:socketType = "Gripper"` (NVIDIA's spelling) with IsaacSiteAPI and `isaac:Description`, its
children BasisCurves `gripper_forward_axis` (5 cm along the approach) and `gripper_grip_line` (pad to pad, fully
open), `custom:maxOpening` (m) and, when given, `custom:maxPayload` (kg). The header names the command, so a later run
may replace its own layer and never anything else.
"""

from __future__ import annotations

import os
import shlex
from pathlib import Path
from typing import TYPE_CHECKING

import numpy as np

if TYPE_CHECKING:
    from .jaw_geometry import SiteProposal

MARK = "simready-physics gripper-site"  # in the header of every layer it writes
FORWARD_LENGTH = 0.05  # m: the forward-axis curve's length (a direction; its length means nothing)
SITE_NAME = "gripper_site"


def validate_command(layer: str) -> str:
    """The command that judges a site layer: the two FET028 tests."""
    return f"simready-physics validate {shlex.quote(layer)} --tests gripper_close_lift_sphere,gripper_close_lift_cube"


def written_by_gripper_site(path: Path) -> bool:
    """Whether `path` is a regular file this command wrote (its header names it), read no further than 4 KiB."""
    if path.is_symlink() or not path.is_file():
        return False
    with open(path, "rb") as handle:
        return MARK.encode("utf-8") in handle.read(4096)


def _free_name(stage, parent: str) -> str:
    name, index = SITE_NAME, 0
    while stage.GetPrimAtPath(f"{parent}/{name}"):
        index += 1
        name = f"{SITE_NAME}_{index}"
    return f"{parent}/{name}"


def site_layer_text(asset_path: str | Path, out_path: str | Path, proposal: "SiteProposal", payload: float | None,
                    description: str) -> tuple[str, str]:
    """(the layer's text, the site's prim path): nothing written. Vectors and points SI, in the asset model's world."""
    from pxr import Gf, Sdf, Usd, UsdGeom

    from ....core.units import StageFrame
    from ....core.usd import read_asset

    asset_path, out_path = Path(asset_path).resolve(), Path(out_path).absolute()
    assert proposal.forward is not None and proposal.grip is not None and proposal.opening is not None  # complete
    frame = StageFrame.of_asset(read_asset(str(asset_path)))
    source = Usd.Stage.Open(str(asset_path))
    layer = Sdf.Layer.CreateAnonymous(".usda")
    layer.subLayerPaths.append(str(asset_path))
    stage = Usd.Stage.Open(layer)
    stage.SetEditTarget(layer)
    for key in ("upAxis", "metersPerUnit", "kilogramsPerUnit"):
        if source.GetRootLayer().pseudoRoot.HasInfo(key):
            layer.pseudoRoot.SetInfo(key, source.GetRootLayer().pseudoRoot.GetInfo(key))
    if source.GetDefaultPrim():
        layer.defaultPrim = source.GetDefaultPrim().GetName()
    path = _free_name(stage, proposal.base)
    parent = UsdGeom.Xformable(stage.GetPrimAtPath(proposal.base)).ComputeLocalToWorldTransform(Usd.TimeCode.Default())
    centre = frame.point_from_si(proposal.centre)
    world = Gf.Matrix4d(1.0).SetTranslate(Gf.Vec3d(*(float(v) for v in centre)))
    site = UsdGeom.Xform.Define(stage, path)
    site.AddTransformOp().Set(world * parent.GetInverse())  # row vectors: local = world x parent^-1
    prim = site.GetPrim()
    prim.CreateAttribute("simready:attactment:socketType", Sdf.ValueTypeNames.Token).Set("Gripper")
    prim.AddAppliedSchema("IsaacSiteAPI")
    prim.CreateAttribute("isaac:Description", Sdf.ValueTypeNames.String).Set(description)
    prim.CreateAttribute("custom:maxOpening", Sdf.ValueTypeNames.Float).Set(float(proposal.opening))
    if payload is not None:
        prim.CreateAttribute("custom:maxPayload", Sdf.ValueTypeNames.Float).Set(float(payload))
    forward, grip = frame.vectors_from_si(np.array([proposal.forward, proposal.grip]), frame.meters_per_unit)
    half = proposal.opening / 2.0
    for name, (a, b) in (("gripper_forward_axis", (np.zeros(3), FORWARD_LENGTH * forward)),
                         ("gripper_grip_line", (-half * grip, half * grip))):
        curve = UsdGeom.BasisCurves.Define(stage, f"{path}/{name}")
        curve.CreatePointsAttr([Gf.Vec3f(*(float(v) for v in a)), Gf.Vec3f(*(float(v) for v in b))])
        curve.CreateCurveVertexCountsAttr([2])
        curve.CreateTypeAttr("linear")
        curve.CreatePurposeAttr("guide")
    del stage, site, prim, curve  # no stage recomposes on the relative path below (it resolves from OUT, not here)
    layer.subLayerPaths[0] = Path(os.path.relpath(asset_path, out_path.parent)).as_posix()
    layer.comment = (f"{MARK}: a FET028 gripper site ({path}) over {asset_path.name}, which this layer sublayers and "
                     f"never modifies. Validate this file: {validate_command(out_path.name)}")
    return layer.ExportToString(), path
