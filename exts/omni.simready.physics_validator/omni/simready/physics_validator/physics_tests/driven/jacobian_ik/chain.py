"""The arm's end effector and the kinematic chain to it, and where the authored kinematics put the end effector for
any joint positions (forward kinematics over the joint frames): pure numpy over the runtime's model of the asset.

The end effector is decided from the articulation the runtime built and the joints it simulates, never from a name:
1. the last entry of `isaac:physics:robotLinks` (the Isaac robot schema), when it is a link of the articulation;
2. else the tip of the chain: the link at the end of the most joints from the base (DOF joints the runtime simulates,
   mimic followers the runtime couples not counted), where a **hand** ends the arm: the rigid group of links carrying
   a gripper site (FET_028), or the one where two joints a coupling ties together part (the jaws of a gripper). The
   coupling is the asset's word that the two move as one jaw, like a site, whether or not the runtime builds it (the
   TALOS import's followers are fixed joints: PhysX couples nothing there, and the gripper is still a hand). What
   hangs below a hand is the hand's, not the arm's;
3. several tips equally deep: a site (a gripper site, or a converter's MjcSiteAPI / NewtonSiteAPI frame) on or below
   exactly one of them chooses it; else, where the branches part one joint before each tip (the two jaws of a gripper
   without a coupling), the link they part at; else nothing is decided (NO_END_EFFECTOR: the tips are named);
then a site on the chosen link's rigid group is the end-effector frame (the grasp centre), else the link's origin.

Forward kinematics: a joint holds `body0 x localPose0 x J(q) == body1 x localPose1`, J(q) a turn about (revolute) or a
shift along (prismatic) the joint axis by q, the joint position as the runtime reports it (zero where the frames
coincide); fixed joints have J = identity. Walked from the base's pose outward along the chain to the end effector.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Iterable

import numpy as np

from ....core.asset_model import Pose
from ....core.geometry import AXIS_INDEX, compose, inverse, quat_from_axis_angle

if TYPE_CHECKING:
    from ....core.asset_model import AssetModel, JointInfo

PoseT = tuple[np.ndarray, np.ndarray]


@dataclass
class EndEffector:
    body: str  # the rigid body it is fixed to
    offset: Pose  # the end-effector frame in that body's frame
    source: str  # why this link: for people (the report's end_effector_source)
    path: str  # the prim named as the end effector (the body, or the site on it)


@dataclass
class NoEndEffector:
    """Why no end effector was decided, and the candidates (for the hint)."""

    why: str
    tips: list[str]


@dataclass
class ChainLink:
    joint: "JointInfo"
    parent_is_body0: bool  # walking outward, the joint's body0 is the parent side


def tree_from(asset: "AssetModel", base: str, joints: Iterable["JointInfo"] | None = None) -> dict[str, ChainLink]:
    """Body -> the joint that reaches it from the base, for every body the enabled joints (or `joints`) connect to
    `base`; a joint that closes a loop is not a tree edge."""
    reached, frontier = {base}, [base]
    edges = [(j, j.body0, j.body1) for j in (asset.joints.values() if joints is None else joints)
             if j.enabled and not j.loop_closing and j.body0 and j.body1]
    links: dict[str, ChainLink] = {}
    while frontier:
        body = frontier.pop(0)
        for joint, body0, body1 in edges:
            for parent, child, forward in ((body0, body1, True), (body1, body0, False)):
                if parent == body and child not in reached:
                    reached.add(child)
                    links[child] = ChainLink(joint, forward)
                    frontier.append(child)
    return links


def chain_to(links: dict[str, ChainLink], body: str) -> list[ChainLink]:
    """The joints from the base out to `body`, base first."""
    out = []
    while body in links:
        out.append(links[body])
        link = links[body]
        body = link.joint.body0 if link.parent_is_body0 else link.joint.body1  # type: ignore[assignment]
    return out[::-1]


def counts(joint: "JointInfo") -> bool:
    """A joint that adds to the arm's depth: a DOF the runtime simulates that no coupling moves."""
    return joint.is_dof and not joint.is_mimic_follower


class ArmTree:
    """The articulation's tree from its base, with each link's depth (joints that count, from the base)."""

    def __init__(self, asset: "AssetModel", base: str, joints: Iterable["JointInfo"] | None = None):
        self.asset, self.base = asset, base
        self.links = tree_from(asset, base, joints)
        self.bodies = [base, *self.links]
        self.depth = {b: sum(counts(link.joint) for link in chain_to(self.links, b)) for b in self.bodies}

    def parent(self, body: str) -> str | None:
        link = self.links.get(body)
        if link is None:
            return None
        return link.joint.body0 if link.parent_is_body0 else link.joint.body1

    def ancestors(self, body: str) -> list[str]:
        """`body` and the bodies above it, up to the base."""
        out = [body]
        while (up := self.parent(out[-1])) is not None:
            out.append(up)
        return out

    def group_root(self, body: str) -> str:
        """The link of `body`'s rigid group a DOF joint moves (climbing fixed joints), or the base."""
        while body in self.links and not self.links[body].joint.is_dof:
            body = self.parent(body) or body
        return body

    def common_ancestor(self, bodies: list[str]) -> str:
        shared = None
        for body in bodies:
            line = self.ancestors(body)
            shared = line if shared is None else [b for b in shared if b in line]
        return shared[0] if shared else self.base

    def hands(self) -> dict[str, str]:
        """Group root -> why it is a hand: it carries a gripper site, or two joints an authored coupling ties part there."""
        out: dict[str, str] = {}
        for site in self.asset.markers.gripper_sites:
            if site.body in self.depth:
                out.setdefault(self.group_root(site.body), f"gripper site {_name(site.path)}")
        for joint in self.asset.joints.values():
            reference = self.asset.joints.get(joint.mimic_reference or "")
            if reference is None:  # an authored coupling marks a jaw even where the runtime builds none (a fixed follower)
                continue
            ends = [self._child(joint), self._child(reference)]
            if None in ends:
                continue
            parting = self.common_ancestor(ends)  # type: ignore[arg-type]
            if parting not in ends:  # on two branches: the jaws of a gripper
                out.setdefault(self.group_root(parting), f"{joint.name} follows {reference.name} on another branch")
        return out

    def _child(self, joint: "JointInfo") -> str | None:
        return next((b for b in (joint.body0, joint.body1) if b in self.links and self.links[b].joint is joint), None)


