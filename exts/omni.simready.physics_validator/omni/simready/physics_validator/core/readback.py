"""The runtime readback: per DOF joint and body, the value the asset authors beside the value the runtime uses.

Pure logic (no engine, no I/O). The engine side is a `RuntimeValues` record: what the runtime parsed, in SI,
and what the runtime is (which attributes it parses for each property and in which order, whose schema is
its own, its defaults, the ranges it clamps to). The asset side is `spellings` of the asset model
(core/usd/spellings.py): every authored attribute of each property, in SI. `compare` sets them side by side
in the author's units (degrees where USD authors degrees: revolute limits, rates and per-degree gains; SI
otherwise) and flags what differs:

- `ignored`: authored, but the runtime uses its default (an attribute it does not parse, e.g. the legacy
  `physxJoint:maxJointVelocity` under ovphysx 0.7, or `mjc:armature` on PhysX);
- `clamped`: authored beyond a range the runtime clamps to (ovphysx 0.7 clamps the limits of a revolute joint
  outside any articulation to +-180 deg, and says so in its log);
- `from_other_attribute`: the runtime's value comes from another engine's schema (`newton:friction` read by
  ovphysx as PhysX joint friction), or from a spelling other than the one it reads first;
- `defaulted`: not authored, the runtime's default applies where the default changes what the tests see
  (drive stiffness / damping 0 and the default max force of a joint; a body mass from the default density);
- `differs`: authored, read, and still different.

Tolerance: two values agree when |a - b| <= 1e-5 x max(|a|, |b|) (or both are the same infinity; 1e-9 absolute
near zero, 1e-6 m for centres of mass). Runtimes store float32 (relative resolution 6e-8) and convert per-degree
gains to per-radian in float32, so a value read back faithfully differs from our float64 conversion by a few
1e-7: 1e-5 leaves a 30x margin and still flags any difference an author makes on purpose. Clamps are judged by
the runtime's range instead (a limit of 360.00027 deg is 7.5e-7 beyond 2 pi, inside any relative tolerance): the
value is clamped when it lies beyond the range and the runtime's value is nearer the range's end than the
authored value.
"""

from __future__ import annotations

import math
from typing import cast
from dataclasses import dataclass, field

from .asset_model import AssetModel, BodyInfo, JointInfo, Spelling
from .results import ReadbackEntry
from .usd.spellings import AXES

REL_TOL = 1e-5
ABS_TOL = 1e-9
COM_TOL = 1e-6  # m
DEG = 180.0 / math.pi
FLAGS = ("ignored", "clamped", "from_other_attribute", "defaulted", "differs")
JOINT_PROPERTIES = ("stiffness", "damping", "max_force", "max_velocity", "armature", "static_friction",
                    "dynamic_friction", "viscous_friction", "lower", "upper")
BODY_PROPERTIES = ("mass", "inertia", "com", "static_friction", "dynamic_friction", "restitution", "contact_offset",
                   "rest_offset")
DEFAULT_MATTERS = {"stiffness", "damping", "max_force", "mass"}  # a default here changes what the tests see
# property -> (unit of a revolute DOF, SI -> that unit, unit of a prismatic DOF)
JOINT_UNITS = {
    "stiffness": ("N·m/°", 1 / DEG, "N/m"), "damping": ("N·m·s/°", 1 / DEG, "N·s/m"),
    "viscous_friction": ("N·m·s/°", 1 / DEG, "N·s/m"), "max_force": ("N·m", 1.0, "N"),
    "static_friction": ("N·m", 1.0, "N"), "dynamic_friction": ("N·m", 1.0, "N"), "armature": ("kg·m²", 1.0, "kg"),
    "max_velocity": ("°/s", DEG, "m/s"), "lower": ("°", DEG, "m"), "upper": ("°", DEG, "m"),
}
BODY_UNITS = {"mass": "kg", "inertia": "kg·m²", "com": "m", "static_friction": "", "dynamic_friction": "",
              "restitution": "", "contact_offset": "m", "rest_offset": "m"}


