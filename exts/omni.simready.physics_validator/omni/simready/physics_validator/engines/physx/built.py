"""What PhysX built from the wrapper stage, as the tests' facts (core.built_model.BuiltModel), read from the runtime.

- articulations: PhysX's own (session `dofJointPath`, `isFixedBase`, row by row: articulations.py), each with its links
  in PhysX's link order, the root link first (a tensor binding's `body_names` over the articulation: metadata only, no
  read, so nothing warms PhysX up before the first step); leaf names are matched to the link prims the session lists
  for it. One root prim can give several articulations (an Xform root cut by an excluded joint). PhysX elects the root:
  the body carrying ArticulationRootAPI, else a body a joint holds to the world, else the centre of the joint graph
  (body0/body1 order plays no part: measured, a 7-body chain under an Xform root is rooted at its 4th body however its
  joints are authored);
- bodies: those PhysX simulates (session `mass` rows: a body with rigidBodyEnabled = false is not one), which of them
  gravity acts on (`disableGravity`), where each starts (the binding snapshot at attach);
- couplings: ovphysx has no read of its mimic constraints. The couplings are those its parser builds from what is
  authored (PhysxMimicJointAPI and NewtonMimicAPI, the latter unless newton:mimicEnabled = false: measured), less
  those its log rejects (a reference that is not a joint) and those whose follower and reference are not DOFs of one
  articulation (ovphysx docs/simulation_setup/articulations.md); tests/engines/conformance checks each case by moving
  the reference;
- mass properties: the session's `mass`, `inertia` (about the centre of mass, in the body's axes: measured, a box
  turned 30 deg about X reads its rotated tensor) and `centerOfMassPosition` (body frame) of every simulated body and
  link: what PhysX computed from whichever MassAPI spelling is authored (a 6 x 6 x 10 cm box at 7850 kg/m^3 reads
  2.826 kg as a body mass, a body density, a collider mass or a collider density; with nothing authored 0.36 kg, the
  default 1000 kg/m^3). A session read: it works before the first step without warming PhysX up;
- colliding shapes: ovphysx has no per-shape flag read either. A trigger (PhysxTriggerAPI) is built with
  eSIMULATION_SHAPE cleared and a shape with collisionEnabled = false without it (docs/population/PhysxTriggerAPI.md,
  PhysicsCollisionAPI.md): neither gets contacts; the conformance suite drops each on the ground.
"""

from __future__ import annotations

import re
import weakref
from typing import TYPE_CHECKING

import numpy as np

from ...core.built_model import BuiltArticulation, BuiltModel
from ...core.inertial import MassProperties
from .articulations import articulation_rows
from .session import read_columns

if TYPE_CHECKING:
    from ...core.asset_model import AssetModel
    from .discovery import Built


def built_articulations(runtime, physx, stage) -> list[BuiltArticulation]:
    """PhysX's articulations (session `dofJointPath`, `isFixedBase`, row by row: one prim can name several), each with
    its links in PhysX's order, the root first (articulations.py)."""
    return [BuiltArticulation(prim=row.prim, root_link=row.links[0] if row.links else None, links=row.links,
                              joints=row.dofs, fixed_base=row.fixed_base)
            for row in articulation_rows(runtime, physx, stage)]


class _ElectedCache:
    """The articulations PhysX elects from one asset model as authored, kept for as long as that model lives in this
    process: every pinned test of an asset gets the same model from run.asset_run, so its unpinned attach is paid once."""

    def __init__(self) -> None:
        self._entries: dict[int, tuple[weakref.ref, list[BuiltArticulation]]] = {}

    def get(self, asset: "AssetModel") -> list[BuiltArticulation] | None:
        entry = self._entries.get(id(asset))
        return entry[1] if entry is not None and entry[0]() is asset else None

    def put(self, asset: "AssetModel", articulations: list[BuiltArticulation]) -> list[BuiltArticulation]:
        key = id(asset)
        self._entries[key] = (weakref.ref(asset, lambda _ref: self._entries.pop(key, None)), articulations)
        return articulations


elected_cache = _ElectedCache()


