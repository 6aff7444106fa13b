"""state_accuracy's own codes (the family's are in driven/codes.py)."""

from ....core.codes import VerdictCode


class StateAccuracyCode(VerdictCode):
    OFF_TARGET = "OFF_TARGET"  # a row: a waypoint ended farther from its target than the tolerance
