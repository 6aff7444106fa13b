"""The unit of each setting, and settings given with a unit (`--set full_range_sweep.rest_tolerance_rad=0.5deg`).

A setting declares its unit in its pydantic Field (`Field(0.02, json_schema_extra=unit("m"))`): `show-config`
and `list-tests` print it, and a value written with a unit suffix is converted into it: `0.5deg` for a setting in
rad, `5mm` for one in m, `2%` for a fraction, `200ms` for seconds. A suffix of another kind (`5mm` for an angle) is
an error naming both. A plain number is taken in the setting's own unit, as before. Every float setting of every test
declares one (tests/test_test_units.py); a dimensionless coefficient (a friction, a restitution) declares "ratio".
`si_factor` is the one conversion of a setting to SI (deg -> rad, % -> fraction, deg/s -> rad/s).
"""

from __future__ import annotations

import math
import re

# suffix -> (kind, factor to the kind's base unit)
SUFFIXES: dict[str, tuple[str, float]] = {
    "m": ("length", 1.0), "cm": ("length", 0.01), "mm": ("length", 0.001),
    "rad": ("angle", 1.0), "deg": ("angle", math.pi / 180.0), "°": ("angle", math.pi / 180.0),
    "%": ("ratio", 0.01), "x": ("ratio", 1.0),
    "s": ("time", 1.0), "ms": ("time", 0.001),
    "N": ("force", 1.0), "Hz": ("frequency", 1.0),
    "rad/s": ("angular speed", 1.0), "deg/s": ("angular speed", math.pi / 180.0), "°/s": ("angular speed", math.pi / 180.0),
    "m/s": ("speed", 1.0), "mm/s": ("speed", 0.001),
    "m/s^2": ("acceleration", 1.0), "m/s²": ("acceleration", 1.0),
    "kg": ("mass", 1.0), "g": ("mass", 0.001), "kg/m": ("mass per length", 1.0), "N/m": ("stiffness", 1.0),
    "kg/m^3": ("density", 1.0),
}
# a setting's declared unit -> (kind, factor of one setting unit in the kind's base unit)
UNITS: dict[str, tuple[str, float]] = {
    "m": ("length", 1.0), "rad": ("angle", 1.0), "deg": ("angle", math.pi / 180.0), "fraction": ("ratio", 1.0),
    "%": ("ratio", 0.01), "x": ("ratio", 1.0), "ratio": ("ratio", 1.0), "s": ("time", 1.0), "N": ("force", 1.0),
    "Hz": ("frequency", 1.0), "rad/s": ("angular speed", 1.0), "deg/s": ("angular speed", math.pi / 180.0),
    "m/s": ("speed", 1.0), "m/s²": ("acceleration", 1.0),
    "kg": ("mass", 1.0), "kg/m": ("mass per length", 1.0), "N/m": ("stiffness", 1.0), "kg/m^3": ("density", 1.0),
}
NUMBER_WITH_UNIT = re.compile(r"^\s*([-+]?(?:\d+\.?\d*|\.\d+)(?:[eE][-+]?\d+)?)\s*([^\d\s].*?)\s*$")


class UnitError(ValueError):
    """A value's unit does not fit its setting; the message names both."""


def unit(name: str) -> dict:
    """A Field's declaration of its unit: `Field(0.02, json_schema_extra=unit("m"))`."""
    if not all(part in UNITS for part in name.split(" or ")):
        raise ValueError(f"unknown setting unit {name!r} (known: {', '.join(UNITS)})")
    return {"unit": name}


def si_factor(unit_name: str) -> float:
    """One setting unit in SI (deg -> pi/180 rad, % -> 0.01, deg/s -> pi/180 rad/s; 1 for an SI unit). A setting
    valid in two SI units ('rad or m') is already SI. ValueError for a setting without a unit."""
    if " or " in unit_name:
        factors = {UNITS[part][1] for part in unit_name.split(" or ")}
        if factors != {1.0}:
            raise ValueError(f"a setting in {unit_name!r} has no single SI factor")
        return 1.0
    if unit_name not in UNITS:
        raise ValueError(f"no SI factor for the unit {unit_name!r}")
    return UNITS[unit_name][1]


def unit_of(model_cls, key: str) -> str:
    """The unit a setting of a pydantic model declares ('' when none: a count, a flag, a name). A setting valid in
    two units (a joint's, rad or m) declares both, 'rad or m'."""
    field = model_cls.model_fields.get(key)
    extra = getattr(field, "json_schema_extra", None) if field is not None else None
    return str(extra.get("unit", "")) if isinstance(extra, dict) else ""


def convert(text: str, unit: str, key: str) -> float | str:
    """`text` ('0.5deg', '5mm', '2%') in the setting's `unit`, or `text` unchanged when it is no number with a unit
    (pydantic then says what is wrong with it). Raises UnitError for a unit of another kind."""
    match = NUMBER_WITH_UNIT.match(text)
    if not match or not unit:
        return text
    number, suffix = float(match.group(1)), match.group(2)
    if suffix not in SUFFIXES:
        raise UnitError(f"'{key}': unknown unit '{suffix}' in {text!r} (known: {', '.join(SUFFIXES)})")
    kind, factor = SUFFIXES[suffix]
    for own in [u.strip() for u in unit.split(" or ")]:
        own_kind, own_factor = UNITS.get(own, ("", 1.0))
        if own_kind == kind:
            return number * factor / own_factor
    article = "an" if kind[0] in "aeiou" else "a"
    raise UnitError(f"'{key}' is in {unit}: {text!r} is {article} {kind}")


def with_unit(value, unit: str) -> str:
    """A default as `list-tests` shows it: '0.02 m', '0.05 (fraction)', 'true'."""
    text = str(value).lower() if isinstance(value, bool) else str(value)
    if not unit or isinstance(value, bool):
        return text
    return f"{text} ({unit})" if unit in ("fraction", "x", "ratio") or " or " in unit else f"{text} {unit}"
