"""The gripper tests' fix hints, by code."""

from ....core.hints import HintTable
from .codes import GripperCode as Code

SITE_TEMPLATE = (
    "Author a gripper site (FET028, GR.001-004) under the gripper's base link: an Xform with "
    "simready:attactment:socketType = \"Gripper\" (NVIDIA's spelling) or IsaacSiteAPI, at the grasp centre between the "
    "pads; child BasisCurves gripper_forward_axis (two points along the approach) and gripper_grip_line (pad to pad, "
    "fully open); custom float gripper_maxOpening (m) and, optionally, gripper_maxPayload (kg)."
)
INCOMPLETE = "Complete the gripper site as the reason says: " + SITE_TEMPLATE
NO_JAW = ("Give the jaw joint(s) a UsdPhysics.DriveAPI with stiffness > 0 and a driveMaxForce (a mimic follower needs "
          "none: it follows its leader); `simready-physics fix --add-drives` proposes first values.")
TOPOLOGY = "Hands with more than two independently driven fingers are not exercised by this test."
OPEN = ("The jaws did not open as far as their lower limit (the FET028 convention: lower = open, upper = closed): check "
        "the limits' order and that the drive can move the jaw against its friction.")
NARROW = ("Opened, the pads leave less room than the gripper site's maxOpening says: make gripper_maxOpening the real "
          "opening (m), or the lower limit the open end (FET028: lower = open).")
NOTHING = ("The jaws closed to their limit without touching the object: the grip line or maxOpening does not match the "
           "pads, or the pads carry no collider (UsdPhysics.CollisionAPI on the pad meshes).")
PUSHED = ("Closing pushed the object out of the jaws: the two jaws must close together (a mimic coupling or equal "
          "drives), and a drive much stiffer than it is damped slams the object away: raise driveDamping.")
WEAK = ("The grip does not hold the payload: raise each jaw's driveMaxForce (the squeeze) and driveStiffness (the "
        "force it builds short of its target), and give the pad colliders a physics material with friction of 1 or "
        "more (rubber pads: 1-2); a rated gripper_maxPayload above what the jaws hold fails here, author the real one.")
RELEASE = ("Opened again, the jaws did not let the object go: check that the open (lower) limit is reachable and that "
           "nothing but the pads touches the object.")

HINTS = HintTable({
    Code.NO_GRIPPER_SITE: (SITE_TEMPLATE,),
    Code.INCOMPLETE_SITE: (INCOMPLETE,),
    Code.NO_JAW_DRIVE: (NO_JAW,),
    Code.UNSUPPORTED_TOPOLOGY: (TOPOLOGY,),
    Code.OPEN_NOT_REACHED: (OPEN,),
    Code.CLOSED_ON_NOTHING: (NOTHING,),
    Code.OBJECT_PUSHED_AWAY: (PUSHED,),
    Code.DROPPED: (WEAK,),
    Code.SLIPPED: (WEAK,),
    Code.NOT_RELEASED: (RELEASE,),
})
