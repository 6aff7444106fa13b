"""multi_joint_coordination's fix hints, by code."""

from ....core.hints import HintTable
from ..codes import DrivenCode
from ..hints import ADD_DRIVE, DEAD_DRIVE
from .codes import MultiJointCoordinationCode as Code

NOT_CONVERGED = (
    "Not converged: raise driveStiffness and driveMaxForce on the joint's UsdPhysics.DriveAPI so it holds its target "
    "while the other joints move and load it; check the masses of the links it carries (an underestimated mass makes "
    "tuned gains look weak). If joints oscillate together, raise driveDamping along the whole chain. A joint stopped "
    "well short while its drive is strong may be blocked by the asset's own links meeting in the commanded pose "
    "(PhysX collides an articulation's links with each other unless PhysxArticulationAPI "
    "physxArticulation:enabledSelfCollisions is false)."
)
TOO_FEW = ("Give at least two joints a UsdPhysics.DriveAPI with stiffness and finite limits (a one-joint asset has nothing "
           "to coordinate).")
EXPLODED = "Check link masses and inertias and that the drive gains are not extreme."

HINTS = HintTable(
    {
        DrivenCode.NOTHING_TO_TEST: (ADD_DRIVE,),
        Code.TOO_FEW_JOINTS: (TOO_FEW,),
        DrivenCode.EXPLODED: (EXPLODED,),
        DrivenCode.DEAD_DRIVE: (DEAD_DRIVE,),
        Code.NOT_CONVERGED: (NOT_CONVERGED,),
    },
    suppressed_by={Code.NOT_CONVERGED: {DrivenCode.DEAD_DRIVE}},
)
