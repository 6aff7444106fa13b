"""One model of the asset: the USD reading with the facts an engine built put in (`adopt`), and where the two
differ, one readback entry each (`disagreements`), so the report says what the runtime did and the verdict follows it.

What the runtime decides: which bodies form each articulation and which link it is rooted at (the tests pin that
link and measure every joint's moving side from it), which joints belong to it, which mimic couplings act, which
shapes get contacts, which bodies move and feel gravity, each body's mass, centre of mass and inertia. What only the
USD says stays the USD's: names, authored attributes (the values `fix` rewrites), local frames and shapes. Pure logic
over core records.
"""

from __future__ import annotations

import copy
import dataclasses

from typing import TYPE_CHECKING

from .asset_model import ArticulationInfo, AssetModel
from .built_model import BuiltArticulation, BuiltModel, from_asset
from .results import ReadbackEntry

if TYPE_CHECKING:
    from .scene import SceneSpec


def adopt(asset: AssetModel, built: BuiltModel) -> AssetModel:
    """A copy of `asset` whose articulations, couplings, colliding shapes, moving bodies and bodies' mass properties
    are the runtime's (the
    asset model itself is not changed). Bodies and joints the engine held for its scene (`built.pinned`) keep their
    authored facts."""
    out = copy.copy(asset)
    out.bodies = {p: copy.copy(b) for p, b in asset.bodies.items()}
    out.joints = {p: copy.copy(j) for p, j in asset.joints.items()}
    out.colliders = {p: copy.copy(c) for p, c in asset.colliders.items()}
    _adopt_articulations(out, built)
    if built.couplings is not None:
        for joint in out.joints.values():
            if joint.mimic is None or not joint.mimic.enabled:
                continue
            if built.couplings.get(joint.path) == joint.mimic_reference:
                joint.mimic = dataclasses.replace(joint.mimic, rejected="")
            else:
                why = built.rejected.get(joint.path) or f"the {built.engine} runtime does not build it"
                joint.mimic = dataclasses.replace(joint.mimic, rejected=why)
    if built.colliding is not None:
        for collider in out.colliders.values():
            collider.built_collides = collider.path in built.colliding
    adopt_mass_properties(out, built)
    for body in out.bodies.values():
        if body.path in built.pinned:
            continue
        if built.dynamic is not None and built.kinematic is not None:
            body.enabled = body.path in built.dynamic or body.path in built.kinematic
            body.kinematic = body.path in built.kinematic
        if built.no_gravity is not None:
            body.gravity = body.path not in built.no_gravity
    return out


def adopt_mass_properties(model: AssetModel, built: BuiltModel) -> None:
    """Each body of `model` (bodies copied by the caller) gets the mass properties `built` states for it
    (`BodyInfo.built_mass_properties`); a body it does not state keeps None."""
    if built.mass_properties is None:
        return
    for body in model.bodies.values():
        body.built_mass_properties = built.mass_properties.get(body.path)


def with_mass_properties(asset: AssetModel, built: BuiltModel) -> AssetModel:
    """A copy of `asset` whose bodies carry `built`'s mass properties and nothing else of it: what an engine that
    cannot read its own model judges by (`built` is core.built_model.from_asset's statement)."""
    out = copy.copy(asset)
    out.bodies = {p: copy.copy(b) for p, b in asset.bodies.items()}
    adopt_mass_properties(out, built)
    return out


def _adopt_articulations(out: AssetModel, built: BuiltModel) -> None:
    authored = {a.root: a for a in out.articulations}
    for body in out.bodies.values():
        body.articulation = None
    for joint in out.joints.values():
        joint.articulation = None
    articulations = []
    for art in built.articulations:
        twin = _twin(art, authored.values())
        root = twin.root if twin is not None else art.prim
        links = set(art.links)
        joints = [j.path for j in out.joints.values()
                  if j.path in art.joints or (not j.is_dof and j.enabled and not j.exclude_from_articulation
                                              and {j.body0, j.body1} - {None} <= links and (j.body0 or j.body1))]
        fixed = art.fixed_base and art.root_link not in built.pinned
        articulations.append(ArticulationInfo(root=root, bodies=list(art.links), joints=joints, fixed_base=fixed,
                                              base_body=art.root_link))
        for path in art.links:
            if path in out.bodies:
                out.bodies[path].articulation = root
        for path in joints:
            out.joints[path].articulation = root
    out.articulations = articulations


def _twin(art: BuiltArticulation, authored) -> ArticulationInfo | None:
    """The asset's articulation sharing the most links with the runtime's (None: none shares any)."""
    best, shared = None, 0
    for candidate in authored:
        n = len(set(candidate.bodies) & set(art.links))
        if n > shared:
            best, shared = candidate, n
    return best


