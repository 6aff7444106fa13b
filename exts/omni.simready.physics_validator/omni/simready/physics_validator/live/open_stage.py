"""The asset model of the stage open in Kit, unsaved edits included (omni.usd, lazily), or of any pxr stage."""

from __future__ import annotations

import os
import tempfile
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from ..core.asset_model import AssetModel


def read_open_stage(usd_context_name: str = "", target: str | None = None) -> "AssetModel":
    """The stage open in Kit (omni.usd context), read as `read_stage` does."""
    import omni.usd

    stage = omni.usd.get_context(usd_context_name).get_stage()
    if stage is None:
        raise ValueError("no stage is open")
    return read_stage(stage, target)


def read_stage(stage, target: str | None = None) -> "AssetModel":
    """A pxr stage flattened to a temp file, read, and restricted to `target`'s subtree. Pure pxr.

    `stage.Export` flattens the session layer too: call it between tests, never while a validation
    sublayer is on the stage.
    """
    from ..core.usd import read_asset

    handle, path = tempfile.mkstemp(suffix=".usdc", prefix="physics_validator_")
    os.close(handle)
    try:
        stage.Export(path)
        asset = read_asset(path)
    finally:
        os.unlink(path)
    asset.path = stage.GetRootLayer().identifier
    return asset.restricted_to(target)
