"""The jaw-convention rule: a joint whose limits run the reverse of a test's convention (the gripper tests' JAW_REVERSED
rows: lower limit = fingers together, where FET028 wants lower = open) gets its axis negated, and nothing moves.

Negating the axis: both joint frames (physics:localRot0, localRot1) are turned half a turn about an axis across the
joint axis (about the frame's Z for an X or Y joint, about X for a Z joint), so the joint coordinate becomes -q for the
same pose. Everything authored in that coordinate follows: the limits become [-upper, -lower], the drive's target
position and velocity and the joint state are negated. The mimic joints that follow it are negated alike (gearing
unchanged, offset negated: PhysX's `gearing * q_ref + offset + q = 0` and Newton's `q = coef0 + coef1 * q_ref` both
hold again with both coordinates negated). The values are USD's as authored (degrees, stage units): a sign only.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..core.results import FixChange
from .layers import JointOverride, authored_value

if TYPE_CHECKING:
    from ..core.asset_model import AssetModel

HALF_TURN_ACROSS = {"X": (0.0, 0.0, 0.0, 1.0), "Y": (0.0, 0.0, 0.0, 1.0), "Z": (0.0, 1.0, 0.0, 0.0)}  # w, x, y, z
WHY = "its limits run the reverse of FET028's convention (lower = open): the axis negated, nothing moves"


def joints_to_negate(asset: "AssetModel", jaws) -> list[str]:
    """The jaws and every joint a mimic coupling has follow one of them (a follower of a negated jaw is negated too)."""
    out = [j for j in jaws if j in asset.joints]
    out += [j.path for j in asset.joints.values() if j.mimic_reference in out and j.path not in out]
    return out


def _flipped(stage, path: str, attr: str, current: dict) -> tuple[float, float] | None:
    """(before, after) of an attribute negated: the value the layer already sets, else the authored one; None when
    neither is there or it is zero."""
    value = current.get(attr, authored_value(stage, path, attr))
    if value is None or float(value) == 0.0:
        return None
    return float(value), -float(value) + 0.0


def negate(item: JointOverride, stage, asset: "AssetModel", why: str = WHY) -> list[FixChange]:
    """Add the negated axis of the joint at `item.path` to its override (after any drive values the layer sets, which
    are negated with it); the changes, in USD units as authored."""
    from pxr import Gf

    path, rows = item.path, []
    joint = asset.joints[path]
    prim = stage.GetPrimAtPath(path)
    turn = Gf.Quatf(*HALF_TURN_ACROSS.get(joint.axis, HALF_TURN_ACROSS["X"]))
    for attr in ("physics:localRot0", "physics:localRot1"):
        old = prim.GetAttribute(attr).Get() if prim.GetAttribute(attr) else None
        old = Gf.Quatf(old) if old is not None else Gf.Quatf(1.0)
        new = (old * turn).GetNormalized()
        item.values[attr] = new
        rows.append(FixChange(attribute=attr, before=_quat_text(old), after=_quat_text(new), why=why))
    lower, upper = authored_value(stage, path, "physics:lowerLimit"), authored_value(stage, path, "physics:upperLimit")
    if lower is not None and upper is not None:
        unit = "°" if joint.is_angular else ""
        for attr, before, after in (("physics:lowerLimit", lower, -upper + 0.0), ("physics:upperLimit", upper, -lower + 0.0)):
            item.values[attr] = after
            rows.append(FixChange(attribute=attr, before=before, after=after, unit=unit, why="mirrored with the axis"))
    axis = "angular" if joint.is_angular else "linear"
    signed = [f"drive:{axis}:physics:targetPosition", f"drive:{axis}:physics:targetVelocity",
              f"state:{axis}:physics:position", f"state:{axis}:physics:velocity"]
    if joint.mimic_schema and joint.mimic_schema.startswith("PhysxMimicJointAPI:"):
        signed.append(f"physxMimicJoint:{joint.mimic_schema.split(':', 1)[1]}:offset")
    elif joint.mimic_schema == "NewtonMimicAPI":
        signed.append("newton:mimicCoef0")
    for attr in signed:
        flipped = _flipped(stage, path, attr, item.values)
        if flipped is not None:
            item.values[attr] = flipped[1]
            rows.append(FixChange(attribute=attr, before=flipped[0], after=flipped[1], why="negated with the axis"))
    return rows


def _quat_text(q) -> str:
    imaginary = q.GetImaginary()
    return f"({q.GetReal():.6g}, {imaginary[0]:.6g}, {imaginary[1]:.6g}, {imaginary[2]:.6g})"
