"""FET028's jaw convention, measured on the runtime: a jaw's lower limit opens the gripper, its upper limit closes it.

Converted MJCF and URDF grippers often author the reverse (lower = fingers together: the YuMi's 0-25 mm slide, the
Panda hand's 0-40 mm). Which limit opens is told from what the runtime does, never from a name: the jaws are driven
to their upper limits and then to their lower ones, and at each the colliders every jaw moves (the bodies beyond it
and beyond its mimic followers, the shapes the runtime gives contacts) are placed by the runtime's body poses in the
site's frame; the inner faces' distance from the grasp centre along the grip line is where that jaw's fingers are
(FingerGauge). The limit that puts them nearer the centre closes the jaw. A jaw whose fingers move less than
`convention_min_shift` between its limits says nothing about the convention (a stuck jaw is OPEN_NOT_REACHED's to tell).

The way to follow FET028 without moving anything: negate the jaw's axis (turn both joint frames half a turn about an
axis across it) and mirror its limits, drive target and mimic offsets (`fix` proposes that layer: fix/jaw_axis.py).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

import numpy as np

from ....core.geometry import collider_surface, quat_conj, quat_to_matrix, rotate
from ....core.quantities import for_people, joint_value, listed
from ...driven.jacobian_ik.chain import chain_to, tree_from

MAX_POINTS = 400  # mesh vertices a shape at most (every n-th): where a finger is is told to well under a millimetre

if TYPE_CHECKING:
    from ....core.asset_model import AssetModel, JointInfo
    from .gripper_rig import GripperPlan


@dataclass
class JawSide:
    """One jaw, read where it stood before being driven, at the end of its drive to the upper limit and at the end of
    the one to the lower: (its position, its fingers' inner faces' distance from the grasp centre along the grip line
    on their side; NaN where it moves none), SI."""

    joint: "JointInfo"
    readings: list[tuple[float, float]]  # (q, face): start, upper, lower
    reached: bool = False  # it got to both limits (within limit_fraction of its travel)

    @property
    def at_lower(self) -> float:
        return self.readings[-1][1]

    @property
    def at_upper(self) -> float:
        return self.readings[1][1]

    @property
    def span(self) -> tuple[tuple[float, float], tuple[float, float]]:
        """The two readings furthest apart in position (a jaw that stalled on the way still moved from its start)."""
        pairs = [(a, b) for i, a in enumerate(self.readings) for b in self.readings[i + 1:]]
        a, b = max(pairs, key=lambda pair: abs(pair[1][0] - pair[0][0]))
        return (a, b) if a[0] <= b[0] else (b, a)

    @property
    def shift(self) -> float:
        """How far the fingers moved between those readings (m)."""
        low, high = self.span
        return abs(high[1] - low[1])

    @property
    def reversed(self) -> bool:
        """Toward the upper limit its fingers' inner faces move away from the grasp centre: the upper limit opens it."""
        low, high = self.span
        return bool(high[1] > low[1])



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


def body_surface(asset: "AssetModel", body: str) -> np.ndarray:
    """Points on a body's colliding shapes (those the runtime gives contacts) in the body's frame: box corners, mesh
    vertices (at most MAX_POINTS a shape), sphere and capsule centres pushed out by their radius along the axes."""
    out = []
    for collider in asset.bounding_colliders(body):
        surface = collider_surface(collider)
        if surface is None:
            continue
        local, radius = surface
        local = local[:: max(1, len(local) // MAX_POINTS)]
        if radius > 0:
            local = np.vstack([local + radius * d for d in np.vstack([np.eye(3), -np.eye(3)])])
        out.append(local @ quat_to_matrix(collider.local_pose.quat).T + np.asarray(collider.local_pose.pos, float))
    return np.vstack(out) if out else np.zeros((0, 3))


class FingerGauge:
    """Where each jaw's fingers are, from the runtime's body poses, in the grasp site's frame: the inner face of each
    body it moves (the point of its colliders nearest the other side along the grip line), as a distance from the grasp
    centre on the body's own side (negative once past it), averaged over the jaw's bodies. Larger is more open; a
    finger whose colliders straddle the centre still moves it."""

    def __init__(self, asset: "AssetModel", plan: "GripperPlan"):
        self.bodies = jaw_bodies(asset, plan.base, plan.jaws)
        self.surface = {b: body_surface(asset, b) for bodies in self.bodies.values() for b in bodies}
        site = plan.site
        self.grip = rotate(quat_conj(site.pose.quat), site.grip_direction)  # the grip line in the site's frame
        self.side: dict[str, float] = {}  # body -> -1 or 1, the side it lies on at the first reading

    def offsets(self, body_pose, to_site) -> dict[str, float]:
        """Jaw path -> its fingers' inner faces' mean distance from the grasp centre along the grip line (m), now."""
        out = {}
        for jaw, bodies in self.bodies.items():
            faces = []
            for body in bodies:
                pose = body_pose(body)
                if pose is None or not len(self.surface[body]):
                    continue
                world = self.surface[body] @ quat_to_matrix(pose[1]).T + np.asarray(pose[0], float)
                x = np.array([float(np.dot(to_site(p), self.grip)) for p in world])
                side = self.side.setdefault(body, 1.0 if float(np.mean(x)) >= 0 else -1.0)
                faces.append(float(np.min(side * x)))
            out[jaw] = float(np.mean(faces)) if faces else float("nan")
        return out


def sides(asset: "AssetModel", jaws: list[str], readings: list[tuple[list[float], dict[str, float]]],
          limit_fraction: float) -> list[JawSide]:
    """Each jaw's readings: `readings` is [(jaw positions, jaw -> face)] at the start, the upper and the lower end; a
    jaw within `limit_fraction` of its travel of each limit at the end of its drive there reached them."""
    out = []
    for i, path in enumerate(jaws):
        joint = asset.joints[path]
        assert joint.limits is not None  # a jaw has limits (the precheck)
        lower, upper = joint.limits
        near = limit_fraction * (upper - lower)
        at = [(float(q[i]), faces[path]) for q, faces in readings]
        out.append(JawSide(joint, at, abs(at[1][0] - upper) <= near and abs(at[-1][0] - lower) <= near))
    return out


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


def _reading(side: JawSide, reading: tuple[float, float]) -> str:
    q, face = reading
    return f"at {_position(q, side.joint.is_angular)} its fingers' inner faces sit {for_people(face, 'm')} from the grasp centre"


def reversed_reason(found: list[JawSide]) -> str:
    """Which limit is which, with the numbers, and how to follow FET028."""
    parts = []
    for side in found:
        joint = side.joint
        assert joint.limits is not None
        lower, upper = joint.limits
        low, high = side.span
        limits = (f"limits {_position(lower, joint.is_angular)} and {_position(upper, joint.is_angular)}, reached"
                  if side.reached else f"driven toward its upper limit {_position(upper, joint.is_angular)} it got to "
                  f"{_position(side.readings[1][0], joint.is_angular)}")
        parts.append(f"{joint.name} ({limits}): {_reading(side, low)} along the grip line, {_reading(side, high)}")
    names = listed([s.joint.name for s in found], 3)
    mirrored = "; ".join(f"{s.joint.name} {mirrored_limits(s.joint)}" for s in found)
    return (f"the lower limit closes the jaw and the upper limit opens it ({'; '.join(parts)}); FET028 wants lower = "
            f"open, upper = closed: negate the axis of {names} (both joint frames turned half a turn across it) and "
            f"mirror the limits, drive target and mimic offsets (limits then {mirrored})")
