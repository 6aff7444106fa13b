"""SapienPhysxEngine: the Engine protocol at run time on a SAPIEN scene built by scene.py.

EngineBase keeps the protocol rules (target array shape, NaN keeps a target, force queue, reset of
targets, clock); this class writes to and reads from SAPIEN: drive targets, forces, one step, a packed
PhysX state to reset to, joint values, body poses and bounds.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import sapien
from sapien import physx

from ..base import EngineBase, EngineCapabilities, EngineError
from .bounds import BodyBounds
from .builder import Built
from .dofs import DofReader, command, command_velocity, velocity_target
from .poses import np_pose
from .scene import build_scene


class SapienPhysxEngine(EngineBase):
    """PhysX 5 on CPU via SAPIEN 3.0.3, no renderer."""

    name = "sapien"
    CAPABILITIES = EngineCapabilities(
        reads_body_masses=True, reads_runtime_values=True, single_joint_position_targets=True, joint_velocity_targets=True,
        physics_runtime="PhysX",  # SAPIEN runs PhysX 5 on the model read from the asset's PhysX variant
    )

    def __init__(self) -> None:
        super().__init__()
        px_version = physx.version().split("physx-")[-1].split(".patch")[0]
        self.version = f"sapien {sapien.__version__} / PhysX {px_version}"
        self._scene: Any = None  # the SAPIEN scene while loaded
        self._built = Built()
        self._bounds: BodyBounds | None = None
        self._reader: DofReader | None = None
        self._initial_state: bytes | None = None

    # -- reads ---------------------------------------------------------------------------------------
    def bounds(self) -> tuple[np.ndarray, np.ndarray]:
        if self._bounds is None:  # nothing loaded
            return np.zeros(3), np.zeros(3)
        return self._bounds.aabb()

    def joint_positions(self) -> np.ndarray:
        return self._joint_values(velocity=False)

    def joint_velocities(self) -> np.ndarray:
        return self._joint_values(velocity=True)

    def _joint_values(self, velocity: bool) -> np.ndarray:
        if self._reader is None:
            self._reader = DofReader(self._dofs, self._built.articulations)
        return self._reader.read(velocity)

    def body_poses(self) -> dict[str, tuple[np.ndarray, np.ndarray]]:
        return {path: np_pose(c.entity.pose) for path, c in self._built.bodies.items()}

    def body_masses(self) -> dict[str, float]:
        """Effective mass per simulated body (kg), as given to PhysX."""
        return dict(self._built.masses)

    def runtime_values(self):
        """Every per-DOF and per-body value given to PhysX, SI, for the runtime readback (readback.py)."""
        from .readback import read_runtime_values

        return read_runtime_values(self)

    def body_inertia(self, body_path: str) -> tuple[np.ndarray, np.ndarray]:
        """(centre of mass in the body frame (m), principal inertia (kg m^2)) as given to PhysX."""
        component = self._built.bodies[body_path]
        return np.asarray(component.get_cmass_local_pose().p, float), np.asarray(component.get_inertia(), float)

    @property
    def native_scene(self):
        """The SAPIEN scene this engine steps (benchmarks compare against stepping it bare)."""
        return self._scene

    # -- EngineBase hooks ----------------------------------------------------------------------------
    def _build(self) -> None:
        asset, spec = self._asset, self._spec
        assert asset is not None and spec is not None  # set by load()
        physx.set_scene_config(gravity=np.array([0.0, 0.0, -float(spec.gravity)], np.float32))
        physx.set_body_config(
            solver_position_iterations=int(spec.solver_position_iterations),
            solver_velocity_iterations=int(spec.solver_velocity_iterations),
        )
        self._scene = sapien.Scene([physx.PhysxCpuSystem()])
        self._scene.set_timestep(self._dt)
        self._built, self._bounds, self._targets = build_scene(spec.asset_with_drives(asset), spec, self._scene,
                                                               self._warn)
        self._dofs = self._built.dofs
        self._velocity_targets = np.array([velocity_target(d) for d in self._dofs], float)
        self._initial_state = self._scene.physx_system.pack()

    def _build_error_detail(self, exc: Exception) -> str:
        return str(exc)

    def _write_targets(self, indices: np.ndarray, values: np.ndarray) -> None:
        dofs = self._dofs
        for index, value in zip(indices.tolist(), values.tolist()):
            command(dofs[index], value)

    def _write_velocity_targets(self, indices: np.ndarray, values: np.ndarray) -> None:
        for index, value in zip(indices.tolist(), values.tolist()):
            command_velocity(self._dofs[index], value)

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
        self._built = Built()
        self._bounds = None
        self._reader = None
        self._scene = None
