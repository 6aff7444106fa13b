"""Ratings an MJCF carries in its actuators are read as ratings (issue 41 item 5): mujoco-usd-converter 0.8 writes each
<actuator> as an MjcActuator prim with only the attributes that differ from the MjcPhysics schema's defaults (gain type
fixed, bias type none, gear [1 0 0 0 0 0], ctrlLimited/forceLimited "auto"), so a <motor ctrlrange="-5 5"/> arrives as
mjc:ctrlRange:min/max alone. A motor's force is gain x ctrl: its control range x gear is the joint's rated effort; a
position servo's control range is a position, never a force. `fix --add-drives` takes the rating as the first drive's
maxForce (not an "assumed" size) and says where it came from."""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path

import pytest
from pxr import Sdf, Usd

from omni.simready.physics_validator.core.usd import read_asset
from omni.simready.physics_validator.fix import FixTargets
from tests.fix.helpers import run_fix
from tests.fixtures.arms import build_arm

JOINT1, JOINT2 = "/Robot/joints/joint1", "/Robot/joints/joint2"


def actuator(stage, name: str, joint: str, **attrs) -> None:
    """An MjcActuator as the converter writes it: mjc:target, and only the attributes given (the rest at the schema's
    defaults, unwritten). Ranges are `name=(min, max)`; arrays are lists; tokens strings."""
    prim = stage.DefinePrim(f"/Robot/Physics/{name}", "MjcActuator")
    prim.CreateRelationship("mjc:target").SetTargets([joint])
    for key, value in attrs.items():
        attr = f"mjc:{key}"
        if isinstance(value, tuple):
            for end, v in zip(("min", "max"), value):
                prim.CreateAttribute(f"{attr}:{end}", Sdf.ValueTypeNames.Double, custom=False,
                                     variability=Sdf.VariabilityUniform).Set(float(v))
        elif isinstance(value, list):
            prim.CreateAttribute(attr, Sdf.ValueTypeNames.DoubleArray, custom=False,
                                 variability=Sdf.VariabilityUniform).Set(value)
        else:
            prim.CreateAttribute(attr, Sdf.ValueTypeNames.Token, custom=False,
                                 variability=Sdf.VariabilityUniform).Set(value)


def arm(path: Path, **actuators) -> Path:
    """The 2-joint fixture arm imported without drives, with the MjcActuators given (joint -> attributes)."""
    build_arm(path, joints=2, passive=(1, 2))
    stage = Usd.Stage.Open(str(path))
    for joint, attrs in actuators.items():
        actuator(stage, f"act_{joint}", f"/Robot/joints/{joint}", **attrs)
    stage.GetRootLayer().Save()
    return path


@pytest.mark.parametrize("attrs, rating, source", [
    ({"ctrlRange": (-5, 5)}, 5.0, "mjc:ctrlRange of act_joint1 (a motor)"),  # the ViperX's waist
    ({"ctrlRange": (-3, 3), "gear": [2, 0, 0, 0, 0, 0]}, 6.0, "mjc:ctrlRange x mjc:gear 2 of act_joint1 (a motor)"),
    ({"ctrlRange": (-3, 3), "gainPrm": [4, 0, 0, 0, 0, 0, 0, 0, 0, 0]}, 12.0,
     "mjc:ctrlRange x mjc:gainPrm of act_joint1 (a motor)"),
    ({"ctrlRange": (-5, 5), "forceRange": (-2, 2)}, 2.0, "mjc:forceRange of act_joint1"),  # the tighter bound decides
    ({"forceRange": (-20, 20), "forceLimited": "true"}, 20.0, "mjc:forceRange of act_joint1"),  # the UMI gripper's servos
    ({"ctrlRange": (-5, 5), "ctrlLimited": "false"}, None, ""),  # a range MuJoCo does not enforce
    ({"ctrlRange": (-1.5, 1.5), "biasType": "affine", "biasPrm": [0, -40, 0, 0, 0, 0, 0, 0, 0, 0],
      "gainPrm": [40, 0, 0, 0, 0, 0, 0, 0, 0, 0]}, None, ""),  # a position servo: its ctrlrange is radians
])
def test_an_mjcf_actuators_force_limit_is_the_joints_rating(tmp_path, attrs, rating, source):
    joint = read_asset(arm(tmp_path / "arm.usda", joint1=attrs)).joints[JOINT1]
    assert joint.effort_limit == (pytest.approx(rating) if rating is not None else None)
    assert joint.effort_limit_source == (source or None) or (not source and not joint.effort_limit_source)


