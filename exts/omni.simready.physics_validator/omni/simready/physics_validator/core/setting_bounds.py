"""The largest value a setting may take, by its unit: past it a number is a slip or an attack, never a request.

Every setting is a finite number of its declared type (core.config: strict models, no inf or NaN, no "yes" for
true or "240" for 240). Times and rates also have a ceiling, since the runtime turns them into step counts and
integers: `simulation_seconds=1e308` overflowed one (OverflowError, exit 3) and `physics_fps=1e12` does not fit
PhysX's timeStepsPerSecond (an unsigned 32-bit integer). Both are usage errors now, naming the key.
"""

from __future__ import annotations

from .setting_units import unit_of

MAX_BY_UNIT = {
    "s": 1.0e6,  # 11.6 days: any duration, simulated or on the wall clock (watchdog, max_test_seconds)
    "Hz": 1.0e5,  # a 10 µs physics step; video frames per simulated second the same
}


def bounded(model_cls, field: str, value):
    """`value`, or ValueError when the setting's unit has a ceiling and `value` is above it."""
    limit = MAX_BY_UNIT.get(unit_of(model_cls, field))
    if limit is not None and isinstance(value, (int, float)) and not isinstance(value, bool) and value > limit:
        unit = unit_of(model_cls, field)
        raise ValueError(f"{value:g} {unit} is above the largest {field} this tool takes, {limit:g} {unit}")
    return value
