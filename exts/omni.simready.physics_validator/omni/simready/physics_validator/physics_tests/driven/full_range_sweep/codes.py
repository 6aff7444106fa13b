"""full_range_sweep's own codes (the family's are in driven/codes.py)."""

from ....core.codes import VerdictCode


class FullRangeSweepCode(VerdictCode):
    ENDPOINT_NOT_HELD = "ENDPOINT_NOT_HELD"  # a row: off an endpoint by more than the rest tolerance for most of the hold
    NOT_RETURNED = "NOT_RETURNED"  # a row: ended farther from zero (its home) than the zero-return tolerance
