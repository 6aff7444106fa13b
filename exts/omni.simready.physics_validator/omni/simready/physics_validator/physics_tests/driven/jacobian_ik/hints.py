"""jacobian_ik's fix hints, by code."""

from ....core.hints import HintTable
from ..codes import DrivenCode
from ..hints import ADD_DRIVE
from .codes import JacobianIkCode as Code

MISSED = (
    "The end effector did not reach poses its own kinematics reach at joint positions inside the authored limits: the "
    "rows name the joints that stopped short of their command. A joint stopped short while its drive is strong is held "
    "by something its limits do not say: links meeting one another (PhysX collides an articulation's links unless "
    "physxArticulation:enabledSelfCollisions is false; narrow the joint's limits to the range it can really travel, "
    "or fix the overlapping colliders) or a limit the runtime enforces but the asset does not author the same way. "
    "A joint short of its command under load needs a stiffer drive and a driveMaxForce above the gravity load."
)
BLOCKED = (
    "This joint stopped short of its command where a target was missed: narrow its lowerLimit / upperLimit to the range "
    "it really travels, remove what it runs into, or give its drive the stiffness and maxForce to carry the arm there."
)
UNREACHABLE = (
    "A pose beyond the arm's reach read as reached: the end effector's pose or the Jacobian does not follow the links "
    "the runtime moves. Check that the end-effector link (isaac:physics:robotLinks' last entry, or the chain's tip) is "
    "a rigid body of the articulation."
)
NO_END_EFFECTOR = (
    "Say which tip is the end effector: author isaac:physics:robotLinks on the robot prim, the links from the base to "
    "that tip, the tip last (the test takes its last entry), or put a site (an Xform with MjcSiteAPI, or a FET_028 "
    "gripper site) on or below that tip: a site chooses among tips equally deep."
)
OUTSIDE = (
    "Remove physics:excludeFromArticulation from the joint the reason names (it closes no loop): the runtime then builds "
    "one articulation through it, and its drive, limits and velocity cap are simulated as a robot's. Keep the attribute "
    "only on a joint that closes a loop, or on the mount of a tool that is an articulation of its own."
)
CHAIN = (
    "Every joint between the base and the end effector needs a position drive the runtime simulates (UsdPhysics.DriveAPI "
    "with stiffness > 0): " + ADD_DRIVE
)
EXPLODED = "Check link masses and inertias and that the drive gains are not extreme."

HINTS = HintTable({
    Code.TARGETS_MISSED: (MISSED,),
    Code.JOINT_BLOCKED: (BLOCKED,),
    Code.UNREACHABLE_REACHED: (UNREACHABLE,),
    Code.NO_END_EFFECTOR: (NO_END_EFFECTOR,),
    Code.CHAIN_OUTSIDE_ARTICULATION: (OUTSIDE,),
    Code.CHAIN_NOT_DRIVEN: (CHAIN,),
    DrivenCode.EXPLODED: (EXPLODED,),
    DrivenCode.NOTHING_TO_TEST: (ADD_DRIVE,),
})