def disagreements(asset: AssetModel, built: BuiltModel) -> list[ReadbackEntry]:
    """One readback entry per fact the runtime built otherwise than the USD reading says (flag `differs`, or
    `ignored` for what the runtime does not build at all), in the order: articulations, couplings, shapes, bodies."""
    usd = from_asset(asset)
    engine = built.engine
    entries: list[ReadbackEntry] = []
    for art in built.articulations:
        twin = _twin(art, asset.articulations)
        if twin is None or art.root_link is None or twin.base_body == art.root_link:
            continue
        entries.append(ReadbackEntry(
            body=art.root_link, property="articulation_root", authored=twin.base_body or "", runtime=art.root_link,
            flag="differs",
            note=f"{engine} roots the articulation {twin.root} at {_name(art.root_link)}, not at {_name(twin.base_body)} "
                 f"as the joints' body0 -> body1 order reads: the tests hold the articulation by {_name(art.root_link)}"))
    built_roots = {t.root for t in (_twin(a, asset.articulations) for a in built.articulations) if t is not None}
    for authored in asset.articulations:
        if authored.root not in built_roots:
            entries.append(ReadbackEntry(
                body=authored.root, property="articulation_root", authored=authored.base_body or "", runtime="none",
                flag="ignored", note=f"{engine} builds no articulation from {authored.root} (its log says why): its joints "
                                     "are maximal joints and the tests hold nothing of it"))
    built_joints = {j for a in built.articulations for j in a.joints}
    for joint in asset.dof_joints:
        inside = joint.articulation in built_roots and not joint.exclude_from_articulation
        if inside and joint.path not in built_joints:
            entries.append(ReadbackEntry(joint=joint.path, property="articulation", authored=joint.articulation or "",
                                         runtime="none", flag="differs",
                                         note=f"{engine} simulates it outside any articulation (a maximal joint)"))
    if built.couplings is not None:
        for path, reference in (usd.couplings or {}).items():
            if built.couplings.get(path) != reference:
                why = built.rejected.get(path) or f"{engine} does not build it"
                entries.append(ReadbackEntry(joint=path, property="mimic", authored=reference, runtime="none", flag="ignored",
                                             note=f"the coupling to {_name(reference)} does not act: {why}"))
    if built.colliding is not None and usd.colliding is not None:
        for path in sorted(usd.colliding ^ built.colliding):
            collider = asset.colliders.get(path)
            if collider is None or collider.body is None:
                continue
            runtime = path in built.colliding
            entries.append(ReadbackEntry(body=collider.body, property="collides", authored=str(not runtime).lower(),
                                         runtime=str(runtime).lower(), flag="differs",
                                         note=f"{engine} gives {_name(path)} {'contacts' if runtime else 'no contacts'}"))
    pinned = set(built.pinned)
    for name, ours, theirs, words in (
            ("dynamic", usd.dynamic, built.dynamic, "moves it as a dynamic body"),
            ("gravity", _feels(usd), _feels(built), "lets gravity act on it")):
        if ours is None or theirs is None:
            continue
        for path in sorted((ours ^ theirs) - pinned):
            runtime = path in theirs
            entries.append(ReadbackEntry(body=path, property=name, authored=str(not runtime).lower(),
                                         runtime=str(runtime).lower(), flag="differs",
                                         note=f"{engine} {'' if runtime else 'never '}{words}"))
    return entries


def _feels(model: BuiltModel) -> frozenset[str] | None:
    """The dynamic bodies gravity acts on."""
    if model.dynamic is None or model.no_gravity is None:
        return None
    return model.dynamic - model.no_gravity


def _name(path: str | None) -> str:
    return (path or "?").rsplit("/", 1)[-1]


def solver_entries(asset: AssetModel, scene: "SceneSpec") -> list[ReadbackEntry]:
    """Each articulation whose authored solver iteration counts the test scene replaces (flag `differs`): every engine
    runs every articulation at the scene's counts (16 position / 1 velocity), so that verdicts do not depend on an
    author's solver tuning (docs/engine-divergences.md I2); Isaac Sim would run the authored ones."""
    entries = []
    for art in asset.articulations:
        for name, authored, used in (("solver_position_iterations", art.solver_iterations[0],
                                      scene.solver_position_iterations),
                                     ("solver_velocity_iterations", art.solver_iterations[1],
                                      scene.solver_velocity_iterations)):
            if authored is not None and authored != used:
                entries.append(ReadbackEntry(
                    body=art.root, property=name, authored=authored, runtime=used, flag="differs",
                    note=f"the tests run every articulation at {scene.solver_position_iterations} position / "
                         f"{scene.solver_velocity_iterations} velocity iterations; Isaac Sim runs the authored {authored}"))
    return entries
