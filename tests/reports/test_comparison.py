"""Cross-engine comparison: pairing, agreement, deciding metrics, the three outputs and the CLI flag (no physics)."""

from __future__ import annotations

import json

import pytest
from rich.console import Console

from omni.simready.physics_validator.cli import main
from omni.simready.physics_validator.cli.validate import parse_engines
from omni.simready.physics_validator.core.comparison import compare_reports, deciding_metrics
from omni.simready.physics_validator.core.results import AssetResult, JointRow, RunReport, TestResult
from omni.simready.physics_validator.core.status import Status
from omni.simready.physics_validator.reports.comparison_report import comparison_html, print_comparison, write_compare_json
from omni.simready.physics_validator.physics_tests import default_registry


def _report(engine: str, verdicts: dict[tuple[str, str], Status], joints=None) -> RunReport:
    report = RunReport(engine=engine)
    for (asset, test), status in verdicts.items():
        holder = next((a for a in report.assets if a.path == asset), None)
        if holder is None:
            holder = AssetResult(path=asset)
            report.assets.append(holder)
        result = TestResult(name=test, status=status, reason=f"{engine} says {status.value}", engine=engine)
        result.metrics = {"joints_failed": 1 if status == Status.FAIL else 0,
                          "max_velocity_ratio": 1.3 if status == Status.FAIL else 0.9, "unrelated": 7}
        result.joints = list((joints or {}).get((asset, test), []))
        holder.tests.append(result)
    return report


def test_pairs_by_asset_and_test_and_flags_disagreement():
    physx = _report("physx", {("a.usda", "velocity_limit"): Status.PASS, ("a.usda", "ground_drop"): Status.PASS})
    newton = _report("newton", {("a.usda", "ground_drop"): Status.PASS, ("a.usda", "velocity_limit"): Status.FAIL})
    comparison = compare_reports({"physx": physx, "newton": newton}, default_registry())
    rows = {(r.asset, r.test): r for r in comparison.rows}
    assert rows[("a.usda", "ground_drop")].agree
    vl = rows[("a.usda", "velocity_limit")]
    assert not vl.agree
    assert vl.verdicts["physx"].status == Status.PASS and vl.verdicts["newton"].status == Status.FAIL
    assert comparison.summary() == {"pairs": 2, "agree": 1, "disagree": 1}
    assert [r.test for r in comparison.disagreements] == ["velocity_limit"]


def test_a_result_missing_on_one_engine_is_not_agreement():
    physx = _report("physx", {("a.usda", "ground_drop"): Status.PASS, ("b.usda", "ground_drop"): Status.PASS})
    newton = _report("newton", {("a.usda", "ground_drop"): Status.PASS})
    rows = {r.asset: r for r in compare_reports({"physx": physx, "newton": newton}, default_registry()).rows}
    assert rows["a.usda"].agree
    assert not rows["b.usda"].agree
    assert rows["b.usda"].verdicts["newton"].status is None


def test_deciding_metrics_pick_the_tests_own_keys_and_fall_back_to_all():
    known = TestResult(name="velocity_limit", status=Status.FAIL,
                       metrics={"max_velocity_ratio": 1.3, "joints_failed": 1, "noise": 3})
    assert deciding_metrics(known, default_registry().view_of("velocity_limit")) == {"joints_failed": 1,
                                                                                     "max_velocity_ratio": 1.3}
    other = TestResult(name="my_plugin", status=Status.PASS, metrics={"x": float("inf"), "y": 2})
    assert deciding_metrics(other, default_registry().view_of("my_plugin")) == {"x": "inf", "y": 2}


def test_joint_rows_whose_verdicts_differ_are_listed_with_measurements():
    key = ("arm.usda", "velocity_limit")
    physx = _report("physx", {key: Status.PASS},
                    {key: [JointRow(joint="j1", path="/R/j1", status=Status.PASS, measured={"ratio": 1.0}),
                                                         JointRow(joint="j2", path="/R/j2", status=Status.PASS,
                                                                  measured={"ratio": 0.9})]})
    newton = _report("newton", {key: Status.FAIL},
                     {key: [JointRow(joint="j1", path="/R/j1", status=Status.FAIL, measured={"ratio": 1.4}),
                                                           JointRow(joint="j2", path="/R/j2", status=Status.PASS,
                                                                    measured={"ratio": 0.9})]})
    (row,) = compare_reports({"physx": physx, "newton": newton}, default_registry()).rows
    assert [j.joint for j in row.joints] == ["j1"]
    assert row.joints[0].statuses == {"physx": Status.PASS, "newton": Status.FAIL}
    assert row.joints[0].measured["newton"] == {"ratio": 1.4}


def test_outputs_show_both_verdicts_and_highlight_disagreements(tmp_path):
    physx = _report("physx", {("a.usda", "velocity_limit"): Status.PASS, ("a.usda", "ground_drop"): Status.PASS})
    newton = _report("newton", {("a.usda", "velocity_limit"): Status.FAIL, ("a.usda", "ground_drop"): Status.PASS})
    comparison = compare_reports({"physx": physx, "newton": newton}, default_registry())
    data = json.loads(write_compare_json(comparison, tmp_path / "compare.json").read_text())
    assert data["engines"] == ["physx", "newton"]
    assert data["summary"] == {"pairs": 2, "agree": 1, "disagree": 1}
    vl = next(r for r in data["rows"] if r["test"] == "velocity_limit")
    assert vl["agree"] is False
    assert vl["verdicts"]["newton"]["status"] == "FAIL"
    assert vl["verdicts"]["newton"]["deciding"] == {"joints_failed": 1, "max_velocity_ratio": 1.3}

    page = comparison_html(comparison)
    assert page.count('<tr class="disagree">') == 1 and page.count('<tr class="agree">') == 1
    assert "max_velocity_ratio = 1.3" in page

    console = Console(record=True, width=200)
    print_comparison(comparison, console)
    text = console.export_text()
    assert "NO" in text and "max_velocity_ratio=1.3" in text and "agree: 1  disagree: 1" in text


@pytest.mark.parametrize("text", ["physx", "physx,physx", "physx,bullet"])
def test_compare_flag_rejects_bad_engine_lists(text, tmp_path, capsys):
    with pytest.raises(ValueError):
        parse_engines(text)
    assert main(["validate", str(tmp_path), "--compare", text, "--out", str(tmp_path / "out")]) == 2
