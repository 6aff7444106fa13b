"""velocity_limit's fix hints, by code."""

from ....core.hints import HintTable
from ..codes import DrivenCode
from ..hints import ADD_DRIVE, DEAD_DRIVE
from .codes import VelocityLimitCode as Code

WRONG_PRIM = (
    "Verify physxJoint:maxJointVelocity is authored on the joint prim that carries PhysxJointAPI, in degrees per "
    "second for revolute joints and metres per second for prismatic joints; PhysX caps revolute and prismatic "
    "articulation joints only (not spherical or fixed joints)."
)
ARTICULATION = (
    "PhysX enforces maxJointVelocity only on articulation joints: put this joint in an articulation (apply "
    "UsdPhysics.ArticulationRootAPI to the robot root and do not set physics:excludeFromArticulation on it)."
)
NEWTON_ONLY = (
    "newton:velocityLimit is read by Newton only: author physxJoint:maxJointVelocity (deg/s for revolute joints) "
    "so PhysX caps the joint too."
)
UNPARSED = (
    "The physics runtime ignores {source}: PhysX 5.12 / ovphysx 0.7 no longer parses PhysxJointAPI (Isaac Sim 5.x "
    "still does). Author the per-axis spelling `physxJointAxis:{axis}:maxJointVelocity` ({unit}) with "
    "PhysxJointAxisAPI:{axis} applied; it is honoured by both."
)
RETUNE = (
    "If the cap is enforced but single-frame spikes exceed it, soften the drive (lower stiffness, raise damping, "
    "lower maxForce); raising tolerance_percent is a last resort."
)
AUTHOR_LIMIT = (
    "If velocity limiting is required, author physxJoint:maxJointVelocity (deg/s for revolute, m/s for prismatic "
    "joints) on each joint that must be speed-limited, e.g. `float physxJoint:maxJointVelocity = 180` with "
    "PhysxJointAPI applied."
)
EXERCISE = (
    "Velocity limit not exercised: the drive never pushed the joint to its cap, so the cap was not verified. A drive "
    "that can reach the cap within the joint's range (more driveStiffness or driveMaxForce) exercises it; a cap far "
    "above what the actuator can do is not a velocity limit PhysX ever has to enforce."
)
EXPLODED = "Check link masses and inertias, drive stiffness, and that the joint limits are plausible."


def unparsed(row) -> str:
    """The per-axis spelling the runtime does parse, for this joint's axis."""
    angular = row.limits.get("unit") == "rad/s"
    return UNPARSED.format(source=row.limits.get("source"), axis="angular" if angular else "linear",
                           unit="deg/s" if angular else "m/s")


HINTS = HintTable(
    {
        DrivenCode.NOTHING_TO_TEST: (ADD_DRIVE,),
        Code.NO_VELOCITY_LIMIT: (AUTHOR_LIMIT,),
        DrivenCode.EXPLODED: (EXPLODED,),
        DrivenCode.DEAD_DRIVE: (DEAD_DRIVE,),
        Code.NOT_EXERCISED: (EXERCISE,),
        Code.OVERSPEED: (WRONG_PRIM, RETUNE),
        Code.OVERSPEED_NEWTON_ONLY: (NEWTON_ONLY, WRONG_PRIM),
        Code.OVERSPEED_OUTSIDE_ARTICULATION: (ARTICULATION,),
        Code.OVERSPEED_UNPARSED_SPELLING: (unparsed,),
    },
    suppressed_by={Code.NOT_EXERCISED: {DrivenCode.DEAD_DRIVE}},
)
