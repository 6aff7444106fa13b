"""tools/agreement_table.py without running an engine: pairing, attribution and the table from reports in tmp.

The compare.json / report.json files are written by hand in the CLI's format (`validate --compare`), so this
checks what the tool makes of them: agree / disagree counts per set and test, a cause read from the asset
(mimic joints, a `newton:velocityLimit`-only cap) or from the rows (the first-step velocity spike), KNOWN entries,
and exit 1 while any disagreement is unexplained.
"""

from __future__ import annotations

import importlib.util
import json
from pathlib import Path

import pytest

from tests.fixtures.arms import ArmSpec, build_arm
from tests.fixtures.usd_assets import box_asset

TOOL = Path(__file__).resolve().parents[2] / "tools" / "agreement_table.py"


@pytest.fixture(scope="module")
def tool():
    spec = importlib.util.spec_from_file_location("agreement_table", TOOL)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _verdict(status, **deciding):
    return {"status": status, "reason": f"{status.lower()} because", "deciding": deciding, "engine_version": "x"}


def _row(asset, test, physx, sapien, joints=()):
    return {"asset": str(asset), "test": test, "agree": physx["status"] == sapien["status"],
            "verdicts": {"physx": physx, "sapien": sapien}, "joints": list(joints)}


def _report(engine, rows, wall, sim):
    assets = {}
    for row in rows:
        assets.setdefault(row["asset"], []).append({"name": row["test"], "status": row["verdicts"][engine]["status"],
                                                    "wall_seconds": wall, "simulated_seconds": sim})
    return {"engine": {"name": engine}, "started": "2026-01-01T10:00:00+00:00", "finished": "2026-01-01T10:00:10+00:00",
            "assets": [{"path": p, "tests": t} for p, t in assets.items()]}


@pytest.fixture()
def work(tmp_path):
    assets = tmp_path / "assets"
    assets.mkdir()
    box = box_asset(assets / "box.usda", size=0.1, position=(0.0, 0.0, 0.5))
    mimic = build_arm(assets / "arm_mimic.usda", ArmSpec(joints=2, fingers="newton"))
    newton = build_arm(assets / "arm_newton.usda", ArmSpec(joints=2, velocity_attr="newton:velocityLimit"))
    spike = {"joint": "/Robot/joint2", "statuses": {"physx": "FAIL", "sapien": "PASS"},
             "measured": {"physx": {"peak_velocity": 10.7, "peak_displacement_rate": 10.0035, "ratio": 1.07},
                          "sapien": {"peak_velocity": 10.000007, "peak_displacement_rate": 10.0, "ratio": 1.0}}}
    rows = [
        _row(box, "ground_drop", _verdict("PASS", rested=True), _verdict("PASS", rested=True)),
        _row(box, "effort_limit", _verdict("FAIL", max_deflection=0.3), _verdict("PASS", max_deflection=0.01)),
        _row(mimic, "full_range_sweep", _verdict("FAIL", joints_failed=1), _verdict("PASS", joints_failed=0)),
        _row(newton, "velocity_limit", _verdict("PASS", max_velocity_ratio=1.0), _verdict("FAIL", max_velocity_ratio=3.0)),
        _row(box, "velocity_limit", _verdict("FAIL", max_velocity_ratio=1.07), _verdict("PASS", max_velocity_ratio=1.0), [spike]),
    ]
    folder = tmp_path / "work" / "agreement" / "shared"
    for engine, wall in (("physx", 2.0), ("sapien", 1.0)):
        (folder / engine).mkdir(parents=True)
        (folder / engine / "report.json").write_text(json.dumps(_report(engine, rows, wall, 4.0)))
    (folder / "compare.json").write_text(json.dumps({"engines": ["physx", "sapien"], "rows": rows}))
    return {"work": tmp_path / "work", "box": box, "mimic": mimic, "newton": newton, "tmp": tmp_path}


def _main(tool, work, monkeypatch=None):
    md, js = work["tmp"] / "agreement.md", work["tmp"] / "agreement.json"
    code = tool.main(["--work", str(work["work"]), "--table-only", "--sets", "crate,shared", "--md", str(md), "--json", str(js)])
    return code, md.read_text(), json.loads(js.read_text())


def test_pairs_counted_and_causes_attributed(tool, work):
    code, md, data = _main(tool, work)
    assert code == 1  # the box's effort_limit disagreement has no cause
    shared = data["sets"]["shared"]
    assert (shared["pairs"], shared["agree"], shared["disagree"]) == (5, 1, 4)
    assert shared["per_test"]["ground_drop"] == {"agree": 1}
    assert shared["verdict_pairs"]["velocity_limit"] == {"PASS / FAIL": 1, "FAIL / PASS": 1}
    causes = {(Path(r["asset"]).stem, r["test"]): r["cause"] for r in shared["disagreements"]}
    assert causes == {("box", "effort_limit"): None, ("arm_mimic", "full_range_sweep"): "S1",
                      ("arm_newton", "velocity_limit"): "S7", ("box", "velocity_limit"): "S2"}
    spike = next(r for r in shared["disagreements"] if r["cause"] == "S2")
    assert "10.7" in spike["evidence"] and "1.070" in spike["evidence"]
    speed = shared["speed"]
    assert speed["physx"]["wall_per_simulated_second"] == 0.5 and speed["sapien"]["wall_per_simulated_second"] == 0.25
    assert "| shared | 3 | 5 | 1 | 4 |" in md and "unexplained" in md
    assert "crate" not in data["sets"]  # nothing ran for it: left out, not counted as agreement


def test_known_case_explains_a_disagreement(tool, work, monkeypatch):
    monkeypatch.setitem(tool.KNOWN, ("box", "effort_limit"), ("S10", "deflection 0.3 vs 0.01 rad (measured)"))
    code, md, data = _main(tool, work)
    assert code == 0
    row = next(r for r in data["sets"]["shared"]["disagreements"] if r["test"] == "effort_limit")
    assert (row["cause"], row["evidence"]) == ("S10", "deflection 0.3 vs 0.01 rad (measured)")
    assert "unexplained" not in md


def test_attribute_needs_the_spike_shape(tool):
    # A physx FAIL whose displacement rate also exceeds the cap is a real overspeed, not the reported spike.
    row = {"test": "velocity_limit", "asset": "/x/arm.usda",
           "verdicts": {"physx": {"status": "FAIL"}, "sapien": {"status": "PASS"}},
           "joints": [{"joint": "/Robot/j1", "statuses": {"physx": "FAIL", "sapien": "PASS"},
                       "measured": {"physx": {"peak_velocity": 13.0, "peak_displacement_rate": 12.9, "ratio": 1.3}}}]}
    assert tool.attribute(row, {}) == (None, "")
    assert tool.attribute(row, {"armature": {"j1": 0.02}})[0] == "S4"
    assert tool.attribute(row, {"armature": {"other": 0.02}})[0] is None  # only the joints that differ count
