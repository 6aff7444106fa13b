"""Numbers for people: SI values shown with their unit, revolute angles in degrees.

Reports and verdict reasons are read by people; the JSON stays SI. Everything that turns a measured
value into text goes through `for_people`, so "0.74° > 0.57°" reads the same in a reason, the console,
the HTML report and the Kit panel. Units are SI symbols as recorded next to each value: "rad", "rad/s",
"m", "m/s", "N", "N·m", "kg", "s", "%", "" (a plain number, e.g. a ratio).
"""

from __future__ import annotations

import math

DEGREES_PER_RADIAN = 180.0 / math.pi


def joint_unit(angular: bool, rate: bool = False) -> str:
    """The SI unit of a joint position (or, with rate=True, a joint velocity)."""
    if angular:
        return "rad/s" if rate else "rad"
    return "m/s" if rate else "m"


def _number(value: float, digits: int) -> str:
    text = f"{value:.{digits}g}"
    return text if "e" not in text else f"{value:.{digits}e}"


def for_people(value, unit: str = "", digits: int = 3) -> str:
    """`value` (SI, in `unit`) as text a person reads: radians as degrees, small lengths in mm, units attached."""
    if value is None:
        return "n/a"
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        return str(value)
    value = float(value)
    if not math.isfinite(value):
        return "nan" if math.isnan(value) else ("inf" if value > 0 else "-inf")
    if unit == "rad":
        return f"{_number(value * DEGREES_PER_RADIAN, digits)}°"
    if unit == "rad/s":
        return f"{_number(value * DEGREES_PER_RADIAN, digits)}°/s"
    if unit == "m" and value != 0 and abs(value) < 0.1:
        return f"{_number(value * 1000.0, digits)} mm"
    if unit == "%":
        return f"{_number(value, digits)} %"
    return f"{_number(value, digits)} {unit}".rstrip()


def joint_value(value, angular: bool, rate: bool = False, digits: int = 3) -> str:
    """A joint position or velocity (SI) for people: degrees for revolute joints, metres for prismatic."""
    return for_people(value, joint_unit(angular, rate), digits)


def listed(items, limit: int = 6, sep: str = ", ") -> str:
    """`items` joined for people, complete or ending in "+N more" (never silently cut)."""
    items = [str(i) for i in items]
    if len(items) <= limit:
        return sep.join(items)
    return sep.join(items[:limit]) + f"{sep}+{len(items) - limit} more"
