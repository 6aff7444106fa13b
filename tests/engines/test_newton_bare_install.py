"""A bare install with the [newton] extra runs a driven-joint validation on newton without ERROR: a fresh virtual
environment, `pip install '<checkout>[newton]'`, then `simready-physics validate ARM --engine newton` on an arm whose
link has a mesh collider (Newton's importer makes its convex hull with scipy: issue 43's `pip install -e '.[newton]'`
gave every driven test ERROR "No module named 'scipy'"). Kept affordable: this environment's versions are the install's
constraints (so pip's cache and Warp's kernel cache serve it; the constraints pin versions, they add no package), one
test on a 2-joint arm. Slow (a venv and a package install: about a minute with warm caches)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from importlib import metadata
from pathlib import Path

import pytest

pytest.importorskip("newton", reason="newton is not installed here (pip install -e .[newton])")

from pxr import Gf, Usd, UsdGeom, UsdPhysics  # noqa: E402

from tests.fixtures.arms import ArmSpec, build_arm  # noqa: E402

pytestmark = pytest.mark.slow
ROOT = Path(__file__).resolve().parents[2]
OURS = "omni-simready-physics-validator"


def _mesh_link_arm(path: Path) -> Path:
    """The 2-joint fixture arm with a convex-hull mesh collider (an octahedron) on its last link."""
    build_arm(path, ArmSpec(joints=2))
    stage = Usd.Stage.Open(str(path))
    mesh = UsdGeom.Mesh.Define(stage, "/Robot/link2/hull")
    mesh.CreatePointsAttr([Gf.Vec3f(*p) for p in ((0.03, 0, 0), (-0.03, 0, 0), (0, 0.03, 0), (0, -0.03, 0),
                                                  (0, 0, 0.03), (0, 0, -0.03))])
    mesh.CreateFaceVertexCountsAttr([3] * 8)
    mesh.CreateFaceVertexIndicesAttr([0, 2, 4, 2, 1, 4, 1, 3, 4, 3, 0, 4, 2, 0, 5, 1, 2, 5, 3, 1, 5, 0, 3, 5])
    UsdPhysics.CollisionAPI.Apply(mesh.GetPrim())
    UsdPhysics.MeshCollisionAPI.Apply(mesh.GetPrim()).CreateApproximationAttr("convexHull")
    stage.GetRootLayer().Save()
    return path


def test_a_bare_newton_install_validates_a_driven_arm(tmp_path):
    constraints = tmp_path / "constraints.txt"
    pins = sorted({f"{d.metadata['Name']}=={d.version}" for d in metadata.distributions()
                   if d.metadata["Name"] and d.metadata["Name"].lower().replace("_", "-") != OURS})
    constraints.write_text("\n".join(pins) + "\n", encoding="utf-8")
    venv = tmp_path / "venv"
    subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True, timeout=600)
    python = venv / "bin" / "python"
    install = subprocess.run([str(python), "-m", "pip", "install", "--disable-pip-version-check", "-c", str(constraints),
                              f"{ROOT}[newton]"], capture_output=True, text=True, timeout=2400)
    assert install.returncode == 0, install.stdout[-1500:] + install.stderr[-1500:]

    arm = _mesh_link_arm(tmp_path / "arm.usda")
    out = tmp_path / "out"
    env = {key: value for key, value in os.environ.items() if key not in ("PYTHONPATH", "SIMREADY_NEWTON_TARGET")}
    run = subprocess.run([str(venv / "bin" / "simready-physics"), "validate", str(arm), "--engine", "newton",
                          "--tests", "drive_gain_validation", "--no-video", "--no-html", "--out", str(out)],
                         capture_output=True, text=True, timeout=2400, cwd=tmp_path, env=env)
    report = json.loads((out / "report.json").read_text())
    result = report["assets"][0]["tests"][0]
    assert (run.returncode, result["status"]) == (0, "PASS"), (result["reason"], run.stderr[-2000:])
    assert report["engine"]["components"]["newton"] == metadata.version("newton")
    shown = subprocess.run([str(python), "-c", "import newton, scipy, omni.simready.physics_validator as p; "
                            "print(p.__file__)"], capture_output=True, text=True, timeout=600, env=env)
    assert str(venv) in shown.stdout, shown  # the venv's own install ran, not this checkout