@dataclass
class RuntimeValues:
    """What one engine's runtime parsed for one asset (SI, `dof_joints` and body paths), and what that runtime is.

    `reads`: per joint property, the attributes the runtime parses, first wins (`{inst}` is the joint type's
    instance: angular / linear); `own`: attribute prefixes of the runtime's own schemas (a value read from any
    other is `from_other_attribute`); `defaults`: the values the runtime uses when nothing is authored (a
    property may have several: a drive-less joint's max force is 0, a driven one's unlimited; `body_defaults`
    for bodies); `clamps`:
    (joint path, property) -> the range the runtime clamps authored values to; `unreadable`: joint path ->
    why the engine cannot say (its values are NaN); `notes`: (path, property) -> a sentence on what the runtime
    did there, shown beside a flag. NaN anywhere means "the engine cannot say"."""

    engine: str
    joints: dict[str, dict[str, float]] = field(default_factory=dict)
    bodies: dict[str, dict[str, float | tuple]] = field(default_factory=dict)
    settings: dict[str, str] = field(default_factory=dict)
    reads: dict[str, tuple[str, ...]] = field(default_factory=dict)
    own: tuple[str, ...] = ()
    defaults: dict[str, tuple[float, ...]] = field(default_factory=dict)
    body_defaults: dict[str, tuple[float, ...]] = field(default_factory=dict)  # e.g. the default material's friction
    clamps: dict[tuple[str, str], tuple[float, float]] = field(default_factory=dict)
    unreadable: dict[str, str] = field(default_factory=dict)
    notes: dict[tuple[str, str], str] = field(default_factory=dict)  # (path, property) -> what the runtime did


def close(a, b, abs_tol: float = ABS_TOL) -> bool:
    """Equal within the readback tolerance (module docstring); tuples element-wise, infinities exactly."""
    if isinstance(a, tuple) or isinstance(b, tuple):
        a, b = tuple(a) if isinstance(a, tuple) else (a,), tuple(b) if isinstance(b, tuple) else (b,)
        return len(a) == len(b) and all(close(x, y, abs_tol) for x, y in zip(a, b))
    a, b = float(a), float(b)
    if math.isinf(a) or math.isinf(b):
        return a == b
    return abs(a - b) <= max(REL_TOL * max(abs(a), abs(b)), abs_tol)


def same_set(a: tuple, b: tuple) -> bool:
    """Every value of each is in the other (per-shape values: order and repeats do not matter)."""
    return all(any(close(x, y) for y in b) for x in a) and all(any(close(y, x) for x in a) for y in b)


def unknown(value) -> bool:
    if value is None:
        return True
    if isinstance(value, tuple):
        return not value or any(math.isnan(float(v)) for v in value)
    return math.isnan(float(value))


def compare(asset: AssetModel, runtime: RuntimeValues) -> list[ReadbackEntry]:
    """One entry per (DOF joint, property) and (body, property) the engine reports, joints first."""
    entries = []
    for joint in asset.dof_joints:
        values = runtime.joints.get(joint.path, {})
        for prop in JOINT_PROPERTIES:
            if prop in values:
                entries.append(_joint_entry(joint, prop, values[prop], runtime))
    for path, body_values in runtime.bodies.items():
        body = asset.bodies.get(path)
        if body is not None:
            entries += [_body_entry(body, prop, body_values[prop], runtime) for prop in BODY_PROPERTIES if prop in body_values]
    return entries


# -- joints --------------------------------------------------------------------------------------------------------
def _parsed(joint: JointInfo, prop: str, runtime: RuntimeValues) -> tuple[list[Spelling], list[Spelling]]:
    """(the authored spellings the runtime parses, in its order; the others)."""
    spelled = joint.spellings.get(prop, [])
    order = [t.format(inst=AXES[joint.is_angular][0]) for t in runtime.reads.get(prop, ())]
    parsed = sorted((s for s in spelled if s.attribute in order), key=lambda s: order.index(s.attribute))
    return parsed, [s for s in spelled if s.attribute not in order]


