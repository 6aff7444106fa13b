"""The verdicts of issue 31's ten asset classes and their twins (tests/fixtures/runtime_model_assets.py), on any checkout
of the code: the wrong verdicts before, the right ones after.

    python tools/issue31_classes.py --engine physx --out /tmp/issue31            # this checkout
    git worktree add ../before 7cf82a1
    python tools/issue31_classes.py --engine physx --out /tmp/issue31_before \\
        --code ../before/exts/omni.simready.physics_validator                      # the code before

The assets are built by this checkout's fixtures into OUT; the package under test is imported from --code (default:
this checkout's). One line per (class, asset, test): status, code, reason, and each joint row's codes.
"""

from __future__ import annotations

import argparse
import sys
import warnings
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def cases(R, out: Path) -> dict:
    driven = ["full_range_sweep", "effort_limit", "joint_movement", "state_accuracy"]
    coupled = ["mimic_joint", "full_range_sweep"]
    flaps = ["multi_joint_coordination", "mimic_joint", "state_accuracy", "full_range_sweep"]
    return {
        "c1": [("child -> parent", lambda: R.arm_under_an_xform_root(out / "c1_rev.usda", True), ["full_range_sweep"]),
               ("parent -> child", lambda: R.arm_under_an_xform_root(out / "c1_fwd.usda", False), ["full_range_sweep"])],
        "c2": [("tool articulation", lambda: R.arm_with_a_tool_articulation(out / "c2_own.usda", True), driven),
               ("one articulation", lambda: R.arm_with_a_tool_articulation(out / "c2_one.usda", False), driven)],
        "c3": [("chain", lambda: R.mimic_chain(out / "c3_chain.usda", True), ["mimic_joint"]),
               ("direct", lambda: R.mimic_chain(out / "c3_direct.usda", False), ["mimic_joint"])],
        "c4": [("mimicEnabled false", lambda: R.newton_mimic_switched_off(out / "c4_off.usda", False),
                ["full_range_sweep", "mimic_joint"]),
               ("mimicEnabled true", lambda: R.newton_mimic_switched_off(out / "c4_on.usda", True),
                ["full_range_sweep", "mimic_joint"])],
        "c5": [("reference a link", lambda: R.mimic_of_a_link(out / "c5_link.usda", False), coupled),
               ("reference a joint", lambda: R.mimic_of_a_link(out / "c5_joint.usda", True), coupled)],
        "c6": [("flat", lambda: R.flat_box_with_flaps(out / "c6_flat.usda", True), flaps),
               ("tall", lambda: R.flat_box_with_flaps(out / "c6_tall.usda", False), flaps)],
        "c7": [("no gravity", lambda: R.box_and_a_second_part(out / "c7_nograv.usda", "no_gravity"), ["ground_drop"]),
               ("disabled", lambda: R.box_and_a_second_part(out / "c7_disabled.usda", "disabled"), ["ground_drop"]),
               ("falls", lambda: R.box_and_a_second_part(out / "c7_falls.usda", "falls"), ["ground_drop"])],
        "c8": [("trigger", lambda: R.tote_with_a_trigger(out / "c8_trig.usda", True), ["slope_drop", "ground_drop"]),
               ("no trigger", lambda: R.tote_with_a_trigger(out / "c8_plain.usda", False), ["slope_drop", "ground_drop"])],
        "c9": [("resets", lambda: R.crate_resetting_its_xform_stack(out / "c9_reset.usda", True), ["ground_drop", "slope_drop"]),
               ("plain", lambda: R.crate_resetting_its_xform_stack(out / "c9_plain.usda", False), ["ground_drop", "slope_drop"])],
        "c10": [("disc", lambda: R.turntable(out / "c10_disc.usda", "disc"), ["effort_limit"]),
                ("square", lambda: R.turntable(out / "c10_square.usda", "square"), ["effort_limit"])],
    }


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--engine", default="physx")
    parser.add_argument("--out", required=True, type=Path, help="folder for the assets (created)")
    parser.add_argument("--code", type=Path, default=ROOT / "exts" / "omni.simready.physics_validator",
                        help="the extension folder whose package is validated (default: this checkout's)")
    parser.add_argument("classes", nargs="*", help="c1 ... c10 (default: all)")
    args = parser.parse_args()
    sys.path[:0] = [str(args.code.resolve()), str(ROOT)]
    warnings.simplefilter("ignore")
    from tests.fixtures import runtime_model_assets as R
    from tests.fixtures.runs import run_test

    args.out.mkdir(parents=True, exist_ok=True)
    for key, variants in cases(R, args.out).items():
        if args.classes and key not in args.classes:
            continue
        for label, build, tests in variants:
            path = build()
            for test in tests:
                try:
                    result = run_test(path, test, args.engine)
                except Exception as exc:  # noqa: BLE001 - a run that raises is a line too
                    print(f"{args.engine} {key} [{label}] {test}: RAISED {exc}")
                    continue
                joints = "; ".join(f"{r.joint}:{','.join(r.codes)}" for r in result.joints)
                excluded = "; ".join(f"{e.joint}:{e.code}" for e in result.excluded_joints)
                print(f"{args.engine} {key} [{label}] {test}: {result.status.value} {result.code} | {result.reason} | "
                      f"rows {joints or '-'} | excluded {excluded or '-'}", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
