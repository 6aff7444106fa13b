"""newton.target=isaacsim-6.2: a driven-joint validation on the Newton Isaac Sim 6.2 bundles (Newton 1.6.1, Warp 1.17.0,
MuJoCo Warp 3.12.0, SolverMuJoCo), through the CLI as a user runs it: installed beside the environment on first use,
run in worker processes, named in the report. Slow: the first run installs ~200 MB of wheels and compiles that
Warp's kernels (both kept for later runs)."""

from __future__ import annotations

import json
import math
import os
import subprocess
import sys

import pytest

pytest.importorskip("newton", reason="newton is not installed (pip install -e .[newton])")

from tests.fixtures.arms import ArmSpec, build_arm  # noqa: E402
from tests.fixtures.usd_assets import box_asset  # noqa: E402

pytestmark = pytest.mark.slow
CLI = [sys.executable, "-m", "omni.simready.physics_validator.cli"]


def _damped(path, damping_per_degree: float):
    """The arm with a passive damping on every joint (NewtonJointAPI newton:damping, N m s/deg)."""
    from pxr import Sdf, Usd

    stage = Usd.Stage.Open(str(path))
    for prim in stage.Traverse():
        if prim.GetTypeName() == "PhysicsRevoluteJoint":
            prim.AddAppliedSchema("NewtonJointAPI")
            prim.CreateAttribute("newton:damping", Sdf.ValueTypeNames.Float).Set(damping_per_degree)
    stage.GetRootLayer().Save()
    return path


def test_a_driven_joint_validation_on_isaac_sim_62s_newton(tmp_path):
    arm = build_arm(tmp_path / "arm.usda", ArmSpec(joints=3))
    # the velocity_limit hint of this runtime, followed: newton:damping >= maxForce / (0.95 x cap), 500 N m, 120 deg/s
    damped = _damped(build_arm(tmp_path / "arm_damped.usda", ArmSpec(joints=3)), 500.0 / (0.95 * 120.0))
    out = tmp_path / "out"
    run = subprocess.run([*CLI, "validate", str(arm), str(damped), "--engine", "newton", "--set",
                          "newton.target=isaacsim-6.2", "--tests", "drive_gain_validation,velocity_limit", "-j", "1",
                          "--no-video", "--no-html", "--out", str(out)], capture_output=True, text=True, timeout=3000)
    report = json.loads((out / "report.json").read_text())
    engine = report["engine"]
    assert engine["settings"] == {"newton.target": "isaacsim-6.2"}
    assert engine["components"]["newton"] == "1.6.1" and engine["components"]["warp"] == "1.17.0"
    assert engine["components"]["solver"] == "SolverMuJoCo"
    assert "newton 1.6.1 / warp 1.17.0 / SolverMuJoCo" in run.stdout  # the console's engine line
    results = {a["path"].rsplit("/", 1)[-1]: {t["name"]: t for t in a["tests"]} for a in report["assets"]}
    assert results["arm.usda"]["drive_gain_validation"]["status"] == "PASS", results["arm.usda"]["drive_gain_validation"]
    # SolverMuJoCo reads no joint velocity limit: the 120 deg/s cap is not held, and the verdict says why
    limit = results["arm.usda"]["velocity_limit"]
    assert limit["status"] == "FAIL" and run.returncode == 1, (limit["reason"], run.stderr[-2000:])
    assert {row["code"] for row in limit["joints"]} == {"OVERSPEED_UNCAPPED_RUNTIME"}
    assert any("newton:damping" in hint for hint in limit["fix_hints"])
    # ... with the hint that acts there: the damped twin holds its cap and still tracks its targets
    held = results["arm_damped.usda"]
    assert held["velocity_limit"]["status"] == "PASS", held["velocity_limit"]["reason"]
    assert held["velocity_limit"]["metrics"]["max_velocity_ratio"] < 1.0
    assert held["drive_gain_validation"]["status"] == "PASS", held["drive_gain_validation"]["reason"]
    assert math.isfinite(held["velocity_limit"]["metrics"]["max_velocity_ratio"])


SECOND_NEWTON = """
import sys
from omni.simready.physics_validator.core.scene import SceneSpec
from omni.simready.physics_validator.core.usd import read_asset
from omni.simready.physics_validator.engines import EngineError
from omni.simready.physics_validator.engines.newton import NewtonEngine
asset = read_asset(sys.argv[1])
NewtonEngine(target="latest").load(asset, SceneSpec(pin_base=True))
try:
    NewtonEngine(target="isaacsim-6.2").load(asset, SceneSpec(pin_base=True))
except EngineError as exc:
    print(exc)
"""


def test_one_process_runs_one_newton(tmp_path):
    """A process that imported the [newton] extra's Newton cannot load an isaacsim-6.2 engine (nor the other way):
    the error says to run it in worker processes, which a run starts for its own target."""
    box = box_asset(tmp_path / "box.usda", size=0.1)
    run = subprocess.run([sys.executable, "-c", SECOND_NEWTON, str(box)], capture_output=True, text=True, timeout=900,
                         env={**os.environ, "SIMREADY_NEWTON_TARGET": ""})
    assert run.returncode == 0, run.stderr[-2000:]
    assert "newton.target=isaacsim-6.2" in run.stdout and "needs a process of its own" in run.stdout
    assert "without --in-process" in run.stdout


REFUSED = """
import sys
from omni.simready.physics_validator.core.scene import SceneSpec
from omni.simready.physics_validator.core.usd import read_asset
from omni.simready.physics_validator.engines import EngineError
from omni.simready.physics_validator.engines.newton import NewtonEngine
for path in sys.argv[1:]:
    try:
        NewtonEngine(target="isaacsim-6.2").load(read_asset(path), SceneSpec())
        print("built", path)
    except EngineError as exc:
        print(exc)
"""


def test_what_isaac_sim_62s_newton_cannot_simulate_is_said_in_words(shared_assets):
    """Two shared assets SolverMuJoCo refuses (docs/engine-divergences.md, Newton latest vs isaacsim-6.2): a hinge
    outside any articulation (Newton 1.6.1 refuses orphan joints; MuJoCo's conversion cannot place the articulation
    the engine makes of it: a bare KeyError 0 before) and a gripper's MuJoCo tendons (MuJoCo's compile refuses their
    limits). Each ERROR names the cause and what gives a verdict."""
    hinged = shared_assets / "newton_test_boxes_hinged" / "boxes_hinged.usda"
    tendons = shared_assets / "robosuite_robotiq_gripper_140" / "robotiq_gripper_140_model.usda"
    run = subprocess.run([sys.executable, "-c", REFUSED, str(hinged), str(tendons)], capture_output=True, text=True,
                         timeout=900, env={**os.environ, "SIMREADY_NEWTON_TARGET": "isaacsim-6.2"})
    assert run.returncode == 0, run.stderr[-2000:]
    lines = [line for line in run.stdout.splitlines() if "cannot simulate" in line or line.startswith("built")]
    assert len(lines) == 2, run.stdout
    assert "joints outside an articulation (/boxes_hinged/Joints/joint_1)" in lines[0] and "orphan" in lines[0], lines[0]
    assert "MjcTendon" in lines[1] and "invalid limits in tendon" in lines[1], lines[1]
    assert all("newton.target=latest or physx" in line and "SolverMuJoCo" in line for line in lines), lines
