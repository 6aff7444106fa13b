"""The validation layer's metre-equivalent articulation CFM on stages not in metres (issue 24 item 12).

PhysX adds cfmScale / tolerancesScale.length x a link's linear impulse response to every articulation constraint's
response; omni.physx and ovphysx set tolerancesScale.length = 1 / metersPerUnit, so relative to a revolute joint
(response 1 / (kg u^2)) the CFM grows as 1 / metersPerUnit and a centimetre arm's capped joint moves faster than
its reported velocity. What the layer authors is checked on the USD (pure pxr), and the cause on the runtime: the
position rate of a capped joint with the asset's own cfmScale, with the layer's, and on the metre twin.
"""

from __future__ import annotations

import math

import numpy as np
import pytest
from pxr import Sdf, Usd

from tests.fixtures.arms import build_arm
from tests.fixtures.driven_arms import edit_usd
from tests.fixtures.runs import require_engine
from omni.simready.physics_validator.core.scene import SceneSpec
from omni.simready.physics_validator.core.usd import read_asset
from omni.simready.physics_validator.engines import create_engine
from omni.simready.physics_validator.engines.validation_layer import (
    CFM_SCALE_DEFAULT, applied_api_tokens, author_validation_layer, metre_equivalent_cfm_scale, physics_scene_paths,
    plan_validation_layer,
)

LINKS = ("/Robot/base", "/Robot/link1", "/Robot/link2")
CFM = "physxRigidBody:cfmScale"


def _layered(path):
    """The asset under a fresh anonymous layer holding what the validation layer authors for a driven-joint test."""
    asset = read_asset(path)
    layer = Sdf.Layer.CreateAnonymous()
    layer.subLayerPaths.append(str(path))
    stage = Usd.Stage.Open(layer)
    plan = plan_validation_layer(asset, SceneSpec(pin_base=True), None, physics_scene_paths(stage))
    author_validation_layer(stage, plan, layer)
    return stage, layer


def _own_cfm(value: float, apply_api: bool = True):
    def change(stage):
        prim = stage.GetPrimAtPath("/Robot/link1")
        if apply_api:
            prim.AddAppliedSchema("PhysxRigidBodyAPI")
        prim.CreateAttribute(CFM, Sdf.ValueTypeNames.Float).Set(value)
    return change


@pytest.mark.parametrize("mpu,expected", [(1.0, 0.025), (0.01, 2.5e-4), (0.001, 2.5e-5), (100.0, 1.0)])
def test_metre_equivalent_cfm_scale(mpu, expected):
    assert metre_equivalent_cfm_scale(mpu) == pytest.approx(expected)
    assert CFM_SCALE_DEFAULT == 0.025  # PhysX's and the PhysxRigidBodyAPI schema's default


def test_every_link_of_a_centimetre_articulation_gets_the_metre_equivalent_cfm(tmp_path):
    stage, layer = _layered(build_arm(tmp_path / "cm.usda", joints=2, meters_per_unit=0.01))
    for path in LINKS:
        prim = stage.GetPrimAtPath(path)
        assert "PhysxRigidBodyAPI" in applied_api_tokens(prim)
        assert prim.GetAttribute(CFM).Get() == pytest.approx(2.5e-4)
        assert layer.GetAttributeAtPath(f"{path}.{CFM}") is not None  # in the validation layer, not the asset
    assert Usd.Stage.Open(str(tmp_path / "cm.usda")).GetPrimAtPath("/Robot/link1").GetAttribute(CFM).IsValid() is False


def test_a_metre_stage_gets_no_cfm_override(tmp_path):
    stage, _layer = _layered(build_arm(tmp_path / "m.usda", joints=2))
    for path in LINKS:
        prim = stage.GetPrimAtPath(path)
        assert not prim.GetAttribute(CFM).IsValid()
        assert "PhysxRigidBodyAPI" not in applied_api_tokens(prim)


def test_an_asset_tuned_cfm_is_kept_and_an_unparsed_one_is_replaced(tmp_path):
    tuned = edit_usd(build_arm(tmp_path / "tuned.usda", joints=2, meters_per_unit=0.01), _own_cfm(0.5))
    stage, _layer = _layered(tuned)
    assert stage.GetPrimAtPath("/Robot/link1").GetAttribute(CFM).Get() == pytest.approx(0.5)
    assert stage.GetPrimAtPath("/Robot/link2").GetAttribute(CFM).Get() == pytest.approx(2.5e-4)
    # authored without PhysxRigidBodyAPI, the runtime never reads it (it would use 0.025): the layer's value goes in
    unparsed = edit_usd(build_arm(tmp_path / "unparsed.usda", joints=2, meters_per_unit=0.01), _own_cfm(0.5, False))
    stage, _layer = _layered(unparsed)
    assert stage.GetPrimAtPath("/Robot/link1").GetAttribute(CFM).Get() == pytest.approx(2.5e-4)


def _position_rate_deg(path) -> float:
    """Peak rate of joint2's position (deg/s), no gravity, driven from 0 to 108 deg against its 120 deg/s cap."""
    engine = create_engine("physx")
    try:
        engine.load(read_asset(path), SceneSpec(physics_fps=240, gravity=0.0, ground=None, pin_base=True))
        targets = engine.joint_positions()
        targets[1] = math.radians(108.0)
        engine.set_joint_position_targets(targets)
        q = [engine.joint_positions()[1]]
        for _ in range(240):
            engine.step()
            q.append(engine.joint_positions()[1])
        return math.degrees(float(np.max(np.abs(np.diff(q)))) / engine.dt)
    finally:
        engine.close()


def test_the_runtime_cause_articulation_cfm_scales_with_stage_units(tmp_path):
    """Measured cause: with PhysX's default cfmScale kept (the asset authors 0.025) the centimetre arm's capped pitch
    joint moves at 130.8 deg/s; with the layer's 2.5e-4 the centimetre and millimetre twins read the metre twin's
    120.145 deg/s. The conversion of gains, masses and caps is not the cause: it is the same in all runs."""
    require_engine("physx")
    arm = dict(joints=4)
    metre = _position_rate_deg(build_arm(tmp_path / "m.usda", **arm))
    centimetre = _position_rate_deg(build_arm(tmp_path / "cm.usda", meters_per_unit=0.01, **arm))
    millimetre = _position_rate_deg(build_arm(tmp_path / "mm.usda", meters_per_unit=0.001, **arm))
    default_cfm = _position_rate_deg(edit_usd(build_arm(tmp_path / "cm_default.usda", meters_per_unit=0.01, **arm),
                                              _own_cfm_on_every_link(CFM_SCALE_DEFAULT)))
    assert 120.0 <= metre < 121.0
    assert centimetre == pytest.approx(metre, abs=0.01) and millimetre == pytest.approx(metre, abs=0.01)
    assert default_cfm > 1.05 * 120.0  # the runtime's own default: the cap gives way past the 5 % tolerance


def _own_cfm_on_every_link(value: float):
    def change(stage):
        for path in (*LINKS, "/Robot/link3", "/Robot/link4"):
            prim = stage.GetPrimAtPath(path)
            prim.AddAppliedSchema("PhysxRigidBodyAPI")
            prim.CreateAttribute(CFM, Sdf.ValueTypeNames.Float).Set(value)
    return change
