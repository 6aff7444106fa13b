"""The gripper tests' fix hints, by code; `site_command` is the one command of ours that adds a site."""

import shlex
from pathlib import Path

from ....core.hints import HintTable
from .codes import GripperCode as Code


def site_command(asset_path: str, at: str | None = None) -> str:
    """`simready-physics gripper-site` for this asset: a site layer beside the working folder, never the asset's."""
    out = f"{Path(asset_path).stem.replace(' ', '_')}.site.usda"
    parts = ["simready-physics", "gripper-site", shlex.quote(asset_path), "--out", shlex.quote(out)]
    if at:
        parts += ["--at", shlex.quote(at)]
    return " ".join(parts)


def add_site(asset_path: str, at: str | None = None) -> str:
    """The hint wherever a gripper test finds no site: the command that writes one, and what it derives."""
    return (f"Give the gripper a FET028 site in a layer of its own: `{site_command(asset_path, at)}` (add --payload with "
            "the rated payload in kg; without it the tests use NVIDIA's 50 kg per metre of opening and warn). It derives "
            "what is not given (centre, forward axis, grip line, opening) from the jaws' joints and colliders, prints it, "
            "and names the layer to validate (docs/cli.md, gripper-site).")

def add_drives(asset_path: str) -> str:
    """The hint where nothing closes the gripper: the command that gives the jaws first drives and proves them."""
    return (f"Give the jaw joint(s) a UsdPhysics.DriveAPI with stiffness > 0 and a driveMaxForce (a mimic follower needs "
            f"none: it follows its leader): `simready-physics fix {shlex.quote(asset_path)} --add-drives` proposes first "
            "drives (their maxForce the rated effort a converter carried, e.g. an MJCF actuator's forcerange) and re-runs "
            "every test with them, these included.")


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
OPEN = ("The jaw did not reach its open (lower) limit in the time the test gives it: give it a drive that beats the "
        "joint's friction (raise driveMaxForce and driveStiffness), keep the fingers' colliders from holding each other "
        "(filter the pair), and keep its limits where the fingers can go.")
REVERSED = ("The jaw's limits run the reverse of FET028's convention (lower = open, upper = closed). Negate the jaw's "
            "axis: turn both joint frames (physics:localRot0 and localRot1) half a turn about an axis across the joint "
            "axis, author physics:lowerLimit = -upper and physics:upperLimit = -lower, negate the drive's targetPosition "
            "and the offsets of the mimic joints that follow it; nothing moves. `simready-physics fix` writes that layer "
            "and proves it by the re-run (the command is printed below the verdict).")
UNLIFTED = ("The gripper rose without the object: the jaws closed on it without a grip that holds its weight, raise "
            "each jaw's driveMaxForce (the squeeze) and driveStiffness, give the pads a physics material of friction 1-2, "
            "and check that the pads, not another part of the gripper, touch it (the grip line and maxOpening as the "
            "pads are).")
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
    Code.JAW_REVERSED: (REVERSED,),
    Code.OPEN_NOT_REACHED: (OPEN,),
    Code.CLOSED_ON_NOTHING: (NOTHING,),
    Code.OBJECT_PUSHED_AWAY: (PUSHED,),
    Code.NOT_LIFTED: (UNLIFTED,),
    Code.DROPPED: (WEAK,),
    Code.SLIPPED: (WEAK,),
    Code.NOT_RELEASED: (RELEASE,),
})
