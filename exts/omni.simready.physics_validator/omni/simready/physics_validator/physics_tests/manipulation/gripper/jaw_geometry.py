"""A gripper's jaws posed from its authored kinematics, for proposing a FET028 site where the asset has none.

What a site needs besides its centre, read from geometry and joints (never from names):
- **the jaws**: the limited revolute/prismatic joints beyond the base that are not mimic followers (driven or not: a
  converted gripper often drives nothing yet), their followers moving with them;
- **the grip line**: the direction the first jaw moves its fingers at the authored pose (a slide's axis; across a
  hinge's arm for a revolute jaw);
- **the forward axis**: from the palm's colliders (what the jaws do not move) toward the fingers', across the grip line;
- **the opening**: with every jaw at one limit and then the other (followers by their coupling, the product of each
  joint's turn or shift about its authored axis from the base out), the gap between the fingers' colliders on either
  side of the centre along the grip line; the larger gap is the opening, and the limit giving it opens the jaw.

`converter_grasp_site`: a converter's site (MjcSiteAPI / NewtonSiteAPI) is taken for the grasp centre only when it
lies between the fingers (inside the box their colliders span, open). The runtime's measurement in the test decides the
convention (jaw_convention.py); this is the proposal `simready-physics gripper-site` and the tests' hints print.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING

import numpy as np

from ....core.geometry import AXIS_INDEX, collider_points, compose, quat_from_axis_angle, quat_to_matrix, rotate
from ...driven.jacobian_ik.chain import ChainLink, chain_to, tree_from
from .jaw_convention import body_surface, jaw_bodies

if TYPE_CHECKING:
    from ....core.asset_model import AssetModel, JointInfo
    from ....core.markers import SiteFrame

SIDE_EPS = 1e-6  # m: a collider centred on the grasp centre belongs to neither side
MIN_OPENING = 0.005  # m: a derived opening below this is no jaw's (a hand's tips, overlapping colliders): not proposed
NOISE = 1e-4  # a derived unit direction's components below this are float noise of the authored frames


@dataclass
class SiteProposal:
    """A FET028 site for a gripper, in the asset's world (SI)."""

    base: str
    centre: np.ndarray
    forward: np.ndarray | None
    grip: np.ndarray | None
    opening: float | None  # m, pad to pad at the limit that opens the jaws
    jaws: list[str] = field(default_factory=list)  # joint paths
    gaps: dict[str, float] = field(default_factory=dict)  # "lower"/"upper" -> the fingers' gap there (m)
    notes: list[str] = field(default_factory=list)  # what could not be derived, and why

    @property
    def lower_opens(self) -> bool | None:
        if {"lower", "upper"} <= set(self.gaps) and self.gaps["lower"] != self.gaps["upper"]:
            return self.gaps["lower"] > self.gaps["upper"]
        return None


def candidate_jaws(asset: "AssetModel", base: str) -> list["JointInfo"]:
    """Limited revolute/prismatic joints beyond `base` that no mimic coupling moves (a jaw whether driven or not)."""
    return [link.joint for link in tree_from(asset, base).values() if link.joint.is_dof and link.joint.enabled
            and link.joint.limits is not None and not link.joint.is_mimic_follower]


def _joint_world(asset: "AssetModel", joint: "JointInfo") -> tuple[np.ndarray, np.ndarray]:
    """(anchor, unit axis) of a joint in the world at the authored pose, from its body0 frame."""
    if joint.body0 and joint.body0 in asset.bodies:
        body = asset.bodies[joint.body0].world_pose
        pos, quat = compose(body.pos, body.quat, joint.local_pose0.pos, joint.local_pose0.quat)
    else:
        pos, quat = np.asarray(joint.local_pose0.pos, float), np.asarray(joint.local_pose0.quat, float)
    unit = np.zeros(3)
    unit[AXIS_INDEX.get(joint.axis, 0)] = 1.0
    return np.asarray(pos, float), rotate(quat, unit)


def _move(points: np.ndarray, asset: "AssetModel", link: ChainLink, q: float) -> np.ndarray:
    """`points` carried by `link`'s joint moved by q from the authored pose (the child side moves)."""
    if q == 0.0:
        return points
    anchor, axis = _joint_world(asset, link.joint)
    q = q if link.parent_is_body0 else -q
    if link.joint.type == "prismatic":
        return points + axis * q
    turn = quat_to_matrix(quat_from_axis_angle(axis, q))
    return (points - anchor) @ turn.T + anchor