def read_built_model(engine) -> BuiltModel:
    """The facts of the loaded engine (module docstring)."""
    built, runtime, physx, asset = engine.built, engine._runtime, engine._physx, engine._asset
    SOT = runtime.SimObjectType
    articulations = built_articulations(runtime, physx, engine._stage)
    gravity_off: set[str] = set()
    for sim_type in (SOT.RIGID_BODY, SOT.ARTICULATION_LINK):
        column = read_columns(physx, sim_type, ["disableGravity"]).get("disableGravity", {})
        gravity_off.update(p for p, v in column.items() if np.size(v) and float(np.ravel(v)[0]) != 0.0)
    simulated = set(built.bodies)
    wrapper = engine.wrapper
    held = set(wrapper.pinned_bodies) if wrapper is not None else set()
    kinematic = {p for p in simulated if asset.bodies[p].kinematic} | (set(wrapper.held_free if wrapper else ()) & simulated)
    dynamic = simulated - kinematic
    couplings, rejected = _couplings(asset, built, engine.warnings)
    colliding = frozenset(c.path for c in asset.colliders.values() if c.collision_enabled and not c.trigger)
    pos, quat = engine._frame.poses_to_si(built.state_io.snapshot["pose"][:, :3], built.state_io.snapshot["pose"][:, 3:7]) \
        if built.bodies else (np.zeros((0, 3)), np.zeros((0, 4)))
    return BuiltModel(
        engine=engine.name, articulations=articulations, couplings=couplings, colliding=colliding,
        dynamic=frozenset(dynamic), kinematic=frozenset(kinematic), no_gravity=frozenset(gravity_off & dynamic),
        poses={p: (pos[i].copy(), quat[i].copy()) for i, p in enumerate(built.bodies)}, rejected=rejected,
        pinned=tuple(sorted(held)), mass_properties=_mass_properties(physx, SOT, engine._frame, simulated),
    )


def _mass_properties(physx, SOT, frame, bodies: set[str]) -> dict[str, MassProperties]:
    """Mass (kg), centre of mass (body frame, m) and inertia about it (kg m^2) of each simulated body, from the session
    columns in stage units."""
    kg, m = frame.kilograms_per_unit, frame.meters_per_unit
    out: dict[str, MassProperties] = {}
    for sim_type in (SOT.RIGID_BODY, SOT.ARTICULATION_LINK):
        columns = read_columns(physx, sim_type, ["mass", "inertia", "centerOfMassPosition"])
        masses, inertias, coms = (columns.get(name, {}) for name in ("mass", "inertia", "centerOfMassPosition"))
        for path, mass in masses.items():
            if path in bodies and path in inertias and path in coms:
                tensor = np.asarray(inertias[path], float).reshape(3, 3).T  # column-major
                out[path] = MassProperties(float(mass[0]) * kg, np.asarray(coms[path], float)[:3] * m,
                                           0.5 * (tensor + tensor.T) * kg * m * m)
    return out


def _couplings(asset: "AssetModel", built: "Built", logged: list[str]) -> tuple[dict[str, str], dict[str, str]]:
    """(follower -> reference for the couplings PhysX builds, follower -> why for the authored ones it does not)."""
    where = {d.path: d.art for d in built.dofs}
    couplings: dict[str, str] = {}
    rejected: dict[str, str] = {}
    for joint in asset.joints.values():
        reference = joint.mimic_reference
        if reference is None or joint.mimic is None or not joint.mimic.enabled:
            continue
        named = re.compile(re.escape(joint.path) + r"(?![\w/])")  # the follower's path, not a longer one's prefix
        record = next((w for w in logged if "MimicJoint" in w and named.search(w)), None)
        if record is not None:
            rejected[joint.path] = record.removeprefix("ovphysx error: ")
        elif where.get(joint.path, -1) < 0 or where.get(joint.path) != where.get(reference, -2):
            rejected[joint.path] = (f"{joint.name} and its reference {reference.rsplit('/', 1)[-1]} are not degrees of "
                                    "freedom of one articulation, and PhysX couples only those")
        else:
            couplings[joint.path] = reference
    return couplings, rejected
