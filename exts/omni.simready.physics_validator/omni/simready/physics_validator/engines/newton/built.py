"""What Newton built from the asset, as the tests' facts (core.built_model.BuiltModel), read from its model.

- articulations: Newton's own (`articulation_start`, the joints of each), rooted at the child of the joint whose parent
  is the world. Newton takes each joint's body0 as the parent, so an arm authored child -> parent is rooted at its tip
  whatever carries ArticulationRootAPI; a pinned scene (`floating=False`) fixes that root. The articulations this
  engine makes of joints outside any ArticulationRootAPI (`loose_*`, importer.articulate_loose_joints: PhysX builds
  those as maximal joints) and the one-body "articulation" of each free body are not articulations of the asset;
- couplings: Newton's mimic couplings (compat.mimics; mapping.restore_mimics sets them as the asset authors them,
  unless newton:mimicEnabled is false);
- colliding shapes: `shape_flags & COLLIDE_SHAPES` (Newton 1.8 has no trigger shapes: it imports a PhysxTriggerAPI
  collider as an ordinary one; mapping.silence_triggers clears its flag, as PhysX builds it);
- bodies: `body_flags` (dynamic or kinematic; Newton imports a body with rigidBodyEnabled = false as a dynamic body);
  gravity acts on every dynamic body (Newton 1.8 has no per-body switch: physxRigidBody:disableGravity is not read);
  the start poses from the state at load;
- mass properties: `body_mass`, `body_com` (body frame) and `body_inertia` (about the centre of mass, body axes), as
  Newton's importer computed them from the MassAPI spellings and the shapes.
"""

from __future__ import annotations

import numpy as np

from ...core.built_model import BuiltArticulation, BuiltModel
from ...core.inertial import MassProperties
from . import compat
from .runtime import import_newton

wp, newton = import_newton()

LOOSE_PREFIX = "loose_"  # importer.articulate_loose_joints' label


def read_built_model(engine) -> BuiltModel:
    model, asset = engine._model, engine._asset
    labels = list(model.body_label)
    joint_labels = list(model.joint_label)
    parent, child = model.joint_parent.numpy(), model.joint_child.numpy()
    joint_type = model.joint_type.numpy()
    starts = model.articulation_start.numpy()
    fixed = int(newton.JointType.FIXED)
    one_dof = {int(newton.JointType.REVOLUTE), int(newton.JointType.PRISMATIC)}
    articulations, pinned = [], []
    authored = {a.root for a in asset.articulations}
    authored_links = {b for a in asset.articulations for b in a.bodies}
    for a, label in enumerate(model.articulation_label):
        joints = range(int(starts[a]), int(starts[a + 1]))
        bodies = {labels[int(child[j])] for j in joints}
        if str(label).startswith(LOOSE_PREFIX) or not (str(label) in authored or bodies & authored_links):
            continue  # joints outside any ArticulationRootAPI, or a free body's own joint: no articulation of the asset
        roots = [j for j in joints if parent[j] < 0]
        root = labels[int(child[roots[0]])] if roots else None
        links = [root] if root else []
        links += [labels[int(child[j])] for j in joints if parent[j] >= 0 and labels[int(child[j])] not in links]
        anchored = bool(roots) and int(joint_type[roots[0]]) == fixed
        articulations.append(BuiltArticulation(
            prim=str(label), root_link=root, links=tuple(links),
            joints=tuple(joint_labels[j] for j in joints if int(joint_type[j]) in one_dof and joint_labels[j] in asset.joints),
            fixed_base=anchored))
        if anchored and root and engine._spec is not None and engine._spec.pin_base and not _authored_anchor(asset, root):
            pinned.append(root)
    couplings = {joint_labels[j]: joint_labels[r] for j, (r, _, _) in compat.mimics(model).items()}
    rejected = {j.path: f"its reference {j.mimic_reference} is not a joint Newton imports"
                for j in asset.joints.values()
                if j.mimic is not None and j.mimic.enabled and j.path not in couplings
                and j.mimic_reference not in joint_labels}
    flags = model.body_flags.numpy()
    kinematic_flag = int(newton.BodyFlags.KINEMATIC)
    index = engine._body_index
    kinematic = {p for p, i in index.items() if int(flags[i]) & kinematic_flag}
    shape_flags = model.shape_flags.numpy()
    collide = int(newton.ShapeFlags.COLLIDE_SHAPES)
    colliding = {str(label) for s, label in enumerate(model.shape_label) if int(shape_flags[s]) & collide}
    body_q = engine._state0.body_q.numpy().astype(float)
    poses = {p: (body_q[i, :3].copy(), np.array([body_q[i, 6], *body_q[i, 3:6]])) for p, i in index.items()}
    return BuiltModel(
        engine=engine.name, articulations=articulations, couplings=couplings, colliding=frozenset(colliding),
        dynamic=frozenset(set(index) - kinematic), kinematic=frozenset(kinematic), no_gravity=frozenset(),
        poses=poses, rejected=rejected, pinned=tuple(pinned), mass_properties=_mass_properties(model, index),
    )


def _mass_properties(model, index: dict[str, int]) -> dict[str, MassProperties]:
    mass, com, inertia = model.body_mass.numpy(), model.body_com.numpy(), model.body_inertia.numpy()
    return {p: MassProperties(float(mass[i]), np.asarray(com[i], float).copy(),
                              0.5 * (np.asarray(inertia[i], float) + np.asarray(inertia[i], float).T))
            for p, i in index.items()}


def _authored_anchor(asset, body: str) -> bool:
    return any(j.type == "fixed" and body in (j.body0, j.body1) for j in asset.world_anchors)
