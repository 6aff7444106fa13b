"""effort_limit's fix hints, by code."""

from ....core.hints import HintTable
from ..codes import DrivenCode
from ..hints import ADD_DRIVE, DEAD_DRIVE
from .codes import EffortLimitCode as Code

MAX_FORCE = (
    "Joint breaks under the external force: raise driveMaxForce on the failing joint's UsdPhysics.DriveAPI to the "
    "real robot's rated torque, and check driveStiffness and driveDamping resist loads on top of gravity."
)
MASS = (
    "Check that link mass and inertia values are physically plausible: unrealistically low masses make a 10 N load "
    "break joints (and destabilise the solver) even with correct drives."
)
LOAD = (
    "If the asset is not meant to hold external loads (e.g. a kinematic articulation), lower "
    "force_magnitude_newtons to its expected operating load."
)
GAVE_WAY = (
    "The drive gives way under the load: raise driveMaxForce on the joint's UsdPhysics.DriveAPI to the real "
    "actuator's rated torque (it must exceed the load's torque about the axis, shown in the reason) and raise "
    "driveStiffness so the held pose deflects less than 10 % of the joint's range."
)
SAG = (
    "The drive cannot hold its pose against gravity alone: raise driveStiffness and driveMaxForce so that the "
    "gravity torque of the links it carries is a small fraction of what the drive can deliver."
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
EXPLODE = "The simulation exploded under load: check link masses and inertias and that the drive gains are not extreme."

HINTS = HintTable(
    {
        DrivenCode.NOTHING_TO_TEST: (ADD_DRIVE,),
        Code.SAGGED: (SAG,),
        DrivenCode.EXPLODED: (EXPLODE,),
        DrivenCode.DEAD_DRIVE: (DEAD_DRIVE, LOAD),
        Code.GAVE_WAY: (GAVE_WAY, LOAD),
        Code.BEYOND_LIMITS: (MAX_FORCE, MASS, LOAD),
        Code.HELD_BY_OTHER: (HELD,),
        Code.NO_LEVER_ARM: (NO_LEVER_ARM,),
    },
    # a dead drive (it did not pull back once the load was released) is why it gave way
    suppressed_by={Code.GAVE_WAY: {DrivenCode.DEAD_DRIVE}, Code.BEYOND_LIMITS: {DrivenCode.DEAD_DRIVE}},
)
