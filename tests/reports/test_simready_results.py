"""--format simready: every verdict in NVIDIA's per-test result.json layout, read back by NVIDIA's own reporter
(`simready-benchmark` 2026.8.0.post1, installed from PyPI into a Python 3.12 venv cached under
~/.cache/simready-physics/: the first run downloads it, about 40 s; later runs reuse it)."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from omni.simready.physics_validator.core.results import AssetResult, EngineInfo, RunReport
from omni.simready.physics_validator.core.status import Status
from omni.simready.physics_validator.physics_tests import default_registry
from omni.simready.physics_validator.reports.simready_results import write_simready_results
from tests.fixtures.runs import require_engine, run_test
from tests.fixtures.suite_assets import gripper
from tests.fixtures.usd_assets import box_asset

WHEEL = "simready-benchmark==2026.8.0.post1"
VENV = Path.home() / ".cache" / "simready-physics" / "simready-benchmark-2026.8.0.post1" / "venv"
READ_BACK = """
import json, sys
from simready_benchmark.reporter.reporter import Reporter
report = Reporter.generate(output_dir=sys.argv[1], fmt="json")
cells = {}
for key, asset in report["assets"].items():
    for profile in asset["profiles"]:
        for feature in profile["features"]:
            for test in feature["tests"]:
                for cell in test["engines"]:
                    cells[key + "::" + test["name"]] = {"status": cell["status"], "version": test["version"],
                                                        "engine": cell["engine"], "metrics": cell["metrics"],
                                                        "message": cell["message"], "feature": feature["id"]}
print(json.dumps(cells))
"""


def _python312() -> list[str] | None:
    for command in (["python3.12"], [sys.executable.replace("python3.11", "python3.12")]):
        env = {**os.environ, "PYENV_VERSION": "3.12.1"}
        try:
            out = subprocess.run([*command, "-c", "import sys; print(sys.version_info[:2])"], capture_output=True,
                                 text=True, timeout=60, env=env)
        except (OSError, subprocess.TimeoutExpired):
            continue
        if out.returncode == 0 and "(3, 12)" in out.stdout:
            return command
    return None


@pytest.fixture(scope="session")
def simready_python() -> Path:
    """NVIDIA's simready-benchmark in its own Python 3.12 venv (it requires 3.12 exactly)."""
    python = VENV / "bin" / "python"
    if python.exists() and subprocess.run([str(python), "-c", "import simready_benchmark"], timeout=60).returncode == 0:
        return python
    command = _python312()
    if command is None:
        pytest.skip("no Python 3.12 here to install simready-benchmark into")
    shutil.rmtree(VENV, ignore_errors=True)
    env = {**os.environ, "PYENV_VERSION": "3.12.1"}
    steps = [[*command, "-m", "venv", str(VENV)], [str(python), "-m", "pip", "install", "-q", WHEEL]]
    for step in steps:
        done = subprocess.run(step, capture_output=True, text=True, timeout=900, env=env)
        if done.returncode != 0:
            shutil.rmtree(VENV, ignore_errors=True)
            pytest.skip(f"could not install {WHEEL}: {done.stderr.strip().splitlines()[-1:]}")
    return python


@pytest.fixture(scope="module")
def report(tmp_path_factory) -> tuple[RunReport, Path]:
    engine = require_engine("physx")
    folder = tmp_path_factory.mktemp("assets")
    box = box_asset(folder / "box.usda", size=0.1)
    bad = gripper(folder / "grippers" / "wrong_sign.usda", gearing=-1.0) if (folder / "grippers").mkdir() is None else None
    results = {box: [run_test(box, "ground_drop", engine), run_test(box, "mimic_joint", engine)],
               bad: [run_test(bad, "mimic_joint", engine)]}
    assets = [AssetResult(path=str(path), tests=tests) for path, tests in results.items()]
    return RunReport(engine=EngineInfo(name="physx", version="ovphysx test"), assets=assets), folder


def test_result_files_carry_their_fields(report, tmp_path):
    run, _ = report
    write_simready_results(run, tmp_path, default_registry())
    data = json.loads((tmp_path / "results/grippers/wrong_sign.usda/.simready/runtime/mimic_joint/physx/result.json")
                      .read_text())
    assert data["status"] == "fail" and data["test_version"] == "1.1.0" and data["engine"] == "physx"
    assert data["metrics"]["pairs_failed"] == {"value": 1, "unit": None}
    assert data["failure_details"]["joints"][0]["codes"][0] == "LIMITS_INCOMPATIBLE"
    box = json.loads((tmp_path / "results/box.usda/.simready/runtime/ground_drop/physx/result.json").read_text())
    assert box["status"] == "pass" and box["metrics"]["sink_allowance"]["unit"] == "m" and box["test_version"] == "3.2.0"
    skipped = json.loads((tmp_path / "results/box.usda/.simready/runtime/mimic_joint/physx/result.json").read_text())
    assert skipped["status"] == "skipped" and skipped["validator"]["status"] == Status.NOT_APPLICABLE.value


