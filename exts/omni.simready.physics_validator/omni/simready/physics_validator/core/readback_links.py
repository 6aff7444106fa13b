"""What a readback flag explains and how to fix it: each flagged entry is linked to the asset's verdicts it can
have caused (a velocity_limit FAIL beside an `ignored` velocity cap; a drive_gain_validation WARN beside
`from_other_attribute` joint friction) and given the fix (`simready-physics fix` migrates a velocity cap to the
spelling the runtime reads). Which test a property can decide, each test declares (`PhysicsTest.readback`:
"joint:max_velocity", "body:mass", ..., with the joint-row limit it is judged against); this module asks the
registry. Pure logic over the result records.
"""

from __future__ import annotations

from collections import Counter

from .plugin import TestRegistry
from .results import AssetResult, ReadbackEntry, RuntimeReadback
from .status import Status

# A joint friction explains a verdict only when it can move the joint by a tenth of the tightest joint tolerance the
# drive tests judge (full_range_sweep's zero return, 0.01 rad or m): an effort of at least stiffness x 1e-3; a viscous
# friction only when it is at least 1 % of the drive's damping. A smaller one is listed, flagged, and links nothing.
# An armature links nothing (no test declares it: its effect depends on the link inertia); a value judged against a
# row limit (a velocity cap) links only when the runtime's value is not the one the test judged the joint against.
MATERIAL_DEFLECTION = 1e-3  # rad or m
MATERIAL_DAMPING_SHARE = 0.01
PER_DEGREE = 180.0 / 3.141592653589793
FAILING = (Status.FAIL, Status.WARN)
SEVERE = ("ignored", "clamped", "from_other_attribute", "differs")  # shown one by one; `defaulted` is counted

FIX = {
    ("max_velocity", "ignored"): "author physxJointAxis:{inst}:maxJointVelocity with PhysxJointAxisAPI:{inst} "
                                 "(`simready-physics fix` migrates the legacy spelling)",
    ("max_velocity", "from_other_attribute"): "author physxJointAxis:{inst}:maxJointVelocity with PhysxJointAxisAPI:{inst} "
                                              "(`simready-physics fix` migrates the spelling)",
    ("armature", "ignored"): "author physxJointAxis:{inst}:armature with PhysxJointAxisAPI:{inst}",
    ("static_friction", "from_other_attribute"): "the runtime applies this joint friction: author "
                                                 "physxJointAxis:{inst}:staticFrictionEffort / dynamicFrictionEffort for PhysX, "
                                                 "or remove the Newton/MuJoCo value if PhysX must not apply it",
    ("viscous_friction", "from_other_attribute"): "the runtime applies this viscous friction: author "
                                                  "physxJointAxis:{inst}:viscousFrictionCoefficient, or remove newton:damping "
                                                  "if PhysX must not apply it",
    ("lower", "clamped"): "author revolute limits within ±360°", ("upper", "clamped"): "author revolute limits within ±360°",
    ("stiffness", "defaulted"): "author drive:{inst}:physics:stiffness (`simready-physics fix` sizes it when a drive test fails)",
    ("damping", "defaulted"): "author drive:{inst}:physics:damping (`simready-physics fix` sizes it when a drive test fails)",
    ("max_force", "defaulted"): "author drive:{inst}:physics:maxForce: the actuator's real torque (force) limit",
    ("mass", "defaulted"): "author physics:mass (or physics:density) on the body",
    # what the runtime built otherwise than the USD reads (core.runtime_model)
    ("articulation_root", "differs"): "apply UsdPhysics.ArticulationRootAPI to the link that holds the robot (or weld it "
                                      "to the world with a fixed joint): the runtime then roots the articulation there",
    ("articulation_root", "ignored"): "make the articulation one the runtime builds: no kinematic or static body among its "
                                      "links, no closed loop without excludeFromArticulation (the runtime log names the "
                                      "cause)",
    ("articulation", "differs"): "put the joint's two bodies in one articulation (or set excludeFromArticulation where a "
                                 "joint closes a loop on purpose)",
    ("mimic", "ignored"): "point the coupling's reference at a revolute or prismatic joint of the follower's articulation, "
                          "or remove the mimic schema",
    ("gravity", "differs"): "remove physxRigidBody:disableGravity from a part that must fall",
    ("dynamic", "differs"): "set physics:rigidBodyEnabled = true on a part that must move (or remove RigidBodyAPI from "
                            "scenery)",
    ("collides", "differs"): "remove PhysxTriggerAPI from a collider that must touch, or keep trigger zones on no part the "
                             "asset rests on",
}
FIX[("dynamic_friction", "from_other_attribute")] = FIX[("static_friction", "from_other_attribute")]
FIX[("armature", "from_other_attribute")] = FIX[("armature", "ignored")]


