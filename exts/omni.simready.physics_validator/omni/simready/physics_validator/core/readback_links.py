"""What a readback flag explains and how to fix it: each flagged entry is linked to the asset's verdicts it can
have caused (a velocity_limit FAIL beside an `ignored` velocity cap; a drive_gain_validation WARN beside
`from_other_attribute` joint friction) and given the fix (`simready-physics fix` migrates a velocity cap to the
spelling the runtime reads). Pure logic over the result records.
"""

from __future__ import annotations

from collections import Counter

from .results import AssetResult, ReadbackEntry, RuntimeReadback
from .status import Status

DRIVE_TESTS = ("drive_gain_validation", "full_range_sweep", "effort_limit")
# property -> the tests whose verdicts a wrong value of it can decide
PROPERTY_TESTS = {
    "max_velocity": ("velocity_limit",),
    "stiffness": DRIVE_TESTS, "damping": DRIVE_TESTS, "max_force": ("effort_limit", "full_range_sweep", "drive_gain_validation"),
    "armature": DRIVE_TESTS, "static_friction": DRIVE_TESTS, "dynamic_friction": DRIVE_TESTS,
    "viscous_friction": DRIVE_TESTS, "lower": ("full_range_sweep",), "upper": ("full_range_sweep",),
    # a body's values are linked to the test that judges the whole body only: which body loads a failing joint is
    # not known here, and a link a person cannot follow is worse than none
    "mass": ("ground_drop",), "inertia": ("ground_drop",), "com": ("ground_drop",),
    "restitution": ("ground_drop",), "contact_offset": ("ground_drop",), "rest_offset": ("ground_drop",),
}
BODY_FRICTION = ("ground_drop",)
# A joint friction explains a verdict only when it can move the joint by a tenth of the tightest joint tolerance the
# drive tests judge (full_range_sweep's zero return, 0.01 rad or m): an effort of at least stiffness x 1e-3; a viscous
# friction only when it is at least 1 % of the drive's damping. A smaller one is listed, flagged, and links nothing.
# An armature links nothing (its effect depends on the link inertia); a velocity cap links velocity_limit only when
# the runtime's cap is not the one the test judged the joint against.
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
}
FIX[("dynamic_friction", "from_other_attribute")] = FIX[("static_friction", "from_other_attribute")]
FIX[("armature", "from_other_attribute")] = FIX[("armature", "ignored")]


def link(result: AssetResult) -> None:
    """Fill `explains` and `fix` of every flagged entry of the asset's readback from its verdicts."""
    readback = result.runtime_readback
    if readback is None:
        return
    tests = {t.name: t for t in result.tests}
    runtime = {(e.joint, e.property): e.runtime for e in readback.entries if e.joint}
    for entry in readback.flagged():
        inst = "angular" if "°" in entry.unit or entry.unit in ("N·m", "kg·m²") else "linear"  # the unit says the DOF
        entry.fix = FIX.get((entry.property, entry.flag), "").format(inst=inst)
        names = PROPERTY_TESTS.get(entry.property, ()) if entry.joint else _body_tests(entry)
        if entry.joint and not _material(entry, runtime, inst == "angular"):
            names = ()
        entry.explains = [f"{name} {tests[name].status.value}" for name in names
                          if name in tests and _failing_for(tests[name], entry) and _judged_otherwise(tests[name], entry)]


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
    return entry.property != "armature"  # its effect depends on the link inertia, which is not judged here


def _judged_otherwise(test, entry: ReadbackEntry) -> bool:
    """A velocity cap explains velocity_limit only when the runtime's cap is not the one the test judged the joint
    against (a Newton cap equal to the ignored legacy one explains nothing)."""
    if entry.property != "max_velocity":
        return True
    row = next((r for r in test.joints if r.path == entry.joint), None)
    judged = _number(row.limits.get("velocity_limit")) if row is not None else 0.0
    runtime = _number(entry.runtime) * (3.141592653589793 / 180.0 if "°" in entry.unit else 1.0)
    if not judged or runtime != runtime or abs(runtime) == float("inf"):
        return True  # no judged cap, or the runtime enforces none: it can explain the verdict
    return abs(runtime - judged) > 1e-5 * max(abs(runtime), abs(judged))


def _number(value) -> float:
    try:
        return float(value)
    except (TypeError, ValueError):
        return 0.0


def _body_tests(entry: ReadbackEntry) -> tuple[str, ...]:
    return BODY_FRICTION if entry.property in ("static_friction", "dynamic_friction") else PROPERTY_TESTS.get(entry.property, ())


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
