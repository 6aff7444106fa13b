"""joint_movement's fix hints, by code."""

from ....core.hints import HintTable
from .codes import JointMovementCode as Code

SELF_COLLISION = (
    "An articulation's own links collide with each other in PhysX unless PhysxArticulationAPI "
    "physxArticulation:enabledSelfCollisions is false or the pair is filtered (the Panda overlay's fingers stop at 12.7 "
    "of 40 mm, and open fully with self-collisions off); authored joint friction "
    "(newton:friction, physxJointAxis:*:staticFrictionEffort) beyond what the actuator gives also holds a joint."
)
STUCK = (
    "The joint cannot move its bodies: check its limits (physics:lowerLimit < physics:upperLimit; a joint meant to be "
    "rigid should be a FixedJoint), that nothing of the asset blocks the moving part (colliders overlapping or in its "
    "path), that the child body has UsdPhysics.RigidBodyAPI and is not kinematic, and that the joint's axis is the "
    "hinge or slide the geometry implies. " +
    SELF_COLLISION
)
SHORT = (
    "The joint moved but stopped short of its open end: look for a collider in the moving part's path (a handle, a "
    "frame, a neighbouring part) or limits narrower than the real mechanism. " + SELF_COLLISION
)
NO_MOVABLE = "Nothing to fix for a rigid asset; an articulated asset needs revolute or prismatic joints between its parts."
EXPLODED = "Check link masses and inertias, overlapping colliders between jointed parts, and joint frames that disagree."

HINTS = HintTable({
    Code.STUCK: (STUCK,),
    Code.SHORT_TRAVEL: (SHORT,),
    Code.NO_MOVABLE_JOINT: (NO_MOVABLE,),
    Code.EXPLODED: (EXPLODED,),
}, exclusive=frozenset({Code.EXPLODED}))
