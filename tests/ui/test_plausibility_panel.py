"""The panel's plausibility findings (ui/plausibility_panel.py) from a real headless physx run: the block arrives with
the readback, the table lists each finding with the verdicts it explains, the verdict rows it explains carry it, the
export keeps it, and the next validation clears it; the healthy twin shows nothing implausible."""

from __future__ import annotations

import json

from omni.simready.physics_validator.core.config import ValidationConfig
from omni.simready.physics_validator.engines import engine_settings
from omni.simready.physics_validator.physics_tests import default_registry
from omni.simready.physics_validator.ui.headless_runner import HeadlessRunner
from omni.simready.physics_validator.ui.view_model import ValidatorViewModel
from tests.fixtures import plausibility_assets as pa


def panel(test: str) -> ValidatorViewModel:
    config = ValidationConfig.defaults(default_registry(), engine_settings())
    config.run.video = False
    vm = ValidatorViewModel(runner=HeadlessRunner("physx"), config=config)
    for option in vm.tests:
        vm.set_test_enabled(option.name, option.name == test)
    return vm


def test_the_panel_shows_each_finding_beside_the_verdict_it_explains(tmp_path):
    """A level arm whose 20 g link authors no mass: the runtime gives it 1 kg and the drive sized for 20 g cannot hold
    it (full_range_sweep FAIL, MASSLESS_LINK its cause in the reports); the panel's table says so and the failing rows
    carry the finding. Its twin authoring the 20 g PASSes with nothing implausible."""
    vm = panel("full_range_sweep")
    topics: list[str] = []
    vm.subscribe(topics.append)
    assert vm.plausibility_view() is None and vm.plausibility_text().startswith("not checked yet")
    vm.set_stage(str(pa.level_arm_with_massless_link(tmp_path / "massless.usda", True)), None)
    vm.validate()
    assert "plausibility" in topics and vm.result("full_range_sweep").status.value == "FAIL"
    view = vm.plausibility_view()
    (found,) = [r for r in view["rows"] if r["code"] == "MASSLESS_LINK"]
    assert found["requirement"] == "RB.007" and found["severity"] == "error" and found["fix"]
    assert found["explains"] == ["full_range_sweep FAIL: joint"] and "negative mass" in found["runtime_record"]
    assert vm.plausibility_text().startswith("physx: 1 error")
    (sweep,) = vm.rows()
    (joint,) = [r for r in sweep.children if r.kind == "joint"]
    for row in (sweep, joint):
        assert len(row.findings) == 1 and row.findings[0].startswith("MASSLESS_LINK (RB.007): "), row.findings
    assert joint.fix_hints[0] == found["fix"]  # the finding's fix leads the row's hints
    assert vm.result("full_range_sweep").joints[0].codes.count("MASSLESS_LINK") == 1  # the view links on copies
    exported = json.loads(vm.export_json(tmp_path / "report.json").read_text())["assets"][0]["plausibility"]
    assert [f["code"] for f in exported["findings"]] == ["MASSLESS_LINK"]

    vm.set_stage(str(pa.level_arm_with_massless_link(tmp_path / "twin.usda", False)), None)
    vm.validate()
    assert vm.result("full_range_sweep").status.value == "PASS"
    assert vm.plausibility_view()["rows"] == [] and vm.plausibility_text() == "physx: nothing implausible"
    assert all(not r.findings for r in vm.rows()[0].children) and not vm.rows()[0].findings


def test_a_validation_that_reads_nothing_clears_the_last_findings(tmp_path):
    """velocity_limit does not apply to a joint with no cap: no engine steps the asset, nothing is read, and the
    findings of the stage validated before are gone (not left beside verdicts they do not explain)."""
    vm = panel("full_range_sweep")
    vm.set_stage(str(pa.level_arm_with_massless_link(tmp_path / "massless.usda", True)), None)
    vm.validate()
    assert vm.plausibility is not None and vm.plausibility.findings
    for option in vm.tests:
        vm.set_test_enabled(option.name, option.name == "mimic_joint")  # NOT_APPLICABLE: no coupling
    vm.validate()
    assert vm.result("mimic_joint").status.value == "NOT_APPLICABLE"
    assert vm.plausibility is None and vm.plausibility_view() is None and not vm.rows()[0].findings
