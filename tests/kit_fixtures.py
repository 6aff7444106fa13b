"""Small USD assets saved to files for the Kit-layer pytest suites (built by the same pure-pxr
builders the Kit test suites use in a live stage)."""

from __future__ import annotations

from pathlib import Path

from pxr import Usd

from omni.simready.physics_validator.tests.stage_builders import build_arm, build_box


def make_box(path: Path, **kwargs) -> Path:
    """A dynamic box `/Box` (default prim); see `build_box` for the options (anchored, size, up...)."""
    stage = Usd.Stage.CreateNew(str(path))
    build_box(stage, **kwargs)
    stage.GetRootLayer().Save()
    return path


def make_arm(path: Path, **kwargs) -> Path:
    """A fixed-base driven arm `/Arm`; see `build_arm`."""
    stage = Usd.Stage.CreateNew(str(path))
    build_arm(stage, **kwargs)
    stage.GetRootLayer().Save()
    return path
