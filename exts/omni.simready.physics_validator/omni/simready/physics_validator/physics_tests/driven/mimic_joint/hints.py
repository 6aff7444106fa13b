"""mimic_joint's fix hints, by code."""

from ....core.hints import HintTable
from ..codes import DrivenCode
from ..hints import DEAD_DRIVE
from .codes import MimicJointCode as Code

NO_MIMIC = ("Nothing to fix if the asset has no coupled joints. Otherwise apply PhysxMimicJointAPI:<axis> (with "
            "physxMimicJoint:<axis>:referenceJoint and :gearing) or NewtonMimicAPI (newton:mimicJoint, newton:mimicCoef1) "
            "to each follower joint.")
SIGN = ("The follower moves against the coupling: PhysX's PhysxMimicJointAPI constrains follower + gearing x reference "
        "+ offset = 0, so a follower moving WITH its reference needs a NEGATIVE gearing (NewtonMimicAPI: follower = coef0 + "
        "coef1 x reference, the opposite sign). Check physxMimicJoint:<axis>:gearing against the two joints' limits.")
RATIO = ("Set physxMimicJoint:<axis>:gearing (or newton:mimicCoef1) to the real linkage ratio: the follower's travel "
         "divided by the reference's, with PhysX's sign convention; the follower's limits must hold the reference's whole "
         "range times that ratio.")
OFFSET = ("Set physxMimicJoint:<axis>:offset (degrees for a revolute follower; NewtonMimicAPI: newton:mimicCoef0) so the "
          "follower sits where the linkage puts it when the reference is at 0; PhysX holds the absolute relation, not "
          "just the motion.")
LIMITS = ("Make the coupling and the limits agree: over the reference's [lowerLimit, upperLimit] the authored relation "
          "must keep the follower inside its own limits (SimReady DJ.007). A follower pinned at a limit means the gearing's "
          "sign, its ratio, or the offset is wrong for these limits.")
NOT_FOLLOWING = ("The follower did not move with its reference: check that the mimic schema is applied to the follower "
                 "(PhysxMimicJointAPI:<axis> with a referenceJoint relationship, or NewtonMimicAPI with newton:mimicJoint), "
                 "that both joints belong to one articulation, and that the follower carries no drive of its own "
                 "fighting the coupling.")
REJECTED = ("The runtime does not build this coupling, so the follower moves on its own: point the referenceJoint "
            "(physxMimicJoint:<axis>:referenceJoint, or newton:mimicJoint) at a revolute or prismatic joint of the "
            "follower's own articulation (the reason names what it points at), or remove the mimic schema if the joint "
            "is meant to move freely.")
FIXED_FOLLOWER = ("This follower is a {type} joint: it has no degree of freedom, so no reference or drive can couple it "
                  "(a URDF <mimic> on a fixed joint arrives like this). If the part is meant to stay fixed, remove {schema} "
                  "from the joint; if the mechanism moves there, make it the revolute or prismatic joint it is, with its "
                  "limits (in the source, then convert again), and keep the coupling.")
DOF_TYPES = ("revolute", "prismatic")


def rejected(row: object) -> str:
    """What applies to a coupling the runtime does not build: on a joint with no degree of freedom repointing the
    reference changes nothing (the TALOS gripper's followers are fixed joints in its URDF)."""
    limits = getattr(row, "limits", {}) or {}
    kind = str(limits.get("follower_type", "") or "")
    if kind and kind not in DOF_TYPES:
        schema = str(limits.get("schema", "") or "the mimic schema")
        return FIXED_FOLLOWER.format(type=kind, schema=schema)
    return REJECTED

EXPLODED = ("Check link masses and inertias, and the mimic's naturalFrequency / dampingRatio (a stiff, undamped coupling "
            "can diverge).")

HINTS = HintTable(
    {
        Code.NO_MIMIC: (NO_MIMIC,),
        DrivenCode.EXPLODED: (EXPLODED,),
        DrivenCode.DEAD_DRIVE: (DEAD_DRIVE,),
        Code.NOT_FOLLOWING: (NOT_FOLLOWING,),
        Code.WRONG_DIRECTION: (SIGN,),
        Code.GEAR_MISMATCH: (RATIO,),
        Code.OFFSET_MISMATCH: (OFFSET,),
        Code.LIMITS_INCOMPATIBLE: (LIMITS,),
        Code.COUPLING_REJECTED: (rejected,),
    },
    suppressed_by={Code.GEAR_MISMATCH: {Code.WRONG_DIRECTION, Code.NOT_FOLLOWING},
                   Code.OFFSET_MISMATCH: {Code.WRONG_DIRECTION, Code.NOT_FOLLOWING, Code.LIMITS_INCOMPATIBLE}},
)