@pytest.mark.usefixtures("physx_available")
def test_fix_gives_a_first_drive_the_motors_rating_and_says_where_it_came_from(tmp_path):
    """joint2 (the elbow) gets a motor of ctrlrange ±5 x gear 1: its first drive's maxForce is 5 N·m, 'the rated effort
    (mjc:ctrlRange of act_joint2 (a motor))', never marked assumed; joint1, with no actuator, is sized and assumed."""
    asset = arm(tmp_path / "arm.usda", joint2={"ctrlRange": (-5, 5)})
    fix = run_fix(asset, tmp_path / "out", tests=["effort_limit"], targets=FixTargets(add_drives=True)).assets[0].fix
    changes = {j.joint: {c.attribute.rsplit(":", 1)[-1]: c for c in j.changes} for j in fix.joints}
    elbow = changes["joint2"]["maxForce"]
    assert elbow.after == pytest.approx(5.0) and not elbow.assumed
    assert "mjc:ctrlRange of act_joint2 (a motor)" in elbow.why
    assert changes["joint1"]["maxForce"].assumed


CONVERTER = Path(os.environ.get("SIMREADY_CONVERTER_VENV", "/work/robots/_build/venv")) / "bin" / "mujoco_usd_converter"
TINY_MJCF = """<mujoco model="tiny">
  <worldbody>
    <body name="link" pos="0 0 0.1">
      <joint name="waist" type="hinge" axis="0 0 1" range="-90 90"/>
      <geom type="box" size="0.1 0.02 0.02" pos="0.1 0 0" mass="0.5"/>
    </body>
  </worldbody>
  <actuator>
    <motor name="waist_motor" joint="waist" ctrlrange="-5 5" gear="2"/>
  </actuator>
</mujoco>
"""


@pytest.mark.slow
@pytest.mark.skipif(not CONVERTER.exists(), reason="NVIDIA's mujoco-usd-converter venv is not installed here "
                    "(bash tools/convert_robots.sh puts it in /work/robots/_build/venv; SIMREADY_CONVERTER_VENV names another)")
def test_a_real_conversion_of_an_mjcf_motor_is_read_as_its_rating(tmp_path):
    """A tiny MJCF with <motor ctrlrange="-5 5" gear="2"/>, converted by mujoco-usd-converter: 10 N·m rated."""
    (tmp_path / "tiny.xml").write_text(TINY_MJCF)
    env = {k: v for k, v in os.environ.items() if not k.startswith(("PYTHON", "PXR", "VIRTUAL_ENV"))}
    done = subprocess.run([str(CONVERTER), str(tmp_path / "tiny.xml"), str(tmp_path / "usd")], capture_output=True,
                          text=True, timeout=300, env=env)
    assert done.returncode == 0, done.stderr[-2000:]
    usd = next(p for p in sorted((tmp_path / "usd").glob("*.usd*")))
    waist = next(j for j in read_asset(usd).joints.values() if j.name == "waist")
    assert waist.effort_limit == pytest.approx(10.0)
    assert waist.effort_limit_source == "mjc:ctrlRange x mjc:gear 2 of waist_motor (a motor)"
    shutil.rmtree(tmp_path / "usd", ignore_errors=True)
