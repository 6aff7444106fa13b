"""The stage as a whole: opening it read-only, its metadata, its layers, and finding USD files.

Everything here concerns the file and its composition rather than any physics prim. A file that
cannot be opened raises AssetLoadError (one-line reason, no pxr stack); a stage that opens but is
broken (hostile units, missing sublayers or references) is read anyway and its problems become
asset issues, which the tests turn into PRECHECK_FAILURE.
"""

from __future__ import annotations

import math
import os
import re
from pathlib import Path

from .dependencies import REGULAR, file_kind, scan
from .read_context import ReadContext, authored

USD_EXTENSIONS = (".usd", ".usda", ".usdc", ".usdz")


class AssetLoadError(Exception):
    """The file cannot be opened as a USD stage (missing, unreadable, not USD, syntax error)."""


def open_stage(path: str | os.PathLike):
    """Open a stage for reading, turning every failure into an AssetLoadError with a one-line reason. Nothing that is
    not a regular file is ever opened (a FIFO would block the reader for good): its layers are walked first."""
    from pxr import Tf, Usd

    path = Path(path)
    kind = file_kind(path)
    if not kind:
        raise AssetLoadError(f"file not found: {path}")
    if kind == "a folder":
        raise AssetLoadError(f"is a folder, not a USD file: {path}")
    if path.suffix.lower() not in USD_EXTENSIONS:
        raise AssetLoadError(f"not a USD file (expected {', '.join(USD_EXTENSIONS)}): {path}")
    if kind != REGULAR:
        raise AssetLoadError(f"not a regular file ({kind}): {path}")
    if path.stat().st_size == 0:
        raise AssetLoadError(f"empty file (0 bytes): {path}")
    layers = scan(path)  # its handles stay open until the stage has them: nothing is parsed twice
    if layers.blocked:
        raise AssetLoadError(layers.blocked[0].reason())
    try:
        stage = Usd.Stage.Open(str(path), Usd.Stage.LoadAll)
    except Tf.ErrorException as exc:
        raise AssetLoadError(f"cannot open {path.name}: {first_line(str(exc))}") from None
    except Exception as exc:  # noqa: BLE001 - pxr raises several types for corrupt files
        raise AssetLoadError(f"cannot open {path.name}: {first_line(str(exc))}") from None
    if stage is None:
        raise AssetLoadError(f"cannot open {path.name}: not a readable USD stage")
    return stage


_TF_ERROR = re.compile(r"Error in '[^']*' at line \d+ in file [^\n]*? : '(.*?)'\s*(?=\n\s*Error in|$)", re.S)


def first_line(text: str) -> str:
    """The first human message of a pxr error (Tf errors carry C++ function and file names first)."""
    messages = [" ".join(m.split()) for m in _TF_ERROR.findall(text)]
    messages = [m for m in messages if m]
    if messages:
        first = re.sub(r"(?:[A-Za-z]:)?[^\s:'@]*[/\\]([^/\\\s:'@]+):(\d+):(\d+):", r"\1 line \2:\3:", messages[0])
        return first[:300]
    for line in text.splitlines():
        line = line.strip().strip("\t -")
        if line and not line.startswith("Error in"):
            return line[:300]
    return text.strip()[:300] or "unknown error"


def find_usd_files(folder: str | os.PathLike) -> list[Path]:
    """USD files under a folder, sorted; payload/sublayer files of converted assets are skipped.

    Converted assets keep their layers in a `Payload/` folder; those layers are parts, not assets.
    """
    folder = Path(folder)
    found = []
    for path in sorted(folder.rglob("*")):
        if path.suffix.lower() in USD_EXTENSIONS and path.is_file():
            if any(part.lower() == "payload" for part in path.relative_to(folder).parts[:-1]):
                continue
            found.append(path)
    return found


def metadata_problems(mpu: float, kpu: float, up: str) -> list[tuple[str, str]]:
    """Units and up axis that would turn every length or mass into NaN, a mirror image or a wrong frame."""
    problems = []
    for name, value in (("metersPerUnit", mpu), ("kilogramsPerUnit", kpu)):
        if not (math.isfinite(value) and value > 0):
            problems.append(("STAGE_UNITS_INVALID", f"stage {name} is {value}: must be a finite positive number"))
    if up not in ("Y", "Z"):
        problems.append(("STAGE_UP_AXIS_INVALID", f"stage upAxis is {up!r}: USD allows only \"Y\" or \"Z\""))
    return problems


