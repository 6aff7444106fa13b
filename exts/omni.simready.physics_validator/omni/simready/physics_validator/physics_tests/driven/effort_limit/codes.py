"""effort_limit's own codes (the family's are in driven/codes.py)."""

from ....core.codes import VerdictCode


class EffortLimitCode(VerdictCode):
    SAGGED = "SAGGED"  # a row: gave way under gravity alone, before any load
    GAVE_WAY = "GAVE_WAY"  # a row: a driven joint deflected from its held pose by more than its tolerance
    BEYOND_LIMITS = "BEYOND_LIMITS"  # a row: a joint pushed beyond its authored limits by more than the tolerance
    HELD_BY_OTHER = "HELD_BY_OTHER"  # SKIP (row or verdict): something other than the drive held the load
    NOT_LOADED = "NOT_LOADED"  # SKIP row: the test stopped at an earlier failing joint
    NO_LOAD_POINT = "NO_LOAD_POINT"  # SKIP row: the joint has no moving body to load
    NO_LEVER_ARM = "NO_LEVER_ARM"  # SKIP row: no collider point of the bodies it moves lies off its axis
    NO_DRIVE_EXERCISED = "NO_DRIVE_EXERCISED"  # SKIP verdict: no joint's drive was loaded
