"""grasp_and_lift's fix hints, by code."""

from ....core.hints import HintTable
from .codes import GraspCode as Code

NO_LINES = ("Author grasp lines (GSP.001): a BasisCurves prim named grasp_identifier_<n> under the rigid body, its two "
            "points where a parallel jaw's pads meet the surface.")
NO_BODY = "Apply UsdPhysics.RigidBodyAPI (and CollisionAPI on its meshes) to the prop."
FAILED = (
    "No grasp line held: the rows say why per line. A body that slides out of a real gripper's squeeze (the reason "
    "gives it, capped at a real gripper's rating) is too heavy for a hand-held prop, or its surface too slippery: check "
    "physics:mass (a unit error makes a mug 300 kg), its physics material's friction (0.5 or more for plastic, wood, "
    "metal) and that the collider covers the grasp line."
)
NOT_REACHED = "The grasp line lies where the jaw cannot get to it: check the grasp_identifier's points are on the prop."
PADS_MET = "The pads met: no collider at the grasp line. Extend the collision approximation over the grasped region."
WEAK = ("The body slid out of the jaws: its authored mass, its friction, or a collider that does not follow its visual "
        "surface at the grasp line.")
RELEASE = "Opened, the jaws did not let the body fall: something else holds it (a joint to the world, another body)."

HINTS = HintTable({
    Code.NO_GRASP_LINES: (NO_LINES,),
    Code.NO_RIGID_BODY: (NO_BODY,),
    Code.ALL_LINES_FAILED: (FAILED,),
    Code.NOT_REACHED: (NOT_REACHED,),
    Code.PADS_MET: (PADS_MET,),
    Code.NOT_LIFTED: (WEAK,),
    Code.DROPPED: (WEAK,),
    Code.SLIPPED: (WEAK,),
    Code.NOT_RELEASED: (RELEASE,),
})
