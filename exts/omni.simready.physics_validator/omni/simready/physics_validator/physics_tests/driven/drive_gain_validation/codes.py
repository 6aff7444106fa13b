"""drive_gain_validation's own codes (the family's are in driven/codes.py)."""

from ....core.codes import VerdictCode


class DriveGainValidationCode(VerdictCode):
    OVERSHOOT = "OVERSHOOT"  # a row: overshoot above max_overshoot_pct
    NOT_SETTLED = "NOT_SETTLED"  # a row: not in the settling band from max_settling_seconds on, through the tail
    OSCILLATION = "OSCILLATION"  # a row: more velocity sign changes than max_oscillations
