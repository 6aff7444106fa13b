"""full_range_sweep's fix hints, by code: what `simready-physics fix` changes for the same finding (docs/fix.md)."""

from ....core.hints import HintTable
from ..codes import DrivenCode
from ..hints import DEAD_DRIVE, EXPLODED, STATIC_OFFSET, add_drives, drive_snippet
from .codes import FullRangeSweepCode as Code

REACH = (
    "The joint does not reach or hold the endpoint: its error there is the load it holds (gravity, friction) over "
    "driveStiffness, or the drive runs out of force. Raise driveStiffness until load / stiffness is inside the rest "
    "tolerance and keep driveMaxForce at or above the holding torque (within the actuator's rating; if the rating is "
    "lower, the actuator cannot hold that pose). A joint that stops at the same angle however stiff its drive is "
    "blocked before the limit: `simready-physics fix` probes it and names the colliding bodies."
)
ZERO = (
    "The joint ends off its home position by a static offset: the gravity (and friction) load over driveStiffness. "
    "Raise driveStiffness until load / stiffness is inside the zero-return tolerance, with driveDamping near critical "
    "(2 sqrt(stiffness x inertia)); more damping does not remove an offset. `simready-physics fix` sizes the "
    "stiffness from the measured load, within what the 240 Hz step resolves for the joint's inertia, and says when the "
    "band cannot be met there."
)

HINTS = HintTable(
    {
        DrivenCode.NOTHING_TO_TEST: (add_drives, drive_snippet),
        DrivenCode.DEAD_DRIVE: (DEAD_DRIVE,),
        Code.ENDPOINT_NOT_HELD: (REACH, STATIC_OFFSET),
        Code.NOT_RETURNED: (ZERO,),
        DrivenCode.EXPLODED: (EXPLODED,),
    },
    suppressed_by={Code.ENDPOINT_NOT_HELD: {DrivenCode.DEAD_DRIVE}},  # a dead drive explains the missed endpoint
    exclusive=frozenset({DrivenCode.EXPLODED}),
)
