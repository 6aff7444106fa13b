"""velocity_limit's own codes (the family's are in driven/codes.py)."""

from ....core.codes import VerdictCode


class VelocityLimitCode(VerdictCode):
    NO_VELOCITY_LIMIT = "NO_VELOCITY_LIMIT"  # SKIP: driven joints, none with a velocity limit
    NOT_EXERCISED = "NOT_EXERCISED"  # SKIP (row or verdict): the joint never reached min_exercised_ratio of its cap
    OVERSPEED = "OVERSPEED"  # FAIL row: faster than the cap allows
    OVERSPEED_OUTSIDE_ARTICULATION = "OVERSPEED_OUTSIDE_ARTICULATION"  # ... and PhysX caps articulation joints only
    OVERSPEED_UNPARSED_SPELLING = "OVERSPEED_UNPARSED_SPELLING"  # ... and the runtime does not parse the attribute
    OVERSPEED_NEWTON_ONLY = "OVERSPEED_NEWTON_ONLY"  # ... and only newton:velocityLimit is authored
    OVERSPEED_UNCAPPED_RUNTIME = "OVERSPEED_UNCAPPED_RUNTIME"  # ... and the runtime caps no joint velocity at all
    # SKIP row: a velocity drive on an engine without velocity targets
    VELOCITY_TARGETS_UNSUPPORTED = "VELOCITY_TARGETS_UNSUPPORTED"