def surface_points(asset: "AssetModel", body: str) -> np.ndarray:
    """World points on a body's colliding shapes at the authored pose (jaw_convention.body_surface), (n, 3)."""
    info = asset.bodies[body]
    local = body_surface(asset, body)
    return local @ quat_to_matrix(info.world_pose.quat).T + np.asarray(info.world_pose.pos, float)


def posed_points(asset: "AssetModel", base: str, jaws: list[str], at: dict[str, float]) -> dict[str, np.ndarray]:
    """Body -> its colliders' corners (world) with each jaw at `at[jaw]`, followers by their coupling, every other
    joint at its authored position."""
    links = tree_from(asset, base)
    out = {}
    for body in links:
        info = asset.bodies.get(body)
        if info is None:
            continue
        points = surface_points(asset, body)
        if not len(points):
            continue
        for link in reversed(chain_to(links, body)):  # outermost first: p' = T1(T2(... Tn(p)))
            joint = link.joint
            if joint.path in at:
                points = _move(points, asset, link, at[joint.path])
            elif joint.mimic_reference in at and joint.mimic is not None:
                points = _move(points, asset, link, joint.mimic.slope * at[joint.mimic_reference] + joint.mimic.intercept)
        out[body] = points
    return out


def sides(points: dict[str, np.ndarray], fingers: set[str], centre: np.ndarray, grip: np.ndarray) -> dict[str, float]:
    """Finger body -> the side of the grasp centre its colliders lie on along the grip line (-1 or 1), at the pose of
    `points` (the authored one: a finger keeps its side; one that would cross the centre meets the other first)."""
    out = {}
    for body in fingers & set(points):
        mid = float(np.mean((points[body] - centre) @ grip))
        if abs(mid) > SIDE_EPS:
            out[body] = float(np.sign(mid))
    return out


def _gap(points: dict[str, np.ndarray], side_of: dict[str, float], centre: np.ndarray, grip: np.ndarray) -> float:
    """The gap between the fingers' colliders either side of the centre along the grip line, each finger on the side it
    has at the authored pose (0 where they would have crossed; one side only: twice its inner face's distance)."""
    left: list[float] = []
    right: list[float] = []
    for body, side in side_of.items():
        if body in points:
            x = (points[body] - centre) @ grip
            (right if side > 0 else left).append(float(x.min()) if side > 0 else float(x.max()))
    if left and right:
        return max(0.0, min(right) - max(left))
    inner = right or [-v for v in left]
    return 2.0 * max(0.0, min(inner)) if inner else float("nan")


def _direction(asset: "AssetModel", jaw: "JointInfo", base: str, fingers: list[str]) -> np.ndarray | None:
    anchor, axis = _joint_world(asset, jaw)
    if jaw.type == "prismatic":
        return axis
    points = [collider_points(asset, b, (asset.bodies[b].world_pose.pos, asset.bodies[b].world_pose.quat))
              for b in fingers if b in asset.bodies]
    cloud = [p for p in points if len(p)]
    if not cloud:
        return None
    arm = np.mean(np.vstack(cloud), axis=0) - anchor
    swing = np.cross(axis, arm)
    n = float(np.linalg.norm(swing))
    return swing / n if n > 1e-9 else None


def _unit(v, clean: bool = False) -> np.ndarray | None:
    """`v` normalized (None for None or zero); `clean`: a derived direction's components under NOISE dropped (float
    noise of the authored frames, not a tilt anyone authored)."""
    if v is None:
        return None
    v = np.asarray(v, float)
    n = float(np.linalg.norm(v))
    if n <= 1e-12:
        return None
    v = v / n
    if clean:
        v = np.where(np.abs(v) < NOISE, 0.0, v)
        v = v / float(np.linalg.norm(v))
    return v


