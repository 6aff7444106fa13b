"""Articulations in reduced coordinates, as omni.physx builds them from ArticulationRootAPI.

Bodies under an articulation root become links of trees walked from the base (or from the world when
a joint to the world moves); a joint that would close a loop, or that the tree cannot hold, stays a
maximal joint (joints.py). maxJointVelocity is enforced here only, as in omni.physx.
"""

from __future__ import annotations

import math

import numpy as np
import sapien
from sapien import physx

from ...core.asset_model import JointInfo
from ...core.geometry import compose, inverse
from .builder import SceneBuilder
from .dofs import Dof
from .joints import PX_MAX_F32, joint_frames
from .poses import IDENTITY, np_pose, pose, twist_angle

# omni.physx's default physxJoint:maxJointVelocity (1e6 deg/s or 1e6 m/s); PhysX's own default is 100.
DEFAULT_MAX_JOINT_VELOCITY = {"revolute": math.radians(1.0e6), "prismatic": 1.0e6}
_TREE_JOINT_TYPES = ("revolute", "prismatic", "fixed")


def physx_reads_velocity_limit(joint: JointInfo) -> bool:
    """omni.physx honours physxJoint:maxJointVelocity and physxJointAxis:<axis>:maxJointVelocity, not newton:*."""
    source = joint.velocity_limit_source or ""
    return bool(joint.velocity_limit and joint.velocity_limit > 0 and source.startswith("physxJoint"))


def articulated_bodies(b: SceneBuilder) -> dict[str, str]:
    """Body path -> articulation root path for enabled, dynamic bodies under an ArticulationRootAPI."""
    out = {}
    for art in b.asset.articulations:
        for path in art.bodies:
            body = b.asset.bodies.get(path)
            if body is None or not body.enabled:
                continue
            if body.kinematic:
                b.warn(f"{path}: kinematic body inside an articulation is simulated as a free kinematic body")
                continue
            out[path] = art.root
    return out


def in_tree(b: SceneBuilder, joint: JointInfo, articulated: dict[str, str]) -> bool:
    """Whether a joint can be a reduced-coordinate articulation joint (decided before the tree walk)."""
    if joint.exclude_from_articulation or joint.loop_closing or joint.type not in _TREE_JOINT_TYPES:
        return False
    b0, b1 = b.body_or_world(joint.body0), b.body_or_world(joint.body1)
    roots = {articulated.get(x) for x in (b0, b1) if x is not None}
    if None in roots or len(roots) != 1:
        return False  # a free body, or two different articulations
    return True


def articulation_trees(b: SceneBuilder, articulated, maximal_joints):
    """Split articulated bodies into trees: yields (ordered [(body|None, parent, joint, sign)], info).
    Loop-closing joints found on the walk are appended to `maximal_joints`."""
    asset = b.asset
    by_root: dict[str, list[str]] = {}
    for path, root in articulated.items():
        by_root.setdefault(root, []).append(path)
    for art in asset.articulations:
        bodies = by_root.get(art.root, [])
        if not bodies:
            continue
        joints = [
            j for j in asset.joints.values()
            if j.enabled and in_tree(b, j, articulated)
            and articulated.get(b.body_or_world(j.body0) or b.body_or_world(j.body1)) == art.root
        ]
        adjacency: dict = {}
        for j in joints:
            b0, b1 = b.body_or_world(j.body0), b.body_or_world(j.body1)
            adjacency.setdefault(b0, []).append((j, b1))
            adjacency.setdefault(b1, []).append((j, b0))
        world_dof = any(j.type != "fixed" for j, _ in adjacency.get(None, []))
        world_fixed = [other for j, other in adjacency.get(None, []) if j.type == "fixed"]
        base = art.base_body if art.base_body in bodies else (world_fixed[0] if world_fixed else None)
        if base is None:
            base = next((x for x in bodies if x == art.root), bodies[0])
        starts = ([None] if world_dof else []) + [base] + [x for x in bodies if x != base]
        visited: set = set()
        used: set = set()
        for start in starts:
            if start in visited:
                continue
            fixed = start is None or (start == base and (art.fixed_base or base in world_fixed))
            order: list[tuple] = [(start, None, None, 1.0)]  # (node, parent, joint, sign)
            visited.add(start)
            queue = [start]
            while queue:
                node = queue.pop(0)
                for j, other in adjacency.get(node, []):
                    if j.path in used:
                        continue
                    if other is None and node is not None and j.type == "fixed" and node == start:
                        used.add(j.path)  # the base's own anchor to the world: the root link is fixed
                        continue
                    if other in visited or other is None:
                        b.warn(f"{j.path}: closes a kinematic loop; simulated as a maximal joint")
                        maximal_joints.append(j)
                        used.add(j.path)
                        continue
                    used.add(j.path)
                    visited.add(other)
                    sign = 1.0 if b.body_or_world(j.body0) == node else -1.0
                    order.append((other, node, j, sign))
                    queue.append(other)
            # pin_base holds the articulation's base only: a tree split off by a maximal (D6, spherical) joint
            # hangs from that joint, as in omni.physx where it is one articulation (pinning its root too locked
            # newton_ex_humanoid's abdomen_x between two world-held links: a dead drive on sapien only)
            yield order, {"fixed": fixed, "root": art.root, "holds_base": start is None or start == base}


