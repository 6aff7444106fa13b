"""A test is one folder: a third-party test registered from a temporary folder through the documented entry point
gets its rows, codes, hints, judged metric, plot and report section with no edit outside that folder.

The folder is tests/fixtures/toy_unit/hold_still (copied, untouched); the entry point is a `.dist-info` written
beside it, exactly what `pip install` of a package declaring the entry point leaves (docs/architecture.md,
"How to add a test"). It runs in a fresh process so entry-point discovery sees it; the physics is real (physx).
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from omni.simready.physics_validator.core.plugin import ENTRY_POINT_GROUP
from tests.fixtures.driven_arms import horizontal_arm

TOY = Path(__file__).parent / "fixtures" / "toy_unit" / "hold_still"
DRIFT_HINT = "hold_still: the joint drifted while held; raise its drive stiffness."


@pytest.fixture(scope="module")
def plugin_site(tmp_path_factory) -> Path:
    site = tmp_path_factory.mktemp("site")
    shutil.copytree(TOY, site / "hold_still")
    info = site / "hold_still_plugin-0.1.dist-info"
    info.mkdir()
    (info / "METADATA").write_text("Metadata-Version: 2.1\nName: hold-still-plugin\nVersion: 0.1\n")
    (info / "entry_points.txt").write_text(f"[{ENTRY_POINT_GROUP}]\nhold_still = hold_still:HoldStillTest\n")
    return site


def run_cli(site: Path, *args: str) -> subprocess.CompletedProcess:
    env = dict(os.environ, PYTHONPATH=os.pathsep.join([str(site), *[p for p in sys.path if p]]))
    return subprocess.run([sys.executable, "-m", "omni.simready.physics_validator.cli", *args], env=env,
                          capture_output=True, text=True, timeout=600, cwd=Path(__file__).parent.parent)


def test_the_toy_test_is_listed(plugin_site):
    listing = run_cli(plugin_site, "list-tests")
    assert listing.returncode == 0, listing.stderr
    assert "hold_still" in listing.stdout


def test_the_toy_test_gets_rows_codes_hints_plot_and_a_report_section(plugin_site, tmp_path):
    asset = horizontal_arm(tmp_path / "arm.usda")  # a gravity-loaded joint drifts more than 1 micro-radian
    out = tmp_path / "out"
    run = run_cli(plugin_site, "validate", str(asset), "--tests", "hold_still", "--out", str(out), "--no-video")
    assert run.returncode == 1, run.stdout + run.stderr

    (result,) = json.loads((out / "report.json").read_text())["assets"][0]["tests"]
    assert result["name"] == "hold_still" and result["status"] == "FAIL"
    assert result["code"] == "JOINTS_DRIFTED"
    rows = result["joints"]
    assert rows and all(r["code"] == "DRIFTED" and r["codes"] == ["DRIFTED"] for r in rows)
    assert all(r["fix_hints"] == [DRIFT_HINT] for r in rows)  # from its hint table, by code
    assert DRIFT_HINT in result["fix_hints"]

    html = (out / "html" / "index.html").read_text(encoding="utf-8")
    assert 'data-test="hold_still"' in html
    assert "max_drift_seen" in html and "(max_drift)" in html  # the judged metric beside its threshold
    assert "hold_still: drift of each held joint against max_drift" in html  # its own plot's caption
    plots = list((out / "html" / "media").rglob("hold_still-*.png"))
    assert plots and plots[0].stat().st_size > 5_000
