"""ground_drop's fix hints, by code."""

from ....core.hints import HintTable
from .codes import GroundDropCode as Code

NEVER_TOUCHED = (
    "Apply UsdPhysics.RigidBodyAPI to the root prim and ensure at least one mesh has UsdPhysics.CollisionAPI. "
    "Remove any FixedJoint that anchors the asset to the world. Check that mass is a positive non-zero value "
    "and that the body is not kinematic (physics:kinematicEnabled), because a kinematic body does not fall."
)
PENETRATED = (
    "Change the collision mesh approximation to convex hull (physics:approximation = \"convexHull\"). Verify that all "
    "collision mesh normals point outward. Remove or thicken any geometry thinner than 1 cm. Review the test video "
    "to see where the penetration occurs."
)
NOT_AT_REST = (
    "Set the mass to a value proportional to the real-world equivalent. Verify that the center of mass is inside "
    "the collision mesh boundary. If the base geometry is rounded, consider flattening the base collision mesh so the "
    "asset finds a stable resting position. Check for overlapping collision meshes. If the asset jitters, simplify the "
    "collision mesh to convex hull to reduce solver instability."
)
DIVERGED = (
    "The simulation produced NaN or exploded: check for self-penetrating geometry, zero-volume colliders, overlapping "
    "rigid bodies, and NaN or extreme values in mass and diagonal inertia."
)
SCENERY = (
    "Remove world geometry (floors, platforms: colliders on no rigid body) from the asset; a SimReady asset "
    "carries only its own parts."
)
NO_RIGID_BODY = "Apply UsdPhysics.RigidBodyAPI to the asset's root prim (or to each moving part)."
NO_COLLIDER = "Apply UsdPhysics.CollisionAPI to at least one mesh or gprim under the rigid body."
COLLISIONS_DISABLED = (
    "Set physics:collisionEnabled = true (or remove the attribute) on the asset's collision shapes: with every "
    "collider disabled nothing touches the floor."
)

KINEMATIC = (
    "Set physics:kinematicEnabled = false on the named bodies (a kinematic body is moved by animation, not by "
    "physics: it hangs where it is while the rest falls), or, if the part is meant to stay put, weld it to the world "
    "with a FixedJoint so the asset is judged as anchored."
)

DOES_NOT_FALL = (
    "On each named part: remove physxRigidBody:disableGravity (gravity does not act on it, so it floats where it is "
    "released), or set physics:rigidBodyEnabled = true (the runtime builds a disabled body static). A part that must "
    "stay put is scenery: remove its RigidBodyAPI, or weld it to the world with a FixedJoint so the asset is judged as "
    "anchored."
)

HINTS = HintTable({
    Code.KINEMATIC_BODY: (KINEMATIC,),
    Code.DOES_NOT_FALL: (DOES_NOT_FALL,),
    Code.NEVER_TOUCHED: (NEVER_TOUCHED,),
    Code.HELD_UP_BY_SCENERY: (NEVER_TOUCHED, SCENERY),
    Code.PENETRATED: (PENETRATED,),
    Code.COLLISIONS_DISABLED: (COLLISIONS_DISABLED,),
    Code.NOT_AT_REST: (NOT_AT_REST,),
    Code.DIVERGED: (DIVERGED,),
    Code.NO_RIGID_BODY: (NO_RIGID_BODY,),
    Code.NO_COLLIDER: (NO_COLLIDER,),
})
