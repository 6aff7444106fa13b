"""Hostile input, round four (issue 42): transforms and physics attributes with NaN, Inf and time samples, and settings
text that is not one value (deep TOML, a newline or 100,000 digits in --set).

A broken transform or a NaN sample is PRECHECK_FAILURE naming the op or attribute, never a PASS; a time-sampled value
the runtime reads at the default time is said on the verdict; a setting that cannot be read is a usage error (exit 2,
one line) naming the file or the flag.
"""

from __future__ import annotations

from pathlib import Path
from typing import Callable

from pxr import Gf, Usd, UsdGeom, UsdPhysics

from omni.simready.physics_validator.core.status import Status

from . import builders as b
from .corpus import PRECHECK, Case, Outcome

USAGE = frozenset()
INF, NAN = b.INF, b.NAN


def _box(name: str, change) -> Callable[[Path], list[Path]]:
    """A builder: the good box at `name`, then `change(stage, body, collider)`."""
    def build(folder: Path) -> list[Path]:
        s = b.Stage(folder / name)
        body = s.box_body(f"{s.root}/Body")
        collider = UsdGeom.Xformable(s.stage.GetPrimAtPath(f"{s.root}/Body/Collider"))
        change(s.stage, body, collider)
        return [s.save()]

    return build


def _orient(value):
    return lambda stage, body, collider: body.AddOrientOp().Set(value)


def _collider_orient_nan(stage, body, collider):
    collider.AddOrientOp().Set(Gf.Quatf(1.0, NAN, 0.0, 0.0))


def _rotate_xyz_inf(stage, body, collider):
    body.AddRotateXYZOp().Set(Gf.Vec3f(0.0, INF, 0.0))


def _collider_scale_nan(stage, body, collider):
    collider.GetOrderedXformOps()[0].Set(Gf.Vec3f(NAN, 0.05, 0.05))


def _matrix_inf(stage, body, collider):
    body.AddTransformOp(opSuffix="pose").Set(Gf.Matrix4d(1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, INF, 0, 1))


def _root_orient_inf(stage, body, collider):
    UsdGeom.Xformable(stage.GetPrimAtPath("/Asset")).AddOrientOp().Set(Gf.Quatf(INF, 0.0, 0.0, 0.0))


def _translate_sample_nan(stage, body, collider):
    body.GetOrderedXformOps()[0].GetAttr().Set(Gf.Vec3d(0.0, NAN, 0.5), Usd.TimeCode(1.0))


def _translate_only_sampled(stage, body, collider):
    attr = body.GetOrderedXformOps()[0].GetAttr()
    attr.Clear()
    attr.Set(Gf.Vec3d(0.0, 0.0, 0.5), Usd.TimeCode(5.0))


def _kinematic_sampled(stage, body, collider):
    UsdPhysics.RigidBodyAPI(body.GetPrim()).CreateKinematicEnabledAttr().Set(True, Usd.TimeCode(0.0))


def _mass_sampled_nan(stage, body, collider):
    attr = UsdPhysics.MassAPI(body.GetPrim()).GetMassAttr()
    attr.Clear()
    attr.Set(NAN, Usd.TimeCode(0.0))


def _velocity_sample_inf(stage, body, collider):
    attr = UsdPhysics.RigidBodyAPI(body.GetPrim()).CreateVelocityAttr()
    attr.Set(Gf.Vec3f(0.0, 0.0, 0.0))
    attr.Set(Gf.Vec3f(INF, 0.0, 0.0), Usd.TimeCode(2.0))


# -- settings text ------------------------------------------------------------------------------------------
def _toml(name: str, text: str):
    def build(folder: Path) -> list[Path]:
        folder.mkdir(parents=True, exist_ok=True)
        (folder / name).write_text(text, encoding="utf-8")
        return [b.good_box(folder / "good.usda")]

    return build


def _good(folder: Path) -> list[Path]:
    return [b.good_box(folder / "good.usda")]


# -- checks -------------------------------------------------------------------------------------------------
def _reason_names(*words: str):
    def check(outcome: Outcome) -> list[str]:
        reasons = " ".join(r[3] for r in outcome.results)
        missing = [w for w in words if w not in reasons]
        return [f"the reason does not name {missing}: {reasons[:240]}"] if missing else []

    return check


def _warns(*words: str):
    """Every verdict carries a warning with these words (what was read at which time)."""
    def check(outcome: Outcome) -> list[str]:
        warnings = [w for a in (outcome.report or {}).get("assets", []) for t in a["tests"] for w in t["warnings"]]
        said = [w for w in warnings if all(word in w for word in words)]
        return [] if said else [f"no warning saying {words}: {warnings}"]

    return check


def _one_error_line(*words: str):
    def check(outcome: Outcome) -> list[str]:
        lines = [line for line in outcome.stderr.splitlines() if line.strip()]
        problems = [] if len(lines) == 1 and lines[0].startswith("error:") else [f"not one error line: {lines[:3]}"]
        if lines and len(lines[0]) > 400:
            problems.append(f"the error line is {len(lines[0])} characters long")
        missing = [w for w in words if w not in outcome.stderr]
        problems += [f"stderr does not name {missing}"] if missing else []
        if (Path(outcome.workdir) / "out" / "report.json").exists():
            problems.append("a report was written: the run went ahead")
        return problems

    return check


SMUGGLED = "ground_drop.rest_tolerance_m=0.02\n[run]\nwatchdog_seconds=0.001"
PASS_WITH_WARNING = frozenset({Status.PASS, Status.WARN, Status.FAIL})

