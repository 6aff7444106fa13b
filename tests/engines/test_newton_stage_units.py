"""Newton on stages not in metres (issue 24 item 12): the model gets SI joint values, the robot its authored pose,
and a centimetre twin the metre twin's verdict and numbers.

Newton 1.8 imports metres only, so the engine imports a scaled in-memory stage (engines/newton/importer.py), whose
joint attributes Newton then reads as if in metres and kilograms. Before `mapping.apply_si_joint_units` took every
drive from the asset model, the centimetre arm ran with 2e7 N m/rad for 2000 and maxForce 5e6 N m for 500; before
the importer kept the default prim's own transform, a Y-up centimetre arm stood along -Y.
"""

from __future__ import annotations

import numpy as np
import pytest

pytest.importorskip("newton", reason="newton is not installed (pip install -e .[newton])")

from pxr import Sdf  # noqa: E402

from tests.fixtures.arms import build_arm  # noqa: E402
from tests.fixtures.driven_arms import edit_usd, single_joint_robot  # noqa: E402
from tests.fixtures.runs import require_engine, run_test  # noqa: E402
from omni.simready.physics_validator.core.scene import SceneSpec  # noqa: E402
from omni.simready.physics_validator.core.status import Status  # noqa: E402
from omni.simready.physics_validator.core.usd import read_asset  # noqa: E402
from omni.simready.physics_validator.engines.newton.scene import build_scene  # noqa: E402

JOINT_ARRAYS = ("joint_target_ke", "joint_target_kd", "joint_effort_limit", "joint_velocity_limit", "joint_armature",
                "joint_friction", "joint_damping", "joint_limit_lower", "joint_limit_upper")


def _newton_joint_params(mpu: float):
    """newton:armature 0.01 kg m^2, newton:friction 0.5 N m and newton:damping 0.2 N m s/deg on joint1, in stage units."""
    def change(stage):
        joint = stage.GetPrimAtPath("/Robot/joints/joint1")
        joint.AddAppliedSchema("NewtonJointAPI")
        for name, value in (("armature", 0.01), ("friction", 0.5), ("damping", 0.2)):
            joint.CreateAttribute(f"newton:{name}", Sdf.ValueTypeNames.Float).Set(value / mpu**2)
    return change


def _joint_arrays(path) -> dict[str, np.ndarray]:
    model = build_scene(read_asset(path), SceneSpec(pin_base=True), lambda _text: None).model
    return {name: getattr(model, name).numpy().copy() for name in JOINT_ARRAYS}


@pytest.mark.parametrize("robot", ["arm", "slider"])
def test_the_centimetre_model_has_the_metre_models_joint_values(tmp_path, robot):
    arrays = {}
    for mpu in (1.0, 0.01):
        if robot == "arm":
            path = edit_usd(build_arm(tmp_path / f"arm_{mpu}.usda", joints=2, meters_per_unit=mpu), _newton_joint_params(mpu))
        else:
            path = single_joint_robot(tmp_path / f"slider_{mpu}.usda", joint_type="prismatic", axis="X", limits=(-0.1, 0.1),
                                      stiffness=400.0, damping=40.0, max_force=50.0, velocity_limit=0.1, meters_per_unit=mpu)
        arrays[mpu] = _joint_arrays(path)
    for name in JOINT_ARRAYS:
        np.testing.assert_allclose(arrays[0.01][name], arrays[1.0][name], rtol=1e-5, err_msg=name)
    if robot == "arm":
        assert arrays[0.01]["joint_target_ke"][0] == pytest.approx(2000.0, rel=1e-5)  # N m/rad
        assert arrays[0.01]["joint_armature"][0] == pytest.approx(0.01, rel=1e-5)  # kg m^2
    else:
        assert arrays[0.01]["joint_effort_limit"][0] == pytest.approx(50.0, rel=1e-5)  # N


def test_a_y_up_centimetre_arm_stands_where_its_metre_twin_stands(tmp_path):
    """The scaled import keeps the default prim's own transform (the Y-up twin's root rotation): it replaced it, and
    the arm stood along -Y with gravity sideways."""
    from omni.simready.physics_validator.engines import create_engine

    poses = {}
    for up, mpu in (("Z", 1.0), ("Y", 0.01)):
        engine = create_engine("newton")
        try:
            engine.load(read_asset(build_arm(tmp_path / f"arm_{up}.usda", joints=2, meters_per_unit=mpu, up_axis=up)),
                        SceneSpec(pin_base=True))
            poses[up] = {body: pose[0] for body, pose in engine.body_poses().items()}
        finally:
            engine.close()
    for body, position in poses["Z"].items():
        np.testing.assert_allclose(poses["Y"][body], position, atol=1e-6, err_msg=body)
    assert poses["Y"]["/Robot/link2"][2] == pytest.approx(0.4)  # 10 cm base, 20 cm links: link2's centre at 0.4 m


def test_drive_gain_validation_of_the_centimetre_arm_reads_as_in_metres(tmp_path):
    """The metre twin's final error is its gravity sag (1.2e-4 rad); with 1e4 x the gains it read 3.4e-7 rad."""
    require_engine("newton")
    results = {up: run_test(build_arm(tmp_path / f"arm_{up}.usda", joints=2, meters_per_unit=mpu, up_axis=up),
                            "drive_gain_validation", "newton")
               for up, mpu in (("Z", 1.0), ("Y", 0.01))}
    reference, twin = results["Z"], results["Y"]
    assert reference.status is Status.PASS and twin.status is Status.PASS, twin.reason
    for ref_row, row in zip(reference.joints, twin.joints):
        for key in ("final_error", "overshoot_pct", "settling_time_s"):
            assert row.measured[key] == pytest.approx(ref_row.measured[key], rel=1e-2, abs=1e-6), f"{row.joint}.{key}"
