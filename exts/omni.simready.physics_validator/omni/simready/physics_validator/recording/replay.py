"""USD replay layer: the asset's body transforms time-sampled at the capture rate.

A small .usda that references the asset (or sublayers it when some body lies outside the default
prim) and authors, as overs on the body prims, one `xformOp:transform` per captured frame. Values
are in the stage's own units and up axis, and keep the body's authored scale, so the replay opens
in usdview or Isaac Sim exactly where the asset would be. timeCodesPerSecond is the capture rate
(time code i = captured frame i). The asset itself is never written.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np

from ..core.atomic_write import write_atomic
from ..core.units import StageFrame
from .render_geometry import gf_to_numpy


def _to_gf(matrix: np.ndarray):
    from pxr import Gf

    return Gf.Matrix4d(*np.asarray(matrix, float).T.ravel().tolist())


def _rigid_part(world: np.ndarray) -> np.ndarray:
    """Translation and rotation of a (column-vector) 4x4 transform, scale and shear removed."""
    from pxr import Gf

    transform = Gf.Transform(_to_gf(world))
    out = gf_to_numpy(Gf.Matrix4d().SetRotate(transform.GetRotation()))
    out[:3, 3] = np.array(transform.GetTranslation(), float)
    return out


def write_replay(
    out_path: Path,
    asset_path: str,
    frames: list[dict[str, tuple[np.ndarray, np.ndarray]]],
    fps: float,
    comment: str = "",
) -> Path:
    """Write the replay layer; `frames[i]` maps body path -> (pos, quat wxyz) in the SI Z-up world."""
    from pxr import Sdf, Usd, UsdGeom

    out_path = Path(out_path)
    out_path.parent.mkdir(parents=True, exist_ok=True)
    source = Usd.Stage.Open(str(asset_path), load=Usd.Stage.LoadAll)
    if source is None:
        raise RuntimeError(f"cannot open {asset_path}")
    stage_frame = StageFrame.of_stage(source)
    cache = UsdGeom.XformCache(Usd.TimeCode.Default())

    body_paths = sorted({p for frame in frames for p in frame}, key=lambda p: (p.count("/"), p))
    body_paths = [p for p in body_paths if source.GetPrimAtPath(p)]
    rest_world = {p: gf_to_numpy(cache.GetLocalToWorldTransform(source.GetPrimAtPath(p))) for p in body_paths}
    # The non-rigid rest of each body's matrix (scale, pivots) is kept as authored.
    shape = {p: np.linalg.inv(_rigid_part(w)) @ w for p, w in rest_world.items()}
    body_set = set(body_paths)

    def nearest_body_ancestor(path: str) -> str | None:
        parent = Sdf.Path(path).GetParentPath()
        while parent != Sdf.Path.absoluteRootPath:
            if str(parent) in body_set:
                return str(parent)
            parent = parent.GetParentPath()
        return None

    parents = {}
    for path in body_paths:
        parent_prim = source.GetPrimAtPath(path).GetParent()
        parent_world = gf_to_numpy(cache.GetLocalToWorldTransform(parent_prim)) if parent_prim else np.eye(4)
        parents[path] = (nearest_body_ancestor(path), parent_world)

    # Absolute: the replay keeps working when the report folder is moved or copied to a review share.
    asset_ref = str(Path(asset_path).resolve())
    layer = Sdf.Layer.CreateAnonymous(".usda")  # written out by replace at the end, never opened from `out_path`
    stage = Usd.Stage.Open(layer, load=Usd.Stage.LoadAll)
    default_prim = source.GetDefaultPrim()
    under_default = default_prim and all(
        Sdf.Path(p).HasPrefix(default_prim.GetPath()) for p in body_paths
    )
    if under_default:
        prim = stage.OverridePrim(default_prim.GetPath())
        prim.GetReferences().AddReference(asset_ref, default_prim.GetPath())
        stage.SetDefaultPrim(prim)
    else:
        layer.subLayerPaths.append(asset_ref)
    UsdGeom.SetStageUpAxis(stage, UsdGeom.GetStageUpAxis(source))
    UsdGeom.SetStageMetersPerUnit(stage, UsdGeom.GetStageMetersPerUnit(source))
    stage.SetTimeCodesPerSecond(fps)
    stage.SetFramesPerSecond(fps)
    stage.SetStartTimeCode(0)
    stage.SetEndTimeCode(max(len(frames) - 1, 0))
    layer.comment = comment or f"physics_validator replay of {asset_path}"

    ops = {}
    for path in body_paths:
        xformable = UsdGeom.Xformable(stage.GetPrimAtPath(path))
        ops[path] = xformable.MakeMatrixXform()

    for index, frame in enumerate(frames):
        world_now: dict[str, np.ndarray] = {}
        for path in body_paths:
            pose = frame.get(path)
            if pose is None:
                continue
            pos, quat = pose
            world = stage_frame.rigid_from_si(pos, quat) @ shape[path]
            world_now[path] = world
            ancestor, parent_world = parents[path]
            if ancestor is not None and ancestor in world_now:
                # The parent moved with its body: carry the authored body->parent offset along.
                parent_world = world_now[ancestor] @ np.linalg.inv(rest_world[ancestor]) @ parent_world
            local = np.linalg.inv(parent_world) @ world
            ops[path].Set(_to_gf(local), Usd.TimeCode(index))
    write_atomic(out_path, layer.ExportToString())
    return out_path
