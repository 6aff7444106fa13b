"""The plausibility findings' codes, each with NVIDIA's requirement where one names the same rule, its severity and the
fix; machines read the code, the message is for people (docs/plausibility.md lists them)."""

from __future__ import annotations

from dataclasses import dataclass

from ..codes import VerdictCode


class PlausibilityCode(VerdictCode):
    INERTIA_PLACEHOLDER = "INERTIA_PLACEHOLDER"  # 1: principal moments 10x off what the body's shapes give at its mass
    MASS_ZERO_AUTHORED = "MASS_ZERO_AUTHORED"  # 2: physics:mass = 0 authored (Bullet's "static"): UsdPhysics computes one
    INERTIA_TRIANGLE = "INERTIA_TRIANGLE"  # 3: principal moments break the triangle inequality: no body has them
    INERTIA_ZERO = "INERTIA_ZERO"  # 3: a zero (or negative) principal moment authored on a moving body
    MASSLESS_LINK = "MASSLESS_LINK"  # 3: a moving body with no mass of its own: the runtime substitutes one
    LIMIT_RANGE_TINY = "LIMIT_RANGE_TINY"  # 4: a revolute range under 2 deg: radians written where USD reads degrees?
    REST_OVERLAP = "REST_OVERLAP"  # 5: two bodies that collide with each other overlap at the rest pose


@dataclass(frozen=True)
class Rule:
    requirement: str  # NVIDIA's requirement naming the same rule ('' : none does)
    severity: str  # error: the runtime cannot use the value as authored; warning: it can, and it is implausible
    fix: str
    qualifies_pass: bool = False  # named beside a PASS too: the pass proves little (a sweep over 0.7 deg)


Code = PlausibilityCode
RULES: dict[PlausibilityCode, Rule] = {
    Code.INERTIA_PLACEHOLDER: Rule(
        "", "warning",
        "author physics:diagonalInertia (and physics:principalAxes) from the part's geometry or CAD, or remove them so "
        "that the runtime computes them from the colliders (`simready-physics fix --shape-inertia` proposes the shape's)"),
    Code.MASS_ZERO_AUTHORED: Rule(
        "RB.008", "warning",
        "a part meant to be static takes no RigidBodyAPI (or a fixed joint to the world); a moving part takes its real "
        "physics:mass (UsdPhysics reads 0 as 'not authored' and computes the mass from the colliders' volume)"),
    Code.INERTIA_TRIANGLE: Rule(
        "RB.008", "error",
        "author principal moments that a body can have (I1 + I2 >= I3 for every order), e.g. from the colliders "
        "(`simready-physics fix --shape-inertia`)"),
    Code.INERTIA_ZERO: Rule(
        "RB.008", "warning",  # RB.008 calls an all-zero diagonal informational: the runtime computes one
        "author positive principal moments (physics:diagonalInertia), or none at all so that the runtime computes them "
        "from the colliders"),
    Code.MASSLESS_LINK: Rule(
        "RB.007", "error",
        "give the body its mass: physics:mass with physics:diagonalInertia on it, or a collider with a density; a frame "
        "with no mass of its own (a URDF link or MJCF body without inertial) belongs merged into its parent"),
    Code.LIMIT_RANGE_TINY: Rule(
        "", "warning",
        "USD revolute limits are degrees: an MJCF or URDF range in radians converted without its unit "
        "(`<compiler angle=\"radian\"/>` missing) reads 57x too small; author the range in degrees", qualifies_pass=True),
    Code.REST_OVERLAP: Rule(
        "", "warning",
        "at the rest pose the two bodies' colliders overlap: fix the joint origins or the colliders, or filter the pair "
        "(UsdPhysics.FilteredPairsAPI), or set physxArticulation:enabledSelfCollisions = false"),
}

# What a test declares it can be decided by (`PhysicsTest.plausibility`): a free body's fall and rest (the drop tests),
# and a joint's motion (joint_movement and the driven-joint tests: what it moves, what its range is)
BODY_FINDINGS = frozenset(c.value for c in (Code.INERTIA_PLACEHOLDER, Code.MASS_ZERO_AUTHORED, Code.INERTIA_TRIANGLE,
                                            Code.INERTIA_ZERO, Code.MASSLESS_LINK, Code.REST_OVERLAP))
JOINT_FINDINGS = frozenset(c.value for c in (Code.INERTIA_PLACEHOLDER, Code.INERTIA_TRIANGLE, Code.INERTIA_ZERO,
                                             Code.MASSLESS_LINK, Code.REST_OVERLAP, Code.LIMIT_RANGE_TINY))
