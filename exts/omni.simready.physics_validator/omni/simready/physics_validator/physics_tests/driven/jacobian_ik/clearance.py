"""Whether a sampled pose of the arm puts two of its links into one another, so no target is sampled where the arm's
own links stop it (a UR5 sampled over its +-360 deg joints folds into itself: its shoulder stopped 95 deg short).

Each collider is an oriented box (its own frame's extent, core.geometry.collider_local_extent) on its body's pose by
forward kinematics; two boxes of bodies no joint connects collide when no separating axis parts them (the separating
axis theorem for boxes) deeper than DEPTH_SLACK of the thinner box. Boxes are looser than the shapes they hold, so a
pair already touching at home is never counted: it would reject every pose. Rejecting a pose only means sampling another one.
"""

from __future__ import annotations

from collections import Counter
from typing import TYPE_CHECKING

import numpy as np

from ....core.geometry import collider_local_extent, compose, inverse, quat_to_matrix
from .chain import ChainLink, chain_to, joint_transform

if TYPE_CHECKING:
    from ....core.asset_model import AssetModel

Box = tuple[np.ndarray, np.ndarray, np.ndarray]  # centre, rotation matrix, half extents
DEPTH_SLACK = 0.5  # boxes meeting by less than this x the thinner one's smallest half extent do not count


def body_poses_at(links: dict[str, ChainLink], base: str, base_pose, q: dict[str, float]) -> dict:
    """Every body the tree reaches, posed by forward kinematics at joint positions `q`."""
    poses = {base: (np.asarray(base_pose[0], float), np.asarray(base_pose[1], float))}
    for body in sorted(links, key=lambda b: len(chain_to(links, b))):
        link = links[body]
        joint = link.joint
        parent = joint.body0 if link.parent_is_body0 else joint.body1
        if parent not in poses:
            continue
        f0 = (joint.local_pose0.pos, joint.local_pose0.quat)
        f1 = (joint.local_pose1.pos, joint.local_pose1.quat)
        move = joint_transform(joint, float(q.get(joint.path, 0.0)))
        step = (compose(*compose(*f0, *move), *inverse(*f1)) if link.parent_is_body0
                else compose(*compose(*f1, *inverse(*move)), *inverse(*f0)))
        poses[body] = compose(*poses[parent], *step)
    return poses


class Clearance:
    """Pairs of colliders on bodies no joint connects, and whether a pose brings any of them into contact."""

    def __init__(self, asset: "AssetModel", links: dict[str, ChainLink], base: str):
        self.asset, self.links, self.base = asset, links, base
        bodies = [base, *links]
        adjacent = {frozenset((j.body0, j.body1)) for j in asset.joints.values() if j.body0 and j.body1}
        filtered = {frozenset(p) for p in asset.filtered_pairs}
        self.colliders = {b: [c for c in asset.bodies[b].colliders if c in asset.colliders
                              and asset.colliders[c].collides and collider_local_extent(asset.colliders[c])]
                          for b in bodies if b in asset.bodies}
        self.pairs = [(a, b) for i, a in enumerate(bodies) for b in bodies[i + 1:]
                      if frozenset((a, b)) not in adjacent and frozenset((a, b)) not in filtered
                      and self.colliders.get(a) and self.colliders.get(b)]
        self.ignored: set[tuple[str, str, str, str]] = set()
        self.blocking: Counter[tuple[str, str]] = Counter()  # body pairs that kept a sampled pose out, how often

    def boxes(self, poses: dict) -> dict[str, list[tuple[str, Box]]]:
        out: dict[str, list[tuple[str, Box]]] = {}
        for body, names in self.colliders.items():
            if body not in poses:
                continue
            for name in names:
                collider = self.asset.colliders[name]
                lo, hi = collider_local_extent(collider)  # type: ignore[misc]
                body_pos, body_quat = poses[body]
                pos, quat = compose(body_pos, body_quat, collider.local_pose.pos, collider.local_pose.quat)
                rot = quat_to_matrix(quat)
                out.setdefault(body, []).append((name, (np.asarray(pos) + rot @ ((lo + hi) / 2), rot, (hi - lo) / 2)))
        return out

    def touching(self, poses: dict) -> list[tuple[str, str, str, str]]:
        boxes = self.boxes(poses)
        hits = []
        for a, b in self.pairs:
            for name_a, box_a in boxes.get(a, ()):
                for name_b, box_b in boxes.get(b, ()):
                    if overlap(box_a, box_b):
                        hits.append((a, b, name_a, name_b))
        return hits

    def ignore_touching_at(self, poses: dict) -> None:
        """Collider pairs that touch in the home pose never count."""
        self.ignored = set(self.touching(poses))

    def clear(self, poses: dict) -> bool:
        hits = {(a, b) for a, b, name_a, name_b in self.touching(poses) if (a, b, name_a, name_b) not in self.ignored}
        self.blocking.update(hits)
        return not hits

    def most_blocking(self) -> str:
        """'gripper_left_motor_double_link and gripper_left_inner_double_link, in 95': the pair that kept most sampled
        poses out, for the reason of a SKIP no clear pose ends ('' when none did)."""
        if not self.blocking:
            return ""
        (a, b), count = self.blocking.most_common(1)[0]
        return f"{a.rsplit('/', 1)[-1]} and {b.rsplit('/', 1)[-1]}, in {count}"


def overlap(a: Box, b: Box, slack: float = DEPTH_SLACK) -> bool:
    """Two oriented boxes go into one another by more than `slack` x the thinner box's smallest half extent: no axis of
    the 15 the separating axis theorem tries parts them by less than that (boxes are looser than the shapes they hold:
    a UR10's forearm and wrist_2 boxes meet at most wrist angles, their meshes do not)."""
    (ca, ra, ea), (cb, rb, eb) = a, b
    d = cb - ca
    allowed = slack * float(min(ea.min(), eb.min()))
    axes = [ra[:, i] for i in range(3)] + [rb[:, i] for i in range(3)]
    axes += [np.cross(ra[:, i], rb[:, j]) for i in range(3) for j in range(3)]
    for axis in axes:
        n = float(np.linalg.norm(axis))
        if n < 1e-9:
            continue
        axis = axis / n
        reach_a = float(np.sum(ea * np.abs(ra.T @ axis)))
        reach_b = float(np.sum(eb * np.abs(rb.T @ axis)))
        if reach_a + reach_b - abs(float(d @ axis)) <= allowed:
            return False
    return True
