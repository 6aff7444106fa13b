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
    "Name the end effector: author isaac:physics:robotLinks (base to tip, the tip last) on the robot prim, or add a tool "
    "frame Xform (tool0, flange, tcp or ee_link) under the last link."
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
    Code.CHAIN_NOT_DRIVEN: (CHAIN,),
    DrivenCode.EXPLODED: (EXPLODED,),
    DrivenCode.NOTHING_TO_TEST: (ADD_DRIVE,),
})
