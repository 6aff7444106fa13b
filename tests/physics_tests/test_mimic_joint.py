"""mimic_joint on real engines: a gripper whose follower mirrors its reference passes; a wrong gear sign or ratio
fails (NVIDIA's test only warns on sign). PhysX's coupling is position + gearing x reference + offset = 0 (measured on
ovphysx: gearing -1 moves the follower WITH its reference), Newton's follower = coef0 + coef1 x leader."""

from __future__ import annotations

import pytest

from pxr import Usd

from tests.fixtures.runs import ENGINES, require_engine, rows, run_test
from tests.fixtures.suite_assets import gripper
from omni.simready.physics_validator.core.status import Status
from omni.simready.physics_validator.core.usd import read_asset


@pytest.fixture(params=ENGINES)
def engine(request):
    return require_engine(request.param)


@pytest.fixture(scope="module")
def folder(tmp_path_factory):
    return tmp_path_factory.mktemp("mimic")


@pytest.mark.parametrize("schema", ["physx", "newton"])
def test_mirrored_fingers_pass(folder, engine, schema):
    result = run_test(gripper(folder / f"ok_{schema}.usda", schema=schema), "mimic_joint", engine)
    assert result.status is Status.PASS, result.reason
    row = rows(result)["finger_b_joint"]
    assert row.limits["authored_slope"] == pytest.approx(-1.0)
    assert row.measured["measured_slope"] == pytest.approx(-1.0, abs=0.05)
    assert row.measured["reference_sweep"] > 0.5 * 0.032  # the reference really swept


@pytest.mark.parametrize("schema, gearing", [("physx", -1.0), ("newton", 1.0)])
def test_wrong_gear_sign_fails(folder, engine, schema, gearing):
    result = run_test(gripper(folder / f"sign_{schema}.usda", schema=schema, gearing=gearing), "mimic_joint", engine)
    assert result.status is Status.FAIL and result.code == "PAIRS_FAILED"
    row = rows(result)["finger_b_joint"]
    assert "LIMITS_INCOMPATIBLE" in row.codes
    assert row.measured["image_lower"] == pytest.approx(0.0) and row.measured["image_upper"] == pytest.approx(0.04)
    assert abs(row.measured["measured_slope"] - row.limits["authored_slope"]) > 0.5  # it could not follow


def test_wrong_gear_ratio_fails(folder, engine):
    result = run_test(gripper(folder / "ratio.usda", gearing=2.0), "mimic_joint", engine)
    assert result.status is Status.FAIL
    row = rows(result)["finger_b_joint"]
    assert "LIMITS_INCOMPATIBLE" in row.codes and row.measured["image_lower"] == pytest.approx(-0.08)
    assert row.measured["reference_sweep"] < 0.032  # the follower's limit stopped the reference half way


@pytest.mark.parametrize("schema", ["physx", "newton"])
def test_a_coupling_on_a_fixed_joint_gets_the_hint_that_applies(folder, engine, schema):
    """The TALOS gripper's followers are fixed joints carrying <mimic> in its URDF: mimic_joint FAILs them
    COUPLING_REJECTED, and the hint told the author to point the referenceJoint elsewhere, which changes nothing on a
    joint with no degree of freedom. The row now says the follower is a fixed joint and the hint names what applies:
    remove the schema, or make it the joint it really is. Its twin, the same gripper with a prismatic follower, PASSes
    (test_mirrored_fingers_pass); a rejected coupling on a joint that moves keeps the repointing hint."""
    from omni.simready.physics_validator.physics_tests.driven.mimic_joint.hints import REJECTED, rejected

    if engine == "newton" and schema == "physx":
        pytest.skip("Newton refuses to build a PhysxMimicJointAPI on a fixed joint (the run is an engine ERROR)")
    path = gripper(folder / f"fixed_follower_{schema}.usda", schema=schema)
    stage = Usd.Stage.Open(str(path))
    stage.GetPrimAtPath("/Gripper/joints/finger_b_joint").SetTypeName("PhysicsFixedJoint")
    stage.GetRootLayer().Save()
    result = run_test(path, "mimic_joint", engine)
    if engine == "newton" and result.status is Status.ERROR:
        # Newton 1.8 either builds the gripper without the fixed follower's coupling or refuses the build (seen in one
        # CI worker, not reproduced alone): a refusal must be the engine's ERROR naming the fixed follower
        assert "has type FIXED" in result.reason and "Mimic followers" in result.reason, result.reason
        return
    assert result.status is Status.FAIL, result.reason
    row = rows(result)["finger_b_joint"]
    assert row.codes == ["COUPLING_REJECTED"] and "finger_b_joint is a fixed joint" in row.reason
    (hint,) = row.fix_hints
    schema_name = row.limits["schema"]
    assert f"remove {schema_name} from the joint" in hint and "make it the revolute or prismatic joint" in hint
    assert "referenceJoint" not in hint and hint in result.fix_hints
    moving = type(row)(joint="j", status=Status.FAIL, limits={"schema": schema_name, "follower_type": "prismatic"})
    assert rejected(moving) == REJECTED and rejected(None) == REJECTED


def test_no_mimic_is_not_applicable(folder):
    """An arm without mimic joints is not what mimic_joint concerns: NOT_APPLICABLE, so --fail-on-skip (the CI
    recipe) does not fail every arm without a coupling."""
    from tests.fixtures.arms import build_arm

    result = run_test(build_arm(folder / "arm.usda", joints=2), "mimic_joint", require_engine("physx"))
    assert result.status is Status.NOT_APPLICABLE and result.code == "NO_MIMIC"


def test_an_engine_without_mimic_joints_skips(folder):
    result = run_test(gripper(folder / "ok_sapien.usda"), "mimic_joint", require_engine("sapien"))
    assert result.status is Status.SKIP and result.code == "ENGINE_WITHOUT_MIMIC"


def test_the_coupling_is_read_in_each_schema_convention(folder):
    physx = read_asset(gripper(folder / "r_physx.usda", gearing=1.0, offset=0.5)).joints["/Gripper/joints/finger_b_joint"]
    assert physx.mimic.slope == pytest.approx(-1.0) and physx.mimic.intercept == pytest.approx(-0.5)
    newton = read_asset(gripper(folder / "r_newton.usda", schema="newton", gearing=-1.0, offset=0.5))
    mimic = newton.joints["/Gripper/joints/finger_b_joint"].mimic
    assert (mimic.slope, mimic.intercept, mimic.schema) == (pytest.approx(-1.0), pytest.approx(0.5), "NewtonMimicAPI")
