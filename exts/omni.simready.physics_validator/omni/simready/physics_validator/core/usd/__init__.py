"""Reading a USD asset into the AssetModel: one read-only pxr pass (stage, bodies, shapes, joints).

`read_asset(path)` is the one entry; it never writes the file.
"""

from .reader import USD_EXTENSIONS, AssetLoadError, find_usd_files, open_stage, read_asset

__all__ = ["USD_EXTENSIONS", "AssetLoadError", "find_usd_files", "open_stage", "read_asset"]
