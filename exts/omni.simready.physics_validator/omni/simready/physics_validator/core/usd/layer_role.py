"""Is this file the asset, or one layer of it? And which file is the asset then?

Converters write an asset as several layers (`robot.usda` payloads `Payload/Contents.usda`, which sublayers
`Physics.usda`, `Geometry.usda`...). Opened alone, `Physics.usda` holds joints and physics schemas on prims it
does not define (`over` prims: the bodies are defined in `Geometry.usda`): every test would fail for reasons that
are not the asset's ("no prim has RigidBodyAPI"). The sign is physics on prims only overridden, never defined;
the file to validate is found by climbing: which text USD file beside it (or one folder up) brings it in as a
sublayer, reference or payload, until none does.

Only regular files are read (never a FIFO or device), text layers only, each at most MAX_BYTES and at most
MAX_CANDIDATES per folder: a hostile folder costs a bounded read.
"""

from __future__ import annotations

import os
import stat
from pathlib import Path

PHYSICS_SCHEMAS = ("PhysicsRigidBodyAPI", "PhysicsCollisionAPI", "PhysicsArticulationRootAPI", "PhysicsMassAPI")
MAX_PRIMS = 20000  # prims looked at for overridden-only physics
MAX_CANDIDATES = 200  # USD files looked at per folder
MAX_BYTES = 16 * 1024 * 1024  # a text layer larger than this is not read
MAX_CLIMB = 4  # includers followed upwards
TEXT_SUFFIXES = (".usda", ".usd")


def overridden_physics(stage) -> str | None:
    """The first prim that carries a physics schema but is only overridden (an `over`, defined nowhere on this
    stage), or None: the stage is one layer of an asset whose other layers define its prims."""
    for count, prim in enumerate(stage.TraverseAll()):
        if count >= MAX_PRIMS:
            return None
        if prim.IsDefined() or prim.IsAbstract():
            continue
        schemas = prim.GetMetadata("apiSchemas")
        names = list(schemas.GetAddedOrExplicitItems()) if schemas is not None else []
        if any(name in PHYSICS_SCHEMAS for name in names):
            return str(prim.GetPath())
    return None


def including_root(path: str | os.PathLike) -> Path | None:
    """The top file that brings `path` in (climbing sublayer / reference / payload arcs), or None when no text USD
    file beside it or one folder up does."""
    current = Path(path).resolve()
    seen = {current}
    found = None
    for _ in range(MAX_CLIMB):
        parent = _includer(current)
        if parent is None or parent in seen:
            break
        seen.add(parent)
        found = current = parent
    return found


def _includer(target: Path) -> Path | None:
    for folder in (target.parent, target.parent.parent):
        for candidate in _text_layers(folder):
            if candidate != target and target in _dependencies(candidate, target.name):
                return candidate
    return None


def _text_layers(folder: Path) -> list[Path]:
    try:
        entries = sorted(os.scandir(folder), key=lambda e: e.name)
    except OSError:
        return []
    out = []
    for entry in entries:
        if not entry.name.lower().endswith(TEXT_SUFFIXES):
            continue
        try:
            info = entry.stat()
        except OSError:
            continue
        if stat.S_ISREG(info.st_mode) and 0 < info.st_size <= MAX_BYTES:
            out.append(Path(entry.path).resolve())
        if len(out) >= MAX_CANDIDATES:
            break
    return out


def _dependencies(layer_path: Path, name: str) -> set[Path]:
    """The files `layer_path` brings in, resolved; empty unless it is a text layer that names `name`."""
    try:
        with open(layer_path, "rb") as handle:
            head = handle.read(MAX_BYTES)
    except OSError:
        return set()
    if not head.startswith(b"#usda") or name.encode() not in head:
        return set()
    from pxr import Sdf

    try:
        layer = Sdf.Layer.FindOrOpen(str(layer_path))
    except Exception:  # noqa: BLE001 - not a layer we can read: it includes nothing we can say
        return set()
    if layer is None:
        return set()
    out = set()
    for asset_path in layer.GetCompositionAssetDependencies():
        resolved = Path(layer_path.parent, asset_path).resolve() if not os.path.isabs(asset_path) else Path(asset_path)
        out.add(resolved)
    return out
