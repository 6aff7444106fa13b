"""Newton (Warp, CPU) with SolverSteel: the asset file imported by Newton's own USD importer.

Newton reads the USD itself (`ModelBuilder.add_usd` with the Newton and PhysX schema resolvers); the
AssetModel fills what Newton does not read: the PhysX 25.x velocity-limit spelling, the joint-path ->
DOF map in the product's order, the collider list behind bounds(). SolverSteel runs with joint limits
and joint velocity limits enforced and enough articulation constraint rows for ground contact.
Conventions follow the physx engine (engines/physx_sapien.py); differences: docs/engine-divergences.md.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

try:
    from .newton_runtime import announce_cold_compile, import_newton, mark_warm

    wp, newton = import_newton()
except ImportError as exc:  # engines/__init__ turns this into EngineUnavailable
    raise ImportError(f"newton is not installed (pip install -e .[newton]): {exc}") from exc

from . import newton_bounds as nb
from .base import EngineBase, EngineError

# Steel's default of 32 rows per articulation overflowed with ground contact (notes/engines.md).
ARTICULATION_CONSTRAINT_MAX = 64
# Newton's default joint velocity limit when none is authored (rad/s or m/s): "unlimited".
UNLIMITED_VELOCITY = 1.0e5
_COLLIDE = 1 << 1  # newton.ShapeFlags.COLLIDE_SHAPES


@dataclass
class _Dof:
    path: str
    q_index: int = -1  # into joint_q / joint_target_q; -1 = not simulated by Newton (reads NaN)
    qd_index: int = -1  # into joint_qd
    sign: float = 1.0  # -1 when Newton's parent/child are USD's body1/body0


class NewtonEngine(EngineBase):
    """Newton on the CPU device, SolverSteel, one world."""

    name = "newton"

    def __init__(self) -> None:
        super().__init__()
        self.version = f"newton {newton.__version__} / warp {wp.__version__} / SolverSteel"
        self._model = None
        self._solver = None
        self._pipeline = None
        self._contacts = None
        self._state0 = self._state1 = self._control = None
        self._dofs: list[_Dof] = []
        self._body_index: dict[str, int] = {}
        self._dynamic_bodies: set[int] = set()
        self._target_q = np.zeros(0)  # Newton's whole joint_target_q (Newton's sign), written as one array
        self._initial: dict = {}
        self._bound_shapes: list[int] = []
        self._mesh_vertices: dict[int, np.ndarray] = {}
        self._actuators: list = []
        self._actuator_states: list = []
        self._steps = 0

    # -- protocol ---------------------------------------------------------------------------------
    def bounds(self) -> tuple[np.ndarray, np.ndarray]:
        box = self._aabb(self._state0.body_q.numpy())
        if box is None:
            return np.zeros(3), np.zeros(3)
        return box

    def joint_positions(self) -> np.ndarray:
        return self._read(self._state0.joint_q.numpy(), "q_index")

    def joint_velocities(self) -> np.ndarray:
        return self._read(self._state0.joint_qd.numpy(), "qd_index")

    def body_poses(self) -> dict[str, tuple[np.ndarray, np.ndarray]]:
        body_q = self._state0.body_q.numpy().astype(float)
        out = {}
        for path, index in self._body_index.items():
            x, y, z, w = body_q[index, 3:]
            out[path] = (body_q[index, :3].copy(), np.array([w, x, y, z]))
        return out

    def body_masses(self) -> dict[str, float]:
        """Mass per simulated body (kg), as Newton computed it."""
        mass = self._model.body_mass.numpy()
        return {path: float(mass[i]) for path, i in self._body_index.items()}

    # -- EngineBase hooks -------------------------------------------------------------------------
    def _write_targets(self, indices: np.ndarray, values: np.ndarray) -> None:
        changed = False
        for index, value in zip(indices.tolist(), values.tolist()):
            dof = self._dofs[index]
            if dof.q_index >= 0:
                self._target_q[dof.q_index] = dof.sign * value
                changed = True
        if changed:
            self._control.joint_target_q.assign(self._target_q.astype(np.float32))

    def _force_body(self, body_path: str):
        index = self._body_index.get(body_path)
        if index is None:
            if body_path in self._asset.bodies:
                return None  # a disabled (static) body: nothing moves it
            raise EngineError(f"apply_force: unknown body {body_path}")
        if index not in self._dynamic_bodies:
            return None  # kinematic
        return index

    def _apply_forces(self, forces: list) -> None:
        s0 = self._state0
        s0.clear_forces()
        if not forces:
            return
        wrenches: dict[int, np.ndarray] = {}
        for index, f, point in forces:
            torque = np.zeros(3)
            if point is not None:
                pose = s0.body_q.numpy()[index]
                com = pose[:3] + nb.quat_xyzw_to_matrix(pose[3:]) @ self._body_com[index]
                torque = np.cross(point - com, f)
            wrench = wrenches.setdefault(index, np.zeros(6))
            wrench[:3] += f
            wrench[3:] += torque
        body_f = np.zeros((self._model.body_count, 6), np.float32)
        for index, w in wrenches.items():
            body_f[index] = w
        s0.body_f.assign(body_f)

    def _advance(self) -> None:
        s0, s1, control = self._state0, self._state1, self._control
        if self._actuators:
            control.joint_f.zero_()
            for k, actuator in enumerate(self._actuators):
                current, following = self._actuator_states[k]
                actuator.step(s0, control, current, following, self._dt)
                self._actuator_states[k] = (following, current)
        self._pipeline.collide(s0, self._contacts)
        self._solver.step(s0, s1, control, self._contacts, self._dt)
        self._state0, self._state1 = s1, s0
        self._steps += 1
        if self._steps == 1:
            mark_warm()
        if self._steps % 240 == 0:
            self._check_capacity()

    def _restore_initial_state(self) -> None:
        s0 = self._state0
        for name, value in self._initial.items():
            getattr(s0, name).assign(value)
        self._solver.reset(s0)
        for k, actuator in enumerate(self._actuators):
            for state in self._actuator_states[k]:
                if state is not None:
                    state.reset()

    def _release(self) -> None:
        self._model = self._solver = self._pipeline = self._contacts = None
        self._state0 = self._state1 = self._control = None
        self._body_index = {}
        self._actuators, self._actuator_states = [], []
        self._steps = 0

    # -- building ----------------------------------------------------------------------------------
    def _import(self, xform):
        spec = self._spec
        builder = newton.ModelBuilder(up_axis=newton.Axis.Z, gravity=(0.0, 0.0, -float(spec.gravity)))
        result = builder.add_usd(
            self._source(),
            xform=xform,
            floating=False if spec.pin_base else None,
            schema_resolvers=[newton.usd.SchemaResolverNewton(), newton.usd.SchemaResolverPhysx()],
            load_visual_shapes=False,
            load_sites=False,
        )
        return builder, result

    def _articulate_loose_joints(self, builder) -> None:
        """Joints outside any ArticulationRootAPI (PhysX: maximal D6 constraints) become Newton articulations,
        one per connected tree, because SolverSteel simulates joints only in reduced coordinates."""
        loose = [j for j, a in enumerate(builder.joint_articulation) if a < 0]
        if not loose:
            return
        group_of_body: dict[int, int] = {}
        groups: list[list[int]] = []
        for j in loose:
            parent, child = builder.joint_parent[j], builder.joint_child[j]
            owners = {group_of_body[b] for b in (parent, child) if b >= 0 and b in group_of_body}
            if not owners:
                groups.append([j])
                g = len(groups) - 1
            else:
                g = min(owners)
                for other in sorted(owners - {g}, reverse=True):
                    groups[g] += groups[other]
                    groups[other] = []
                    for b, owner in group_of_body.items():
                        if owner == other:
                            group_of_body[b] = g
                groups[g].append(j)
            for b in (parent, child):
                if b >= 0:
                    group_of_body[b] = g
        for group in groups:
            if not group:
                continue
            group = sorted(group)
            if group != list(range(group[0], group[-1] + 1)):
                raise EngineError(f"joints {[builder.joint_label[j] for j in group]} cannot form one Newton articulation")
            builder.add_articulation(group, label=f"loose_{group[0]}")
        paths = [self._asset.joints[p].path for p in self._asset.joints
                 if self._asset.joints[p].is_dof and self._asset.joints[p].articulation is None]
        if paths:
            self._warn(f"{len(paths)} joints outside an articulation are simulated in reduced coordinates by Newton "
                       "(PhysX: maximal constraints)")

    def _source(self):
        """The asset file, or for metersPerUnit != 1 (which Newton 1.8 rejects) an in-memory stage in metres
        that references the asset's default prim under a scaling Xform of the same path."""
        asset = self._asset
        if abs(asset.meters_per_unit - 1.0) < 1e-9:
            return asset.path
        if getattr(self, "_scaled_stage", None) is not None:
            return self._scaled_stage
        from pxr import Gf, Usd, UsdGeom

        if not asset.default_prim or asset.default_prim.count("/") != 1:
            raise EngineError(f"{asset.path}: metersPerUnit {asset.meters_per_unit} needs a default prim to rescale for Newton")
        source = Usd.Stage.Open(asset.path, Usd.Stage.LoadAll)
        stage = Usd.Stage.CreateInMemory()
        UsdGeom.SetStageUpAxis(stage, UsdGeom.GetStageUpAxis(source))
        UsdGeom.SetStageMetersPerUnit(stage, 1.0)
        root = UsdGeom.Xform.Define(stage, asset.default_prim)
        s = float(asset.meters_per_unit)
        root.AddScaleOp(UsdGeom.XformOp.PrecisionDouble).Set(Gf.Vec3d(s, s, s))
        root.GetPrim().GetReferences().AddReference(asset.path)
        self._scaled_stage = stage
        self._warn(
            f"metersPerUnit {asset.meters_per_unit}: Newton imports metres only; the asset is imported scaled, and "
            "prismatic limits, linear drive gains and velocity limits are taken from the asset model (SI)"
        )
        return stage

    def _build(self) -> None:
        spec = self._spec
        announce_cold_compile()
        self._scaled_stage = None
        builder, result = self._import(None)
        if spec.place_bottom_at is not None:
            box = self._builder_aabb(builder)
            if box is not None:
                shift = float(spec.place_bottom_at) - float(box[0][2])
                if abs(shift) > 1e-9:
                    builder, result = self._import(wp.transform((0.0, 0.0, shift), wp.quat_identity()))
        self._articulate_loose_joints(builder)
        ground_shape = -1
        if spec.ground is not None:
            cfg = newton.ModelBuilder.ShapeConfig(
                mu=float(spec.ground.dynamic_friction), restitution=float(spec.ground.restitution)
            )
            ground_shape = builder.add_ground_plane(height=float(spec.ground.height), cfg=cfg)
            if spec.ground.static_friction != spec.ground.dynamic_friction:
                self._warn("Newton has one friction coefficient (mu): the ground's dynamic friction is used")
        model = builder.finalize(device="cpu")
        self._model = model
        self._map_bodies(result)
        self._map_dofs(result)
        self._apply_velocity_limits()
        if abs(self._asset.meters_per_unit - 1.0) >= 1e-9:
            self._apply_linear_joint_units()
        self._collect_bound_shapes(ground_shape)
        self._actuators = list(getattr(model, "actuators", []) or [])
        if result.get("actuator_count", 0) and not self._actuators:
            self._warn(f"{result['actuator_count']} NewtonActuator prims were parsed but no actuator was built")
        self._actuator_states = [(a.state(), a.state()) for a in self._actuators]
        self._solver = newton.solvers.SolverSteel(
            model,
            iterations=max(int(spec.solver_position_iterations), 1),
            enable_joint_limits=True,
            enable_joint_velocity_limits=True,
            articulation_constraint_max=ARTICULATION_CONSTRAINT_MAX,
        )
        self._state0, self._state1 = model.state(), model.state()
        self._control = model.control()
        newton.eval_fk(model, model.joint_q, model.joint_qd, self._state0)
        self._pipeline = newton.CollisionPipeline(model)
        self._contacts = self._pipeline.contacts()
        self._body_com = model.body_com.numpy().astype(float)
        self._target_q = model.joint_target_q.numpy().astype(float)
        self._targets = np.array(
            [d.sign * self._target_q[d.q_index] if d.q_index >= 0 else np.nan for d in self._dofs], float
        )
        self._initial = {
            name: getattr(self._state0, name).numpy().copy() for name in ("joint_q", "joint_qd", "body_q", "body_qd")
        }

    def _map_bodies(self, result) -> None:
        model = self._model
        flags = model.body_flags.numpy() if getattr(model, "body_flags", None) is not None else None
        kinematic = int(getattr(newton.BodyFlags, "KINEMATIC", 0))
        labels = list(model.body_label)
        path_map = result.get("path_body_map") or {label: i for i, label in enumerate(labels)}
        self._body_index = {path: int(i) for path, i in path_map.items() if 0 <= int(i) < model.body_count}
        self._dynamic_bodies = {
            i for i in self._body_index.values() if flags is None or not (int(flags[i]) & kinematic)
        }
        for path, body in self._asset.bodies.items():
            if body.enabled and path not in self._body_index:
                self._warn(f"{path}: rigid body not imported by Newton")

    def _map_dofs(self, result) -> None:
        model = self._model
        joint_map = result.get("path_joint_map") or {label: i for i, label in enumerate(model.joint_label)}
        q_start, qd_start = model.joint_q_start.numpy(), model.joint_qd_start.numpy()
        joint_type, joint_child = model.joint_type.numpy(), model.joint_child.numpy()
        labels = list(model.body_label)
        one_dof = {int(newton.JointType.REVOLUTE), int(newton.JointType.PRISMATIC)}
        self._dofs = []
        for joint in self._asset.dof_joints:
            j = joint_map.get(joint.path)
            if j is None or int(joint_type[j]) not in one_dof:
                self._warn(f"{joint.path}: not simulated by Newton as a one-DOF joint; its readings are NaN")
                self._dofs.append(_Dof(joint.path))
                continue
            child = labels[int(joint_child[j])] if int(joint_child[j]) >= 0 else None
            sign = -1.0 if (joint.body1 is not None and child == joint.body0 and child != joint.body1) else 1.0
            self._dofs.append(_Dof(joint.path, int(q_start[j]), int(qd_start[j]), sign))

    def _apply_velocity_limits(self) -> None:
        """Write the asset's velocity limit where Newton did not read it (physxJointAxis:* spelling)."""
        limits = self._model.joint_velocity_limit.numpy()
        changed = False
        for dof in self._dofs:
            joint = self._asset.joints[dof.path]
            if dof.qd_index < 0 or joint.velocity_limit is None or not math.isfinite(joint.velocity_limit):
                continue
            if joint.articulation is None and (joint.velocity_limit_source or "").startswith("physx"):
                # PhysX enforces maxJointVelocity on articulation joints only: keep that meaning of the attribute.
                if float(limits[dof.qd_index]) < UNLIMITED_VELOCITY:
                    limits[dof.qd_index] = UNLIMITED_VELOCITY
                    changed = True
                continue
            if abs(float(limits[dof.qd_index]) - joint.velocity_limit) > 1e-6 * max(1.0, joint.velocity_limit):
                if float(limits[dof.qd_index]) < UNLIMITED_VELOCITY:
                    self._warn(
                        f"{dof.path}: Newton read velocity limit {limits[dof.qd_index]:.6g}, the asset model "
                        f"{joint.velocity_limit:.6g} ({joint.velocity_limit_source}); the asset model's is used"
                    )
                limits[dof.qd_index] = joint.velocity_limit
                changed = True
        if changed:
            self._model.joint_velocity_limit.assign(limits)

    def _apply_linear_joint_units(self) -> None:
        """Prismatic limits and linear drive gains in SI from the asset model (the scaled import keeps stage units)."""
        model = self._model
        arrays = {name: getattr(model, name).numpy() for name in
                  ("joint_limit_lower", "joint_limit_upper", "joint_target_ke", "joint_target_kd", "joint_target_q")}
        for dof in self._dofs:
            joint = self._asset.joints[dof.path]
            if dof.qd_index < 0 or joint.type != "prismatic":
                continue
            lo, hi = (joint.lower, joint.upper) if dof.sign > 0 else (
                None if joint.upper is None else -joint.upper, None if joint.lower is None else -joint.lower)
            if lo is not None:
                arrays["joint_limit_lower"][dof.qd_index] = lo
            if hi is not None:
                arrays["joint_limit_upper"][dof.qd_index] = hi
            if joint.drive is not None:
                arrays["joint_target_ke"][dof.qd_index] = joint.drive.stiffness
                arrays["joint_target_kd"][dof.qd_index] = joint.drive.damping
                arrays["joint_target_q"][dof.q_index] = dof.sign * joint.drive.target_position
        for name, values in arrays.items():
            getattr(model, name).assign(values)

    def _collect_bound_shapes(self, ground_shape: int) -> None:
        model = self._model
        flags, types, bodies = model.shape_flags.numpy(), model.shape_type.numpy(), model.shape_body.numpy()
        self._bound_shapes = [  # the rigid bodies' shapes: static scenery (body -1) never counts
            s for s in range(model.shape_count)
            if s != ground_shape and int(flags[s]) & _COLLIDE and int(types[s]) not in (nb.PLANE, nb.HFIELD)
            and int(bodies[s]) >= 0
        ]
        self._mesh_vertices = {}
        for s in self._bound_shapes:
            if int(types[s]) in (nb.MESH, nb.CONVEX_MESH):
                source = model.shape_source[s]
                if source is not None:
                    self._mesh_vertices[s] = np.asarray(source.vertices, float)
        self._shape_arrays = (
            model.shape_body.numpy(), model.shape_transform.numpy(), types, model.shape_scale.numpy()
        )

    def _builder_aabb(self, builder):
        """Authored collision bounds from the builder's lists, before finalize (for place_bottom_at)."""
        types = np.asarray(builder.shape_type, int)
        flags = np.asarray(builder.shape_flags, int)
        owners = np.asarray(builder.shape_body, int)
        shapes = [
            s for s in range(len(types))
            if flags[s] & _COLLIDE and types[s] not in (nb.PLANE, nb.HFIELD) and owners[s] >= 0
        ]
        if not shapes:
            return None
        body_q = np.array([list(t) for t in builder.body_q], float).reshape(-1, 7)
        xforms = np.array([list(t) for t in builder.shape_transform], float)
        scales = np.array([list(s) for s in builder.shape_scale], float)
        vertices = {
            s: np.asarray(builder.shape_source[s].vertices, float)
            for s in shapes
            if types[s] in (nb.MESH, nb.CONVEX_MESH) and builder.shape_source[s] is not None
        }
        return nb.world_aabb(body_q, np.asarray(builder.shape_body, int), xforms, types, scales, shapes, vertices)

    # -- reads -------------------------------------------------------------------------------------
    def _aabb(self, body_q):
        shape_body, shape_xf, types, scales = self._shape_arrays
        return nb.world_aabb(body_q, shape_body, shape_xf, types, scales, self._bound_shapes, self._mesh_vertices)

    def _read(self, values: np.ndarray, field: str) -> np.ndarray:
        out = np.full(len(self._dofs), np.nan)
        for i, dof in enumerate(self._dofs):
            index = getattr(dof, field)
            if index >= 0:
                out[i] = dof.sign * float(values[index])
        return out

    def _check_capacity(self) -> None:
        try:
            self._solver.check_constraint_capacity()
        except Exception as exc:  # rows or contacts were dropped: results are less trustworthy
            self._warn(f"SolverSteel dropped constraint rows or contacts: {exc}")
