"""What an engine built from the asset: the facts the tests judge by (`BuiltModel`), as the runtime holds them.

The USD reading (core/usd) says what the asset authors; the runtime decides what that means, and where the two differ
the runtime is what moves: PhysX elects an articulation's root link by the joint graph (body0/body1 carry no parent
meaning in UsdPhysics), drops a mimic coupling whose reference is not a joint, builds a trigger shape that never
touches anything, leaves gravity off a body that disables it, computes each body's mass from whichever of the MassAPI
spellings is authored (mass or density, on the body or its colliders) or from the default density. An engine reads
these facts from what it built (`Engine.built_model()`, `EngineCapabilities.reads_built_model`); `from_asset` is the
same record as the USD reading says it, for an engine that cannot say (and the twin every comparison is made against).
Pure data, SI, Z-up.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING

import numpy as np

from .inertial import MassProperties

if TYPE_CHECKING:
    from .asset_model import AssetModel

Pose = tuple[np.ndarray, np.ndarray]  # (position m, quaternion wxyz)


@dataclass(frozen=True)
class BuiltArticulation:
    """One articulation as the runtime built it."""

    prim: str  # the prim the runtime names it by
    root_link: str | None  # the link it is rooted at (PhysX: the elected root; Newton: the tree's root body)
    links: tuple[str, ...]  # its rigid bodies, the root first
    joints: tuple[str, ...] = ()  # its one-DOF joints
    fixed_base: bool = False  # the runtime holds its root to the world


@dataclass
class BuiltModel:
    """The facts an engine built from one asset. None in a field: the engine cannot say (the USD reading stands)."""

    engine: str
    articulations: list[BuiltArticulation] = field(default_factory=list)
    couplings: dict[str, str] | None = None  # follower joint -> reference joint, for every coupling the runtime enforces
    colliding: frozenset[str] | None = None  # collider prims the runtime gives contacts (not triggers, not disabled)
    dynamic: frozenset[str] | None = None  # bodies the runtime moves (not static, not kinematic)
    kinematic: frozenset[str] | None = None  # bodies the runtime moves only by their targets
    no_gravity: frozenset[str] | None = None  # dynamic bodies gravity does not act on
    poses: dict[str, Pose] = field(default_factory=dict)  # each simulated body's world pose as built
    # each simulated body's mass (kg), centre of mass (body frame, m) and inertia (kg m^2 about the centre of mass, in
    # the body's axes) as the runtime computed them
    mass_properties: dict[str, MassProperties] | None = None
    rejected: dict[str, str] = field(default_factory=dict)  # prim -> why the runtime did not build what it authors
    pinned: tuple[str, ...] = ()  # bodies the engine held to the world for the test's scene (never the asset's)

    def articulation_of(self, body: str) -> BuiltArticulation | None:
        return next((a for a in self.articulations if body in a.links), None)


def from_asset(asset: "AssetModel") -> BuiltModel:
    """The model as the USD reading says it (the asset model's own facts): what every engine's model is compared with,
    and what stands where an engine cannot read its own (mass properties: UsdPhysics's rules over the authored
    spellings and shapes, core.usd_mass)."""
    from .usd_mass import usd_mass_properties

    articulations = [BuiltArticulation(a.root, a.base_body, tuple(dict.fromkeys([*([a.base_body] if a.base_body else []),
                                                                                   *a.bodies])),
                                       tuple(j for j in a.joints if j in asset.joints and asset.joints[j].is_dof),
                                       a.fixed_base)
                     for a in asset.articulations]
    couplings = {j.path: j.mimic_reference for j in asset.joints.values()
                 if j.mimic_reference is not None and (j.mimic is None or j.mimic.enabled)}
    enabled = [b for b in asset.bodies.values() if b.enabled]
    return BuiltModel(
        engine="usd",
        articulations=articulations,
        couplings=couplings,
        colliding=frozenset(c.path for c in asset.colliders.values() if c.collision_enabled and not c.trigger),
        dynamic=frozenset(b.path for b in enabled if not b.kinematic),
        kinematic=frozenset(b.path for b in enabled if b.kinematic),
        no_gravity=frozenset(b.path for b in enabled if not b.kinematic and not b.gravity),
        poses={b.path: (np.asarray(b.world_pose.pos, float), np.asarray(b.world_pose.quat, float)) for b in enabled},
        mass_properties=usd_mass_properties(asset),
    )
