"""The checks that need no simulation (issue 45, docs/plausibility.md), on what the physx runtime built: for each class
the asset that must be flagged and its healthy twin that must not; a finding named beside the verdict it explains
(issue 41 item 4: a massless moving link named as the cause of its joint's FAIL, the runtime's record off the tests'
warnings); the report JSON, console and HTML carry them. Real engine, real USD (tests/fixtures/plausibility_assets.py).
"""

from __future__ import annotations

import json

import pytest

from omni.simready.physics_validator.core.config import ValidationConfig
from omni.simready.physics_validator.core.results import RunReport
from omni.simready.physics_validator.core.scene import SceneSpec
from omni.simready.physics_validator.core.usd import read_asset
from omni.simready.physics_validator.engines import create_engine
from omni.simready.physics_validator.physics_tests import default_registry
from omni.simready.physics_validator.reports.plausibility_view import console_lines
from omni.simready.physics_validator.run.asset_run import run_asset
from omni.simready.physics_validator.run.inputs import AssetJob
from omni.simready.physics_validator.run.readback import check_plausibility
from tests.fixtures import plausibility_assets as pa
from tests.fixtures.runs import require_engine

# (builder, the code it must carry or None for a twin that must carry none)
CASES = {
    "placeholder_inertia": (lambda p: pa.placeholder_cube(p), "INERTIA_PLACEHOLDER"),
    "solid_cube": (lambda p: pa.solid_cube(p), None),
    "mass_zero": (lambda p: pa.zero_mass_table(p), "MASS_ZERO_AUTHORED"),
    "mass_twelve": (lambda p: pa.zero_mass_table(p, mass_zero=False), None),
    "triangle": (lambda p: pa.impossible_inertia_cube(p, (1e-5, 1e-5, 1e-4)), "INERTIA_TRIANGLE"),
    "zero_inertia": (lambda p: pa.impossible_inertia_cube(p, (0.0, 0.0, 0.0)), "INERTIA_ZERO"),
    "massless_link": (lambda p: pa.wrist_with_massless_link(p), "MASSLESS_LINK"),
    "link_with_mass": (lambda p: pa.wrist_with_massless_link(p, link_mass=0.1), None),
    "finger_0.7deg": (lambda p: pa.finger(p, 0.7), "LIMIT_RANGE_TINY"),
    "finger_40deg": (lambda p: pa.finger(p, 40.0), None),
    "overlap_20mm": (lambda p: pa.folded_chain(p, 0.02), "REST_OVERLAP"),
    "gap_20mm": (lambda p: pa.folded_chain(p, -0.02), None),
    "overlap_self_collisions_off": (lambda p: pa.folded_chain(p, 0.02, self_collisions=False), None),
}


@pytest.mark.parametrize("case", list(CASES))
def test_each_class_is_flagged_and_its_twin_is_not(tmp_path, case):
    require_engine("physx")
    build, code = CASES[case]
    path = build(tmp_path / f"{case}.usda")
    asset = read_asset(path)
    engine = create_engine("physx")
    try:
        engine.load(asset, SceneSpec())
        engine.step()
        block = check_plausibility(engine, asset)
    finally:
        engine.close()
    assert block.error == "" and block.engine == "physx"
    codes = [f.code for f in block.findings]
    assert codes == ([code] if code else []), [f.message for f in block.findings]
    if code is None:
        return
    found = block.findings[0]
    assert found.fix and found.message
    if code == "INERTIA_PLACEHOLDER":  # I = 1 against m a^2 / 6 = 4.2e-5 kg m^2: 24 000x, the shape's moments proposed
        assert found.measured["factor"] == pytest.approx(1.0 / pa.solid_inertia(), rel=1e-3)
        assert found.proposal["diagonal_inertia"] == pytest.approx([pa.solid_inertia()] * 3, rel=1e-3)
    if code == "MASS_ZERO_AUTHORED":  # 1 x 0.6 x 0.05 m at 1000 kg/m^3: the runtime moves 30 kg
        assert found.measured["mass"] == pytest.approx(30.0, rel=1e-3) and found.requirement == "RB.008"
    if code == "MASSLESS_LINK":  # the runtime's own record of its substitute
        assert "negative mass" in found.runtime_record and found.measured["mass"] == pytest.approx(1.0)
        assert found.joints == ["/Wrist/wrist_rotate"] and found.requirement == "RB.007"
    if code == "LIMIT_RANGE_TINY":  # 0.7 read as radians: 40.1 deg
        assert found.measured["range_if_radians"] == pytest.approx(0.7)
    if code == "REST_OVERLAP":  # link 3 reaches 20 mm into link 1, two links apart
        assert found.measured["depth"] == pytest.approx(0.02, abs=1e-4)
        assert {found.body, found.other_body} == {"/Chain/link1", "/Chain/link3"}


