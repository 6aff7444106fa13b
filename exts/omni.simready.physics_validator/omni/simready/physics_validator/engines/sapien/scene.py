"""Build one SAPIEN scene from the AssetModel, in the order omni.physx's parsing implies.

Static geometry first, then articulations (reduced coordinates), free rigid bodies, the joints left
outside articulations (maximal D6), then the DOF list in asset order, collision filters, pinning,
initial velocities, bounds and the drop placement. Reads only the model, never USD.
"""

from __future__ import annotations

import numpy as np

from ...core.asset_model import AssetModel
from ...core.scene import SceneSpec
from .articulations import add_articulation, articulated_bodies, articulation_trees, in_tree
from .bounds import BodyBounds
from .builder import Built, SceneBuilder
from .dofs import Dof
from .filters import setup_collision_filters
from .initial_state import apply_initial_velocities, apply_pin_base, place_bottom
from .joints import add_maximal_joint


def build_scene(asset: AssetModel, spec: SceneSpec, scene, warn) -> tuple[Built, BodyBounds, np.ndarray]:
    """(what was built, the bounds over it, each DOF's drive target at load: NaN without a drive)."""
    b = SceneBuilder(asset, spec, scene, warn)
    b.check_references()
    if spec.ground is not None:
        b.add_ground(spec.ground)
    if spec.ramp is not None:
        b.add_ramp(spec.ramp)
    articulated = articulated_bodies(b)
    colliders_of = b.colliders_by_body()
    # 1. static geometry: colliders without a body, and disabled bodies
    static_colliders = [c for c in asset.colliders.values() if c.body is None or c.body not in asset.bodies]
    if static_colliders:
        b.add_static(None, static_colliders)
    for body in asset.bodies.values():
        if not body.enabled:
            b.add_static(body, colliders_of.get(body.path, []))
    # 2. articulations (reduced coordinates), 3. free rigid bodies, 4. joints outside articulations
    maximal_joints = [j for j in asset.joints.values() if j.enabled and not in_tree(b, j, articulated)]
    for order, info in articulation_trees(b, articulated, maximal_joints):
        add_articulation(b, order, info, colliders_of)
    for body in asset.bodies.values():
        if body.enabled and body.path not in b.built.bodies:
            b.add_rigid(body, colliders_of.get(body.path, []))
    for joint in maximal_joints:
        add_maximal_joint(b, joint)
    # every enabled revolute/prismatic joint of the asset, in asset order; unsimulated ones read NaN
    simulated = {d.path: d for d in b.built.dofs}
    b.built.dofs = [simulated.get(j.path) or Dof(j.path, j.type) for j in asset.dof_joints]
    setup_collision_filters(asset, b.built.shapes, warn)
    apply_pin_base(b, maximal_joints)
    apply_initial_velocities(b)
    bounds = BodyBounds(b.built.bodies.values())
    if spec.place_bottom_at is not None or spec.place_xy is not None:
        place_bottom(b, bounds, spec.place_bottom_at, spec.place_xy)
    targets = np.array([_initial_target(asset, d) for d in b.built.dofs], float)
    for body in asset.bodies.values():
        if body.starts_asleep:
            warn(f"{body.path}: physxRigidBody starts-asleep is ignored (the body starts awake)")
    return b.built, bounds, targets


def _initial_target(asset: AssetModel, dof: Dof) -> float:
    joint = asset.joints.get(dof.path)
    if joint is None or joint.drive is None:
        return float("nan")
    return float(joint.drive.target_position)