def check_stage(ctx: ReadContext, problems: list[tuple[str, str]]) -> None:
    """Metadata problems, missing sublayers, several roots without a defaultPrim, missing references."""
    for code, message in problems:
        ctx.issue("error", code, "/", message)
    root_layer = ctx.stage.GetRootLayer()
    for layer_path in root_layer.subLayerPaths:
        if not _resolves(root_layer, layer_path):
            ctx.issue("error", "UNRESOLVED_SUBLAYER", "/", f"sublayer cannot be found: {layer_path}")
    if not ctx.stage.GetDefaultPrim():
        roots = [p for p in ctx.stage.GetPseudoRoot().GetChildren() if p.GetTypeName() != "PhysicsScene"]
        if len(roots) > 1:
            ctx.issue("warning", "NO_DEFAULT_PRIM", "/",
                      f"no defaultPrim and {len(roots)} root prims; validating the whole stage")
    _check_composition(ctx)
    _composition_errors(ctx)
    _check_layer_role(ctx)


def _check_layer_role(ctx: ReadContext) -> None:
    """A file that only overrides the prims its physics sits on is one layer of an asset (a converter's
    Payload/Physics.usda), not the asset: every test would fail for reasons that are not the asset's."""
    from .layer_role import including_root, overridden_physics

    prim = overridden_physics(ctx.stage)
    if prim is None:
        return
    own = ctx.stage.GetRootLayer().realPath
    root = including_root(own) if own else None
    where = (f"validate {root}, which brings this layer in" if root is not None
             else "validate the asset's top-level file, the one that sublayers, references or payloads this layer")
    ctx.issue("error", "LAYER_OF_ANOTHER_ASSET", prim,
              f"this file is one layer of an asset, not the asset: its physics sits on prims it only overrides "
              f"(an `over` with no definition on this stage, e.g. {prim}); {where}")



_CYCLES = ("ArcCycle", "SublayerCycle")
_UNREADABLE = ("InvalidAssetPath", "InvalidSublayerPath", "InvalidExternalTargetPath")


def _composition_errors(ctx: ReadContext) -> None:
    """What pxr composed around without a word (a layer it cannot read, a payload of the asset's own file, layers
    that sublayer each other): each is a precheck naming the layer. A file that is missing is left to the
    UNRESOLVED_* checks above."""
    seen = set()
    for error in ctx.stage.GetCompositionErrors():
        kind = str(error.errorType).rsplit("_", 1)[-1]
        raw = str(error)
        if kind in _CYCLES:
            code = "COMPOSITION_CYCLE"
        elif kind in _UNREADABLE:
            named = re.search(r"@([^@]+)@", raw)
            if named is None or not os.path.exists(named.group(1).split(":SDF_FORMAT_ARGS:", 1)[0]):
                continue
            code = "LAYER_UNREADABLE"
        else:
            code = "COMPOSITION_ERROR"
        text = _composition_text(raw)
        if (code, text) not in seen:
            seen.add((code, text))
            ctx.issue("error", code, str(getattr(error.rootSite, "path", "/")), text)


def _composition_text(text: str) -> str:
    """A Pcp error on one line, layers by file name: '@/a/b/heavy.usdc@' -> 'heavy.usdc', the session layer left out."""
    text = re.sub(r",@anon:[^@]*@", "", text)
    text = re.sub(r":SDF_FORMAT_ARGS:[^@]*", "", text)
    text = re.sub(r"@([^@]*)@", lambda m: os.path.basename(m.group(1)) or m.group(1), text)
    return " ".join(text.split())[:400]


def _check_composition(ctx: ReadContext) -> None:
    """pxr composes around a missing reference or payload silently; the asset would lose parts unseen."""
    for prim in ctx.stage.Traverse():
        for spec in prim.GetPrimStack():
            for items in (spec.referenceList.GetAddedOrExplicitItems(), spec.payloadList.GetAddedOrExplicitItems()):
                for item in items:
                    if item.assetPath and not _resolves(spec.layer, item.assetPath):
                        ctx.issue(
                            "error",
                            "UNRESOLVED_REFERENCE",
                            str(prim.GetPath()),
                            f"reference or payload cannot be found: {item.assetPath}",
                        )


def _resolves(layer, asset_path: str) -> bool:
    from pxr import Sdf

    try:
        resolved = Sdf.ComputeAssetPathRelativeToLayer(layer, asset_path)
    except Exception:  # noqa: BLE001
        return False
    if not resolved:
        return False
    if Sdf.Layer.Find(resolved):
        return True
    return os.path.exists(resolved)


def robot_type(stage) -> str | None:
    """isaac:robotType on the default prim or one of its children, as a lower_snake token."""
    prim = stage.GetDefaultPrim()
    candidates = [prim, *prim.GetChildren()] if prim else []
    for candidate in candidates:
        value = authored(candidate, "isaac:robotType")
        if value:
            return str(value).strip().lower().replace(" ", "_")
    return None
