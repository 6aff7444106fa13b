"""NewtonEngine: the Engine protocol at run time on a model built by scene.py, for one `newton.target`.

EngineBase keeps the protocol rules (target array shape, NaN keeps a target, force queue, reset of
targets, clock); this class writes Newton's arrays: joint_target_q as one array, the queued forces as
body wrenches about the centre of mass, actuators and one solver step (stepper.py), the state right after load.
Creating one imports neither Warp nor Newton (its version comes from the target's package metadata): the first
load, or `prepare_process`, imports the target's Newton into this process.
"""

from __future__ import annotations

import dataclasses
import importlib.util
import math
from typing import Any

import numpy as np

from ..base import EngineBase, EngineCapabilities, EngineError
from . import bounds as nb
from . import compat
from .runtime import (
    PROCESS_STATE, announce_cold_compile, compile_notice, imported_target, is_warm, mark_warm,
)
from .settings import NewtonSettings
from .targets import NewtonTarget, choose_for_process, named, process_target, version_line, versions

for _name in ("warp", "newton"):
    if importlib.util.find_spec(_name) is None:  # engines/__init__ turns this into EngineUnavailable
        raise ImportError(f"newton is not installed (pip install -e '.[newton]'): no module named '{_name}'")


class NewtonEngine(EngineBase):
    """Newton on the CPU device, one world, the target's solver (SolverSteel, or Isaac Sim 6.2's SolverMuJoCo)."""

    name = "newton"
    CAPABILITIES = EngineCapabilities(
        reads_joint_velocity_limits=True, reads_body_masses=True, reads_runtime_values=True, reads_built_model=True,
        reads_jacobian=True, describes_components=True,
        single_joint_position_targets=True,
        joint_velocity_targets=True,
        # NewtonActuator prims are parsed by Newton's importer and stepped before every solver step (_advance);
        # MjcActuator prims belong to Newton's MuJoCo solver (not measured under the isaacsim-6.2 target: not claimed)
        simulated_actuator_schemas=frozenset({"NewtonActuator"}),
        mimic_joints=True,  # as the asset model reads them (mapping.restore_mimics)
        physics_runtime="Newton",
    )
    # what _build() makes of the asset; emptied by _release()
    _body_index: dict[str, int]
    _stepper: Any  # stepper.Stepper once built (its module imports Newton, so it is not named here)
    _dynamic_bodies: set[int]
    _bounds: nb.ShapeBounds | None
    _initial: dict

    @classmethod
    def from_config(cls, config) -> "NewtonEngine":
        """The engine of the config's `[newton]` section (its target), made this process's Newton target too, so the
        workers a run starts after this import that one."""
        name = (config.engines.get(cls.name) or NewtonSettings()).target
        choose_for_process(name)
        return cls(target=name)

    @staticmethod
    def prepare_process(notice=None) -> None:
        """The process's target installed and imported, and its kernels compiled, once per kernel cache (warm_up.py),
        before any test's clock starts: `notice` (default: stderr, once per process) is told first, so a first run
        reads as what it is."""
        if notice is not None:
            PROCESS_STATE["notice"] = notice
        if is_warm():
            return
        from .warm_up import warm_kernels

        if notice is None:
            announce_cold_compile()
        else:
            notice(compile_notice())
            PROCESS_STATE["announced"] = True
        warm_kernels(NewtonEngine)

    def __init__(self, target: str | None = None) -> None:
        """`target`: a `newton.target` name; None: the Newton this process imported, else the one it will."""
        super().__init__()
        self.target: NewtonTarget = named(target) if target else (imported_target() or process_target())
        self.version = version_line(self.target)
        self._release()
        self._target_q = np.zeros(0)  # Newton's whole joint_target_q (Newton's sign), written as one array
        self._target_qd = np.zeros(0)  # Newton's whole joint_target_qd (drive velocity targets), likewise

    def capabilities(self) -> EngineCapabilities:
        """The class's record, with what the target's solver does: SolverMuJoCo caps no joint velocity."""
        return dataclasses.replace(type(self).CAPABILITIES, caps_joint_velocities=self.target.enforces_velocity_limits)

    def describe(self) -> dict:
        """The report's engine block: the Newton and Warp (and MuJoCo) versions and the solver, and `newton.target`."""
        components = {name.replace("-lang", ""): version for name, version in versions(self.target).items()}
        components["solver"] = "SolverMuJoCo" if self.target.solver == "mujoco" else "SolverSteel"
        return {"name": self.name, "version": self.version, "settings": {"newton.target": self.target.name},
                "components": components}

    # -- reads ---------------------------------------------------------------------------------------
    def bounds(self) -> tuple[np.ndarray, np.ndarray]:
        assert self._bounds is not None, "bounds() before load()"
        box = self._bounds.aabb(self._state0.body_q.numpy())
        if box is None:
            return np.zeros(3), np.zeros(3)
        return box

    def joint_positions(self) -> np.ndarray:
        return self._read(self._state0.joint_q.numpy(), "q_index")

    def joint_velocities(self) -> np.ndarray:
        return self._read(self._state0.joint_qd.numpy(), "qd_index")

    def _read(self, values: np.ndarray, field: str) -> np.ndarray:
        out = np.full(len(self._dofs), np.nan)
        for i, dof in enumerate(self._dofs):
            index = getattr(dof, field)
            if index >= 0:
                out[i] = dof.sign * float(values[index])
        return out

    def body_poses(self) -> dict[str, tuple[np.ndarray, np.ndarray]]:
        body_q = self._state0.body_q.numpy().astype(float)
        out = {}
        for path, index in self._body_index.items():
            x, y, z, w = body_q[index, 3:]
            out[path] = (body_q[index, :3].copy(), np.array([w, x, y, z]))
        return out

    def joint_velocity_limits(self) -> np.ndarray:
        """The velocity cap the solver enforces per DOF joint (rad/s or m/s, SI), in `dof_joints` order: none (inf) on
        SolverMuJoCo, which does not read `joint_velocity_limit` (its documentation; Isaac Sim 6.2's Newton)."""
        limits = self._read(self._model.joint_velocity_limit.numpy(), "qd_index")
        return limits if self.target.enforces_velocity_limits else np.where(np.isnan(limits), limits, math.inf)

    def runtime_values(self):
        """Every per-DOF and per-body value of Newton's model, SI, for the runtime readback (readback.py)."""
        from .readback import read_runtime_values

        return read_runtime_values(self)

    def built_model(self):
        """What Newton built (built.py): its articulations and their root links, the couplings, shapes and bodies."""
        from .built import read_built_model

        return read_built_model(self)

    def body_jacobian(self, body_path: str) -> np.ndarray:
        """The runtime's Jacobian of one body's origin over the DOF joints (jacobian.py)."""
        from .jacobian import body_jacobian

        index = self._body_index.get(body_path)
        if index is None:
            raise EngineError(f"body_jacobian: Newton simulates no body {body_path}")
        return body_jacobian(self._model, self._state0, index, self._dofs, self._body_com)

    def body_masses(self) -> dict[str, float]:
        """Mass per simulated body (kg), as Newton computed it."""
        mass = self._model.body_mass.numpy()
        return {path: float(mass[i]) for path, i in self._body_index.items()}

    # -- EngineBase hooks ----------------------------------------------------------------------------
    def _build(self) -> None:
        held = imported_target()
        if held is not None and held.name != self.target.name:
            raise EngineError(f"newton.target={self.target.name} ({self.version}) needs a process of its own: this one "
                              f"runs newton.target={held.name} ({version_line(held)}); run it in worker processes "
                              "(without --in-process)")
        if held is None:
            choose_for_process(self.target.name)
        announce_cold_compile()
        from .scene import build_scene

        assert self._asset is not None and self._spec is not None  # set by load()
        s = build_scene(self._asset, self._spec, self._warn, self.target)
        self._model, self._solver, self._stepper = s.model, s.solver, s.stepper
        self._state0, self._control = s.state0, s.control
        self._body_index, self._dynamic_bodies, self._body_com = s.body_index, s.dynamic_bodies, s.body_com
        self._dofs, self._bounds, self._initial = s.dofs, s.bounds, s.initial
        self._actuators, self._actuator_states = s.actuators, s.actuator_states
        self._target_q = s.model.joint_target_q.numpy().astype(float)
        self._targets = np.array(
            [d.sign * self._target_q[d.q_index] if d.q_index >= 0 else np.nan for d in self._dofs], float
        )
        target_qd = s.control.joint_target_qd
        self._target_qd = target_qd.numpy().astype(float) if target_qd is not None else np.zeros(0)
        self._velocity_targets = np.array(
            [d.sign * self._target_qd[d.qd_index] if 0 <= d.qd_index < len(self._target_qd) else np.nan for d in self._dofs],
            float,
        )

    def _write_targets(self, indices: np.ndarray, values: np.ndarray) -> None:
        changed = False
        for index, value in zip(indices.tolist(), values.tolist()):
            dof = self._dofs[index]
            if dof.q_index >= 0:
                self._target_q[dof.q_index] = dof.sign * value
                changed = True
        if changed:
            self._control.joint_target_q.assign(self._target_q.astype(np.float32))

    def _write_velocity_targets(self, indices: np.ndarray, values: np.ndarray) -> None:
        changed = False
        for index, value in zip(indices.tolist(), values.tolist()):
            dof = self._dofs[index]
            if 0 <= dof.qd_index < len(self._target_qd):
                self._target_qd[dof.qd_index] = dof.sign * value
                changed = True
        if changed:
            self._control.joint_target_qd.assign(self._target_qd.astype(np.float32))

    def _force_body(self, body_path: str):
        index = self._body_index.get(body_path)
        if index is None:
            assert self._asset is not None
            if body_path in self._asset.bodies:
                return None  # a disabled (static) body: nothing moves it
            raise EngineError(f"apply_force: unknown body {body_path}")
        if index not in self._dynamic_bodies:
            return None  # kinematic
        return index

    def _apply_forces(self, forces: list) -> None:
        """Newton takes a wrench per body about its centre of mass: forces at a point add their torque."""
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
        s0, control = self._state0, self._control
        if self._actuators:  # stepped eagerly: they write control.joint_f in place, which the recorded step reads
            control.joint_f.zero_()
            for k, actuator in enumerate(self._actuators):
                current, following = self._actuator_states[k]
                actuator.step(s0, control, current, following, self._dt)
                self._actuator_states[k] = (following, current)
        self._stepper.step()
        self._steps += 1
        if self._steps == 1:
            mark_warm()
        if self._steps % 240 == 0:
            self._check_capacity()

    def _check_capacity(self) -> None:
        try:
            compat.check_capacity(self._solver)
        except Exception as exc:  # rows or contacts were dropped: results are less trustworthy
            self._warn(f"SolverSteel dropped constraint rows or contacts: {exc}")

    def _restore_initial_state(self) -> None:
        s0 = self._state0
        for name, value in self._initial.items():
            getattr(s0, name).assign(value)
        self._solver.reset(s0)
        self._stepper.forget()
        for k, _actuator in enumerate(self._actuators):
            for state in self._actuator_states[k]:
                if state is not None:
                    state.reset()

    def _release(self) -> None:
        self._model = self._solver = self._stepper = None
        self._state0 = self._control = None
        self._body_index = {}
        self._dynamic_bodies = set()
        self._bounds = None
        self._initial = {}
        self._actuators, self._actuator_states = [], []
        self._steps = 0
