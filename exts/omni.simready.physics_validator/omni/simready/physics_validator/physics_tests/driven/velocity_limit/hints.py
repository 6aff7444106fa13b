"""velocity_limit's fix hints, by code."""

from ....core.hints import HintTable
from ..codes import DrivenCode
from ..hints import DEAD_DRIVE, EXPLODED, add_drives, drive_snippet
from .codes import VelocityLimitCode as Code

WRONG_PRIM = (
    "Verify the cap is authored on the joint prim as physxJointAxis:<angular|linear>:maxJointVelocity with "
    "PhysxJointAxisAPI:<axis> applied (the spelling PhysX 5.12 and Isaac Sim both parse), in degrees per second for "
    "revolute joints and metres per second for prismatic joints; PhysX caps revolute and prismatic articulation "
    "joints only (not spherical or fixed joints)."
)
ARTICULATION = (
    "PhysX enforces maxJointVelocity only on articulation joints: put this joint in an articulation (apply "
    "UsdPhysics.ArticulationRootAPI to the robot root and do not set physics:excludeFromArticulation on it)."
)
NEWTON_ONLY = (
    "newton:velocityLimit is read by Newton only: author physxJointAxis:<angular|linear>:maxJointVelocity (deg/s for "
    "revolute joints) with PhysxJointAxisAPI applied so PhysX caps the joint too (`simready-physics fix` carries it)."
)
UNPARSED = (
    "The physics runtime ignores {source}: PhysX 5.12 / ovphysx 0.7 no longer parses PhysxJointAPI (Isaac Sim 5.x "
    "still does). Author the per-axis spelling `physxJointAxis:{axis}:maxJointVelocity` ({unit}) with "
    "PhysxJointAxisAPI:{axis} applied; it is honoured by both."
)
UNCAPPED_RUNTIME = (
    "This runtime enforces no joint velocity limit in any spelling (Isaac Sim 6.2's Newton: SolverMuJoCo reads none): "
    "there only the drive and the joint's damping bound its speed. Author a passive damping that holds the saturated "
    "drive below the cap, `newton:damping` >= driveMaxForce / (0.95 x cap) with NewtonJointAPI applied (N m s/deg for "
    "revolute joints, N s/m for prismatic ones; on the 3-joint fixture arm, maxForce 500 N m, cap 120 deg/s: "
    "newton:damping 4.36 N m s/deg held the joints at 0.96 of the cap). Keep the cap authored for PhysX."
)
RETUNE = (
    "If the cap is authored where the runtime reads it and the joint still overruns it, the drive pushes harder than "
    "the solver holds the cap: check that driveMaxForce is the real actuator's rating (an unlimited maxForce drives "
    "the joint into its cap harder than any motor could). `simready-physics fix` changes neither the cap nor the "
    "rating: both are the author's choice."
)
AUTHOR_LIMIT = (
    "If velocity limiting is required, author the actuator's cap on each joint that must be speed-limited, e.g. "
    "`float physxJointAxis:angular:maxJointVelocity = 180` (deg/s; physxJointAxis:linear:... in m/s for prismatic "
    "joints) with PhysxJointAxisAPI:angular applied."
)
EXERCISE = (
    "Velocity limit not exercised: the drive never brought the joint to its cap within its range, so the cap was not "
    "verified. A stiffer drive (driveStiffness, with driveMaxForce within the actuator's rating) reaches it sooner; a "
    "cap above what the actuator can reach is one PhysX never has to enforce, which is no defect of the asset."
)


def unparsed(row) -> str:
    """The per-axis spelling the runtime does parse, for this joint's axis."""
    angular = row.limits.get("unit") == "rad/s"
    return UNPARSED.format(source=row.limits.get("source"), axis="angular" if angular else "linear",
                           unit="deg/s" if angular else "m/s")


HINTS = HintTable(
    {
        DrivenCode.NOTHING_TO_TEST: (add_drives, drive_snippet),
        Code.NO_VELOCITY_LIMIT: (AUTHOR_LIMIT,),
        DrivenCode.EXPLODED: (EXPLODED,),
        DrivenCode.DEAD_DRIVE: (DEAD_DRIVE,),
        Code.NOT_EXERCISED: (EXERCISE,),
        Code.OVERSPEED: (WRONG_PRIM, RETUNE),
        Code.OVERSPEED_NEWTON_ONLY: (NEWTON_ONLY, WRONG_PRIM),
        Code.OVERSPEED_OUTSIDE_ARTICULATION: (ARTICULATION,),
        Code.OVERSPEED_UNPARSED_SPELLING: (unparsed,),
        Code.OVERSPEED_UNCAPPED_RUNTIME: (UNCAPPED_RUNTIME,),
    },
    suppressed_by={Code.NOT_EXERCISED: {DrivenCode.DEAD_DRIVE}},
)
