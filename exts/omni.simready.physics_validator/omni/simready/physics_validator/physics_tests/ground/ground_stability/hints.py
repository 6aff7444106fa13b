"""ground_stability's fix hints, by code."""

from ....core.hints import HintTable
from .codes import GroundStabilityCode as Code

NOT_AT_REST = (
    "Set the mass proportional to the real object's. Keep the centre of mass inside the collision shapes. Flatten a "
    "rounded base so the asset has a face to rest on. Remove colliders that overlap each other. If it jitters, simplify "
    "the collision mesh to a convex hull. Watch the video: the reason names the part that moved or turned."
)
TILTED_NOT_AT_REST = (
    "Released tilted it kept moving: a rounded base rocks on (flatten it, or give the collision shape a flat face to "
    "rest on), a centre of mass high above a small base keeps it tipping, and an inertia far above its shape's turns it "
    "too slowly to settle (remove physics:diagonalInertia so the runtime computes it from the colliders and the mass)."
)
COM_OUTSIDE_BODY = (
    "Author physics:centerOfMass inside the body's collision shapes (it is in the body's own frame and the stage's "
    "units), or remove it so the runtime computes it from the colliders."
)
INERTIA_TOO_SMALL = (
    "Remove physics:diagonalInertia (and physics:principalAxes) so the runtime computes the inertia from the colliders "
    "and the mass, or author what the shape gives at its mass (a solid box of sides a, b, c: m (b² + c²) / 12 about "
    "the a axis)."
)
INERTIA_TOO_LARGE = (
    "The inertia looks like a placeholder (a URDF's 1 kg m²): remove physics:diagonalInertia (and physics:principalAxes) "
    "so the runtime computes it from the colliders and the mass, or author what the shape gives at its mass."
)
DIVERGED = (
    "The simulation produced NaN or exploded: check for self-penetrating geometry, zero-volume colliders, overlapping "
    "rigid bodies, and NaN or extreme values in mass and diagonal inertia."
)
KINEMATIC = (
    "Set physics:kinematicEnabled = false on the named bodies (a kinematic body is moved by animation, not physics: its "
    "rest proves nothing), or weld a part meant to stay put to the world with a FixedJoint."
)
DOES_NOT_FALL = (
    "On each named part remove physxRigidBody:disableGravity, or set physics:rigidBodyEnabled = true; scenery has no "
    "RigidBodyAPI, or is welded to the world."
)
NO_RIGID_BODY = "Apply UsdPhysics.RigidBodyAPI to the asset's root prim (or to each moving part)."
NO_COLLIDER = "Apply UsdPhysics.CollisionAPI to at least one mesh or gprim under the rigid body."

HINTS = HintTable({
    Code.NOT_AT_REST: (NOT_AT_REST,),
    Code.TILTED_NOT_AT_REST: (TILTED_NOT_AT_REST,),
    Code.COM_OUTSIDE_BODY: (COM_OUTSIDE_BODY,),
    Code.INERTIA_TOO_SMALL: (INERTIA_TOO_SMALL,),
    Code.INERTIA_TOO_LARGE: (INERTIA_TOO_LARGE,),
    Code.DIVERGED: (DIVERGED,),
    Code.KINEMATIC_BODY: (KINEMATIC,),
    Code.DOES_NOT_FALL: (DOES_NOT_FALL,),
    Code.NO_RIGID_BODY: (NO_RIGID_BODY,),
    Code.NO_COLLIDER: (NO_COLLIDER,),
})
