"""Reading a USD asset into the AssetModel: one read-only pxr pass (stage, bodies, shapes, joints).

`read_asset(path)` is the one entry; it never writes the file. reader.py orders the pass,
stage.py opens and checks the stage, bodies/shapes/joints/articulations.py read one kind of prim
each over a shared ReadContext (read_context.py), and core.units.StageFrame does every conversion
from the stage's axis and units to the SI Z-up world.
"""

from .reader import read_asset
from .stage import USD_EXTENSIONS, AssetLoadError, find_usd_files, open_stage

__all__ = ["USD_EXTENSIONS", "AssetLoadError", "find_usd_files", "open_stage", "read_asset"]
