"""Class 4 of docs/plausibility.md: a revolute range that looks like radians written where USD reads degrees.

USD authors revolute limits in degrees. An MJCF range in radians converted as degrees (robosuite's Robotiq 140: its
gripper XML has no `<compiler angle="radian"/>`, MuJoCo's default is degrees) or a URDF value copied into the
attribute comes out 57x too small: a finger that opens 0.7 deg instead of 40 deg, which a movement test passes. A
locked joint (lower = upper) is a choice, and a range that is no range at all is the tests' business; a revolute
joint whose range is above zero and under TINY_RANGE is named, with what the range would be read as radians."""

from __future__ import annotations

import math
from typing import TYPE_CHECKING

from .codes import PlausibilityCode as Code
from .findings import finding

if TYPE_CHECKING:
    from ..asset_model import AssetModel
    from ..results import PlausibilityFinding

TINY_RANGE = math.radians(2.0)  # rad: a revolute range under 2 deg moves nothing a robot's joint is for


def limit_findings(asset: "AssetModel") -> list["PlausibilityFinding"]:
    out = []
    for joint in asset.joints.values():
        if not (joint.enabled and joint.is_angular and joint.has_limits):
            continue
        lower, upper = joint.limits or (0.0, 0.0)
        width = upper - lower
        if width >= TINY_RANGE:
            continue
        as_radians = math.degrees(width)  # the authored number of degrees, read as radians (rad)
        out.append(finding(
            Code.LIMIT_RANGE_TINY, joint=joint.path, joints=[joint.path],
            measured={"lower": lower, "upper": upper, "range": width, "range_if_radians": as_radians},
            limits={"range": TINY_RANGE}, units={"lower": "rad", "upper": "rad", "range": "rad", "range_if_radians": "rad"},
            message=f"{joint.name} moves {math.degrees(lower):.4g}° to {math.degrees(upper):.4g}° ({math.degrees(width):.3g}°, "
                    f"under {math.degrees(TINY_RANGE):g}°): the authored numbers read as radians would be "
                    f"{math.degrees(as_radians):.3g}°: radians written where USD reads degrees?"))
    return out
