"""Saved reports without absolute paths: known roots rewritten wherever they appear, prim paths left alone."""

from __future__ import annotations

from pathlib import Path

from omni.simready.physics_validator.reports.path_privacy import PathPrivacy


def test_paths_under_the_root_the_output_folder_and_home(tmp_path):
    root, out = tmp_path / "library", tmp_path / "reports" / "run1"
    privacy = PathPrivacy(root, out)
    assert privacy.text(f"{root}/ur5/ur5.usda") == "ur5/ur5.usda"
    assert privacy.text(str(root)) == "."
    assert privacy.text(f"{out}/ur5-1234/series.json") == "<OUT>/ur5-1234/series.json"
    assert privacy.text(f"cannot open @{root}/x.usdc@ for /Asset/Body") == "cannot open @x.usdc@ for /Asset/Body"
    assert privacy.text(f"{Path.home()}/other/a.usda") == "~/other/a.usda"
    assert privacy.text(f"{root}2/a.usda") == f"{root}2/a.usda"  # another folder that merely starts the same


def test_output_inside_the_root_reads_relative_and_data_is_walked(tmp_path):
    privacy = PathPrivacy(tmp_path, tmp_path / "out")
    data = privacy.data({"path": f"{tmp_path}/in/a.usda", "artifacts": {"series": f"{tmp_path}/out/a/s.json"},
                         "not_run": [f"{tmp_path}/in/b.usda::ground_drop"], "metrics": {"x": 1.0}})
    assert data == {"path": "in/a.usda", "artifacts": {"series": "out/a/s.json"},
                    "not_run": ["in/b.usda::ground_drop"], "metrics": {"x": 1.0}}


def test_markup_is_left_to_the_filter_that_made_it(tmp_path):
    from markupsafe import Markup

    privacy = PathPrivacy(tmp_path)
    wrapped = Markup(f"{tmp_path}/<wbr>a.usda")
    assert privacy.finalize(wrapped) is wrapped
    assert privacy.finalize(f"{tmp_path}/a.usda") == "a.usda"
