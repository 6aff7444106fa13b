"""Write a layer that gives a gripper asset a SimReady gripper site (FET028, GR.001-004) without touching it, for
gripper_close_lift_sphere / _cube: an Xform under the base body at the grasp centre, world-aligned, with its forward axis
and grip line curves, maxOpening and maxPayload. Used for the robosuite Robotiq 2F-140 of ../shared/assets
(docs/tests/gripper_close_lift_sphere.md); the layer goes where you say, never beside the asset.

    python tools/gripper_site_layer.py ASSET OUT.usda --base PRIM --centre X Y Z --forward X Y Z --grip X Y Z
        --opening M [--payload KG]

All world vectors in metres (the asset's Z-up world); --grip is the direction pad to pad.
"""

from __future__ import annotations

import argparse
import os

from pxr import Gf, Sdf, Usd, UsdGeom


def write_site_layer(asset: str, out: str, base: str, centre, forward, grip, opening: float, payload: float | None) -> str:
    layer = Sdf.Layer.CreateNew(out)
    layer.subLayerPaths.append(os.path.abspath(asset))
    source = Usd.Stage.Open(asset)
    if source.GetDefaultPrim():
        layer.defaultPrim = source.GetDefaultPrim().GetName()
    for key in ("upAxis", "metersPerUnit", "kilogramsPerUnit"):
        if source.GetRootLayer().pseudoRoot.HasInfo(key):
            layer.pseudoRoot.SetInfo(key, source.GetRootLayer().pseudoRoot.GetInfo(key))
    stage = Usd.Stage.Open(layer)
    parent = UsdGeom.Xformable(stage.GetPrimAtPath(base)).ComputeLocalToWorldTransform(0)
    world = Gf.Matrix4d(1.0).SetTranslate(Gf.Vec3d(*centre))
    site = UsdGeom.Xform.Define(stage, f"{base}/gripper_site")
    site.AddTransformOp().Set(world * parent.GetInverse())  # row vectors: local = world x parent^-1
    prim = site.GetPrim()
    prim.CreateAttribute("simready:attactment:socketType", Sdf.ValueTypeNames.Token).Set("Gripper")
    prim.AddAppliedSchema("IsaacSiteAPI")
    prim.CreateAttribute("gripper_maxOpening", Sdf.ValueTypeNames.Float).Set(opening)
    if payload is not None:
        prim.CreateAttribute("gripper_maxPayload", Sdf.ValueTypeNames.Float).Set(payload)
    for name, (a, b) in (("gripper_forward_axis", ((0, 0, 0), tuple(0.05 * v for v in forward))),
                         ("gripper_grip_line", (tuple(-opening / 2 * v for v in grip), tuple(opening / 2 * v for v in grip)))):
        curve = UsdGeom.BasisCurves.Define(stage, f"{base}/gripper_site/{name}")
        curve.CreatePointsAttr([Gf.Vec3f(*a), Gf.Vec3f(*b)])
        curve.CreateCurveVertexCountsAttr([2])
        curve.CreateTypeAttr("linear")
        curve.CreatePurposeAttr("guide")
    layer.Save()
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("asset")
    parser.add_argument("out")
    parser.add_argument("--base", required=True)
    for name in ("centre", "forward", "grip"):
        parser.add_argument(f"--{name}", type=float, nargs=3, required=True)
    parser.add_argument("--opening", type=float, required=True)
    parser.add_argument("--payload", type=float)
    args = parser.parse_args()
    print(write_site_layer(args.asset, args.out, args.base, args.centre, args.forward, args.grip, args.opening,
                           args.payload))


if __name__ == "__main__":
    main()