def propose_site(asset: "AssetModel", base: str, centre, forward=None, grip=None, opening: float | None = None
                 ) -> SiteProposal:
    """The site at `centre` under `base`: the given vectors and opening kept, the rest derived (SiteProposal.notes
    says what could not be)."""
    centre = np.asarray(centre, float)
    jaws = [j.path for j in candidate_jaws(asset, base)]
    out = SiteProposal(base, centre, _unit(forward), _unit(grip), opening, jaws)
    if not jaws:
        out.notes.append(f"no limited revolute or prismatic joint beyond {base}: no jaw to derive from")
        return out
    moved = jaw_bodies(asset, base, jaws)
    fingers = {b for bodies in moved.values() for b in bodies}
    if out.grip is None:
        out.grip = _unit(_direction(asset, asset.joints[jaws[0]], base, moved[jaws[0]]), clean=True)
        if out.grip is None:
            out.notes.append(f"{asset.joints[jaws[0]].name} moves no collider: no grip line to derive")
            return out
    limits = {side: {j: asset.joints[j].limits[index] for j in jaws} for index, side in enumerate(("lower", "upper"))}  # type: ignore[index]
    posed = {side: posed_points(asset, base, jaws, at) for side, at in limits.items()}
    side_of = sides(posed_points(asset, base, jaws, {}), fingers, centre, out.grip)
    for side, points in posed.items():
        out.gaps[side] = _gap(points, side_of, centre, out.grip)
    if out.forward is None:
        palm = [p for body, p in posed["lower"].items() if body not in fingers]
        if base in asset.bodies and not palm:
            palm = [np.asarray(asset.bodies[base].world_pose.pos, float)[None, :]]
        tips = [p for body, p in posed["lower"].items() if body in fingers]
        if palm and tips:
            along = np.mean(np.vstack(tips), axis=0) - np.mean(np.vstack(palm), axis=0)
            out.forward = _unit(along - float(np.dot(along, out.grip)) * out.grip, clean=True)
        if out.forward is None:
            out.notes.append("the fingers' colliders do not lie ahead of the palm's: no forward axis to derive")
    if out.opening is None:
        widest = max((g for g in out.gaps.values() if np.isfinite(g)), default=float("nan"))
        if np.isfinite(widest) and widest >= MIN_OPENING:
            out.opening = widest
        else:
            out.notes.append(f"with every jaw at either limit the fingers' colliders leave at most {widest * 1000:.1f} mm "
                             f"across the grip line (under {MIN_OPENING * 1000:g} mm: fingers and tips that move "
                             "independently, or colliders that overlap): no opening to derive")
    return out


def converter_grasp_site(asset: "AssetModel") -> tuple["SiteFrame", list[str]] | None:
    """The first converter site that lies between the fingers of the jaws beyond its body (inside the box their
    colliders span with the jaws at either limit), with those jaws; None when no site does."""
    for frame in asset.markers.site_frames:
        if frame.body is None:
            continue
        jaws = [j.path for j in candidate_jaws(asset, frame.body)]
        if not jaws:
            continue
        fingers = {b for bodies in jaw_bodies(asset, frame.body, jaws).values() for b in bodies}
        clouds = []
        for index in (0, 1):
            at = {j: asset.joints[j].limits[index] for j in jaws}  # type: ignore[index]
            clouds += [p for b, p in posed_points(asset, frame.body, jaws, at).items() if b in fingers]
        if not clouds:
            continue
        cloud = np.vstack(clouds)
        point = np.asarray(frame.pose.pos, float)
        if bool(np.all(point >= cloud.min(axis=0))) and bool(np.all(point <= cloud.max(axis=0))):
            return frame, jaws
    return None


def gripper_base(asset: "AssetModel") -> str | None:
    """The body a gripper's jaws hang from when nothing names it: the articulation root body the candidate jaws are
    reached from (the root of the tree), else the body0 of the first candidate jaw."""
    jaws = [j for j in asset.joints.values() if j.is_dof and j.enabled and j.limits is not None and not j.is_mimic_follower]
    if not jaws:
        return None
    roots = [path for path in asset.bodies if any(j.articulation == path for j in asset.joints.values())]
    for root in roots:
        if candidate_jaws(asset, root):
            return root
    return jaws[0].body0


def finger_centre(asset: "AssetModel", base: str) -> np.ndarray | None:
    """The middle of the fingers' colliders with the jaws at the limit that opens them widest: a grasp centre between
    the pads where no site says one."""
    jaws = [j.path for j in candidate_jaws(asset, base)]
    if not jaws:
        return None
    fingers = {b for bodies in jaw_bodies(asset, base, jaws).values() for b in bodies}
    best, spread = None, -1.0
    for index in (0, 1):
        at = {j: asset.joints[j].limits[index] for j in jaws}  # type: ignore[index]
        clouds = [p for b, p in posed_points(asset, base, jaws, at).items() if b in fingers]
        if clouds:
            cloud = np.vstack(clouds)
            extent = float(np.max(cloud.max(axis=0) - cloud.min(axis=0)))
            if extent > spread:
                best, spread = (cloud.min(axis=0) + cloud.max(axis=0)) / 2.0, extent
    return best
