"""mimic_joint's own codes (the family's are in driven/codes.py)."""

from ....core.codes import VerdictCode


class MimicJointCode(VerdictCode):
    # NOT_APPLICABLE: no joint carries PhysxMimicJointAPI or NewtonMimicAPI (switched on: newton:mimicEnabled not false)
    NO_MIMIC = "NO_MIMIC"
    ENGINE_WITHOUT_MIMIC = "ENGINE_WITHOUT_MIMIC"  # SKIP: this engine does not simulate mimic couplings (sapien)
    PAIRS_FAILED = "PAIRS_FAILED"  # FAIL: at least one mimic pair's row failed
    NOT_FOLLOWING = "NOT_FOLLOWING"  # a row: the follower moved less than a tenth of what the coupling asks
    WRONG_DIRECTION = "WRONG_DIRECTION"  # a row: the follower moved against the authored coupling's sign
    # a row: measured d follower / d reference off the authored ratio by more than the tolerance
    GEAR_MISMATCH = "GEAR_MISMATCH"
    # a row: at rest the follower is off the authored relation (offset) by more than the tolerance
    OFFSET_MISMATCH = "OFFSET_MISMATCH"
    # a row: over the reference's range the coupling drives the follower outside its limits
    LIMITS_INCOMPATIBLE = "LIMITS_INCOMPATIBLE"
    # a row: the runtime does not build the authored coupling (its reference is not a joint, the two joints are not in
    # one articulation): the follower moves on its own
    COUPLING_REJECTED = "COUPLING_REJECTED"
