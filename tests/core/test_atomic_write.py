"""Writes by replace: never through a link, never a temp file or a half file left behind."""

from __future__ import annotations

import pytest

from omni.simready.physics_validator.core.atomic_write import real_folder, replacing, write_atomic


def test_a_link_at_the_path_is_replaced_and_its_target_untouched(tmp_path):
    target = tmp_path / "asset.usda"
    target.write_text("the asset")
    link = tmp_path / "out" / "report.json"
    link.parent.mkdir()
    link.symlink_to(target)
    write_atomic(link, "{}")
    assert target.read_text() == "the asset"
    assert not link.is_symlink() and link.read_text() == "{}"


def test_a_failed_write_leaves_the_old_file_and_no_temp_file(tmp_path):
    path = tmp_path / "video.mp4"
    path.write_bytes(b"old")
    with pytest.raises(RuntimeError):
        with replacing(path) as tmp:
            tmp.write_bytes(b"half")
            assert tmp.suffix == ".mp4" and tmp.parent == tmp_path  # writers that pick a format by extension work
            raise RuntimeError("disk full")
    assert path.read_bytes() == b"old"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["video.mp4"]


def test_written_files_get_the_usual_permissions(tmp_path):
    write_atomic(tmp_path / "r.json", "{}")
    assert (tmp_path / "r.json").stat().st_mode & 0o044  # readable by others as open() would make it (umask 022)


def test_a_link_planted_as_a_folder_becomes_a_folder(tmp_path):
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    (tmp_path / "out").mkdir()
    (tmp_path / "out" / "asset-1234").symlink_to(elsewhere, target_is_directory=True)
    folder = real_folder(tmp_path / "out" / "asset-1234")  # outermost first, as run.asset_run makes a test's folder
    real_folder(folder / "ground_drop")
    write_atomic(folder / "ground_drop" / "series.json", "[]")
    assert not any(elsewhere.iterdir())
    assert (tmp_path / "out" / "asset-1234" / "ground_drop" / "series.json").is_file()
