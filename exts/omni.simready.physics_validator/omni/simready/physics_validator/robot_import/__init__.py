"""From URDF or MJCF to a USD robot the validator can judge: NVIDIA's converters, run in a venv of their own, and a
check that what the source holds arrived (docs/import.md). The command line is cli/import_robot.py."""

from .importer import ImportRequest, ImportResult, import_robot

__all__ = ["ImportRequest", "ImportResult", "import_robot"]
