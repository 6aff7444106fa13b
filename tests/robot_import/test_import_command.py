"""`simready-physics import` with NVIDIA's real converters (urdf-usd-converter 0.3.4, mujoco-usd-converter 0.8.0, in
their own venv: `simready-physics import --setup`, which tools/run_tests.sh runs): our small URDF arm and MJCF gripper
arrive whole, are named after their files, and validate; a mesh that did not arrive is named; a failed install says
why. Without the converters' venv these skip with the reason (SIMREADY_CONVERTERS=required, as in CI: they fail)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from omni.simready.physics_validator.robot_import import converter_env
from tests.fixtures.robot_sources import mjcf_gripper, urdf_arm

pytestmark = pytest.mark.usefixtures("physx_available")


@pytest.fixture(scope="module")
def converters():
    if not converter_env.is_ready():
        reason = (f"NVIDIA's converters are not installed at {converter_env.location()}: run `simready-physics import "
                  "--setup` (about a minute; tools/run_tests.sh does it)")
        if os.environ.get("SIMREADY_CONVERTERS") == "required":
            pytest.fail(reason)
        pytest.skip(reason)
    return converter_env.location()


def run_import(*args, cwd: Path):
    return subprocess.run([sys.executable, "-m", "omni.simready.physics_validator.cli", "import", *map(str, args)],
                          capture_output=True, text=True, cwd=cwd, timeout=900)


def test_a_urdf_arm_in_its_ros_package_arrives_whole_and_validates(tmp_path, converters):
    """package:// found by its package.xml (no --package), both joints and both links' meshes there, and
    `--validate` runs the printed next command: the arm without drives is judged (joint_movement moves both joints)
    and exits by its verdicts."""
    urdf = urdf_arm(tmp_path / "ws" / "src")
    done = run_import(urdf, "--out", "converted", "--validate", cwd=tmp_path)
    assert done.returncode == 0, done.stdout + done.stderr[-3000:]
    asset = tmp_path / "converted" / "two_link" / "two_link.usda"
    assert asset.is_file() and "next: simready-physics validate converted/two_link/two_link.usda" in done.stdout
    record = json.loads((asset.parent / "import.json").read_text())
    assert record["arrival"]["complete"] and record["arrival"]["joints_found"] == 2
    assert record["packages"]["two_link_description"]["found_by"] == "package.xml"
    report = json.loads((tmp_path / "simready-report" / "report.json").read_text())
    verdicts = {t["name"]: t["status"] for t in report["assets"][0]["tests"]}
    assert verdicts["joint_movement"] == "PASS", verdicts
    assert verdicts["full_range_sweep"] == "SKIP"  # no drives yet: the next step is fix --add-drives
    assert "simready-physics fix converted/two_link/two_link.usda --add-drives" in done.stdout


def test_an_mjcf_is_named_after_its_file_and_a_reimport_replaces_its_own_folder(tmp_path, converters):
    """The converter names its file after the model ("two finger gripper.usda"); the import names it two_finger.usda,
    the only top layer, and a second import replaces the folder the first one wrote."""
    source = mjcf_gripper(tmp_path / "src")
    for _ in range(2):
        done = run_import(source, "--out", tmp_path / "out", cwd=tmp_path)
        assert done.returncode == 0, done.stdout + done.stderr[-3000:]
    folder = tmp_path / "out" / "two_finger"
    assert sorted(p.name for p in folder.iterdir()) == ["Payload", "converter.log", "import.json", "two_finger.usda"]
    assert [p.name for p in (tmp_path / "out").iterdir()] == ["two_finger"]  # no staging folder left
    arrival = json.loads((folder / "import.json").read_text())["arrival"]
    assert (arrival["joints_found"], arrival["mesh_links_expected"], arrival["actuators"]) == (2, 2, 2), arrival


def test_a_mesh_that_did_not_arrive_is_named_with_its_cause(tmp_path, converters):
    """The converter exits 0 without the mesh it could not open; the import says which link lost it and why, keeps
    the output, and exits 1."""
    urdf = urdf_arm(tmp_path / "src")
    (urdf.parents[1] / "meshes" / "forearm.stl").unlink()
    done = run_import(urdf, "--out", tmp_path / "out", cwd=tmp_path)
    assert done.returncode == 1, done.stdout + done.stderr[-3000:]
    assert "MISSING meshes of forearm" in done.stdout and "forearm.stl: file not found" in done.stdout
    assert "upper_arm" not in " ".join(ln for ln in done.stdout.splitlines() if "MISSING" in ln)
    assert (tmp_path / "out" / "two_link" / "two_link.usda").is_file()


def test_a_robot_named_after_its_root_link_arrives_whole(tmp_path, converters):
    """<robot name="base_link"> whose root link base_link has a mesh: the converter writes /base_link (the robot) above
    /base_link/Geometry/base_link (the link). The link's meshes are below the link, not the robot's prim: the import
    said "MISSING meshes of base_link: no mesh below its prim" and exited 1 (the Panda hand of example-robot-data)."""
    urdf = urdf_arm(tmp_path / "src", robot="base_link", base_mesh=True)
    done = run_import(urdf, "--out", tmp_path / "out", cwd=tmp_path)
    assert done.returncode == 0, done.stdout + done.stderr[-3000:]
    assert "MISSING" not in done.stdout
    arrival = json.loads((tmp_path / "out" / "two_link" / "import.json").read_text())["arrival"]
    assert arrival["complete"] and arrival["mesh_links_expected"] == 3 and not arrival["missing_meshes"], arrival


def test_no_package_index_is_a_clear_install_failure_with_its_log(tmp_path):
    """The converters' venv cannot be installed (no index, no wheels): exit 3, pip's cause, what to do, the log."""
    import os

    wheels = tmp_path / "no-wheels"
    wheels.mkdir()
    env = {**os.environ, "SIMREADY_CONVERTER_HOME": str(tmp_path / "home"), "PIP_NO_INDEX": "1",
           "PIP_FIND_LINKS": str(wheels), "PIP_CONFIG_FILE": os.devnull}
    env.pop("SIMREADY_CONVERTER_VENV", None)
    done = subprocess.run([sys.executable, "-m", "omni.simready.physics_validator.cli", "import", "--setup"],
                          capture_output=True, text=True, timeout=300, env=env)
    assert done.returncode == 3, done.stderr
    assert "could not install NVIDIA's converters" in done.stderr and "PIP_FIND_LINKS" in done.stderr
    assert str(tmp_path / "home" / "install.log") in done.stderr and "Traceback" not in done.stderr
    assert not (tmp_path / "home" / "venv" / ".simready-converters").exists()  # a failed install is never marked ready
