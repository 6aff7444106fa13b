"""Headless PhysX 5 (CPU) through SAPIEN 3: builds the scene from the AssetModel only.

The engine never reads USD. It maps the model the way omni.physx would: articulations in
reduced coordinates (maxJointVelocity enforced there only), other joints as maximal D6
constraints, mass from density when no mass is authored, convex hulls for dynamic meshes.
Fallbacks that change what is simulated are listed in `warnings`. See docs/engines.md.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field

import numpy as np

try:
    import warnings

    with warnings.catch_warnings():  # SAPIEN warns about a missing libvulkan; we never create a renderer
        warnings.filterwarnings("ignore", message="Failed to find system libvulkan")
        import sapien
        from sapien import physx
except ImportError as exc:  # engines/__init__ turns this into EngineUnavailable
    raise ImportError(f"sapien is not installed: {exc}") from exc

from ..core.asset_model import BodyInfo, ColliderInfo, JointInfo, MaterialInfo
from ..core.geometry import compose, inverse, quat_from_axis_angle, quat_normalize, quat_to_matrix, rotate
from . import sapien_mass as mass_lib
from .base import EngineBase, EngineError
from .sapien_shapes import X_TO_AXIS, build_sapien_shape, plan_shapes

PX_MAX_F32 = 3.4028234663852886e38
# omni.physx's default physxJoint:maxJointVelocity (1e6 deg/s or 1e6 m/s); PhysX's own default is 100.
DEFAULT_MAX_JOINT_VELOCITY = {"revolute": math.radians(1.0e6), "prismatic": 1.0e6}
# SAPIEN 3.0.3's D6 cannot lock or limit swing: a stiff acceleration drive holds it instead.
SWING_LOCK_STIFFNESS = 1.0e6  # 1e7 went unstable in float32 (measured); 1e6 holds swing to ~0.03 deg
GROUND_GROUP_BIT = 1 << 31
DEFAULT_GROUP_BIT = 1
ALL_BITS = 0xFFFFFFFF
IDENTITY = np.array([1.0, 0.0, 0.0, 0.0])
_TREE_JOINT_TYPES = ("revolute", "prismatic", "fixed")


def _pose(pos, quat) -> "sapien.Pose":
    return sapien.Pose(np.asarray(pos, np.float32), np.asarray(quat_normalize(quat), np.float32))


def _np_pose(p: "sapien.Pose") -> tuple[np.ndarray, np.ndarray]:
    return np.asarray(p.p, float), np.asarray(p.q, float)


def _twist_angle(quat) -> float:
    w, x = float(quat[0]), float(quat[1])
    angle = 2.0 * math.atan2(x, w)
    return (angle + math.pi) % (2.0 * math.pi) - math.pi


_ROUND = (physx.PhysxCollisionShapeCapsule, physx.PhysxCollisionShapeCylinder)


class _RoundShapeBounds:
    """Exact world AABB of bodies with capsules or cylinders, vectorised over their shapes.

    PhysX bounds these by a rotated box around them, which overestimates a tilted capsule (a
    tilted ant foot read 3 cm below the ground while its contact distance was 0)."""

    def __init__(self, components):
        self.components = components
        rows = []  # (component index, local pos, local rot, half along X, radius, kind)
        self.meshes = []  # (component index, local pos, local rot, scaled vertices)
        for index, component in enumerate(components):
            for shape in component.get_collision_shapes():
                pos, quat = _np_pose(shape.get_local_pose())
                rot = quat_to_matrix(quat)
                if isinstance(shape, _ROUND):
                    rows.append((index, pos, rot, float(shape.get_half_length()), float(shape.get_radius()), 1))
                elif isinstance(shape, physx.PhysxCollisionShapeSphere):
                    rows.append((index, pos, rot, 0.0, float(shape.get_radius()), 1))
                elif isinstance(shape, physx.PhysxCollisionShapeBox):
                    rows.append((index, pos, rot, np.asarray(shape.get_half_size(), float), 0.0, 0))
                elif isinstance(shape, (physx.PhysxCollisionShapeConvexMesh, physx.PhysxCollisionShapeTriangleMesh)):
                    verts = np.asarray(shape.get_vertices(), float) * np.asarray(shape.get_scale(), float)
                    self.meshes.append((index, pos, rot, verts))
        self.index = np.array([r[0] for r in rows], int)
        self.pos = np.array([r[1] for r in rows]).reshape(-1, 3)
        self.rot = np.array([r[2] for r in rows]).reshape(-1, 3, 3)
        self.is_box = np.array([r[5] == 0 for r in rows], bool)
        self.box_half = np.array([r[3] if r[5] == 0 else np.zeros(3) for r in rows]).reshape(-1, 3)
        self.half_length = np.array([0.0 if r[5] == 0 else r[3] for r in rows])
        self.radius = np.array([r[4] for r in rows])
        self.cylinder = np.array(
            [isinstance(s, physx.PhysxCollisionShapeCylinder) for c in components for s in c.get_collision_shapes()
             if isinstance(s, (*_ROUND, physx.PhysxCollisionShapeSphere, physx.PhysxCollisionShapeBox))], bool)

    def aabb(self) -> np.ndarray:
        poses = [c.entity.pose for c in self.components]
        body_p = np.array([p.p for p in poses], float)
        body_r = np.array([quat_to_matrix(p.q) for p in poses])
        lows, highs = [], []
        if len(self.index):
            r_b = body_r[self.index]
            centre = body_p[self.index] + np.einsum("nij,nj->ni", r_b, self.pos)
            rot = np.einsum("nij,njk->nik", r_b, self.rot)
            axis = rot[:, :, 0]
            round_half = np.abs(axis) * self.half_length[:, None] + self.radius[:, None] * np.where(
                self.cylinder[:, None], np.sqrt(np.clip(1.0 - axis * axis, 0.0, 1.0)), 1.0
            )
            box_half = np.einsum("nij,nj->ni", np.abs(rot), self.box_half)
            half = np.where(self.is_box[:, None], box_half, round_half)
            lows.append((centre - half).min(axis=0))
            highs.append((centre + half).max(axis=0))
        for index, pos, rot, verts in self.meshes:
            world = verts @ (body_r[index] @ rot).T + body_p[index] + body_r[index] @ pos
            lows.append(world.min(axis=0))
            highs.append(world.max(axis=0))
        return np.stack([np.min(lows, axis=0), np.max(highs, axis=0)])


@dataclass
class _Dof:
    """How one USD DOF joint is read and commanded in the engine."""

    path: str
    kind: str  # revolute / prismatic
    sign: float = 1.0  # -1 when the engine's parent/child are USD's body1/body0
    art_index: int = -1  # articulation joint: which articulation, which qpos entry
    q_index: int = -1
    art_joint: object = None
    drive: object = None  # maximal joint: the PhysxDriveComponent
    parent: object = None  # maximal joint bodies (parent None = world)
    child: object = None


@dataclass
class _Built:
    """Bookkeeping of what was created, for reads, resets and placement."""

    bodies: dict = field(default_factory=dict)  # body path -> rigid component
    movable: list = field(default_factory=list)  # dynamic/kinematic components not in articulations
    statics: list = field(default_factory=list)  # asset static components with bounded shapes
    articulations: list = field(default_factory=list)
    world_drives: list = field(default_factory=list)  # D6 joints whose parent is the world
    shapes: dict = field(default_factory=dict)  # collider path -> [sapien shapes]
    body_shapes: dict = field(default_factory=dict)  # body path -> [sapien shapes]


def physx_reads_velocity_limit(joint: JointInfo) -> bool:
    """omni.physx honours physxJoint:maxJointVelocity and physxJointAxis:<axis>:maxJointVelocity, not newton:*."""
    source = joint.velocity_limit_source or ""
    return bool(joint.velocity_limit and joint.velocity_limit > 0 and source.startswith("physxJoint"))


class SapienPhysxEngine(EngineBase):
    """PhysX 5 on CPU via SAPIEN 3.0.3, no renderer."""

    name = "physx"

    def __init__(self) -> None:
        super().__init__()
        px_version = physx.version().split("physx-")[-1].split(".patch")[0]
        self.version = f"sapien {sapien.__version__} / PhysX {px_version}"
        self._scene = None
        self._built = _Built()
        self._dofs: list[_Dof] = []
        self._materials: dict = {}
        self._masses: dict[str, float] = {}
        self._initial_state: bytes | None = None
        self._bounded = []
        self._round = None
        self._read_plan = None

    # -- protocol ---------------------------------------------------------------------------------
    def bounds(self) -> tuple[np.ndarray, np.ndarray]:
        boxes = [c.compute_global_aabb_tight() for c in self._bounded]
        if self._round is not None:
            boxes.append(self._round.aabb())
        if len(boxes) == 1:  # the common single-body case, without numpy reductions
            box = boxes[0]
            return box[0].astype(float), box[1].astype(float)
        if not boxes:
            return np.zeros(3), np.zeros(3)
        stack = np.array(boxes)  # (n, 2, 3): one array and two reductions, the cheapest union measured
        return stack[:, 0].min(axis=0).astype(float), stack[:, 1].max(axis=0).astype(float)

    def joint_positions(self) -> np.ndarray:
        return self._joint_values(velocity=False)

    def joint_velocities(self) -> np.ndarray:
        return self._joint_values(velocity=True)

    def body_poses(self) -> dict[str, tuple[np.ndarray, np.ndarray]]:
        return {path: _np_pose(c.entity.pose) for path, c in self._built.bodies.items()}

    def body_masses(self) -> dict[str, float]:
        """Effective mass per simulated body (kg), as given to PhysX."""
        return dict(self._masses)

    # -- EngineBase hooks -------------------------------------------------------------------------
    def _build(self) -> None:
        scene = self._spec
        physx.set_scene_config(gravity=np.array([0.0, 0.0, -float(scene.gravity)], np.float32))
        physx.set_body_config(
            solver_position_iterations=int(scene.solver_position_iterations),
            solver_velocity_iterations=int(scene.solver_velocity_iterations),
        )
        self._scene = sapien.Scene([physx.PhysxCpuSystem()])
        self._scene.set_timestep(self._dt)
        self._build_scene()
        self._initial_state = self._scene.physx_system.pack()

    def _build_error_detail(self, exc: Exception) -> str:
        return str(exc)

    def _write_targets(self, indices: np.ndarray, values: np.ndarray) -> None:
        dofs = self._dofs
        for index, value in zip(indices.tolist(), values.tolist()):
            self._command(dofs[index], value)

    def _force_body(self, body_path: str):
        component = self._built.bodies.get(body_path)
        if component is None:
            raise EngineError(f"apply_force: unknown body {body_path}")
        if not isinstance(component, physx.PhysxRigidBodyComponent):
            return None  # static (disabled) body: nothing moves it
        if isinstance(component, physx.PhysxRigidDynamicComponent) and component.kinematic:
            return None
        return component

    def _apply_forces(self, forces: list) -> None:
        for component, force, point in forces:
            force = force.astype(np.float32)
            if point is None:
                component.add_force_torque(force, np.zeros(3, np.float32))
            else:
                component.add_force_at_point(force, point.astype(np.float32))

    def _advance(self) -> None:
        self._scene.step()

    def _restore_initial_state(self) -> None:
        self._scene.physx_system.unpack(self._initial_state)

    def _release(self) -> None:
        self._built = _Built()
        self._bounded = []
        self._round = None
        self._read_plan = None
        self._materials = {}
        self._scene = None

    # -- joint reads and commands ------------------------------------------------------------------
    def _joint_values(self, velocity: bool) -> np.ndarray:
        if self._read_plan is None:
            self._read_plan = self._make_read_plan()
        if self._single_articulation is not None:  # one articulation in DOF order: one read, no scatter
            art, signs = self._single_articulation
            return (art.get_qvel() if velocity else art.get_qpos()) * signs
        out = np.full(len(self._dofs), np.nan)
        for art, out_index, q_index, sign in self._read_plan:
            values = art.get_qvel() if velocity else art.get_qpos()
            out[out_index] = sign * values[q_index]
        for i, dof in self._maximal_dofs:
            out[i] = dof.sign * (self._maximal_velocity(dof) if velocity else self._maximal_position(dof))
        return out

    def _make_read_plan(self):
        """Per articulation: (articulation, output indices, qpos indices, signs), read with one call each."""
        self._maximal_dofs = [(i, dof) for i, dof in enumerate(self._dofs) if dof.drive is not None]
        plan = []
        for art_index, art in enumerate(self._built.articulations):
            rows = [(i, d.q_index, d.sign) for i, d in enumerate(self._dofs) if d.art_index == art_index]
            if rows:
                out_i, q_i, signs = (np.array(c) for c in zip(*rows))
                plan.append((art, out_i, q_i, signs.astype(float)))
        self._single_articulation = None
        if len(plan) == 1 and not self._maximal_dofs:
            art, out_i, q_i, signs = plan[0]
            n = len(self._dofs)
            if len(out_i) == n == art.dof and (out_i == np.arange(n)).all() and (q_i == np.arange(n)).all():
                self._single_articulation = (art, signs)
        return plan

    @staticmethod
    def _maximal_position(dof: _Dof) -> float:
        rel = dof.drive.get_relative_pose()
        return _twist_angle(rel.q) if dof.kind == "revolute" else float(rel.p[0])

    @staticmethod
    def _maximal_velocity(dof: _Dof) -> float:
        frame_p, frame_q = _np_pose(dof.drive.get_pose_in_parent())
        if dof.parent is not None:
            frame_p, frame_q = compose(*_np_pose(dof.parent.entity.pose), frame_p, frame_q)
        axis = rotate(frame_q, [1.0, 0.0, 0.0])

        def point_velocity(body):
            if body is None or not isinstance(body, physx.PhysxRigidBodyComponent):
                return np.zeros(3), np.zeros(3)
            w = np.asarray(body.get_angular_velocity(), float)
            com_p, _ = compose(*_np_pose(body.entity.pose), *_np_pose(body.get_cmass_local_pose()))
            return np.asarray(body.get_linear_velocity(), float) + np.cross(w, frame_p - com_p), w

        v_c, w_c = point_velocity(dof.child)
        v_p, w_p = point_velocity(dof.parent)
        return float(np.dot(w_c - w_p, axis)) if dof.kind == "revolute" else float(np.dot(v_c - v_p, axis))

    def _command(self, dof: _Dof, value: float) -> None:
        value *= dof.sign
        if dof.art_joint is not None:
            dof.art_joint.set_drive_target(value)
        elif dof.drive is not None:
            if dof.kind == "revolute":
                dof.drive.set_drive_target(_pose(np.zeros(3), quat_from_axis_angle([1, 0, 0], value)))
            else:
                dof.drive.set_drive_target(_pose([value, 0.0, 0.0], IDENTITY))

    # -- building ----------------------------------------------------------------------------------
    def _material(self, info: MaterialInfo | None):
        info = info or MaterialInfo()
        for mode in (info.friction_combine, info.restitution_combine):
            if mode not in (None, "average"):
                self._warn(f"{info.path or 'material'}: combine mode '{mode}' is not exposed by SAPIEN; PhysX average is used")
        key = (float(info.static_friction), float(info.dynamic_friction), float(info.restitution))
        if key not in self._materials:
            self._materials[key] = physx.PhysxMaterial(*key)
        return self._materials[key]

    def _build_scene(self) -> None:
        asset, spec = self._asset, self._spec
        self._check_references()
        if spec.ground is not None:
            self._add_ground(spec.ground)
        articulated = self._articulated_bodies()
        colliders_of = self._colliders_by_body()
        # 1. static geometry: colliders without a body, and disabled bodies
        static_colliders = [c for c in asset.colliders.values() if c.body is None or c.body not in asset.bodies]
        if static_colliders:
            self._add_static(None, static_colliders)
        for body in asset.bodies.values():
            if not body.enabled:
                self._add_static(body, colliders_of.get(body.path, []))
        # 2. articulations (reduced coordinates), 3. free rigid bodies
        maximal_joints = [j for j in asset.joints.values() if j.enabled and not self._in_tree(j, articulated)]
        for art_bodies, tree in self._articulation_trees(articulated, colliders_of, maximal_joints):
            self._add_articulation(art_bodies, tree, colliders_of)
        for body in asset.bodies.values():
            if body.enabled and body.path not in self._built.bodies:
                self._add_rigid(body, colliders_of.get(body.path, []))
        for joint in maximal_joints:
            self._add_maximal_joint(joint)
        self._finish_dofs()
        self._setup_collision_filters()
        self._apply_pin_base(maximal_joints)
        self._apply_initial_velocities()
        bounded = list(self._bounded_components())
        has_round = lambda c: any(isinstance(s, _ROUND) for s in c.get_collision_shapes())  # noqa: E731
        self._bounded = [c for c in bounded if not has_round(c)]
        round_bodies = [c for c in bounded if has_round(c)]
        self._round = _RoundShapeBounds(round_bodies) if round_bodies else None
        if spec.place_bottom_at is not None:
            self._place_bottom(float(spec.place_bottom_at))
        self._targets = np.array([self._initial_target(d) for d in self._dofs], float)
        for body in asset.bodies.values():
            if body.starts_asleep:
                self._warn(f"{body.path}: physxRigidBody starts-asleep is ignored (the body starts awake)")

    def _check_references(self) -> None:
        asset = self._asset
        static_frames = {c.path for c in asset.colliders.values() if c.body is None}
        for joint in asset.joints.values():
            for side in (joint.body0, joint.body1):
                if side is not None and side not in asset.bodies and side not in static_frames:
                    raise EngineError(f"joint {joint.path} refers to {side}, which is not a rigid body of the asset")

    def _colliders_by_body(self) -> dict[str, list[ColliderInfo]]:
        out: dict[str, list[ColliderInfo]] = {}
        for collider in self._asset.colliders.values():
            # Disabled colliders are kept (they give mass and bounds, as in omni.physx) but collide with nothing.
            if collider.body is not None and collider.body in self._asset.bodies:
                out.setdefault(collider.body, []).append(collider)
        return out

    def _body_or_world(self, path: str | None) -> str | None:
        return path if path in self._asset.bodies and self._asset.bodies[path].enabled else None

    def _add_ground(self, ground) -> None:
        entity = sapien.Entity()
        entity.name = "ground"
        static = physx.PhysxRigidStaticComponent()
        shape = physx.PhysxCollisionShapePlane(
            physx.PhysxMaterial(float(ground.static_friction), float(ground.dynamic_friction), float(ground.restitution))
        )
        shape.set_collision_groups([GROUND_GROUP_BIT, ALL_BITS, 0, 0])
        static.attach(shape)
        entity.add_component(static)
        entity.set_pose(_pose([0.0, 0.0, float(ground.height)], X_TO_AXIS["Z"]))
        self._scene.add_entity(entity)

    def _attach_shapes(self, component, colliders: list[ColliderInfo], frame_pos, frame_quat, dynamic: bool):
        """Attach the colliders' shapes; returns the unit-density mass parts (body frame) with densities."""
        parts = []
        for collider in colliders:
            if frame_pos is None:  # colliders already in this component's frame
                c_pos, c_quat = collider.local_pose.pos, collider.local_pose.quat
            else:
                c_pos, c_quat = compose(*inverse(frame_pos, frame_quat), collider.world_pose.pos, collider.world_pose.quat)
            material = self._material(collider.material)
            created = []
            for planned in plan_shapes(collider, dynamic, self._warn):
                try:
                    shape = build_sapien_shape(planned, material)
                except Exception as exc:
                    raise EngineError(f"{collider.path}: PhysX could not create the {planned.kind} shape: {exc}") from exc
                s_pos, s_quat = compose(c_pos, c_quat, planned.pos, planned.quat)
                shape.set_local_pose(_pose(s_pos, s_quat))
                component.attach(shape)
                created.append((shape, planned.kind))
                if planned.unit_mass is not None:
                    parts.append((collider, planned.unit_mass.transformed(s_pos, s_quat)))
            self._built.shapes[collider.path] = created
        return parts

    def _add_static(self, body: BodyInfo | None, colliders: list[ColliderInfo]) -> None:
        entity = sapien.Entity()
        static = physx.PhysxRigidStaticComponent()
        if body is None:
            entity.name = "static"
            self._attach_shapes(static, colliders, np.zeros(3), IDENTITY, dynamic=False)
        else:
            entity.name = body.path
            self._attach_shapes(static, colliders, None, None, dynamic=False)
            entity.set_pose(_pose(body.world_pose.pos, body.world_pose.quat))
            self._built.bodies[body.path] = static
            self._warn(f"{body.path}: rigid body disabled (physics:rigidBodyEnabled = false); simulated as static")
        entity.add_component(static)
        self._scene.add_entity(entity)
        self._built.statics.append(static)

    # mass -------------------------------------------------------------------------------------------
    def _collider_density(self, collider: ColliderInfo, body: BodyInfo) -> float:
        for value in (collider.density, body.density, collider.material.density if collider.material else None):
            if value is not None and value > 0:
                return float(value)
        return mass_lib.DEFAULT_DENSITY

    def _set_mass(self, component, body: BodyInfo, parts) -> None:
        by_collider: dict[str, list] = {}
        for collider, unit in parts:
            by_collider.setdefault(collider.path, []).append((collider, unit))
        scaled = []
        for items in by_collider.values():
            collider = items[0][0]
            props = [unit.scaled(self._collider_density(collider, body)) for _, unit in items]
            if collider.mass is not None and collider.mass > 0:
                total = sum(p.mass for p in props)
                props = [p.scaled(collider.mass / total) for p in props] if total > 0 else props
            scaled.extend(props)
        shapes = mass_lib.combine(scaled)
        if body.mass is not None and body.mass > 0:
            if shapes is not None:
                props = shapes.scaled(body.mass / shapes.mass)
            else:
                props = mass_lib.MassProperties(float(body.mass), np.zeros(3), np.eye(3) * body.mass * 0.01)
                if body.diagonal_inertia is None:
                    self._warn(f"{body.path}: mass without colliders or inertia; inertia set to 0.01*mass (kg m^2)")
        elif shapes is not None:
            props = shapes
        else:
            props = mass_lib.MassProperties(1.0, np.zeros(3), np.eye(3))
            self._warn(f"{body.path}: no mass and no collider to compute it from; 1 kg and unit inertia used")
        if body.center_of_mass is not None and np.all(np.isfinite(body.center_of_mass)):
            props = mass_lib.shift_inertia(props, np.asarray(body.center_of_mass, float))
        if body.diagonal_inertia is not None and np.all(np.asarray(body.diagonal_inertia) > 0):
            diag = np.asarray(body.diagonal_inertia, float)
            axes = np.asarray(body.principal_axes, float) if body.principal_axes is not None else IDENTITY
        else:
            diag, axes = mass_lib.principal_frame(props.inertia)
        diag = np.maximum(diag, max(float(diag.max()) * 1e-6, 1e-12))
        component.set_mass(float(props.mass))
        component.set_cmass_local_pose(_pose(props.com, axes))
        component.set_inertia(np.asarray(diag, np.float32))
        self._masses[body.path] = float(props.mass)

    # free bodies ------------------------------------------------------------------------------------
    def _add_rigid(self, body: BodyInfo, colliders: list[ColliderInfo]) -> None:
        entity = sapien.Entity()
        entity.name = body.path
        component = physx.PhysxRigidDynamicComponent()
        parts = self._attach_shapes(component, colliders, None, None, dynamic=True)
        self._set_mass(component, body, parts)
        entity.add_component(component)
        entity.set_pose(_pose(body.world_pose.pos, body.world_pose.quat))
        self._scene.add_entity(entity)
        component.set_solver_position_iterations(int(self._spec.solver_position_iterations))
        component.set_solver_velocity_iterations(int(self._spec.solver_velocity_iterations))
        if body.kinematic:
            component.set_kinematic(True)
        self._built.bodies[body.path] = component
        self._built.body_shapes[body.path] = colliders
        self._built.movable.append(component)

    # articulations ------------------------------------------------------------------------------------
    def _articulated_bodies(self) -> dict[str, str]:
        """Body path -> articulation root path for enabled, dynamic bodies under an ArticulationRootAPI."""
        out = {}
        for art in self._asset.articulations:
            for path in art.bodies:
                body = self._asset.bodies.get(path)
                if body is None or not body.enabled:
                    continue
                if body.kinematic:
                    self._warn(f"{path}: kinematic body inside an articulation is simulated as a free kinematic body")
                    continue
                out[path] = art.root
        return out

    def _in_tree(self, joint: JointInfo, articulated: dict[str, str]) -> bool:
        """Whether a joint can be a reduced-coordinate articulation joint (decided before the tree walk)."""
        if joint.exclude_from_articulation or joint.loop_closing or joint.type not in _TREE_JOINT_TYPES:
            return False
        b0, b1 = self._body_or_world(joint.body0), self._body_or_world(joint.body1)
        roots = {articulated.get(b) for b in (b0, b1) if b is not None}
        if None in roots or len(roots) != 1:
            return False  # a free body, or two different articulations
        return True

    def _articulation_trees(self, articulated, colliders_of, maximal_joints):
        """Split articulated bodies into trees: yields (ordered [(body|None, parent, joint, sign)], info)."""
        asset = self._asset
        by_root: dict[str, list[str]] = {}
        for path, root in articulated.items():
            by_root.setdefault(root, []).append(path)
        for art in asset.articulations:
            bodies = by_root.get(art.root, [])
            if not bodies:
                continue
            joints = [
                j for j in asset.joints.values()
                if j.enabled and self._in_tree(j, articulated)
                and articulated.get(self._body_or_world(j.body0) or self._body_or_world(j.body1)) == art.root
            ]
            adjacency: dict = {}
            for j in joints:
                b0, b1 = self._body_or_world(j.body0), self._body_or_world(j.body1)
                adjacency.setdefault(b0, []).append((j, b1))
                adjacency.setdefault(b1, []).append((j, b0))
            world_dof = any(j.type != "fixed" for j, _ in adjacency.get(None, []))
            world_fixed = [other for j, other in adjacency.get(None, []) if j.type == "fixed"]
            base = art.base_body if art.base_body in bodies else (world_fixed[0] if world_fixed else None)
            if base is None:
                base = next((b for b in bodies if b == art.root), bodies[0])
            starts = ([None] if world_dof else []) + [base] + [b for b in bodies if b != base]
            visited: set = set()
            used: set = set()
            for start in starts:
                if start in visited:
                    continue
                fixed = start is None or (start == base and (art.fixed_base or base in world_fixed))
                order = [(start, None, None, 1.0)]
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
                            self._warn(f"{j.path}: closes a kinematic loop; simulated as a maximal joint")
                            maximal_joints.append(j)
                            used.add(j.path)
                            continue
                        used.add(j.path)
                        visited.add(other)
                        sign = 1.0 if self._body_or_world(j.body0) == node else -1.0
                        order.append((other, node, j, sign))
                        queue.append(other)
                yield order, {"fixed": fixed, "root": art.root}

    def _add_articulation(self, order, info, colliders_of) -> None:
        asset, spec = self._asset, self._spec
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
                parts = self._attach_shapes(link, colliders_of.get(node, []), None, None, dynamic=True)
                self._set_mass(link, body, parts)
                self._built.bodies[node] = link
                self._built.body_shapes[node] = colliders_of.get(node, [])
            entity.add_component(link)
            link.name = entity.name
            link.set_linear_damping(0.0)  # omni.physx rigid-body defaults (PhysX links default to 0.05)
            link.set_angular_damping(0.05)
            if joint is None:
                root_fixed = info["fixed"] or spec.pin_base
                link.joint.type = "fixed" if root_fixed else "undefined"
                pose = (np.zeros(3), IDENTITY) if node is None else (asset.bodies[node].world_pose.pos, asset.bodies[node].world_pose.quat)
                entity.set_pose(_pose(*pose))
            else:
                self._configure_tree_joint(link, joint, sign)
            links[node] = link
            entities.append(entity)
        for entity in entities:
            self._scene.add_entity(entity)
        root = links[order[0][0]]
        art = root.articulation
        art.set_solver_position_iterations(int(spec.solver_position_iterations))
        art.set_solver_velocity_iterations(int(spec.solver_velocity_iterations))
        art_index = len(self._built.articulations)
        self._built.articulations.append(art)
        names = [j.name for j in art.get_active_joints()]
        qpos = np.zeros(len(names), np.float32)
        for node, parent, joint, sign in order[1:]:
            if joint.type not in ("revolute", "prismatic"):
                continue
            q_index = names.index(joint.path)
            art_joint = art.get_active_joints()[q_index]
            qpos[q_index] = self._initial_tree_position(joint, sign, node, parent, links[node].joint)
            self._dofs.append(_Dof(joint.path, joint.type, sign, art_index=art_index, q_index=q_index, art_joint=art_joint))
        art.set_qpos(qpos)
        art.set_qvel(np.zeros(len(names), np.float32))

    def _side_frame(self, path: str | None, local) -> tuple[np.ndarray, np.ndarray]:
        """A joint frame relative to the engine body on that side; world frame when that side is not a
        simulated dynamic body (world, a disabled body, a static collider prim)."""
        if path is not None and self._body_or_world(path) is None:
            if path in self._asset.bodies:
                owner = self._asset.bodies[path].world_pose
            else:
                owner = self._asset.colliders[path].world_pose
            return compose(owner.pos, owner.quat, local.pos, local.quat)
        return np.asarray(local.pos, float), np.asarray(local.quat, float)

    def _joint_frames(self, joint: JointInfo, sign: float):
        """(parent frame, child frame) with X along the joint axis."""
        rot = X_TO_AXIS.get(joint.axis, IDENTITY) if joint.type in ("revolute", "prismatic") else IDENTITY
        p0 = compose(*self._side_frame(joint.body0, joint.local_pose0), np.zeros(3), rot)
        p1 = compose(*self._side_frame(joint.body1, joint.local_pose1), np.zeros(3), rot)
        return (p0, p1) if sign > 0 else (p1, p0)

    def _configure_tree_joint(self, link, joint: JointInfo, sign: float) -> None:
        pj = link.joint
        pj.name = joint.path
        pj.type = joint.type
        parent_frame, child_frame = self._joint_frames(joint, sign)
        pj.pose_in_parent = _pose(*parent_frame)
        pj.pose_in_child = _pose(*child_frame)
        if joint.type == "fixed":
            return
        pj.set_friction(0.0)  # PhysX/SAPIEN default 0.05; omni.physx's physxJoint:jointFriction default is 0
        if joint.has_limits:
            lo, hi = (joint.lower, joint.upper) if sign > 0 else (-joint.upper, -joint.lower)
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
            pj.set_max_velocity(float(joint.velocity_limit))
        else:
            if joint.velocity_limit is not None:
                self._warn(f"{joint.path}: {joint.velocity_limit_source} is not a PhysX attribute; PhysX runs this joint uncapped")
            pj.set_max_velocity(DEFAULT_MAX_JOINT_VELOCITY[joint.type])

    def _initial_tree_position(self, joint: JointInfo, sign: float, node, parent, pj) -> float:
        if joint.joint_state_position is not None:
            return sign * float(joint.joint_state_position)
        bodies = self._asset.bodies
        parent_pose = (np.zeros(3), IDENTITY) if parent is None else (bodies[parent].world_pose.pos, bodies[parent].world_pose.quat)
        child_pose = (bodies[node].world_pose.pos, bodies[node].world_pose.quat)
        fp = compose(*parent_pose, *_np_pose(pj.pose_in_parent))
        fc = compose(*child_pose, *_np_pose(pj.pose_in_child))
        rel_p, rel_q = compose(*inverse(*fp), *fc)
        return _twist_angle(rel_q) if joint.type == "revolute" else float(rel_p[0])

    def _finish_dofs(self) -> None:
        """Every enabled revolute/prismatic joint of the asset, in asset order; unsimulated ones read NaN."""
        simulated = {d.path: d for d in self._dofs}
        self._dofs = [simulated.get(j.path) or _Dof(j.path, j.type) for j in self._asset.dof_joints]

    # maximal joints --------------------------------------------------------------------------------
    def _add_maximal_joint(self, joint: JointInfo) -> None:
        c0 = self._built.bodies.get(self._body_or_world(joint.body0))
        c1 = self._built.bodies.get(self._body_or_world(joint.body1))
        dynamic = lambda c: isinstance(c, physx.PhysxRigidBodyComponent)  # noqa: E731
        if dynamic(c1):
            child, parent, sign = c1, c0, 1.0
        elif dynamic(c0):
            child, parent, sign = c0, c1, -1.0
        else:
            self._warn(f"{joint.path}: joint between two static bodies (or the world) has no effect; skipped")
            return
        if joint.type == "distance":
            self._warn(f"{joint.path}: distance joints are not mapped by this engine; skipped")
            return
        drive = physx.PhysxDriveComponent(child)
        child.entity.add_component(drive)
        drive.set_parent(parent)
        parent_frame, child_frame = self._joint_frames(joint, sign)
        if parent is not None and not dynamic(parent) and isinstance(parent, physx.PhysxRigidStaticComponent):
            pass  # static parents keep their frame in the parent's (static) body frame
        drive.set_pose_in_parent(_pose(*parent_frame))
        drive.set_pose_in_child(_pose(*child_frame))
        if parent is None:
            self._built.world_drives.append(drive)
        self._configure_d6(drive, joint, sign)
        if joint.collision_enabled:
            self._warn(f"{joint.path}: collisionEnabled = true is not honoured (SAPIEN joints always disable collision between the two bodies)")
        if joint.is_dof:
            if joint.velocity_limit is not None:
                self._warn(
                    f"{joint.path}: velocity limit not enforced on a maximal (non-articulation) joint, as in omni.physx"
                )
            self._dofs.append(_Dof(joint.path, joint.type, sign, drive=drive, parent=parent, child=child))

    def _lock_swing(self, drive) -> None:
        drive.set_drive_property_swing(SWING_LOCK_STIFFNESS, 2.0 * math.sqrt(SWING_LOCK_STIFFNESS), PX_MAX_F32, "acceleration")

    @staticmethod
    def _drive_args(info):
        mode = "acceleration" if info.type == "acceleration" else "force"
        return float(info.stiffness), float(info.damping), float(min(info.max_force, PX_MAX_F32)), mode

    def _configure_d6(self, drive, joint: JointInfo, sign: float) -> None:
        kind = joint.type
        lock_linear = {"revolute": "xyz", "prismatic": "yz", "fixed": "xyz", "spherical": "xyz"}.get(kind, "")
        setters = {"x": drive.set_limit_x, "y": drive.set_limit_y, "z": drive.set_limit_z}
        for axis in lock_linear:
            setters[axis](0.0, 0.0)
        if kind in ("revolute", "prismatic"):
            lo_hi = (joint.lower, joint.upper) if sign > 0 else (
                (-joint.upper, -joint.lower) if joint.has_limits else (None, None)
            )
            if kind == "prismatic":
                drive.set_limit_twist(0.0, 0.0)
                if joint.has_limits:
                    drive.set_limit_x(float(lo_hi[0]), float(lo_hi[1]))
            elif joint.has_limits:
                drive.set_limit_twist(float(lo_hi[0]), float(lo_hi[1]))
            self._lock_swing(drive)
            if joint.drive is not None:
                args = self._drive_args(joint.drive)
                (drive.set_drive_property_twist if kind == "revolute" else drive.set_drive_property_x)(*args)
                self._command(_Dof(joint.path, kind, sign, drive=drive), float(joint.drive.target_position))
        elif kind == "fixed":
            drive.set_limit_twist(0.0, 0.0)
            self._lock_swing(drive)
        elif kind == "spherical":
            if joint.d6_limits:
                self._warn(f"{joint.path}: spherical cone limit not supported by SAPIEN's D6 joint; swing left free")
        elif kind == "d6":
            self._configure_generic_d6(drive, joint)
        else:
            self._warn(f"{joint.path}: joint type '{kind}' not mapped; left free")

    def _configure_generic_d6(self, drive, joint: JointInfo) -> None:
        limits = joint.d6_limits
        for axis, setter in (("transX", drive.set_limit_x), ("transY", drive.set_limit_y), ("transZ", drive.set_limit_z)):
            lim = limits.get(axis)
            if lim is None:
                continue
            setter(0.0, 0.0) if lim.lower > lim.upper else setter(float(lim.lower), float(lim.upper))
        rot_x = limits.get("rotX")
        if rot_x is not None:
            drive.set_limit_twist(0.0, 0.0) if rot_x.lower > rot_x.upper else drive.set_limit_twist(float(rot_x.lower), float(rot_x.upper))
        swing = [limits.get("rotY"), limits.get("rotZ")]
        locked = [s is not None and s.lower > s.upper for s in swing]
        if all(locked):
            self._lock_swing(drive)
        elif any(s is not None for s in swing):
            self._warn(f"{joint.path}: D6 rotY/rotZ limits other than 'both locked' are not supported by SAPIEN; swing left free")
        drives = joint.d6_drives
        for axis, setter in (("transX", drive.set_drive_property_x), ("transY", drive.set_drive_property_y),
                             ("transZ", drive.set_drive_property_z), ("rotX", drive.set_drive_property_twist)):
            if axis in drives:
                setter(*self._drive_args(drives[axis]))
        swing_drives = [drives[a] for a in ("rotY", "rotZ") if a in drives]
        if swing_drives and not all(locked):
            drive.set_drive_property_swing(*self._drive_args(swing_drives[0]))
            if len(swing_drives) == 2 and self._drive_args(swing_drives[0]) != self._drive_args(swing_drives[1]):
                self._warn(f"{joint.path}: different rotY/rotZ drives; PhysX swing drive uses the rotY values for both")
        pos = [float(drives[a].target_position) if a in drives else 0.0 for a in ("transX", "transY", "transZ")]
        quat = IDENTITY.copy()
        from ..core.geometry import quat_mul

        for axis, vec in (("rotZ", [0, 0, 1]), ("rotY", [0, 1, 0]), ("rotX", [1, 0, 0])):
            if axis in drives:
                quat = quat_mul(quat, quat_from_axis_angle(vec, float(drives[axis].target_position)))
        drive.set_drive_target(_pose(pos, quat))

    # filtering, pinning, placement ---------------------------------------------------------------------
    def _setup_collision_filters(self) -> None:
        asset = self._asset
        group_bits: dict[str, int] = {}
        for collider in asset.colliders.values():
            for group in collider.collision_groups:
                if group not in group_bits and len(group_bits) < 30:
                    group_bits[group] = 1 << (len(group_bits) + 1)
        if any(g not in group_bits for c in asset.colliders.values() for g in c.collision_groups):
            self._warn("more than 30 collision groups; the extra groups collide with everything")
        filtered_with: dict[int, int] = {}
        for a, b in asset.collision_group_filters:
            if a in group_bits and b in group_bits:
                filtered_with[group_bits[a]] = filtered_with.get(group_bits[a], 0) | group_bits[b]
                filtered_with[group_bits[b]] = filtered_with.get(group_bits[b], 0) | group_bits[a]
        ignore_bits: dict[str, int] = {}
        pairs = list(asset.filtered_pairs)
        if len(pairs) > 32:
            self._warn(f"{len(pairs)} filtered pairs; only the first 32 are honoured (PhysX filter word limit)")
        for k, (a, b) in enumerate(pairs[:32]):
            for path in self._collider_paths_under(a) | self._collider_paths_under(b):
                ignore_bits[path] = ignore_bits.get(path, 0) | (1 << k)
        for collider in asset.colliders.values():
            member = 0
            for group in collider.collision_groups:
                member |= group_bits.get(group, 0)
            member = member or DEFAULT_GROUP_BIT
            mask = ALL_BITS
            for bit, others in filtered_with.items():
                if member & bit:
                    mask &= ~others
            groups = [member, mask | GROUND_GROUP_BIT, ignore_bits.get(collider.path, 0), 0]
            if not collider.collision_enabled:  # physics:collisionEnabled = false: in the scene, touching nothing
                groups = [0, 0, 0, 0]
            for shape, _ in self._built.shapes.get(collider.path, []):
                shape.set_collision_groups(groups)

    def _collider_paths_under(self, path: str) -> set[str]:
        """Colliders a filtered-pair target stands for (a collider, a body, an articulation or any prim above)."""
        out = set()
        prefix = path.rstrip("/") + "/"
        for collider in self._asset.colliders.values():
            if collider.path == path or collider.body == path or collider.path.startswith(prefix):
                out.add(collider.path)
            elif collider.body and collider.body.startswith(prefix):
                out.add(collider.path)
        for art in self._asset.articulations:
            if art.root == path:
                out |= {c.path for c in self._asset.colliders.values() if c.body in art.bodies}
        return out

    def _apply_pin_base(self, maximal_joints) -> None:
        if not self._spec.pin_base:
            return  # articulation roots were fixed while building
        children = set()
        for joint in maximal_joints:
            b0, b1 = self._body_or_world(joint.body0), self._body_or_world(joint.body1)
            if b0 is not None and b1 is not None:
                children.add(b1)
        for path, component in self._built.bodies.items():
            if component in self._built.movable and path not in children:
                component.set_kinematic(True)

    def _apply_initial_velocities(self) -> None:
        for path, component in self._built.bodies.items():
            body = self._asset.bodies[path]
            v, w = np.asarray(body.linear_velocity, float), np.asarray(body.angular_velocity, float)
            if not (np.any(v) or np.any(w)):
                continue
            if isinstance(component, physx.PhysxRigidDynamicComponent) and not component.kinematic:
                component.set_linear_velocity(v.astype(np.float32))
                component.set_angular_velocity(w.astype(np.float32))
            elif isinstance(component, physx.PhysxArticulationLinkComponent) and component.is_root:
                art = component.articulation
                art.set_root_linear_velocity(v.astype(np.float32))
                art.set_root_angular_velocity(w.astype(np.float32))
            else:
                self._warn(f"{path}: initial velocity on a non-root articulation link or static body is ignored")

    def _bounded_components(self):
        for component in self._built.bodies.values():
            if isinstance(component, physx.PhysxRigidBodyComponent) and self._has_bounded_shape(component):
                yield component

    @staticmethod
    def _has_bounded_shape(component) -> bool:
        return any(not isinstance(s, physx.PhysxCollisionShapePlane) for s in component.get_collision_shapes())

    def _place_bottom(self, height: float) -> None:
        lo, _ = self.bounds()  # the rigid bodies' bottom; static scenery moves along, as the asset prim would in Kit
        if not (self._bounded or self._round):
            return
        shift = np.array([0.0, 0.0, height - float(lo[2])])
        for art in self._built.articulations:
            p, q = _np_pose(art.get_root_pose())
            art.set_root_pose(_pose(p + shift, q))
        for component in self._built.movable:
            p, q = _np_pose(component.entity.pose)
            component.entity.set_pose(_pose(p + shift, q))
        for static in self._built.statics:
            p, q = _np_pose(static.entity.pose)
            static.entity.set_pose(_pose(p + shift, q))
        for drive in self._built.world_drives:
            p, q = _np_pose(drive.get_pose_in_parent())
            drive.set_pose_in_parent(_pose(p + shift, q))

    def _initial_target(self, dof: _Dof) -> float:
        joint = self._asset.joints.get(dof.path)
        if joint is None or joint.drive is None:
            return float("nan")
        return float(joint.drive.target_position)
