"""What the Omni PhysX runtime parses for each readback property, its defaults: the runtime description the physx
engine (ovphysx) and the kit engine (omni.physx in Isaac Sim) give core/readback.py beside their reads.

From ovphysx's population contract (docs/population/PhysicsDriveAPI.md, PhysxJointAxisAPI.md, PhysicsRevoluteJoint.md)
and the `physx.target` semantics (engines/physx/legacy.py): Isaac Sim 5.x (omni.physx 107.x) parses the legacy
PhysxJointAPI; ovphysx 0.7 does not, and the physx engine carries the legacy values over under `isaacsim-5`.
Pure data.
"""

from __future__ import annotations

import math

READS = {  # physx.target=latest: what ovphysx 0.7 parses for each property, first wins (docs/population/*.md)
    "stiffness": ("drive:{inst}:physics:stiffness",), "damping": ("drive:{inst}:physics:damping",),
    "max_force": ("drive:{inst}:physics:maxForce",),
    "max_velocity": ("physxJointAxis:{inst}:maxJointVelocity", "newton:velocityLimit"),
    "armature": ("physxJointAxis:{inst}:armature", "newton:armature"),
    "static_friction": ("physxJointAxis:{inst}:staticFrictionEffort", "newton:friction"),
    "dynamic_friction": ("physxJointAxis:{inst}:dynamicFrictionEffort", "newton:friction"),
    "viscous_friction": ("physxJointAxis:{inst}:viscousFrictionCoefficient", "newton:damping"),
    "lower": ("physics:lowerLimit",), "upper": ("physics:upperLimit",),
}
# physx.target=isaacsim-5: the legacy PhysxJointAPI values are carried to the per-axis spelling where none is authored
READS_ISAACSIM5 = {**READS,
                   "max_velocity": ("physxJointAxis:{inst}:maxJointVelocity", "physxJoint:maxJointVelocity",
                                    "newton:velocityLimit"),
                   "armature": ("physxJointAxis:{inst}:armature", "physxJoint:armature", "newton:armature")}
OWN = ("physics:", "drive:", "physxJointAxis:", "physxJoint:", "physx")
DEFAULTS = {"stiffness": (0.0,), "damping": (0.0,), "max_force": (math.inf, 0.0), "max_velocity": (math.inf,),
            "armature": (0.0,), "static_friction": (0.0,), "dynamic_friction": (0.0,), "viscous_friction": (0.0,),
            "lower": (-math.inf,), "upper": (math.inf,)}
# PhysX's default material (omni.physx: static and dynamic friction 0.5, restitution 0)
BODY_DEFAULTS = {"static_friction": (0.5,), "dynamic_friction": (0.5,), "restitution": (0.0,)}


def runtime_description(target: str) -> dict:
    """The RuntimeValues fields that do not come from a read: which attributes the runtime parses, whose schema
    is its own, its defaults, and the target it is read under."""
    return {"reads": READS_ISAACSIM5 if target == "isaacsim-5" else READS, "own": OWN,
            "defaults": dict(DEFAULTS), "body_defaults": dict(BODY_DEFAULTS), "settings": {"physx.target": target}}
