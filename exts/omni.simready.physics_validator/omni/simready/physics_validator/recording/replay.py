"""USD replay layer: the asset's body transforms time-sampled at the capture rate.

A small .usda that references the asset (or sublayers it when some body lies outside the default
prim) and authors, as overs on the body prims, one `xformOp:transform` per captured frame. Values
are in the stage's own units and up axis, and keep the body's authored scale, so the replay opens
in usdview or Isaac Sim exactly where the asset would be. timeCodesPerSecond is the capture rate
(time code i = captured frame i). The asset itself is never written.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import numpy as np

from ..core import out_writer
from ..core.geometry import quats_to_matrices
from ..core.units import StageFrame
from .render_geometry import gf_to_numpy


def _to_gf(matrix: np.ndarray):
    from pxr import Gf

    return Gf.Matrix4d(*np.asarray(matrix, float).T.ravel().tolist())


def _normalized(quats: np.ndarray) -> np.ndarray:
    """Unit quaternions (N, 4), the identity where one is zero or not finite (core.geometry.quat_normalize, batched)."""
    norms = np.linalg.norm(quats, axis=1)
    good = np.isfinite(norms) & (norms >= 1e-12)
    out = np.tile([1.0, 0.0, 0.0, 0.0], (len(quats), 1))
    out[good] = quats[good] / norms[good, None]
    return out


def _rigid_part(world: np.ndarray) -> np.ndarray:
    """Translation and rotation of a (column-vector) 4x4 transform, scale and shear removed."""
    from pxr import Gf

    transform = Gf.Transform(_to_gf(world))
    out = gf_to_numpy(Gf.Matrix4d().SetRotate(transform.GetRotation()))
    out[:3, 3] = np.array(transform.GetTranslation(), float)
    return out


@dataclass
class _AssetFrames:
    """What a replay needs of the asset, read once per asset (its tests' replays share it): the stage frame and
    metadata, and for each body its authored world matrix, the non-rigid rest of it (scale, pivots) and its nearest
    body ancestor with the parent prim's world matrix."""

    stage_frame: StageFrame
    up_axis: str
    meters_per_unit: float
    default_prim: str | None
    body_paths: list[str]
    rest_world: dict[str, np.ndarray]
    shape: dict[str, np.ndarray]
    parents: dict[str, tuple[str | None, np.ndarray]]


_FRAMES: dict = {}  # (asset path, file stamp, bodies) -> _AssetFrames: the last asset replayed in this process


def _asset_frames(asset_path: str, bodies: list[str]) -> _AssetFrames:
    from pxr import Sdf, Usd, UsdGeom

    stat = Path(asset_path).stat()
    key = (str(Path(asset_path).resolve()), stat.st_mtime_ns, stat.st_size, tuple(bodies))
    if key in _FRAMES:
        return _FRAMES[key]
    source = Usd.Stage.Open(str(asset_path), load=Usd.Stage.LoadAll)
    if source is None:
        raise RuntimeError(f"cannot open {asset_path}")
    cache = UsdGeom.XformCache(Usd.TimeCode.Default())
    body_paths = [p for p in sorted(bodies, key=lambda p: (p.count("/"), p)) if source.GetPrimAtPath(p)]
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
    default_prim = source.GetDefaultPrim()
    frames = _AssetFrames(StageFrame.of_stage(source), UsdGeom.GetStageUpAxis(source), UsdGeom.GetStageMetersPerUnit(source),
                          str(default_prim.GetPath()) if default_prim else None, body_paths, rest_world, shape, parents)
    _FRAMES.clear()
    _FRAMES[key] = frames
    return frames


def write_replay(
    out_path: Path,
    asset_path: str,
    frames: list[dict[str, tuple[np.ndarray, np.ndarray]]],
    fps: float,
    comment: str = "",
) -> Path:
    """Write the replay layer; `frames[i]` maps body path -> (pos, quat wxyz) in the SI Z-up world."""
    from pxr import Sdf

    out_path = Path(out_path)
    out_writer.folder(out_path.parent)
    asset = _asset_frames(str(asset_path), sorted({p for frame in frames for p in frame}))
    body_paths, rest_world, shape, parents = asset.body_paths, asset.rest_world, asset.shape, asset.parents

    # Absolute: the replay keeps working when the report folder is moved or copied to a review share.
    asset_ref = str(Path(asset_path).resolve())
    # Written as specs into an anonymous layer (the asset is never composed here) and out by replace at the end.
    layer = Sdf.Layer.CreateAnonymous(".usda")
    under_default = asset.default_prim is not None and all(
        Sdf.Path(p).HasPrefix(Sdf.Path(asset.default_prim)) for p in body_paths
    )
    if under_default:
        assert asset.default_prim is not None
        root = Sdf.CreatePrimInLayer(layer, asset.default_prim)
        root.specifier = Sdf.SpecifierOver
        root.referenceList.Prepend(Sdf.Reference(asset_ref, asset.default_prim))
        layer.defaultPrim = Sdf.Path(asset.default_prim).name
    else:
        layer.subLayerPaths.append(asset_ref)
    pseudo = layer.pseudoRoot
    pseudo.SetInfo("upAxis", asset.up_axis)
    pseudo.SetInfo("metersPerUnit", float(asset.meters_per_unit))
    layer.timeCodesPerSecond = fps
    layer.framesPerSecond = fps
    layer.startTimeCode = 0
    layer.endTimeCode = max(len(frames) - 1, 0)
    layer.comment = comment or f"physics_validator replay of {asset_path}"

    # Every body's stage-space world matrix at every frame at once (numpy), then one time sample per frame.
    count = len(frames)
    to_stage = asset.stage_frame.to_si_rotation.T
    world: dict[str, np.ndarray] = {}  # body -> (frames, 4, 4); NaN where the frame has no pose for it
    present: dict[str, np.ndarray] = {}
    for path in body_paths:
        pos = np.full((count, 3), np.nan)
        quat = np.tile([1.0, 0.0, 0.0, 0.0], (count, 1))
        has = np.zeros(count, bool)
        for index, frame in enumerate(frames):
            pose = frame.get(path)
            if pose is not None:
                pos[index], quat[index], has[index] = pose[0], pose[1], True
        rigid = np.tile(np.eye(4), (count, 1, 1))
        rigid[:, :3, :3] = to_stage @ quats_to_matrices(_normalized(quat))
        rigid[:, :3, 3] = pos @ to_stage.T / asset.meters_per_unit
        world[path], present[path] = rigid @ shape[path], has
    for path in body_paths:
        ancestor, parent_world = parents[path]
        parent = np.tile(parent_world, (count, 1, 1))
        if ancestor is not None:  # the parent moved with its body: carry the authored body->parent offset along
            moving = present[ancestor]
            parent[moving] = world[ancestor][moving] @ np.linalg.inv(rest_world[ancestor]) @ parent_world
        local = np.linalg.inv(parent) @ world[path]
        spec = Sdf.CreatePrimInLayer(layer, path)  # an over with one matrix op: specs, the asset is never composed
        spec.specifier = Sdf.SpecifierOver
        attribute = Sdf.AttributeSpec(spec, "xformOp:transform", Sdf.ValueTypeNames.Matrix4d)
        order = Sdf.AttributeSpec(spec, "xformOpOrder", Sdf.ValueTypeNames.TokenArray, variability=Sdf.VariabilityUniform)
        order.default = ["xformOp:transform"]
        for sample in np.flatnonzero(present[path]).tolist():
            layer.SetTimeSample(attribute.path, float(sample), _to_gf(local[sample]))
    out_writer.write_text(out_path, layer.ExportToString(), durable=False)
    return out_path