def find_end_effector(asset: "AssetModel", tree: ArmTree) -> EndEffector | NoEndEffector:
    """The end effector of the arm whose tree is `tree` (module docstring)."""
    for path in reversed(asset.markers.robot_links):
        if path in tree.depth:
            return _with_frame(asset, tree, path, "the last of isaac:physics:robotLinks")
    hands = tree.hands()
    below = {b for b in tree.bodies if any(tree.group_root(a) in hands and tree.group_root(a) != tree.group_root(b)
                                          for a in tree.ancestors(b)[1:])}
    candidates = [b for b in tree.bodies if b not in below]
    deepest = max((tree.depth[b] for b in candidates), default=0)
    if deepest == 0:
        return NoEndEffector("no joint the runtime simulates as a degree of freedom between the base and any link", [])
    tips = sorted({tree.group_root(b) for b in candidates if tree.depth[b] == deepest})
    joints = f"{deepest} joint{'s' if deepest > 1 else ''} from the base"
    if len(tips) == 1:
        tip = tips[0]
        why = f"a hand ({hands[tip]})" if tip in hands else "the deepest link"
        return _with_frame(asset, tree, tip, f"{why}, {joints}")
    marked = [t for t in tips if any(t in tree.ancestors(body) for body in _site_bodies(asset, tree))]
    if len(marked) == 1:
        return _with_frame(asset, tree, marked[0], f"the one of {len(tips)} equally deep tips ({joints}) a site is on")
    parting = tree.group_root(tree.common_ancestor(tips))
    if tree.depth[parting] == deepest - 1 and tree.depth[parting] > 0:
        return _with_frame(asset, tree, parting, f"where {len(tips)} one-joint branches part (a jaw's), "
                                                 f"{tree.depth[parting]} joints from the base")
    return NoEndEffector(f"{len(tips)} tips equally deep ({joints}): {', '.join(_name(t) for t in tips[:4])}"
                         f"{' ...' if len(tips) > 4 else ''}, and no site or robotLinks says which", tips)


def _site_bodies(asset: "AssetModel", tree: ArmTree) -> list[str]:
    bodies = [s.body for s in asset.markers.site_frames] + [s.body for s in asset.markers.gripper_sites]
    return [b for b in bodies if b in tree.depth]


def _with_frame(asset: "AssetModel", tree: ArmTree, link: str, source: str) -> EndEffector:
    """The end effector on `link`: a site on its rigid group (the one on the link itself first) is its frame."""
    group = [b for b in tree.bodies if tree.group_root(b) == tree.group_root(link)]
    sites = [(s.path, s.body, s.pose) for s in asset.markers.gripper_sites if s.body in group]
    sites += [(s.path, s.body, s.pose) for s in asset.markers.site_frames if s.body in group]
    sites.sort(key=lambda s: (s[1] != link, s[0]))
    if not sites:
        return EndEffector(link, Pose(), source, link)
    path, body, pose = sites[0]
    world = asset.bodies[body].world_pose
    pos, quat = compose(*inverse(world.pos, world.quat), pose.pos, pose.quat)
    return EndEffector(body, Pose(pos, quat), f"{source}; the frame of site {_name(path)}", path)


def _name(path: str | None) -> str:
    return (path or "?").rsplit("/", 1)[-1]


def joint_transform(joint: "JointInfo", q: float) -> PoseT:
    axis = np.eye(3)[AXIS_INDEX[joint.axis]]
    if joint.type == "revolute":
        return np.zeros(3), quat_from_axis_angle(axis, q)
    if joint.type == "prismatic":
        return axis * q, np.array([1.0, 0.0, 0.0, 0.0])
    return np.zeros(3), np.array([1.0, 0.0, 0.0, 0.0])


def forward_kinematics(chain: list[ChainLink], base_pose: PoseT, q: dict[str, float], end: EndEffector) -> PoseT:
    """The end effector's world pose with the base at `base_pose` and the chain's joints at `q` (SI; a joint missing
    from `q` counts as 0)."""
    pos, quat = np.asarray(base_pose[0], float), np.asarray(base_pose[1], float)
    for link in chain:
        joint = link.joint
        f0 = (joint.local_pose0.pos, joint.local_pose0.quat)
        f1 = (joint.local_pose1.pos, joint.local_pose1.quat)
        move = joint_transform(joint, float(q.get(joint.path, 0.0)))
        if link.parent_is_body0:  # body1 = body0 x f0 x J(q) x f1^-1
            step = compose(*compose(*f0, *move), *inverse(*f1))
        else:  # body0 = body1 x f1 x J(q)^-1 x f0^-1
            step = compose(*compose(*f1, *inverse(*move)), *inverse(*f0))
        pos, quat = compose(pos, quat, *step)
    return compose(pos, quat, end.offset.pos, end.offset.quat)
