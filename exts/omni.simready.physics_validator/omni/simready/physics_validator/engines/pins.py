"""What a pinned scene holds (`SceneSpec.pin_base`): each articulation's root link as the runtime elected it, once per
group of articulations held together, and the loose bodies nothing holds. Shared by the engines that author the
scene as USD (physx, Kit).

Which link: the one the runtime roots the articulation at (core.built_model: physx reads it from an attach of the asset
as authored, before any pin). UsdPhysics gives body0/body1 no parent meaning, so "the first body that is never a
joint's body1" was the tip of an arm authored child -> parent; PhysX elects the body carrying ArticulationRootAPI, else
a body a joint holds to the world, else the centre of the joint graph, whatever the order. An engine that cannot read
its own model passes none: the asset model's reading stands (`core.built_model.from_asset`).

Once per group: an articulation mounted on another by a joint outside both (a tool with its own ArticulationRootAPI on
an arm, by a fixed joint with excludeFromArticulation: ovphysx's pattern for swappable tools) is held by that joint.
Pinning it too welded the arm's tip to the world, and every arm joint read as a dead drive.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from .scene_additions import VALIDATION_ROOT

if TYPE_CHECKING:
    from ..core.asset_model import AssetModel
    from ..core.built_model import BuiltArticulation


@dataclass
class PinPlan:
    """A fixed joint from the world to `body` that holds `held` (an articulation root, or the top free body).

    Why the root API moves: ArticulationRootAPI on a rigid body makes that body the root with no election
    (ovphysx docs/population/PhysicsArticulationRootAPI.md), so a fixed joint to the world beside it stays a
    maximal constraint on a *floating* articulation (measured on ovphysx: isFixedBase = 0, the base drifted
    2e-5 m). With the API (and PhysxArticulationAPI, which must sit on the same prim) on the pin joint, that joint
    is the articulation's root joint and PhysX builds a fixed-base articulation, the way Isaac Sim's docs fix a
    base. On an Xform root the pin is authored inside the root's subtree, where a joint to the world wins the
    election: on the link the runtime elected without it, so the pin changes no root. omni.physx parses both the
    same way, so the physx and Kit engines pin alike."""

    held: str
    body: str
    joint_path: str
    move_root_api_from: str | None = None  # a rigid-body articulation root whose root APIs move onto the joint

    @property
    def articulation_prim(self) -> str:
        """The prim PhysX names the articulation by once pinned (the joint, when the root API moved onto it)."""
        return self.joint_path if self.move_root_api_from else self.held


def plan_pins(asset: "AssetModel", built: "list[BuiltArticulation] | None" = None) -> list[PinPlan]:
    """One pin per group of articulations held together whose base is free (none for a tree held by a revolute or
    prismatic joint to the world: a weld would freeze that joint; none for an Xform root already fixed by a joint
    inside it), on the root link the runtime elected (`built`; None: as the asset model reads it); for an asset
    without articulations, the top-most dynamic body."""
    from ..core.built_model import from_asset

    if not asset.articulations:
        if any(j.type != "fixed" for j in asset.world_anchors):
            return []  # held by a revolute or prismatic joint to the world: a pin would freeze it (newton's box_pendulum)
        roots = sorted((b.path for b in asset.dynamic_bodies), key=lambda p: (p.count("/"), p))
        return [PinPlan(held=roots[0], body=roots[0], joint_path=f"{VALIDATION_ROOT}/PinBase")] if roots else []
    articulations = built if built is not None else from_asset(asset).articulations
    held = held_indices(asset, articulations)
    pins = []
    for index, art in enumerate(articulations):
        twin = _authored_root(asset, art)
        if art.root_link is None or twin is None or index in held:
            continue
        links = set(art.links)
        anchors = [j for j in asset.world_anchors if j.body0 in links or j.body1 in links]
        if any(j.type != "fixed" for j in anchors):
            continue
        if twin.root in asset.bodies:
            pins.append(PinPlan(twin.root, art.root_link, f"{VALIDATION_ROOT}/PinBase{index or ''}",
                                move_root_api_from=twin.root))
        elif not art.fixed_base:  # one prim can name several articulations (engines/physx/articulations.py): one name each
            pins.append(PinPlan(twin.root, art.root_link, f"{twin.root}/PhysicsValidatorPinBase{index or ''}"))
    return pins


def _authored_root(asset: "AssetModel", art: "BuiltArticulation"):
    """The asset's articulation (its ArticulationRootAPI prim) the runtime's articulation was built from."""
    links = set(art.links)
    shared = [(len(links & set(a.bodies)), a) for a in asset.articulations]
    shared = [s for s in shared if s[0]]
    return max(shared, key=lambda s: s[0])[1] if shared else None


def held_by_another(asset: "AssetModel", articulations: "list[BuiltArticulation]") -> set[str]:
    """The articulations (their prims) a joint outside them mounts on another articulation (`held_indices`)."""
    return {articulations[i].prim for i in held_indices(asset, articulations)}


def held_indices(asset: "AssetModel", articulations: "list[BuiltArticulation]") -> set[int]:
    """The articulations (their indices: one prim can name several) a joint outside them mounts on another
    articulation: within each group joined by such joints, all but one. The one kept is the articulation whose root link
    no such joint holds (an arm, not the tool mounted by its root), the one with the most links among several."""
    owner = {link: a for a, art in enumerate(articulations) for link in art.links}
    roots = [art.root_link for art in articulations]
    size = [len(art.links) for art in articulations]
    group = list(range(len(articulations)))

    def find(x: int) -> int:
        while group[x] != x:
            x = group[x]
        return x

    mounted: set[int] = set()  # articulations whose root link a cross joint holds
    for joint in asset.joints.values():
        if not joint.enabled or joint.body0 is None or joint.body1 is None:
            continue
        a, b = owner.get(joint.body0), owner.get(joint.body1)
        if a is None or b is None or a == b:
            continue
        group[find(a)] = find(b)
        for index, body in ((a, joint.body0), (b, joint.body1)):
            if roots[index] == body:
                mounted.add(index)
    held: set[int] = set()
    members: dict[int, list[int]] = {}
    for index in range(len(articulations)):
        members.setdefault(find(index), []).append(index)
    for indices in members.values():
        if len(indices) < 2:
            continue
        keep = max(indices, key=lambda i: (i not in mounted, size[i], -i))
        held.update(i for i in indices if i != keep)
    return held


def plan_held_free(asset: "AssetModel", pinned: set[str]) -> list[str]:
    """pin_base: the dynamic bodies outside every articulation that no joint holds as its child. With no floor in the
    driven-joint tests they would fall for ever and grow the explosion watch's bounds (newton's sensor_contact_scene:
    ratio 379 on physx, a FAIL 'exploded'); they are held where they are authored, as the sapien engine holds them."""
    children = set()
    for joint in asset.joints.values():
        if not joint.enabled:
            continue
        if joint.body1:
            children.add(joint.body1)
        elif joint.body0:
            children.add(joint.body0)
    return [b.path for b in asset.dynamic_bodies
            if b.articulation is None and b.path not in children and b.path not in pinned]
