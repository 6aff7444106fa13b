"""The runtime readback in the reports of a real run: the JSON block (in process and across the worker pipe), the
console lines collapsed to counts beyond a few, and the HTML table with flagged rows first, linked to the
verdicts they explain."""

from __future__ import annotations

import io
import json
import re

import pytest
from pxr import Sdf
from rich.console import Console

from tests.fixtures.arms import build_arm
from tests.fixtures.batch import load_report, run_cli
from tests.fixtures.driven_arms import edit_usd
from omni.simready.physics_validator import validate
from omni.simready.physics_validator.core.config import ValidationConfig
from omni.simready.physics_validator.core.results import AssetResult, ReadbackEntry, RunReport, RuntimeReadback
from omni.simready.physics_validator.engines import engine_settings
from omni.simready.physics_validator.physics_tests import default_registry
from omni.simready.physics_validator.reports.html import write_html_report
from omni.simready.physics_validator.reports.readback_view import console_lines, print_readback

pytestmark = pytest.mark.usefixtures("physx_available")
J2 = "/Robot/joints/joint2"


def legacy_arm(path):
    """Two joints capped the legacy way (ignored under physx.target=latest), joint2 with Newton friction."""
    def change(stage):
        stage.GetPrimAtPath(J2).CreateAttribute("newton:friction", Sdf.ValueTypeNames.Float).Set(1.0)
    return edit_usd(build_arm(path, joints=2, velocity_attr="physxJoint:maxJointVelocity"), change)


@pytest.fixture(scope="module")
def latest_run(tmp_path_factory):
    root = tmp_path_factory.mktemp("readback")
    config = ValidationConfig.defaults(default_registry(), engine_settings())
    config.run.isolate = False
    config.apply({"physx": {"target": "latest"}}, origin="test")
    report = validate([str(legacy_arm(root / "legacy_arm.usda"))], ["velocity_limit"], config, "physx", root / "out")
    return report, root


def test_the_json_block_names_the_ignored_cap_beside_the_fail_it_explains(latest_run):
    report, _ = latest_run
    asset = report.assets[0]
    assert asset.tests[0].status.value == "FAIL"
    readback = asset.runtime_readback
    assert readback.engine == "physx" and readback.settings == {"physx.target": "latest"} and not readback.error
    cap = next(e for e in readback.entries if e.joint == J2 and e.property == "max_velocity")
    assert (cap.flag, cap.authored_attribute, cap.explains) == ("ignored", "physxJoint:maxJointVelocity", ["velocity_limit FAIL"])
    assert "simready-physics fix" in cap.fix
    friction = next(e for e in readback.entries if e.joint == J2 and e.property == "static_friction")
    assert friction.flag == "from_other_attribute" and friction.explains == []  # velocity_limit does not judge friction
    assert json.loads(report.model_dump_json())["assets"][0]["runtime_readback"]["entries"]


def test_the_html_report_shows_a_per_joint_table_of_flagged_rows_collapsed_after_the_verdicts(latest_run):
    """The readback is read after the verdicts and what to do: collapsed, below the tests, flagged rows only (the
    values read as authored are counted; report.json has them)."""
    report, root = latest_run
    html = write_html_report(report, root / "out", default_registry()).read_text()
    block = html[html.index('<details class="readback"'):]
    assert block[:block.index(">")].find(" open") < 0 and html.index('<details class="test"') < html.index(block[:40])
    table = block[block.index('class="readback-joints"'):]
    table = table[: table.index("</table>")]
    flags = re.findall(r'data-flag="([a-z_]*)"', table)
    assert flags[:2] == ["ignored", "ignored"] and "" not in flags
    clean = sum(1 for e in report.assets[0].runtime_readback.entries if not e.flag)
    assert clean and f"{clean} more read as authored are in report.json" in block
    assert 'href="#' in table and "velocity_limit</a>" in table  # the flag links to the verdict it explains


def test_the_console_shows_one_line_per_flag_then_counts():
    entries = [ReadbackEntry(joint=f"/R/j{i}", property="max_velocity", authored=120.0,
                             authored_attribute="physxJoint:maxJointVelocity",
                             runtime=float("inf"), unit="°/s", flag="ignored", explains=["velocity_limit FAIL"])
               for i in range(8)]
    entries += [ReadbackEntry(joint="/R/j0", property="stiffness", runtime=0.0, unit="N·m/°", flag="defaulted")]
    asset = AssetResult(path="/a/robot.usda", runtime_readback=RuntimeReadback(engine="physx", entries=entries))
    lines = console_lines(asset)
    assert lines[0] == "j0 max_velocity: physxJoint:maxJointVelocity = 120 °/s, runtime inf — ignored → velocity_limit FAIL"
    assert lines[5:] == ["… and 3 more: 3 ignored", "1 defaulted (not authored: the runtime's default applies; see the report)"]
    out = io.StringIO()
    print_readback(RunReport(assets=[asset, AssetResult(path="/a/clean.usda")]), Console(file=out, width=200))
    assert "runtime readback a/robot.usda (physx):" in out.getvalue() and "clean" not in out.getvalue()


def test_the_block_crosses_the_worker_pipe(tmp_path):
    proc = run_cli("validate", str(legacy_arm(tmp_path / "legacy_arm.usda")), "--tests", "velocity_limit", "--no-video",
                   "--no-html", "--out", str(tmp_path / "out"), "--set", "physx.target=latest")
    assert proc.returncode == 1, proc.stderr
    block = load_report(tmp_path / "out")["assets"][0]["runtime_readback"]
    flags = {(e["joint"], e["property"]): (e["flag"], e["explains"]) for e in block["entries"] if e["flag"]}
    assert flags[(J2, "max_velocity")] == ("ignored", ["velocity_limit FAIL"])
    assert "runtime readback" in proc.stdout and "ignored → velocity_limit FAIL" in proc.stdout


def test_an_asset_no_test_stepped_is_read_by_an_engine_of_its_own(tmp_path):
    """A welded arm with no drive: every driven test is decided by its precheck, no engine loads; the readback
    loads one after the verdicts, so the author still sees the drive-less joints."""
    config = ValidationConfig.defaults(default_registry())
    config.run.isolate = False
    path = build_arm(tmp_path / "welded.usda", joints=2, passive=(1, 2), velocity_limit_deg=None, world_anchor=True)
    report = validate([str(path)], ["velocity_limit", "drive_gain_validation"], config, "physx", tmp_path / "out")
    asset = report.assets[0]
    assert all(t.simulated_seconds == 0 for t in asset.tests)
    flags = {(e.joint, e.property): e.flag for e in asset.runtime_readback.entries if e.joint}
    assert flags[("/Robot/joints/joint1", "stiffness")] == "defaulted" and not asset.runtime_readback.error
