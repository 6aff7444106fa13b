"""An asset path another layer can name, whatever the asset's file is called.

USD refuses to write an asset path with a control character into a layer ("Invalid asset path string -- character
21 is control character 0x1"), yet opens such a file as a root layer without complaint: an engine that sublayers the
asset into a stage of its own (the physx wrapper) failed with an ERROR on every test of an asset named
`bad\\x01name.usda`. Such an asset is named through a copy of its root layer in the engine's own folder, beside a
link to the asset's folder that the copy's relative asset paths go through, so the asset composes as it is.
"""

from __future__ import annotations

import os
import re
from pathlib import Path

LINK = "asset_folder"
_URI = re.compile(r"^[A-Za-z][A-Za-z0-9+.-]*:")


def writable_in_layer(path: str) -> bool:
    """Whether USD accepts `path` as an asset path string in a layer."""
    from pxr import Sdf, Tf

    try:
        Sdf.AssetPath(path)
    except Tf.ErrorException:
        return False
    return True


def referable_path(asset_path: str | os.PathLike, workdir: str | os.PathLike) -> str:
    """The asset's absolute path when a layer may name it, else the path of its root layer's anchored copy in
    `workdir` (a folder of the caller's, never the asset's)."""
    from pxr import Sdf, UsdUtils

    real = Path(asset_path).resolve()
    if writable_in_layer(str(real)):
        return str(real)
    link = Path(workdir) / LINK
    if not link.is_symlink():
        link.symlink_to(real.parent, target_is_directory=True)
    source = Sdf.Layer.FindOrOpen(str(real))
    copy = Sdf.Layer.CreateNew(str(Path(workdir) / "asset_root.usdc"))
    copy.TransferContent(source)
    UsdUtils.ModifyAssetPaths(copy, _through_link)
    copy.Save()
    return copy.identifier


def _through_link(asset_path: str) -> str:
    """A relative asset path of the root layer, relative to its copy: through the link to the asset's folder."""
    if not asset_path or os.path.isabs(asset_path) or _URI.match(asset_path):
        return asset_path
    return f"./{LINK}/{asset_path[2:] if asset_path.startswith('./') else asset_path}"
