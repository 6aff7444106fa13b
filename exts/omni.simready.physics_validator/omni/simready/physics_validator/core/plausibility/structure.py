"""How the bodies hang together, as the runtime built them: the joint that moves each body (its joint toward the
articulation's root link), and the pairs of bodies a joint keeps from colliding."""

from __future__ import annotations

from collections import deque
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from ..asset_model import AssetModel


def moving_joints(asset: "AssetModel") -> dict[str, str]:
    """{body: the revolute or prismatic joint that moves it}: its joint toward the root link of its articulation (as
    the runtime roots it), or for a body outside any articulation the one such joint it has with another body."""
    neighbours: dict[str, list[tuple[str, str]]] = {}
    for joint in asset.joints.values():
        if joint.enabled and joint.body0 and joint.body1:
            neighbours.setdefault(joint.body0, []).append((joint.body1, joint.path))
            neighbours.setdefault(joint.body1, []).append((joint.body0, joint.path))
    out: dict[str, str] = {}
    reached: set[str] = set()
    for art in asset.articulations:
        root = art.base_body or (art.bodies[0] if art.bodies else None)
        if root is None:
            continue
        reached.add(root)
        queue = deque([root])
        while queue:
            body = queue.popleft()
            for other, link in neighbours.get(body, ()):
                if other not in reached:
                    reached.add(other)
                    moving = link if asset.joints[link].is_dof else out.get(body)  # welded: moves with its parent
                    if moving is not None:
                        out[other] = moving
                    queue.append(other)
    for body in asset.bodies:
        if body not in reached:
            dofs = [j for _, j in neighbours.get(body, ()) if asset.joints[j].is_dof]
            if len(dofs) == 1:
                out[body] = dofs[0]
    return out


def jointed_pairs(asset: "AssetModel") -> set[frozenset[str]]:
    """Body pairs a joint keeps apart from collision: every enabled joint with physics:collisionEnabled false (the
    UsdPhysics default), and every joint of an articulation (PhysX never collides a link with its parent)."""
    return {frozenset((j.body0, j.body1)) for j in asset.joints.values()
            if j.enabled and j.body0 and j.body1 and (not j.collision_enabled or j.articulation is not None)}
