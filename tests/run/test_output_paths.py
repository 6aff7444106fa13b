"""Outputs refused before anything runs: an input, another output, a folder; one run per OUT."""

from __future__ import annotations

import subprocess
import sys

from pxr import Sdf

from omni.simready.physics_validator.run.output_paths import LOCK_NAME, claim_outputs, output_conflicts, release_all
from tests.fixtures.usd_assets import box_asset


def test_an_output_naming_an_input_or_its_layer_or_another_output(tmp_path):
    asset = box_asset(tmp_path / "in" / "robot.usda")
    Sdf.Layer.CreateNew(str(tmp_path / "in" / "physics.usda")).Save()
    layer = Sdf.Layer.FindOrOpen(str(asset))
    layer.subLayerPaths.append("./physics.usda")
    layer.Save()
    out = tmp_path / "out"
    paths = [str(tmp_path / "in")]
    assert "is an input" in output_conflicts(paths, out, {"--json": asset})
    assert "is an input" in output_conflicts(paths, out, {"--junit": tmp_path / "in" / "physics.usda"})
    assert "name the same file" in output_conflicts(paths, out, {"--json": out / "r", "--junit": out / "." / "r"})
    assert "is a folder" in output_conflicts(paths, out, {"--json": tmp_path / "in"})
    assert output_conflicts(paths, out, {"--json": out / "report.json"}) == ""
    link = tmp_path / "report.json"
    link.symlink_to(asset)  # written by replace: the link is replaced, the asset is not written
    assert output_conflicts(paths, out, {"--json": link}) == ""


def test_a_second_process_cannot_claim_a_claimed_folder(tmp_path):
    asset = box_asset(tmp_path / "robot.usda")
    out = tmp_path / "out"
    try:
        assert claim_outputs([str(asset)], out, {}) == ""
        assert claim_outputs([str(asset)], out, {}) == ""  # this process again: it holds it
        other = subprocess.run(
            [sys.executable, "-c", "import sys; from omni.simready.physics_validator.run.output_paths import lock; "
                                   f"print(lock(__import__('pathlib').Path({str(out)!r})))"],
            capture_output=True, text=True, check=True)
        assert "another simready-physics run" in other.stdout and str(__import__("os").getpid()) in other.stdout
    finally:
        release_all()
    assert (out / LOCK_NAME).exists()
