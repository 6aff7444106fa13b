"""slope_drop's fix hints, by code."""

from ....core.hints import HintTable
from .codes import SlopeDropCode as Code

NO_CONTACT = (
    "Apply UsdPhysics.RigidBodyAPI to the asset's root prim and UsdPhysics.CollisionAPI to its meshes; remove any "
    "FixedJoint that anchors it to the world; a kinematic body (physics:kinematicEnabled) does not fall; a floor or "
    "platform of its own (a static collider under the asset's prim) catches it before the ramp: remove it."
)
SANK = (
    "The collision geometry went into the ramp: use a convex-hull approximation (physics:approximation = \"convexHull\"), "
    "make sure physics:collisionEnabled is not false, and thicken geometry thinner than 1 cm."
)
LAUNCHED = (
    "The asset jumped off the ramp: look for overlapping colliders of its own parts, a restitution above 0 on its "
    "physics material, or extreme masses and inertias."
)
NO_SLIDE = (
    "The asset stayed on a 45 degree slope whose friction is 0.5: its own physics material's friction (combined with the "
    "ramp's) holds it. Lower staticFriction / dynamicFriction on its UsdPhysics.MaterialAPI, or check the combine mode "
    "(physxMaterial:frictionCombineMode = \"max\" lets a sticky asset win)."
)
FLOOR = "The asset went through the floor after the slope: use convex-hull colliders and avoid thin geometry at its base."
DIVERGED = "The simulation produced NaN or exploded: check for overlapping colliders, zero-volume shapes, and extreme masses."
NO_RIGID_BODY = "Apply UsdPhysics.RigidBodyAPI to the asset's root prim (or to each moving part)."
NO_COLLIDER = "Apply UsdPhysics.CollisionAPI to at least one mesh or gprim under the rigid body."

HINTS = HintTable({
    Code.NO_CONTACT: (NO_CONTACT,),
    Code.SANK_INTO_RAMP: (SANK,),
    Code.LAUNCHED: (LAUNCHED,),
    Code.NO_SLIDE: (NO_SLIDE,),
    Code.PENETRATED_FLOOR: (FLOOR,),
    Code.DIVERGED: (DIVERGED,),
    Code.NO_RIGID_BODY: (NO_RIGID_BODY,),
    Code.NO_COLLIDER: (NO_COLLIDER,),
})
