"""state_accuracy's fix hints, by code."""

from ....core.hints import HintTable
from ..codes import DrivenCode
from ..hints import ADD_DRIVE, DEAD_DRIVE
from .codes import StateAccuracyCode as Code

OFF_TARGET = (
    "Off target: raise driveStiffness on the joint's UsdPhysics.DriveAPI so the drive closes the position error, and "
    "make sure driveMaxForce can deliver the torque (heavy links far from the joint need more). If the joint swings "
    "past its waypoints, raise driveDamping."
)
LIMITS = ("Check that the joint's limits leave room for the commanded steps around its drive target "
          "(physics:lowerLimit / physics:upperLimit, degrees for revolute joints).")
EXPLODED = "Check link masses and inertias and that the drive gains are not extreme."

HINTS = HintTable(
    {
        DrivenCode.NOTHING_TO_TEST: (ADD_DRIVE,),
        DrivenCode.EXPLODED: (EXPLODED,),
        DrivenCode.DEAD_DRIVE: (DEAD_DRIVE,),
        Code.OFF_TARGET: (OFF_TARGET, LIMITS),
    },
    suppressed_by={Code.OFF_TARGET: {DrivenCode.DEAD_DRIVE}},
)
