"""`simready-physics import` before any converter runs: where package:// points, what a source is, how the output is
named, and every command-line problem a usage error (exit 2, one line, nothing installed or written)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from omni.simready.physics_validator.robot_import.source import SourceModel, kind_of, output_name, read_urdf, SourceError
from tests.fixtures.robot_sources import urdf_arm


def run_import(*args, cwd: Path, env_home: Path):
    """The command in a subprocess, with a converters' home no install may use (these cases must not install)."""
    import os

    env = {**os.environ, "SIMREADY_CONVERTER_HOME": str(env_home), "PIP_NO_INDEX": "1"}
    env.pop("SIMREADY_CONVERTER_VENV", None)
    return subprocess.run([sys.executable, "-m", "omni.simready.physics_validator.cli", "import", *map(str, args)],
                          capture_output=True, text=True, cwd=cwd, timeout=120, env=env)


def test_package_xml_above_the_urdf_resolves_its_package(tmp_path):
    urdf = urdf_arm(tmp_path / "ws" / "src")
    model = read_urdf(urdf, {})
    found = model.packages["two_link_description"]
    assert (found.folder, found.how) == (urdf.parents[1], "package.xml")
    assert all(m.exists for meshes in model.links.values() for m in meshes)
    assert [j.name for j in model.movable_joints] == ["shoulder", "elbow"]


def test_a_package_named_by_no_manifest_is_found_by_the_files_it_holds(tmp_path):
    """rtb-data's ABB IRB 140 names package://abb_irb140_support/ from a folder called abb_irb140_description."""
    urdf = urdf_arm(tmp_path, package="abb_irb140_support", package_xml=False)
    folder = urdf.parents[1].rename(tmp_path / "abb_irb140_description")
    model = read_urdf(folder / "urdf" / "two_link.urdf", {})
    assert (model.packages["abb_irb140_support"].folder, model.packages["abb_irb140_support"].how) == \
        (folder, "the files it holds")


def test_an_unresolved_package_is_a_usage_error_naming_the_flag_and_a_relative_flag_is_read_from_here(tmp_path):
    urdf = urdf_arm(tmp_path / "pkg", package_xml=False)
    moved = urdf.parents[1].rename(tmp_path / "elsewhere")  # neither its name nor its files are above the URDF now
    lone = tmp_path / "robot" / "two_link.urdf"
    lone.parent.mkdir()
    lone.write_text((moved / "urdf" / "two_link.urdf").read_text())
    done = run_import(lone, "--out", tmp_path / "out", cwd=tmp_path, env_home=tmp_path / "home")
    assert done.returncode == 2, done.stderr
    assert "package://two_link_description/" in done.stderr and "--package two_link_description=DIR" in done.stderr
    assert len(done.stderr.strip().splitlines()) == 1 and "Traceback" not in done.stderr
    assert not (tmp_path / "out").exists() and not (tmp_path / "home").exists()  # nothing written, nothing installed
    model = read_urdf(lone, {"two_link_description": moved})  # what --package elsewhere gives (made absolute from cwd)
    assert all(m.exists for meshes in model.links.values() for m in meshes)
    from omni.simready.physics_validator.robot_import.packages import parse_package_flags

    assert parse_package_flags(["two_link_description=elsewhere"], tmp_path) == {"two_link_description": moved}
    with pytest.raises(ValueError, match="no such folder"):
        parse_package_flags(["two_link_description=nowhere"], tmp_path)


@pytest.mark.parametrize("text, says", [
    ('<robot name="r" xmlns:xacro="http://www.ros.org/wiki/xacro"><xacro:property name="a" value="1"/></robot>',
     "xacro file: expand it first"),
    ("<sdf version='1.6'><model name='m'/></sdf>", "neither a URDF (<robot>) nor an MJCF (<mujoco>)"),
    ("<robot><link name='a'>", "not well-formed XML"),
])
def test_what_is_not_a_urdf_or_mjcf_is_said(tmp_path, text, says):
    source = tmp_path / "robot.urdf"
    source.write_text(text)
    with pytest.raises(SourceError, match=None) as raised:
        kind_of(source)
    assert says in str(raised.value)


def test_the_output_is_named_after_the_file_unless_it_says_nothing(tmp_path):
    named = SourceModel("mjcf", tmp_path / "yumi_left_gripper.xml", "yumi left girpper")
    assert output_name(named) == "yumi_left_gripper"
    generic = SourceModel("mjcf", tmp_path / "arx5" / "robot.xml", "MuJoCo Model")  # robosuite-models' arms
    assert output_name(generic) == "arx5"
    own = SourceModel("urdf", tmp_path / "robots" / "model.urdf", "abb irb140")
    assert output_name(own) == "abb_irb140"


def test_a_folder_import_did_not_write_is_never_replaced(tmp_path):
    urdf = urdf_arm(tmp_path / "src")
    (tmp_path / "out" / "two_link").mkdir(parents=True)
    (tmp_path / "out" / "two_link" / "notes.txt").write_text("mine")
    done = run_import(urdf, "--out", tmp_path / "out", cwd=tmp_path, env_home=tmp_path / "home")
    assert done.returncode == 2 and "was not written by import" in done.stderr, done.stderr
    assert (tmp_path / "out" / "two_link" / "notes.txt").read_text() == "mine"
    assert run_import(cwd=tmp_path, env_home=tmp_path / "home").returncode == 2  # no source, no --setup
    (tmp_path / "a_file").write_text("")
    done = run_import(urdf, "--out", tmp_path / "a_file", cwd=tmp_path, env_home=tmp_path / "home")
    assert done.returncode == 2 and "is a file, not a folder" in done.stderr, done.stderr
    assert not (tmp_path / "home").exists()  # refused before any install
