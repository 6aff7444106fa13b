"""drive_gain_validation's fix hints, by code: what `simready-physics fix` changes for the same finding."""

from ....core.hints import HintTable
from ..codes import DrivenCode
from ..hints import DEAD_DRIVE, EXPLODED, add_drives, drive_snippet
from .codes import DriveGainValidationCode as Code

OVERSHOOT = (
    "Overshoot: the drive is under-damped. Raise driveDamping toward critical, 2 sqrt(driveStiffness x the joint's "
    "inertia) (`simready-physics fix` proposes that value); do not lower stiffness to compensate, that slows settling."
)
SETTLE = (
    "Not settled: the drive does not close the error within the window. Raise driveStiffness (natural frequency "
    "sqrt(stiffness / inertia)) with driveDamping near critical, and keep driveMaxForce at or above the torque the "
    "step needs within the actuator's rating; a maxForce cap below it leaves the error open."
)
OSCILLATE = (
    "Oscillation: the drive rings. Raise driveDamping toward critical, 2 sqrt(driveStiffness x the joint's inertia), "
    "as `simready-physics fix` proposes."
)

HINTS = HintTable(
    {
        DrivenCode.NOTHING_TO_TEST: (add_drives, drive_snippet),
        DrivenCode.EXPLODED: (EXPLODED,),
        DrivenCode.DEAD_DRIVE: (DEAD_DRIVE,),
        Code.OVERSHOOT: (OVERSHOOT,),
        Code.NOT_SETTLED: (SETTLE,),
        Code.OSCILLATION: (OSCILLATE,),
    },
    suppressed_by={Code.NOT_SETTLED: {DrivenCode.DEAD_DRIVE}},  # a dead drive explains it
)
