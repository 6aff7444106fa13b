"""The asset model of the stage open in Kit, unsaved edits included. Kit only (omni.usd, lazily)."""

from __future__ import annotations

import os
import tempfile
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from ..core.asset_model import AssetModel


def read_open_stage(usd_context_name: str = "", target: str | None = None) -> "AssetModel":
    """The open stage flattened to a temp file, read, and restricted to `target`'s subtree.

    `stage.Export` flattens the session layer too: call it between tests, never while a validation
    sublayer is on the stage.
    """
    import omni.usd

    from ..core.usd import read_asset

    stage = omni.usd.get_context(usd_context_name).get_stage()
    handle, path = tempfile.mkstemp(suffix=".usdc", prefix="physics_validator_")
    os.close(handle)
    try:
        stage.Export(path)
        asset = read_asset(path)
    finally:
        os.unlink(path)
    asset.path = stage.GetRootLayer().identifier
    return asset.restricted_to(target)
