"""The runtime readback is of the asset as authored, never of a stage a test changed.

joint_movement simulates a velocity drive of its own on every movable joint (SceneSpec.drive_overrides). On a
drive-less arm it is the only test that steps, and its engine used to be the one read back: the report said
"no drive: not authored, physx uses 0.92 N·m/°, maxForce 553 N·m" for joints a bare ovphysx session gives
stiffness 0, damping 0 and maxForce 0. Real engine, real USD.
"""

from __future__ import annotations

import math

from tests.fixtures.arms import build_arm
from tests.fixtures.runs import require_engine
from omni.simready.physics_validator.core.config import ValidationConfig
from omni.simready.physics_validator.physics_tests import default_registry
from omni.simready.physics_validator.run.asset_run import run_asset
from omni.simready.physics_validator.run.inputs import AssetJob


def _readback(path, tests):
    config = ValidationConfig.defaults(default_registry())
    config.run.video = False
    result = run_asset(AssetJob(str(path), tests, config, require_engine("physx"), None))
    assert result.runtime_readback is not None and not result.runtime_readback.error
    return result, {(e.joint, e.property): e for e in result.runtime_readback.entries if e.joint}


def test_a_drive_less_joint_reads_zero_gains_after_joint_movement_drove_it(tmp_path):
    arm = build_arm(tmp_path / "drive_less.usda", joints=2, passive=(1, 2))
    result, entries = _readback(arm, ["joint_movement", "full_range_sweep"])
    assert {t.name: t.status.value for t in result.tests} == {"joint_movement": "PASS", "full_range_sweep": "SKIP"}
    for joint in ("/Robot/joints/joint1", "/Robot/joints/joint2"):
        for prop in ("stiffness", "damping"):
            entry = entries[(joint, prop)]
            assert entry.authored is None and entry.runtime == 0.0, (joint, prop, entry)


def test_an_authored_drive_reads_as_authored_beside_joint_movement(tmp_path):
    """The healthy twin: a driven arm's readback carries its authored gains, whichever test stepped first."""
    arm = build_arm(tmp_path / "driven.usda", joints=2)
    _, entries = _readback(arm, ["joint_movement", "full_range_sweep"])
    entry = entries[("/Robot/joints/joint1", "stiffness")]
    assert entry.authored is not None and entry.runtime is not None and entry.authored > 0
    assert math.isclose(entry.runtime, entry.authored, rel_tol=1e-4), entry
