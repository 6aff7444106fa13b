"""joint_movement's verdict codes."""

from ....core.codes import VerdictCode


class JointMovementCode(VerdictCode):
    OK = "OK"  # PASS (a verdict or a joint row)
    NO_MOVABLE_JOINT = "NO_MOVABLE_JOINT"  # NOT_APPLICABLE: no enabled revolute or prismatic joint
    NOTHING_TO_MOVE = "NOTHING_TO_MOVE"  # SKIP: every movable joint is excluded (mimic follower, loop, not simulated ...)
    JOINTS_FAILED = "JOINTS_FAILED"  # FAIL: at least one joint did not move enough
    STUCK = "STUCK"  # a row: the joint's bodies moved less than a tenth of what it needed to
    SHORT_TRAVEL = "SHORT_TRAVEL"  # a row: moved, but less than min_travel_fraction of its expected travel
    EXPLODED = "EXPLODED"  # a row: NaN poses or the bounding box grew past bbox_explode_ratio
