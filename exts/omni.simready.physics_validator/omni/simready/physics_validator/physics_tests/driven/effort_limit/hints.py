"""effort_limit's fix hints, by code: what `simready-physics fix` changes for the same finding (docs/fix.md)."""

from ....core.hints import HintTable
from ..codes import DrivenCode
from ..hints import DEAD_DRIVE, add_drives, drive_snippet
from .codes import EffortLimitCode as Code

GAVE_WAY = (
    "The drive gives way under the load: the held load plus the test load's torque (in the reason) over "
    "driveStiffness must stay inside the deflection allowance, so raise driveStiffness, and driveMaxForce must exceed "
    "that torque. driveMaxForce is the actuator's rating: `simready-physics fix` raises it only up to the authored "
    "value (unless --raise-max-force) and otherwise reports the torque needed against the rating."
)
SAG = (
    "The drive cannot hold its pose against gravity alone: its static error is the gravity torque over driveStiffness. "
    "Raise driveStiffness, and check driveMaxForce covers the gravity torque of the links it carries (within the "
    "actuator's rating; a rating below it means the actuator cannot hold the arm there)."
)
BEYOND = (
    "A joint was pushed past its authored limits: the drive holding it is too soft or saturates at driveMaxForce "
    "under the load; raise driveStiffness (and driveMaxForce within the actuator's rating)."
)
MASS = (
    "Check that link mass and inertia values are physically plausible: unrealistically low masses make a 10 N load "
    "break joints (and destabilise the solver) even with correct drives."
)
HELD = (
    "Something other than the drive holds this joint against a load its driveMaxForce cannot: check joint friction "
    "and viscous friction (newton:friction / newton:damping, physxJointAxis:*FrictionEffort / viscousFrictionCoefficient), "
    "a velocity limit of 0, equal lower and upper limits, and colliders blocking it; then re-run."
)
NO_LEVER_ARM = (
    "Not judged: no load can turn this joint, because no collider of the bodies it moves lies off its axis. Give its "
    "moving link (or the tool welded to it) its collision geometry, so the load has a lever arm; then re-run."
)
EXPLODE = "The simulation exploded under load: check link masses and inertias, and that the joint limits are physically possible."

HINTS = HintTable(
    {
        DrivenCode.NOTHING_TO_TEST: (add_drives, drive_snippet),
        Code.SAGGED: (SAG,),
        DrivenCode.EXPLODED: (EXPLODE,),
        DrivenCode.DEAD_DRIVE: (DEAD_DRIVE,),
        Code.GAVE_WAY: (GAVE_WAY,),
        Code.BEYOND_LIMITS: (BEYOND, MASS),
        Code.HELD_BY_OTHER: (HELD,),
        Code.NO_LEVER_ARM: (NO_LEVER_ARM,),
    },
    # a dead drive (it did not pull back once the load was released) is why it gave way
    suppressed_by={Code.GAVE_WAY: {DrivenCode.DEAD_DRIVE}, Code.BEYOND_LIMITS: {DrivenCode.DEAD_DRIVE}},
)
