"""The arm's end effector and the kinematic chain to it, and where the authored kinematics put the end effector for
any joint positions (forward kinematics over the joint frames): pure numpy over the AssetModel.

End effector, as NVIDIA's `ee_discovery` finds it, spec sources only and no name guessing along the chain:
1. the last entry of `isaac:physics:robotLinks`;
2. else the tip of the chain: the one body at the end of the most DOF joints from the base whose name is not a
   gripper part (finger, jaw, knuckle, gripper, pad, hand, inner, outer, left, right); ambiguous tips decide nothing;
then a tool frame fixed under that link (tool0, flange, tcp, ...) is preferred, as theirs does.

Forward kinematics: a joint holds `body0 x localPose0 x J(q) == body1 x localPose1`, J(q) a turn about (revolute) or a
shift along (prismatic) the joint axis by q, the joint position as the runtime reports it (zero where the frames
coincide); fixed joints have J = identity. Walked from the base's pose outward along the chain to the end effector.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

import numpy as np

from ....core.asset_model import Pose
from ....core.geometry import AXIS_INDEX, compose, inverse, quat_from_axis_angle
from ....core.usd.markers import TOOL_FRAME_NAMES

if TYPE_CHECKING:
    from ....core.asset_model import AssetModel, JointInfo

NON_CHAIN_TOKENS = ("finger", "jaw", "knuckle", "gripper", "pad", "hand", "inner", "outer", "left", "right")
PoseT = tuple[np.ndarray, np.ndarray]


@dataclass
class EndEffector:
    body: str  # the rigid body it is fixed to
    offset: Pose  # the end-effector frame in that body's frame
    source: str  # how it was found: robot_links, chain_tip (+ tool frame name)
    path: str  # the prim named as the end effector (the body, or its tool frame)


@dataclass
class ChainLink:
    joint: "JointInfo"
    parent_is_body0: bool  # walking outward, the joint's body0 is the parent side


def tree_from(asset: "AssetModel", base: str) -> dict[str, ChainLink]:
    """Body -> the joint that reaches it from the base, for every body the enabled joints connect to `base`."""
    reached, frontier = {base: None}, [base]
    links: dict[str, ChainLink] = {}
    while frontier:
        body = frontier.pop(0)
        for joint in asset.joints.values():
            if not joint.enabled or joint.loop_closing or not (joint.body0 and joint.body1):
                continue
            for parent, child, forward in ((joint.body0, joint.body1, True), (joint.body1, joint.body0, False)):
                if parent == body and child not in reached:
                    reached[child] = None
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


def find_end_effector(asset: "AssetModel", base: str) -> EndEffector | None:
    links = tree_from(asset, base)
    tip, source = None, ""
    for path in reversed(asset.markers.robot_links):
        if path in asset.bodies and (path in links or path == base):
            tip, source = path, "robot_links"
            break
    if tip is None:
        depth = {body: sum(1 for link in chain_to(links, body) if link.joint.is_dof) for body in links}
        candidates = [b for b in links if not any(t in b.rsplit("/", 1)[-1].lower() for t in NON_CHAIN_TOKENS)]
        deepest = max((depth[b] for b in candidates), default=0)
        tips = [b for b in candidates if depth[b] == deepest]
        roots = {_dof_ancestor(links, b) for b in tips}  # welded children (tool0 as a body) hang from one link
        if deepest > 0 and len(roots) == 1:
            tip, source = roots.pop(), "chain_tip"
            welded = [b for b in tips if b != tip and b.rsplit("/", 1)[-1].lower() in TOOL_FRAME_NAMES]
            if len(welded) == 1:  # the tool output face as a body of its own
                return EndEffector(welded[0], Pose(), f"{source}, tool frame {welded[0].rsplit('/', 1)[-1]}", welded[0])
    if tip is None:
        return None
    for frame in asset.markers.tool_frames:
        if frame.body == tip:
            return EndEffector(tip, frame.local, f"{source}, tool frame {frame.path.rsplit('/', 1)[-1]}", frame.path)
    return EndEffector(tip, Pose(), source, tip)


def _parent(links: dict[str, ChainLink], body: str) -> str | None:
    link = links.get(body)
    if link is None:
        return None
    return link.joint.body0 if link.parent_is_body0 else link.joint.body1


def _dof_ancestor(links: dict[str, ChainLink], body: str) -> str:
    """The body itself, or the nearest ancestor reached through a DOF joint (climbing fixed joints)."""
    while body in links and not links[body].joint.is_dof:
        body = _parent(links, body) or body
        if body not in links:
            break
    return body


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
