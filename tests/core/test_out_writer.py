"""The one writer of OUT (core.out_writer): by replace, never through a link at any depth below a claimed root."""

from __future__ import annotations

import os

import pytest

from omni.simready.physics_validator.core import out_writer
from omni.simready.physics_validator.core.out_writer import LinkRefused, claimed, folder, replacing, write_text


@pytest.fixture
def out(tmp_path):
    with claimed(tmp_path / "out") as root:
        yield root


@pytest.fixture
def elsewhere(tmp_path):
    path = tmp_path / "elsewhere"
    path.mkdir()
    return path


def test_a_link_at_the_path_is_replaced_and_its_target_untouched(tmp_path):
    target = tmp_path / "asset.usda"
    target.write_text("the asset")
    link = tmp_path / "out" / "report.json"
    link.parent.mkdir()
    link.symlink_to(target)
    write_text(link, "{}")
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
    write_text(tmp_path / "r.json", "{}")
    assert (tmp_path / "r.json").stat().st_mode & 0o044  # readable by others as open() would make it (umask 022)


@pytest.mark.parametrize("planted", [".cache", "results/box-1234", ".fix/before/box-1234/ground_drop"])
def test_a_link_planted_at_any_depth_below_out_is_replaced_by_a_folder(out, elsewhere, planted):
    (out / planted).parent.mkdir(parents=True, exist_ok=True)
    (out / planted).symlink_to(elsewhere, target_is_directory=True)
    deep = out / planted / "a" / "b"
    write_text(deep / "entry.json", "{}")
    folder(out / planted / "c")
    assert not any(elsewhere.iterdir()), "written through the link"
    assert not (out / planted).is_symlink() and (deep / "entry.json").read_text() == "{}"
    assert any(str(out / planted) in line for line in out_writer.replaced_links)


def test_a_link_above_the_planted_one_is_replaced_first(out, elsewhere):
    """OUT/html -> elsewhere, where elsewhere/media -> elsewhere/deeper: neither is followed."""
    (elsewhere / "deeper").mkdir()
    (elsewhere / "media").symlink_to(elsewhere / "deeper", target_is_directory=True)
    (out / "html").symlink_to(elsewhere, target_is_directory=True)
    write_text(out / "html" / "media" / "plot.json", "{}")
    assert sorted(p.name for p in elsewhere.iterdir()) == ["deeper", "media"] and not any((elsewhere / "deeper").iterdir())


def test_a_file_where_a_folder_is_wanted_is_an_error_not_removed(out):
    (out / "results").write_text("someone's file")
    with pytest.raises(NotADirectoryError):
        write_text(out / "results" / "r.json", "{}")
    assert (out / "results").read_text() == "someone's file"


def test_outside_a_claimed_root_a_link_is_the_users(tmp_path, elsewhere):
    """--json ~/reports/r.json where ~/reports is a link the user made: followed (it is theirs), never removed."""
    (tmp_path / "reports").symlink_to(elsewhere, target_is_directory=True)
    write_text(tmp_path / "reports" / "r.json", "{}")
    assert (tmp_path / "reports").is_symlink() and (elsewhere / "r.json").read_text() == "{}"


def test_a_folder_swapped_for_a_link_while_a_path_writer_writes_is_refused(out, elsewhere):
    target = out / "asset" / "video.mp4"
    with pytest.raises(LinkRefused):
        with replacing(target) as tmp:
            tmp.write_bytes(b"frames")
            os.rename(out / "asset", out / "moved")
            (out / "asset").symlink_to(elsewhere, target_is_directory=True)
    assert not any(elsewhere.iterdir())
    assert [p.name for p in (out / "moved").iterdir()] == [], "the temp file was left behind"


def test_removal_never_goes_through_a_link(out, elsewhere):
    (elsewhere / "keep.png").write_bytes(b"theirs")
    (out / "media").symlink_to(elsewhere, target_is_directory=True)
    assert out_writer.remove(out / "media" / "keep.png") is False
    assert not out_writer.remove_empty_folder(out / "media")
    assert (elsewhere / "keep.png").exists()


def test_claims_nest_release_and_travel_to_workers(tmp_path):
    with claimed(tmp_path / "out") as root:
        with claimed(root / "physx"):  # under a claimed root: nothing changes
            assert out_writer.root_of(root / "physx" / "x") == root
        assert str(root) in out_writer.roots()
    assert out_writer.root_of(tmp_path / "out" / "x") is None
    out_writer.adopt([str(tmp_path / "out")])  # a worker, for the job its parent sent
    try:
        assert out_writer.root_of(tmp_path / "out" / "x") == tmp_path / "out"
    finally:
        out_writer.adopt(None)


def test_the_lock_file_is_never_opened_through_a_link(out, elsewhere):
    (out / ".lock").symlink_to(elsewhere / "victim")
    handle = out_writer.open_lock_file(out, ".lock")
    os.close(handle)
    assert not (elsewhere / "victim").exists() and (out / ".lock").is_file()


def test_a_tree_is_removed_without_following_the_links_in_it(out, elsewhere):
    (elsewhere / "keep.txt").write_text("theirs")
    (out / "staged" / "sub").mkdir(parents=True)
    (out / "staged" / "sub" / "link").symlink_to(elsewhere, target_is_directory=True)
    (out / "staged" / "file.usda").write_text("ours")
    assert out_writer.remove_tree(out / "staged") and not (out / "staged").exists()
    (out / "planted").symlink_to(elsewhere, target_is_directory=True)
    assert out_writer.remove_tree(out / "planted") and not (out / "planted").is_symlink()
    assert (elsewhere / "keep.txt").read_text() == "theirs"


def test_a_staged_folder_is_renamed_into_place_never_through_a_link(out, elsewhere):
    (out / "stage").mkdir()
    (out / "stage" / "robot.usda").write_text("#usda 1.0\n")
    (out / "robots").symlink_to(elsewhere, target_is_directory=True)  # planted above the target
    out_writer.rename(out / "stage", out / "robots" / "arm")
    assert not any(elsewhere.iterdir()) and (out / "robots" / "arm" / "robot.usda").is_file()
