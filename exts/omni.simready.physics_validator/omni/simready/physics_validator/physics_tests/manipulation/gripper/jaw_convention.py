"""FET028's jaw convention, measured on the runtime: a jaw's lower limit opens the gripper, its upper limit closes it.

Converted MJCF and URDF grippers often author the reverse (lower = fingers together: the YuMi's 0-25 mm slide, the
Panda hand's 0-40 mm). Which limit opens is told from what the runtime does, never from a name: the jaws are driven
to their upper limits and then to their lower ones, and at each the colliders every jaw moves (the bodies beyond it
and beyond its mimic followers, the shapes the runtime gives contacts) are placed by the runtime's body poses in the
site's frame; their mean distance from the grasp centre along the grip line is where that jaw's fingers are. The
limit that puts them nearer the centre closes the jaw. A jaw whose fingers move less than `convention_min_shift`
between its limits says nothing about the convention (a stuck jaw is OPEN_NOT_REACHED's to tell).

The way to follow FET028 without moving anything: negate the jaw's axis (turn both joint frames half a turn about an
axis across it) and mirror its limits, drive target and mimic offsets (`fix` proposes that layer: fix/jaw_axis.py).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

import numpy as np

from ....core.geometry import collider_points, quat_conj, rotate
from ....core.quantities import for_people, joint_value, listed
from ...driven.jacobian_ik.chain import chain_to, tree_from

if TYPE_CHECKING:
    from ....core.asset_model import AssetModel, JointInfo
    from .gripper_rig import GripperPlan


@dataclass
class JawSide:
    """One jaw, driven to each of its limits: where the colliders it moves sat (m from the grasp centre, along the
    grip line; NaN where it moves none)."""

    joint: "JointInfo"
    at_lower: float
    at_upper: float

    @property
    def shift(self) -> float:
        return abs(self.at_upper - self.at_lower)

    @property
    def reversed(self) -> bool:
        """Its lower limit puts the fingers nearer the grasp centre than its upper limit: lower closes."""
        return bool(self.at_lower < self.at_upper)


def jaw_bodies(asset: "AssetModel", base: str, jaws: list[str]) -> dict[str, list[str]]:
    """Jaw path -> the bodies it moves: beyond the jaw or beyond one of its mimic followers, seen from the base."""
    links = tree_from(asset, base)
    out: dict[str, list[str]] = {j: [] for j in jaws}
    for body in links:
        for link in chain_to(links, body):
            joint = link.joint
            leader = joint.path if joint.path in out else joint.mimic_reference if joint.mimic_reference in out else None
            if leader is not None:
                out[leader].append(body)
                break
    return out


class FingerGauge:
    """Where each jaw's fingers are, from the runtime's body poses, in the grasp site's frame."""

    def __init__(self, asset: "AssetModel", plan: "GripperPlan"):
        self.asset = asset
        self.bodies = jaw_bodies(asset, plan.base, plan.jaws)
        site = plan.site
        self.grip = rotate(quat_conj(site.pose.quat), site.grip_direction)  # the grip line in the site's frame

    def offsets(self, body_pose, to_site) -> dict[str, float]:
        """Jaw path -> mean distance (m) of its colliders' corners from the grasp centre along the grip line, now."""
        out = {}
        for jaw, bodies in self.bodies.items():
            points = [collider_points(self.asset, b, pose) for b in bodies if (pose := body_pose(b)) is not None]
            cloud = np.vstack([p for p in points if len(p)]) if any(len(p) for p in points) else np.zeros((0, 3))
            out[jaw] = float(np.mean([abs(float(np.dot(to_site(p), self.grip))) for p in cloud])) if len(cloud) else np.nan
        return out


def sides(asset: "AssetModel", jaws: list[str], at_lower: dict[str, float], at_upper: dict[str, float]) -> list[JawSide]:
    return [JawSide(asset.joints[j], at_lower[j], at_upper[j]) for j in jaws]


def reversed_jaws(found: list[JawSide], min_shift: float) -> list[JawSide]:
    """The jaws whose lower limit closes them, among those that moved their fingers at least `min_shift`."""
    return [s for s in found if np.isfinite(s.shift) and s.shift >= min_shift and s.reversed]


def _position(value: float, angular: bool) -> str:
    """A jaw position for people: degrees, or millimetres (a zero too: the limits beside it are in mm)."""
    value = float(value) + 0.0  # no "-0"
    return "0 mm" if value == 0.0 and not angular else joint_value(value, angular)


def mirrored_limits(joint: "JointInfo") -> str:
    """The jaw's limits once its axis is negated, for people: [-upper, -lower]."""
    assert joint.limits is not None  # a jaw has limits (the precheck)
    lower, upper = joint.limits
    return f"[{_position(-upper, joint.is_angular)}, {_position(-lower, joint.is_angular)}]"


def reversed_reason(found: list[JawSide]) -> str:
    """Which limit is which, with the numbers, and how to follow FET028."""
    parts = []
    for side in found:
        joint = side.joint
        assert joint.limits is not None
        lower, upper = joint.limits
        parts.append(f"{joint.name} at its lower limit {_position(lower, joint.is_angular)} holds the colliders it moves "
                     f"{for_people(side.at_lower, 'm')} from the grasp centre along the grip line, at its upper limit "
                     f"{_position(upper, joint.is_angular)} {for_people(side.at_upper, 'm')}")
    names = listed([s.joint.name for s in found], 3)
    mirrored = "; ".join(f"{s.joint.name} {mirrored_limits(s.joint)}" for s in found)
    return (f"the lower limit closes the jaw and the upper limit opens it ({'; '.join(parts)}); FET028 wants lower = "
            f"open, upper = closed: negate the axis of {names} (both joint frames turned half a turn across it) and "
            f"mirror the limits, drive target and mimic offsets (limits then {mirrored})")
