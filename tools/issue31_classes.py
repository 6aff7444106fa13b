"""Today's verdicts on the ten classes: python today.py ENGINE [CLASS...]"""
import sys, warnings, os
sys.path.insert(0, os.environ.get("CHECKOUT", "/work/h31"))
warnings.simplefilter("ignore")
from pathlib import Path
from tests.fixtures import runtime_model_assets as R
from tests.fixtures.runs import run_test
engine = sys.argv[1]
only = set(sys.argv[2:])
F = Path("/tmp/h31x/today"); F.mkdir(exist_ok=True)
cases = {
 "c1": [("reversed", lambda: R.arm_under_an_xform_root(F/"c1_rev.usda", True), ["full_range_sweep"]),
        ("forward", lambda: R.arm_under_an_xform_root(F/"c1_fwd.usda", False), ["full_range_sweep"])],
 "c2": [("tool articulation", lambda: R.arm_with_a_tool_articulation(F/"c2_own.usda", True), ["full_range_sweep", "effort_limit", "joint_movement", "state_accuracy"]),
        ("one articulation", lambda: R.arm_with_a_tool_articulation(F/"c2_one.usda", False), ["full_range_sweep", "effort_limit", "joint_movement", "state_accuracy"])],
 "c3": [("chain", lambda: R.mimic_chain(F/"c3_chain.usda", True), ["mimic_joint"]),
        ("direct", lambda: R.mimic_chain(F/"c3_direct.usda", False), ["mimic_joint"])],
 "c4": [("mimicEnabled false", lambda: R.newton_mimic_switched_off(F/"c4_off.usda", False), ["full_range_sweep", "mimic_joint"]),
        ("mimicEnabled true", lambda: R.newton_mimic_switched_off(F/"c4_on.usda", True), ["full_range_sweep", "mimic_joint"])],
 "c5": [("reference a link", lambda: R.mimic_of_a_link(F/"c5_link.usda", False), ["mimic_joint", "full_range_sweep"]),
        ("reference a joint", lambda: R.mimic_of_a_link(F/"c5_joint.usda", True), ["mimic_joint", "full_range_sweep"])],
 "c6": [("flat", lambda: R.flat_box_with_flaps(F/"c6_flat.usda", True), ["multi_joint_coordination", "mimic_joint", "state_accuracy", "full_range_sweep"]),
        ("tall", lambda: R.flat_box_with_flaps(F/"c6_tall.usda", False), ["multi_joint_coordination", "mimic_joint", "state_accuracy", "full_range_sweep"])],
 "c7": [("no gravity", lambda: R.box_and_a_second_part(F/"c7_nograv.usda", "no_gravity"), ["ground_drop"]),
        ("disabled", lambda: R.box_and_a_second_part(F/"c7_disabled.usda", "disabled"), ["ground_drop"]),
        ("falls", lambda: R.box_and_a_second_part(F/"c7_falls.usda", "falls"), ["ground_drop"])],
 "c8": [("trigger", lambda: R.tote_with_a_trigger(F/"c8_trig.usda", True), ["slope_drop", "ground_drop"]),
        ("no trigger", lambda: R.tote_with_a_trigger(F/"c8_plain.usda", False), ["slope_drop", "ground_drop"])],
 "c9": [("resets", lambda: R.crate_resetting_its_xform_stack(F/"c9_reset.usda", True), ["ground_drop", "slope_drop"]),
        ("plain", lambda: R.crate_resetting_its_xform_stack(F/"c9_plain.usda", False), ["ground_drop", "slope_drop"])],
 "c10": [("disc", lambda: R.turntable(F/"c10_disc.usda", "disc"), ["effort_limit"]),
         ("square", lambda: R.turntable(F/"c10_square.usda", "square"), ["effort_limit"])],
}
for key, variants in cases.items():
    if only and key not in only: continue
    for label, build, tests in variants:
        path = build()
        for test in tests:
            try:
                r = run_test(path, test, engine)
                rows = "; ".join(f"{j.joint}:{j.status.value}:{','.join(j.codes)}" for j in r.joints)[:200]
                excl = "; ".join(f"{e.joint}:{e.code}" for e in r.excluded_joints)[:120]
                print(f"{engine} {key} [{label}] {test}: {r.status.value} {r.code} | {r.reason[:230]} | rows {rows} | excl {excl}")
            except Exception as exc:
                print(f"{engine} {key} [{label}] {test}: RAISED {exc}")
