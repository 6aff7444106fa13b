"""Which articulation jacobian_ik solves on, and the joints the runtime simulates outside it.

The runtime's Jacobian covers one articulation. The arm solved is the articulation the scene holds (its root link is
what the pin holds, `BuiltModel.pinned`, or the asset's own anchor holds it), the one with the most joints among several.
A joint the test could command that the runtime keeps outside every articulation (a maximal joint: one with
`physics:excludeFromArticulation` that closes no loop, and the joints of the bodies beyond it) and that hangs on this
articulation carries the arm on where the runtime gives no Jacobian: the test cannot judge that chain
(CHAIN_OUTSIDE_ARTICULATION). A tool that is an articulation of its own, mounted by an excluded fixed joint (ovphysx's
pattern for a swappable tool), adds no such joint: the arm is judged on its own articulation.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ....core.quantities import listed
from .chain import chain_to, counts, tree_from

if TYPE_CHECKING:
    from ....core.asset_model import ArticulationInfo, AssetModel, JointInfo
    from ....core.context import TestContext


def held_articulation(ctx: "TestContext") -> "ArticulationInfo | None":
    """The runtime's articulation the scene holds (the most joints among several held), or None."""
    pinned = set(ctx.built.pinned) if ctx.built is not None else set()
    rooted = [a for a in ctx.asset.articulations if a.base_body]
    held = [a for a in rooted if a.base_body in pinned or a.fixed_base] or rooted
    joints = ctx.asset.joints
    return max(held, key=lambda a: sum(counts(joints[j]) for j in a.joints if j in joints), default=None)


def maximal_joints_beyond(asset: "AssetModel", base: str, commandable: set[str]) -> list["JointInfo"]:
    """The joints the test could command that hang on the articulation rooted at `base` outside every articulation."""
    links = tree_from(asset, base)
    return [link.joint for link in links.values()
            if link.joint.is_dof and link.joint.articulation is None and link.joint.path in commandable]


def outside_story(ctx: "TestContext", beyond: list["JointInfo"]) -> str:
    """The SKIP reason: which joints, why the runtime left them out, what it built instead."""
    held = held_articulation(ctx)
    base = held.base_body if held is not None else None
    links = tree_from(ctx.asset, base) if base else {}
    cut = {link.joint.name for joint in beyond for link in chain_to(links, _child(links, joint) or "")
           if link.joint.exclude_from_articulation}
    why = (f" ({listed(sorted(cut), 3)}: physics:excludeFromArticulation on a joint that closes no loop)" if cut else "")
    engine = ctx.built.engine if ctx.built is not None else ctx.engine.name
    inside = listed([b.rsplit("/", 1)[-1] for b in (held.bodies if held is not None else [])], 4)
    return (f"the arm goes on past the articulation the {engine} runtime built ({inside}) through "
            f"{listed([j.name for j in beyond], 3)}: the runtime simulates "
            f"{'them as ordinary (maximal) joints' if len(beyond) > 1 else 'it as an ordinary (maximal) joint'}{why}, and "
            "its articulation Jacobian does not reach past the articulation")


def _child(links, joint: "JointInfo") -> str | None:
    return next((b for b in (joint.body0, joint.body1) if b in links and links[b].joint is joint), None)
