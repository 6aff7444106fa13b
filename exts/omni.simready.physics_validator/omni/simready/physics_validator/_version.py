"""The tool's version, in one place: pyproject.toml reads it; config/extension.toml must match it (tested)."""

__version__ = "0.1.0"