def _validate(paths, tests):
    config = ValidationConfig.defaults(default_registry())
    config.run.video = False
    return [run_asset(AssetJob(str(p), tests, config, "physx", None)) for p in paths]


def test_a_massless_moving_link_is_the_named_cause_of_its_joints_fail(tmp_path):
    """Issue 41 item 4: the link a joint moves has no mass of its own; the runtime substitutes 1 kg (and logs a
    'negative mass' record that every test carried as a warning): the drive sized for its 20 g cannot hold it and the
    joint's row FAILs. The row and the verdict name the cause with its code, its fix leads the hints, the record moves
    to the finding; the twin that authors the link's 20 g PASSes and carries no finding."""
    require_engine("physx")
    massless, twin = (pa.level_arm_with_massless_link(tmp_path / f"{n}.usda", m) for n, m in (("massless", True),
                                                                                             ("twin", False)))
    flagged, healthy = _validate([massless, twin], ["full_range_sweep"])
    sweep = flagged.tests[0]
    assert sweep.status.value == "FAIL"
    row = sweep.joints[0]
    assert row.status.value == "FAIL" and "MASSLESS_LINK" in row.codes and row.codes[0] != "MASSLESS_LINK"
    assert "cause (MASSLESS_LINK)" in row.reason and "cause (MASSLESS_LINK)" in sweep.reason
    found = next(f for f in flagged.plausibility.findings if f.code == "MASSLESS_LINK")
    assert found.explains == ["full_range_sweep FAIL: joint"] and row.fix_hints[0] == found.fix
    assert "negative mass" in found.runtime_record and not any("negative mass" in w for w in sweep.warnings)
    assert healthy.tests[0].status.value == "PASS" and healthy.plausibility.findings == []
    report = RunReport(assets=[flagged])  # the JSON keeps the block, the console names it beside the verdict
    block = json.loads(report.model_dump_json())["assets"][0]["plausibility"]
    assert block["findings"][0]["code"] == "MASSLESS_LINK"
    assert any("→ full_range_sweep FAIL: joint" in line for line in console_lines(flagged))


def test_a_tiny_range_is_named_beside_a_pass(tmp_path):
    """Issue 45 class 4: joint_movement PASSes a finger that opens 0.7 deg; the finding is named beside the PASS (a
    note on the row: it proves little), never as a cause; the 40 deg twin is not flagged."""
    require_engine("physx")
    tiny, wide = _validate([pa.finger(tmp_path / "tiny.usda", 0.7), pa.finger(tmp_path / "wide.usda", 40.0)],
                           ["joint_movement"])
    row = tiny.tests[0].joints[0]
    assert tiny.tests[0].status.value == "PASS" and "note (LIMIT_RANGE_TINY)" in row.reason
    assert "cause" not in tiny.tests[0].reason
    assert tiny.plausibility.findings[0].explains == ["joint_movement PASS: finger_joint"]
    assert wide.plausibility.findings == [] and "LIMIT_RANGE_TINY" not in wide.tests[0].joints[0].codes


def test_fix_shape_inertia_proposes_the_shapes_inertia_and_proves_it(tmp_path):
    """A fix rule may propose the inertia a shape gives, as a layer proved by the re-run (issue 45): the I = 1 cube gets
    physics:diagonalInertia m a^2 / 6 in OUT/<asset>.inertia.usda, accepted because the re-run of its root shows the
    finding gone and no verdict worse; the asset is not written; the solid twin has nothing to fix."""
    require_engine("physx")
    from omni.simready.physics_validator.fix.shape_inertia import fix_shape_inertia

    cube, twin = pa.placeholder_cube(tmp_path / "cube.usda"), pa.solid_cube(tmp_path / "twin.usda")
    authored = cube.read_text()
    config = ValidationConfig.defaults(default_registry())
    config.run.video = False
    report = fix_shape_inertia([str(cube), str(twin)], ["ground_drop"], config, "physx", tmp_path / "out", jobs=1)
    fixes = {a.path: a.fix for a in report.assets}
    fix = fixes[str(cube)]
    assert fix.status == "accepted", fix.summary
    assert cube.read_text() == authored
    layer = read_asset(fix.composed)
    assert layer.bodies["/Cube/body"].diagonal_inertia == pytest.approx([pa.solid_inertia()] * 3, rel=1e-4)
    assert [t.after.value for t in fix.tests] == ["PASS"]
    assert fixes[str(twin)].status == "nothing_to_fix"