def _joint_entry(joint: JointInfo, prop: str, value: float, runtime: RuntimeValues) -> ReadbackEntry:
    unit, scale, linear_unit = JOINT_UNITS[prop]
    if not joint.is_angular:
        unit, scale = linear_unit, 1.0
    parsed, other = _parsed(joint, prop, runtime)
    defaults = runtime.defaults.get(prop, ())
    own = lambda s: s.attribute.startswith(runtime.own)  # noqa: E731
    is_default = any(close(value, d) for d in defaults)
    flag, note = None, ""
    pick: Spelling | None = (parsed or other)[0] if parsed or other else None
    reported: float | None = value  # None: the runtime does not report it
    if unknown(value):
        note = runtime.unreadable.get(joint.path, f"{runtime.engine} does not report it")
        reported = None
    elif parsed:
        clamp = runtime.clamps.get((joint.path, prop))
        expected = cast(float, parsed[0].value)  # a joint's spellings are scalars
        match = next((s for s in parsed if close(s.value, value)), None)
        if clamp and not clamp[0] <= expected <= clamp[1] and _nearer(value, min(max(expected, clamp[0]), clamp[1]), expected):
            flag, note = "clamped", f"beyond the range {runtime.engine} clamps to ({_range(clamp, scale, unit)})"
        elif match is not None:
            pick = match
            if not own(match) and not is_default:
                flag, note = "from_other_attribute", f"{runtime.engine} reads {match.attribute} here"
            elif match is not parsed[0]:
                flag, note = "from_other_attribute", f"{runtime.engine} reads {match.attribute}, not {parsed[0].attribute}"
        elif is_default:
            flag, note = "ignored", f"authored, but {runtime.engine} uses its default"
        else:
            flag, note = "differs", f"{runtime.engine} parses {parsed[0].attribute} but holds another value"
    elif other:
        if not is_default:
            flag, note = "differs", f"{runtime.engine} does not parse {other[0].attribute}; its value comes from elsewhere"
        elif not any(close(s.value, d) for d in defaults for s in other[:1]):
            flag, note = "ignored", f"{runtime.engine} does not parse {other[0].attribute}"
    elif prop in DEFAULT_MATTERS:
        flag = "defaulted"
        note = "no drive: " if joint.drive is None else ""
        note += f"not authored, {runtime.engine} uses {_text(value * scale, unit)}"
    if flag and (joint.path, prop) in runtime.notes:
        note = runtime.notes[(joint.path, prop)]
    if flag and other and pick is not other[0]:
        note += f"; {', '.join(s.attribute for s in other)} not parsed by {runtime.engine}"
    return ReadbackEntry(joint=joint.path, property=prop, unit=unit, flag=flag, note=note,
                         authored=None if pick is None else _scaled(pick.value, scale),
                         authored_attribute="" if pick is None else pick.attribute,
                         runtime=None if reported is None else _scaled(reported, scale))


def _nearer(value: float, bound: float, authored: float) -> bool:
    return close(value, bound) and abs(value - bound) < abs(value - authored)


def _range(clamp, scale: float, unit: str) -> str:
    return f"{_text(clamp[0] * scale, unit)} … {_text(clamp[1] * scale, unit)}"


def _scaled(value, scale: float):
    """In the author's unit, to float32's 7 significant digits (what the runtime and the USD file hold)."""
    if isinstance(value, tuple):
        return [_scaled(v, scale) for v in value]
    value = float(value) * scale
    return value if not math.isfinite(value) else float(f"{value:.7g}")


def _text(value: float, unit: str) -> str:
    if math.isinf(value):
        return "inf" if value > 0 else "-inf"
    return f"{value:.6g} {unit}".rstrip()


# -- bodies --------------------------------------------------------------------------------------------------------
def _body_entry(body: BodyInfo, prop: str, value, runtime: RuntimeValues) -> ReadbackEntry:
    unit = BODY_UNITS[prop]
    spelled = body.spellings.get(prop, [])
    pick = spelled[0] if spelled else None
    flag, note = None, ""
    if unknown(value):
        note, value = f"{runtime.engine} does not report it", None
    elif pick is not None and not pick.comparable:
        note = f"derived by {runtime.engine} from {pick.attribute}"
    elif pick is not None:
        authored = pick.value
        if isinstance(authored, tuple) and prop not in ("inertia", "com"):
            defaults = runtime.body_defaults.get(prop, ())
            if pick.partial and not defaults:
                note = "some colliders author none: not compared"
            elif not same_set(authored + (tuple(defaults[:1]) if pick.partial else ()), _as_tuple(value)):
                flag = "differs"
        elif not close(authored, value, COM_TOL if prop == "com" else ABS_TOL):
            flag = "differs"
    elif prop in DEFAULT_MATTERS:
        flag, note = "defaulted", (f"no mass or density authored: {runtime.engine} computes it from the colliders at its "
                                   "default density")
    elif prop in runtime.body_defaults and not same_set(_as_tuple(value), tuple(runtime.body_defaults[prop][:1])):
        flag, note = "differs", "not authored on the body's colliders"
    return ReadbackEntry(body=body.path, property=prop, unit=unit, flag=flag, note=note,
                         authored=None if pick is None else _scaled(pick.value, 1.0),
                         authored_attribute="" if pick is None else pick.attribute,
                         runtime=None if value is None else _scaled(value, 1.0))


def _as_tuple(value) -> tuple:
    return tuple(value) if isinstance(value, (tuple, list)) else (value,)
