"""The tilted release's rig (core.rig): a layer sublayering the asset that turns it as a whole about the world X axis
through the centre of its bounds, so the engine builds it tilted (the scene then lifts it to the release height as
it lifts the upright asset). The asset file is never written; the layer lives in a temporary folder of its own and is
removed when the session closes.

The turn is a transform op prepended on every top-level prim that holds a body (in its parent's space: the world) and
on every prim below that resets its xform stack (its ops are world space too): a crate resetting its stack would
otherwise stay upright inside a tilted asset.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

from ....core.geometry import quat_from_axis_angle, quat_to_matrix
from ....core.rig import TestRig, build_rig
from ....core.units import StageFrame

if TYPE_CHECKING:
    from ....core.asset_model import AssetModel

TILT_OP_SUFFIX = "physicsValidatorTilt"


def tilted_rig(asset: "AssetModel", angle: float) -> TestRig | None:
    """The asset turned by `angle` (rad) about the world X axis through its authored bounds' centre, or None when it
    has no bounds to turn about."""
    bounds = asset.authored_bounds()
    if bounds is None:
        return None
    rotation = quat_to_matrix(quat_from_axis_angle(np.array([1.0, 0.0, 0.0]), angle))
    centre = (np.asarray(bounds[0], float) + np.asarray(bounds[1], float)) / 2.0
    translation = centre - rotation @ centre  # p -> R (p - c) + c

    def author(stage) -> None:
        turn_asset(stage, asset, rotation, translation)

    return build_rig(asset, author, name="tilted")


def turn_asset(stage, asset: "AssetModel", rotation: np.ndarray, translation: np.ndarray) -> None:
    """Move every prim of the asset rigidly in the world: p -> rotation p + translation (SI, Z-up), written in the
    stage's units and axes."""
    from pxr import Gf, Usd, UsdGeom

    frame = StageFrame.of_asset(asset)
    stage_rotation = frame.to_si_rotation.T @ rotation @ frame.to_si_rotation
    matrix = Gf.Matrix4d(1.0)
    matrix.SetRotateOnly(Gf.Matrix3d(*stage_rotation.T.flatten().tolist()))  # Gf: row vectors
    matrix.SetTranslateOnly(Gf.Vec3d(*frame.point_from_si(translation).tolist()))
    tops = sorted({"/" + path.strip("/").split("/")[0] for path in asset.bodies})
    for top in tops:
        prim = stage.GetPrimAtPath(top)
        resetting = [p for p in Usd.PrimRange(prim) if p != prim and p.IsA(UsdGeom.Xformable)
                     and UsdGeom.Xformable(p).GetResetXformStack()]
        for target in (prim, *resetting):
            xformable = UsdGeom.Xformable(target)
            ops = xformable.GetOrderedXformOps()
            op = xformable.AddTransformOp(UsdGeom.XformOp.PrecisionDouble, TILT_OP_SUFFIX)
            op.Set(matrix)
            xformable.SetXformOpOrder([op, *ops], xformable.GetResetXformStack())
