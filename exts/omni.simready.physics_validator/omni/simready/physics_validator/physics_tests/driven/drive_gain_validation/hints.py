"""drive_gain_validation's fix hints, by code."""

from ....core.hints import HintTable
from ..codes import DrivenCode
from ..hints import ADD_DRIVE, DEAD_DRIVE
from .codes import DriveGainValidationCode as Code

OVERSHOOT = (
    "Overshoot: raise driveDamping on the joint's UsdPhysics.DriveAPI (damping resists velocity and lowers the "
    "peak); do not lower stiffness to compensate, that slows settling."
)
SETTLE = (
    "Not settled: raise driveStiffness for a stronger restoring force and make sure driveMaxForce is high enough "
    "to deliver it; a low maxForce cap prevents the drive from closing the position error."
)
OSCILLATE = "Oscillation: raise driveDamping; sometimes a little more driveMaxForce is needed for damping to act."
EXPLODED = "Check link masses and inertias and that the drive gains are not extreme."

HINTS = HintTable(
    {
        DrivenCode.NOTHING_TO_TEST: (ADD_DRIVE,),
        DrivenCode.EXPLODED: (EXPLODED,),
        DrivenCode.DEAD_DRIVE: (DEAD_DRIVE,),
        Code.OVERSHOOT: (OVERSHOOT,),
        Code.NOT_SETTLED: (SETTLE,),
        Code.OSCILLATION: (OSCILLATE,),
    },
    suppressed_by={Code.NOT_SETTLED: {DrivenCode.DEAD_DRIVE}},  # a dead drive explains it
)
