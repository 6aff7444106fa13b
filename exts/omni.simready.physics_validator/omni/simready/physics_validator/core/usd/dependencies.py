"""What an asset is made of, found without ever blocking: the files its cache key hashes, the layers a stage opens.

pxr opens a FIFO named as a sublayer and waits for a writer forever; UsdUtils.ComputeAllDependencies even opens an
attribute's `@./pipe.usda@` as a layer; hashing `@/dev/zero@` never ends. So this walk looks at every path before
anything reads it (`os.stat`, which never blocks): only regular files are opened, a FIFO, device, socket or folder
is recorded as what it is. Layers are followed through their composition arcs only (sublayers, references,
payloads: `Sdf.Layer.GetCompositionAssetDependencies`); other asset paths (textures) are files to hash, never opened
as layers. The parent process of a run bounds what it parses (`max_parse_bytes`): a bigger layer is not followed,
and the caller gives that asset no cache key (so it is validated every time instead of being reused stale).
"""

from __future__ import annotations

import os
import stat
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

KINDS = ((stat.S_ISREG, "a regular file"), (stat.S_ISDIR, "a folder"), (stat.S_ISFIFO, "a FIFO"),
         (stat.S_ISCHR, "a character device"), (stat.S_ISBLK, "a block device"), (stat.S_ISSOCK, "a socket"))
REGULAR = KINDS[0][1]


def file_kind(path: str | os.PathLike) -> str:
    """'a regular file', 'a FIFO', 'a character device'... ('' when nothing is there): by stat, which never blocks."""
    try:
        mode = os.stat(path).st_mode
    except (OSError, ValueError):
        return ""
    return next((name for test, name in KINDS if test(mode)), "a special file")


@dataclass
class Blocked:
    """A composition arc that names something no reader may open (a FIFO, a device)."""

    arc: str  # 'sublayer ./pipe.usda of asset.usda'
    path: Path
    kind: str

    def reason(self) -> str:
        return f"{self.arc} is {self.kind}, not a regular file: nothing reads it"


@dataclass
class Dependencies:
    """The asset's files (root first), what did not resolve, and what was not read, and why."""

    files: list[Path] = field(default_factory=list)  # regular files, each once: their bytes make the content hash
    special: dict[Path, str] = field(default_factory=dict)  # not regular (a texture slot naming /dev/zero) -> its kind
    blocked: list[Blocked] = field(default_factory=list)  # composition arcs naming a FIFO, a device...
    unresolved: list[str] = field(default_factory=list)  # asset paths that name nothing, as authored
    unfollowed: list[Path] = field(default_factory=list)  # layers over max_parse_bytes: not parsed here
    layers: list[Any] = field(default_factory=list)  # the Sdf.Layer handles opened (kept: a stage opened next reuses them)


def scan(path: str | os.PathLike, max_parse_bytes: int | None = None) -> Dependencies:
    """Walk the asset's layers from `path` without reading anything that is not a regular file. Never raises."""
    from pxr import Ar, Sdf, UsdUtils

    deps = Dependencies()
    root = Path(path).absolute()
    queue: list[tuple[str, str]] = [(str(root), "")]  # (layer identifier, how it was reached)
    seen: set[str] = set()
    resolver = Ar.GetResolver()
    while queue:
        identifier, arc = queue.pop(0)
        if identifier in seen:
            continue
        seen.add(identifier)
        file = _outer_file(identifier)
        kind = file_kind(file)
        if kind != REGULAR:
            if kind:
                deps.special[file] = kind
                if arc:
                    deps.blocked.append(Blocked(arc, file, kind))
            continue
        _add(deps.files, file)
        if max_parse_bytes is not None and file.stat().st_size > max_parse_bytes:
            deps.unfollowed.append(file)
            continue
        try:
            layer = Sdf.Layer.FindOrOpen(identifier)
        except Exception:  # noqa: BLE001 - an unparsable layer is still a file with bytes; the reader says why
            layer = None
        if layer is None:
            continue
        deps.layers.append(layer)
        composed = set(layer.GetCompositionAssetDependencies())
        try:
            sublayers, references, payloads = UsdUtils.ExtractExternalReferences(identifier)
        except Exception:  # noqa: BLE001
            sublayers, references, payloads = list(layer.subLayerPaths), [], []
        for authored in dict.fromkeys([*sublayers, *references, *payloads, *composed]):
            if not authored:
                continue
            anchored = resolver.CreateIdentifier(authored, Ar.ResolvedPath(layer.realPath or identifier))
            resolved = str(resolver.Resolve(anchored)) or (anchored if file_kind(_outer_file(anchored)) else "")
            if not resolved:
                _add(deps.unresolved, authored)
            elif authored in composed:
                what = "sublayer" if authored in layer.subLayerPaths else "reference or payload"
                queue.append((resolved, f"{what} {authored} of {file.name}"))
            else:  # an asset-valued attribute (a texture): its bytes count, it is never opened as a layer
                target = _outer_file(resolved)
                target_kind = file_kind(target)
                if target_kind == REGULAR:
                    _add(deps.files, target)
                elif target_kind:
                    deps.special[target] = target_kind
    return deps


def _outer_file(identifier: str) -> Path:
    """The file on disk behind a layer identifier ('pkg.usdz[inner.usdc]' -> pkg.usdz; a name with '[' that is no
    package path, 'physics[v2].usda', stays whole)."""
    from pxr import Ar

    if Ar.IsPackageRelativePath(identifier):
        identifier = Ar.SplitPackageRelativePathOuter(identifier)[0]
    return Path(identifier).absolute()


def _add(items: list, item) -> None:
    if item not in items:
        items.append(item)
