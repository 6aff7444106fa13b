"""full_range_sweep's fix hints, by code."""

from ....core.hints import HintTable
from ..codes import DrivenCode
from ..hints import ADD_DRIVE, DEAD_DRIVE
from .codes import FullRangeSweepCode as Code

REACH = (
    "Joint cannot reach a limit: raise driveStiffness and driveMaxForce on its UsdPhysics.DriveAPI (or its direct "
    "NewtonActuator), and check that collision geometry does not block the joint before the authored limit."
)
ZERO = ("Joint cannot return to its home position: raise driveDamping to dissipate energy, or lower "
        "sweep_speed_scale.")
HOLD = "Rest-hold failure: drive stiffness or damping is too low to hold the joint at the commanded limit."
EXPLODE = (
    "Bounding box exploded: check the articulation is rooted correctly, every body has valid mass and inertia, "
    "and the joint limits are physically possible (very stiff drives > 5e4 can also destabilise the solver)."
)

HINTS = HintTable(
    {
        DrivenCode.NOTHING_TO_TEST: (ADD_DRIVE,),
        DrivenCode.DEAD_DRIVE: (DEAD_DRIVE,),
        Code.ENDPOINT_NOT_HELD: (REACH, HOLD),
        Code.NOT_RETURNED: (ZERO,),
        DrivenCode.EXPLODED: (EXPLODE,),
    },
    suppressed_by={Code.ENDPOINT_NOT_HELD: {DrivenCode.DEAD_DRIVE}},  # a dead drive explains the missed endpoint
    exclusive=frozenset({DrivenCode.EXPLODED}),
)