def link(result: AssetResult, registry: TestRegistry) -> None:
    """Fill `explains` and `fix` of every flagged entry of the asset's readback from its verdicts."""
    readback = result.runtime_readback
    if readback is None:
        return
    runtime = {(e.joint, e.property): e.runtime for e in readback.entries if e.joint}
    declared = {t.name: _declared(registry, t.name) for t in result.tests}
    for entry in readback.flagged():
        inst = "angular" if "°" in entry.unit or entry.unit in ("N·m", "kg·m²") else "linear"  # the unit says the DOF
        entry.fix = FIX.get((entry.property, entry.flag or ""), "").format(inst=inst)  # flagged: flag is set
        key = f"{'joint' if entry.joint else 'body'}:{entry.property}"
        material = entry.joint is None or _material(entry, runtime, inst == "angular")
        entry.explains = [f"{t.name} {t.status.value}" for t in result.tests
                          if material and key in declared[t.name] and _failing_for(t, entry)
                          and _judged_otherwise(t, entry, declared[t.name][key])]


def _declared(registry: TestRegistry, name: str) -> dict:
    try:
        return dict(registry.get(name).readback)
    except Exception:  # noqa: BLE001 - a test this registry does not know links nothing
        return {}


def _material(entry: ReadbackEntry, runtime: dict, angular: bool) -> bool:
    """Whether the flagged value can decide a verdict (MATERIAL_*): an unlimited or non-zero drive default cannot fail
    a drive test, a negligible joint friction cannot hold a drive off."""
    value = _number(entry.runtime)
    if entry.flag == "defaulted":
        return value == 0.0  # a drive with no stiffness, damping or force: dead; an unlimited max force explains nothing
    if entry.property in ("static_friction", "dynamic_friction"):
        stiffness = _number(runtime.get((entry.joint, "stiffness"))) * (PER_DEGREE if angular else 1.0)  # per rad / m
        return value > 0 and (stiffness <= 0 or value >= stiffness * MATERIAL_DEFLECTION)
    if entry.property == "viscous_friction":
        damping = _number(runtime.get((entry.joint, "damping")))
        return value > 0 and (damping <= 0 or value >= MATERIAL_DAMPING_SHARE * damping)
    return True


def _judged_otherwise(test, entry: ReadbackEntry, limit_key: str | None) -> bool:
    """A runtime value judged against a row limit (a velocity cap) explains the verdict only when it is not the limit
    the test judged the joint against (a Newton cap equal to the ignored legacy one explains nothing)."""
    if limit_key is None:
        return True
    row = next((r for r in test.joints if r.path == entry.joint), None)
    judged = _number(row.limits.get(limit_key)) if row is not None else 0.0
    runtime = _number(entry.runtime) * (3.141592653589793 / 180.0 if "°" in entry.unit else 1.0)  # SI, as the row
    if not judged or runtime != runtime or abs(runtime) == float("inf"):
        return True  # no judged limit, or the runtime enforces none: it can explain the verdict
    return abs(runtime - judged) > 1e-5 * max(abs(runtime), abs(judged))


def _number(value) -> float:
    try:
        return float(value)
    except (TypeError, ValueError):
        return 0.0


def _failing_for(test, entry: ReadbackEntry) -> bool:
    """The test failed (or warned) on this joint; for a body, the test failed or warned at all."""
    if test.status not in FAILING:
        return False
    if entry.joint is None or not test.joints:
        return True
    return any(row.path == entry.joint and row.status in FAILING for row in test.joints)


def counts(readback: RuntimeReadback) -> Counter:
    return Counter(e.flag for e in readback.flagged())


def name_of(entry: ReadbackEntry) -> str:
    return (entry.joint or entry.body or "").rsplit("/", 1)[-1]