def add_articulation(b: SceneBuilder, order, info, colliders_of) -> None:
    """Create the links of one tree (in walk order), then its DOFs and initial joint positions."""
    asset, spec = b.asset, b.spec
    links: dict = {}
    entities = []
    for node, parent, joint, sign in order:
        link = physx.PhysxArticulationLinkComponent(links[parent] if joint is not None else None)
        entity = sapien.Entity()
        if node is None:
            entity.name = "world_anchor"
            link.set_mass(1.0)
            link.set_inertia(np.ones(3, np.float32))
        else:
            body = asset.bodies[node]
            entity.name = node
            parts = b.attach_shapes(link, colliders_of.get(node, []), None, None, dynamic=True)
            b.set_mass(link, body, parts)
            b.built.bodies[node] = link
        entity.add_component(link)
        link.name = entity.name
        link.set_linear_damping(0.0)  # omni.physx rigid-body defaults (PhysX links default to 0.05)
        link.set_angular_damping(0.05)
        if joint is None:
            root_fixed = info["fixed"] or (spec.pin_base and info.get("holds_base", True))
            link.joint.type = "fixed" if root_fixed else "undefined"
            root_pose = (np.zeros(3), IDENTITY) if node is None else (asset.bodies[node].world_pose.pos,
                                                                      asset.bodies[node].world_pose.quat)
            entity.set_pose(pose(*root_pose))
        else:
            _configure_tree_joint(b, link, joint, sign)
        links[node] = link
        entities.append(entity)
    for entity in entities:
        b.scene.add_entity(entity)
    root = links[order[0][0]]
    art = root.articulation
    art.set_solver_position_iterations(int(spec.solver_position_iterations))
    art.set_solver_velocity_iterations(int(spec.solver_velocity_iterations))
    art_index = len(b.built.articulations)
    b.built.articulations.append(art)
    names = [j.name for j in art.get_active_joints()]
    qpos = np.zeros(len(names), np.float32)
    for node, parent, joint, sign in order[1:]:
        if joint.type not in ("revolute", "prismatic"):
            continue
        q_index = names.index(joint.path)
        art_joint = art.get_active_joints()[q_index]
        qpos[q_index] = _initial_tree_position(b, joint, sign, node, parent, links[node].joint)
        b.built.dofs.append(Dof(joint.path, joint.type, sign, art_index=art_index, q_index=q_index, art_joint=art_joint))
    art.set_qpos(qpos)
    art.set_qvel(np.zeros(len(names), np.float32))


def _configure_tree_joint(b: SceneBuilder, link, joint: JointInfo, sign: float) -> None:
    pj = link.joint
    pj.name = joint.path
    pj.type = joint.type
    parent_frame, child_frame = joint_frames(b, joint, sign)
    pj.pose_in_parent = pose(*parent_frame)
    pj.pose_in_child = pose(*child_frame)
    if joint.type == "fixed":
        return
    pj.set_friction(0.0)  # PhysX/SAPIEN default 0.05; omni.physx's physxJoint:jointFriction default is 0
    limits = joint.limits
    if limits is not None:
        lo, hi = limits if sign > 0 else (-limits[1], -limits[0])
        pj.set_limits(np.array([[lo, hi]], np.float32))
    else:
        pj.set_limits(np.array([[-np.inf, np.inf]], np.float32))
    drive = joint.drive
    if drive is not None:
        pj.set_drive_properties(
            float(drive.stiffness), float(drive.damping), float(min(drive.max_force, PX_MAX_F32)),
            "acceleration" if drive.type == "acceleration" else "force",
        )
        pj.set_drive_target(sign * float(drive.target_position))
        pj.set_drive_velocity_target(sign * float(drive.target_velocity))
    if physx_reads_velocity_limit(joint):
        pj.set_max_velocity(float(joint.velocity_limit or 0.0))  # set: physx_reads_velocity_limit
    else:
        if joint.velocity_limit is not None:
            b.warn(f"{joint.path}: {joint.velocity_limit_source} is not a PhysX attribute; PhysX runs this joint uncapped")
        pj.set_max_velocity(DEFAULT_MAX_JOINT_VELOCITY[joint.type])


def _initial_tree_position(b: SceneBuilder, joint: JointInfo, sign: float, node, parent, pj) -> float:
    """The authored joint state, else the joint position the bodies' authored poses imply."""
    if joint.joint_state_position is not None:
        return sign * float(joint.joint_state_position)
    bodies = b.asset.bodies
    parent_pose: tuple[np.ndarray, np.ndarray] = (np.zeros(3), IDENTITY) if parent is None else (bodies[parent].world_pose.pos,
                                                                                                 bodies[parent].world_pose.quat)
    child_pose = (bodies[node].world_pose.pos, bodies[node].world_pose.quat)
    fp = compose(*parent_pose, *np_pose(pj.pose_in_parent))
    fc = compose(*child_pose, *np_pose(pj.pose_in_child))
    rel_p, rel_q = compose(*inverse(*fp), *fc)
    return twist_angle(rel_q) if joint.type == "revolute" else float(rel_p[0])