VALUE_ATTACKS: list[Case] = [
    # every xformOp of every body and collider (issue 42 item 2)
    Case("orient_inf", "quatf xformOp:orient = (inf, 0, 0, 0) on the body",
         _box("orient_inf.usda", _orient(Gf.Quatf(INF, 0, 0, 0))), PRECHECK, (1,), "TRANSFORM_NAN",
         check=_reason_names("xformOp:orient", "inf")),
    Case("orient_nan_on_collider", "a NaN in the collider's orient", _box("collider_orient.usda", _collider_orient_nan),
         PRECHECK, (1,), "TRANSFORM_NAN", check=_reason_names("/Asset/Body/Collider", "xformOp:orient")),
    Case("rotate_xyz_inf", "xformOp:rotateXYZ = (0, inf, 0) on the body", _box("rotate_xyz.usda", _rotate_xyz_inf), PRECHECK,
         (1,), "TRANSFORM_NAN", check=_reason_names("xformOp:rotateXYZ")),
    Case("scale_nan_on_collider", "xformOp:scale = (nan, 0.05, 0.05) on the collider", _box("scale_nan.usda",
                                                                                         _collider_scale_nan),
         PRECHECK, (1,), "TRANSFORM_NAN", check=_reason_names("xformOp:scale")),
    Case("transform_matrix_inf", "an inf in a matrix xformOp:transform", _box("matrix_inf.usda", _matrix_inf), PRECHECK, (1,),
         "TRANSFORM_NAN", check=_reason_names("xformOp:transform:pose")),
    Case("orient_inf_above_the_body", "an inf orient on the asset's root Xform, above the body",
         _box("root_orient.usda", _root_orient_inf), PRECHECK, (1,), "TRANSFORM_NAN",
         check=_reason_names("/Asset:", "above /Asset/Body")),
    Case("translate_nan_in_a_time_sample", "a finite translate with a NaN time sample at t=1",
         _box("sample_nan.usda", _translate_sample_nan), PRECHECK, (1,), "TRANSFORM_NAN",
         check=_reason_names("at time 1", "default time")),
    Case("translate_only_time_sampled", "a translate op with a time sample and no default",
         _box("sampled_translate.usda", _translate_only_sampled), PASS_WITH_WARNING, (0, 1),
         check=_warns("xformOp:translate", "default time")),
    # time-sampled physics attributes (issue 42 item 8)
    Case("kinematic_time_sampled", "physics:kinematicEnabled.timeSamples = {0: 1}, no default",
         _box("kinematic_sampled.usda", _kinematic_sampled), PASS_WITH_WARNING, (0, 1),
         check=_warns("physics:kinematicEnabled", "default time: False", "fallback")),
    Case("mass_sampled_nan", "physics:mass sampled NaN, no default", _box("mass_sampled.usda", _mass_sampled_nan), PRECHECK,
         (1,), "TIME_SAMPLE_NAN", check=_reason_names("physics:mass", "nan")),
    Case("velocity_inf_in_a_time_sample", "physics:velocity (0, 0, 0) with an inf time sample at t=2",
         _box("velocity_sampled.usda", _velocity_sample_inf), PRECHECK, (1,), "TIME_SAMPLE_NAN",
         check=_reason_names("physics:velocity", "at time 2")),
    # settings text (issue 42 items 3, 5, 7)
    Case("toml_arrays_50000_deep", "a TOML config: x = [[[...]]] 50,000 deep",
         _toml("deep.toml", "x = " + "[" * 50_000 + "]" * 50_000 + "\n"), USAGE, (2,), args=("--config", "{input}/deep.toml"),
         check=_one_error_line("deep.toml", "nested")),
    Case("toml_inline_tables_20000_deep", "a TOML config: inline tables 20,000 deep",
         _toml("tables.toml", "[ground_drop]\nx = " + "{a=" * 20_000 + "1" + "}" * 20_000 + "\n"), USAGE, (2,),
         args=("--config", "{input}/tables.toml"), check=_one_error_line("tables.toml", "nested")),
    Case("toml_number_100000_digits", "a TOML config whose tolerance has 100,000 digits",
         _toml("digits.toml", "[ground_drop]\nrest_tolerance_m = " + "9" * 100_000 + "\n"), USAGE, (2,),
         args=("--config", "{input}/digits.toml"), check=_one_error_line("digits.toml", "too long")),
    Case("set_value_with_a_newline", "--set 'ground_drop.rest_tolerance_m=0.02\\n[run]\\nwatchdog_seconds=0.001'", _good,
         USAGE, (2,), args=("--set", SMUGGLED), check=_one_error_line("--set", "one value")),
    Case("set_value_with_a_carriage_return", "--set 'ground_drop.rest_tolerance_m=0.02\\r0.5'", _good, USAGE, (2,),
         args=("--set", "ground_drop.rest_tolerance_m=0.02\r0.5"), check=_one_error_line("--set", "one line")),
    Case("set_value_100000_digits", "--set ground_drop.rest_tolerance_m=<100,000 digits>", _good, USAGE, (2,),
         args=("--set", "ground_drop.rest_tolerance_m=" + "9" * 100_000), check=_one_error_line("--set", "characters")),
    Case("set_value_nested_500_deep", "--set ground_drop.rest_tolerance_m=[[[...]]] 500 deep", _good, USAGE, (2,),
         args=("--set", "ground_drop.rest_tolerance_m=" + "[" * 500 + "1" + "]" * 500), check=_one_error_line("--set")),
]
