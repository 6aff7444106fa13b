"""joint_movement's fix hints, by code."""

from ....core.hints import HintTable
from .codes import JointMovementCode as Code

STUCK = (
    "The joint cannot move its bodies: check its limits (physics:lowerLimit < physics:upperLimit; a joint meant to be "
    "rigid should be a FixedJoint), that nothing of the asset blocks the moving part (colliders overlapping or in its "
    "path), that the child body has UsdPhysics.RigidBodyAPI and is not kinematic, and that the joint's axis is the "
    "hinge or slide the geometry implies."
)
SHORT = (
    "The joint moved but stopped short of its open end: look for a collider in the moving part's path (a handle, a "
    "frame, a neighbouring part) or limits narrower than the real mechanism."
)
NO_MOVABLE = "Nothing to fix for a rigid asset; an articulated asset needs revolute or prismatic joints between its parts."
EXPLODED = "Check link masses and inertias, overlapping colliders between jointed parts, and joint frames that disagree."

HINTS = HintTable({
    Code.STUCK: (STUCK,),
    Code.SHORT_TRAVEL: (SHORT,),
    Code.NO_MOVABLE_JOINT: (NO_MOVABLE,),
    Code.EXPLODED: (EXPLODED,),
}, exclusive=frozenset({Code.EXPLODED}))
