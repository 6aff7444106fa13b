"""The panel's "What the runtime read" table (ui/readback_panel.py) from a real headless run: flagged rows first,
each beside the verdict it explains; exported with the report; cleared by the next validation."""

from __future__ import annotations

from omni.simready.physics_validator.core.config import ValidationConfig
from omni.simready.physics_validator.engines import engine_settings
from omni.simready.physics_validator.physics_tests import default_registry
from omni.simready.physics_validator.ui.headless_runner import HeadlessRunner
from omni.simready.physics_validator.ui.view_model import ValidatorViewModel
from tests.fixtures.arms import build_arm


def test_the_panel_shows_what_the_runtime_read(tmp_path):
    config = ValidationConfig.defaults(default_registry(), engine_settings())  # with the [physx] section it sets
    vm = ValidatorViewModel(runner=HeadlessRunner("physx"), config=config)
    for option in vm.tests:
        vm.set_test_enabled(option.name, option.name == "velocity_limit")
    vm.config.apply({"physx": {"target": "latest"}}, origin="test")
    topics = []
    vm.subscribe(topics.append)
    assert vm.readback_view() is None and vm.readback_text().startswith("not read yet")
    vm.set_stage(str(build_arm(tmp_path / "arm.usda", joints=2, velocity_attr="physxJoint:maxJointVelocity")), "/Robot")
    vm.validate()
    assert "readback" in topics and vm.result("velocity_limit").status.value == "FAIL"
    view = vm.readback_view()
    first = view["joints"][0]
    assert (first["property"], first["flag"], first["runtime"]) == ("max_velocity", "ignored", "inf")
    assert first["explains"] == ["velocity_limit FAIL"] and "simready-physics fix" in first["fix"]
    assert all(r["flag"] for r in vm.readback_view(flagged_only=True)["joints"])
    assert vm.readback_text() == "physx (physx.target=latest): 2 ignored"
    assert vm.report().assets[0].runtime_readback is vm.readback
    vm.set_stage(str(build_arm(tmp_path / "clean.usda", joints=2, velocity_attr="physxJointAxis:angular:maxJointVelocity")),
                 "/Robot")
    vm.validate()
    assert vm.result("velocity_limit").status.value == "PASS"
    assert vm.readback_text() == "physx (physx.target=latest): every value as authored"
    vm.set_stage(str(build_arm(tmp_path / "uncapped.usda", joints=2, velocity_limit_deg=None)), "/Robot")
    vm.validate()  # velocity_limit is not applicable: no engine stepped, nothing read, the last table is gone
    assert vm.readback_view() is None
