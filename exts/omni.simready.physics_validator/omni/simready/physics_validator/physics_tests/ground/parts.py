"""Which parts of an asset a ground test judges (ground_drop, ground_stability): pure reads of the asset model.

A world anchor (a joint to the world) holds its body, and every body joined to that one, where it is authored; the
other dynamic bodies are free and fall. A kinematic body is moved by animation, not physics: dropped, it would hang
in the air beside the parts that fall, and the union of their bounds could hide it; so would a part the runtime
builds static (its rigid body disabled) or leaves gravity off.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from ...core.asset_model import AssetModel


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


def parts_that_do_not_fall(asset: "AssetModel") -> list[tuple[str, str]]:
    """(body, why) for every rigid body no anchor holds that the runtime does not let fall: built static (its rigid body
    disabled) or with gravity off. The asset model says it as the engine built it (core.runtime_model)."""
    held = anchored_bodies(asset)
    out = []
    for body in asset.bodies.values():
        if body.path in held or body.kinematic:
            continue
        if not body.enabled:
            out.append((body.path, "built static (physics:rigidBodyEnabled = false)"))
        elif not body.gravity:
            out.append((body.path, "gravity does not act on it (physxRigidBody:disableGravity = true)"))
    return out