def test_nvidias_reporter_reads_our_results(report, tmp_path, simready_python):
    run, _ = report
    write_simready_results(run, tmp_path, default_registry())
    done = subprocess.run([str(simready_python), "-c", READ_BACK, str(tmp_path)], capture_output=True, text=True,
                          timeout=300)
    assert done.returncode == 0, done.stderr[-2000:]
    cells = json.loads(done.stdout.strip().splitlines()[-1])
    assert set(cells) == {"box.usda::ground_drop", "box.usda::mimic_joint", "grippers/wrong_sign.usda::mimic_joint"}
    assert cells["box.usda::ground_drop"]["status"] == "pass" and cells["box.usda::ground_drop"]["version"] == "3.2.0"
    assert cells["box.usda::mimic_joint"]["status"] == "skipped"
    wrong = cells["grippers/wrong_sign.usda::mimic_joint"]
    assert wrong["status"] == "fail" and wrong["engine"] == "physx" and "LIMITS_INCOMPATIBLE" not in wrong["message"]
    assert wrong["metrics"]["pairs_failed"]["value"] == 1 and wrong["feature"] == "FET_022_PHYSX"
    assert (tmp_path / "report" / "test_results_index.json").is_file()  # their JSON report, written by their code


def test_nvidias_reporter_reads_the_manipulation_and_reach_results(tmp_path, simready_python):
    """Issue 32's tests in --format simready: a gripper holding its sphere and its cube, a prop too heavy to lift, an arm
    reaching its targets and ik_target_reach skipping, read back by NVIDIA's reporter under their 2026.8 feature IDs."""
    from tests.fixtures.arms import build_arm
    from tests.fixtures.manipulation import build_gripper, build_prop

    engine = require_engine("physx")
    folder = tmp_path / "assets"
    folder.mkdir()
    gripper_path = build_gripper(folder / "gripper.usda")
    prop_path = build_prop(folder / "anvil.usda", mass=60.0)
    arm_path = build_arm(folder / "arm.usda", joints=4, axes=("Z", "Y", "Y", "Y"))
    results = {gripper_path: [run_test(gripper_path, "gripper_close_lift_sphere", engine),
                              run_test(gripper_path, "gripper_close_lift_cube", engine)],
               prop_path: [run_test(prop_path, "grasp_and_lift", engine)],
               arm_path: [run_test(arm_path, "jacobian_ik", engine), run_test(arm_path, "ik_target_reach", engine)]}
    run = RunReport(engine=EngineInfo(name="physx", version="ovphysx test"),
                    assets=[AssetResult(path=str(p), tests=t) for p, t in results.items()])
    out = tmp_path / "out"
    write_simready_results(run, out, default_registry())
    done = subprocess.run([str(simready_python), "-c", READ_BACK, str(out)], capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr[-2000:]
    cells = json.loads(done.stdout.strip().splitlines()[-1])
    grip = cells["gripper.usda::gripper_close_lift_sphere"]
    assert grip["status"] == "pass" and grip["version"] == "1.4.0" and grip["feature"] == "FET_028_ISAAC"
    assert grip["metrics"]["max_slip"]["unit"] == "m" and grip["metrics"]["max_slip"]["value"] < 0.01
    cube = cells["gripper.usda::gripper_close_lift_cube"]
    assert cube["status"] == "pass" and cube["feature"] == "FET_028_ISAAC" and cube["metrics"]["object_mass"]["value"] == 0.85
    anvil = cells["anvil.usda::grasp_and_lift"]
    assert anvil["status"] == "fail" and anvil["feature"] == "FET_005_STANDARD" and anvil["version"] == "1.3.0"
    assert anvil["metrics"]["lines_held"]["value"] == 0
    reach = cells["arm.usda::jacobian_ik"]
    assert reach["status"] == "pass" and reach["feature"] == "FET_022_PHYSX" and reach["metrics"]["pass_rate"]["value"] == 1.0
    assert cells["arm.usda::ik_target_reach"]["status"] == "skipped" and "Lula" in cells["arm.usda::ik_target_reach"]["message"]
