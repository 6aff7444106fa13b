"""Which parts of an asset a drop judges: pure reads of the asset model.

A world anchor (a joint to the world) holds its body, and every body joined to that one, where it is authored; the
other dynamic bodies are free and fall. A kinematic body is moved by animation, not physics: dropped, it would hang
in the air beside the parts that fall, and the union of their bounds could hide it.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from ....core.asset_model import AssetModel


def anchored_bodies(asset: "AssetModel") -> set[str]:
    """Bodies a world anchor holds, directly or through other joints."""
    neighbours: dict[str, set[str]] = {}
    for joint in asset.joints.values():
        if joint.enabled and joint.body0 and joint.body1:
            neighbours.setdefault(joint.body0, set()).add(joint.body1)
            neighbours.setdefault(joint.body1, set()).add(joint.body0)
    held = {body for joint in asset.world_anchors for body in (joint.body0, joint.body1) if body}
    stack = list(held)
    while stack:
        for nxt in neighbours.get(stack.pop(), ()):
            if nxt not in held:
                held.add(nxt)
                stack.append(nxt)
    return held


def free_bodies(asset: "AssetModel") -> list[str]:
    """The dynamic bodies no world anchor holds: what falls."""
    held = anchored_bodies(asset)
    return [b.path for b in asset.dynamic_bodies if b.path not in held]


def kinematic_bodies(asset: "AssetModel") -> list[str]:
    return [b.path for b in asset.bodies.values() if b.enabled and b.kinematic]
