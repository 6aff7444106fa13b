"""EngineBase: the Engine protocol rules every engine keeps the same way, written once.

core/engine.py states the rules; this class enforces them so each engine writes only what is specific
to its physics library:

- capabilities: `capabilities()` returns the class's `CAPABILITIES` record (core.engine.EngineCapabilities);
  a method the record says the engine lacks raises EngineCapabilityMissing (the runtime reads below, and
  `set_joint_velocity_targets`); `describe()`, `from_config()` and `prepare_process()` have defaults;
- targets: a full-size array of `len(dof_joints)` (any other shape is an EngineError), NaN entries keep
  the current target, and `set_joint_position_target(index, value)` sets one joint without a full array;
  the last target of every joint is kept in `_targets`, and `reset()` restores the targets of load;
  velocity targets alike (`_velocity_targets`; those of load are the authored drives' unless the engine's
  `_build` reads its own), restored on reset only once one was commanded;
- forces: `apply_force` queues, `step()` hands the queue to the engine once and empties it (a force lasts
  one step), `reset()` drops what is queued;
- load: drop the old scene, fresh warnings, the rate from the scene; a build failure closes the engine
  and becomes an EngineError naming the asset; the clock restarts at load and reset;
- the DOF list (records with a `path`, in `dof_joints` order) and warnings without repeats.

An engine implements these hooks (all small; none is called before a successful load):

- `_build()`: build the scene from `self._asset` / `self._spec`; fill `self._dofs` and set
  `self._targets` to each DOF's target at load (SI, NaN = no target).
- `_write_targets(indices, values)`: send targets (SI, protocol sign) of the DOFs at `indices` (int array)
  to the engine; `_targets` already holds them. One call per command, so an engine that writes a
  whole tensor can read-modify-write it once.
- `_write_velocity_targets(indices, values)`: the same for drive velocity targets (engines that claim
  `joint_velocity_targets`).
- `_force_body(path)`: the engine's handle of a body a force can move, None when nothing moves it
  (static, kinematic), or raise EngineError for an unknown body. Called when the force is set.
- `_apply_forces(forces)`: before every step, the `(handle, force, point | None)` queued since the last
  one (maybe none; world frame, SI, point None = centre of mass). Engines stepped by someone else (the
  Kit timeline) call `flush_forces()` from their pre-step callback instead of `step()`.
- `_advance()`: one physics step of `dt`.
- `_restore_initial_state()`: poses, velocities and solver state as right after load (targets follow).
- `_release()`: drop the engine's scene and handles (called by `close()`, also before each load).

And the reads: `bounds`, `joint_positions`, `joint_velocities`, `body_poses`. An engine whose load
differs (the Kit engine attaches to an open stage) overrides `load()` and calls `_mark_loaded()`.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Callable, ClassVar

import numpy as np

from ..core.engine import (  # noqa: F401 - re-exported for engines
    Engine, EngineCapabilities, EngineCapabilityMissing, EngineError, EngineUnavailable,
)

if TYPE_CHECKING:
    from ..core.asset_model import AssetModel
    from ..core.scene import SceneSpec


class EngineBase:
    """The shared half of every engine: targets, force queue, reset, clock, DOF list, warnings."""

    name = ""
    version = ""
    # What this engine offers (core.engine.EngineCapabilities); each engine states its own.
    CAPABILITIES: ClassVar[EngineCapabilities] = EngineCapabilities(single_joint_position_targets=True)

    def __init__(self) -> None:
        self.warnings: list[str] = []
        self._asset: "AssetModel | None" = None
        self._spec: "SceneSpec | None" = None
        self._dt = 1.0 / 240.0
        self._time = 0.0
        self._dofs: list = []  # engine-specific records with a `path`, in dof_joints order
        self._targets = np.zeros(0)  # per DOF, SI; NaN = no target
        self._initial_targets = np.zeros(0)
        self._velocity_targets = np.zeros(0)  # per DOF drive velocity target, SI; NaN = not known
        self._initial_velocity_targets = np.zeros(0)
        self._velocity_targets_commanded = False  # reset() writes the load's back only after a command
        self._pending_forces: list = []  # (handle, force, point | None) for the next step
        self._loaded = False

    # -- what the engine is --------------------------------------------------------------------------
    def capabilities(self) -> EngineCapabilities:
        return type(self).CAPABILITIES

    def describe(self) -> dict:
        """The report's engine block (core.results.EngineInfo): name and version; engines that know more
        (libraries, settings) say so (`describes_components`)."""
        return {"name": self.name, "version": self.version}

    @classmethod
    def from_config(cls, config) -> "EngineBase":
        """An engine for a run's config (core.config.ValidationConfig): engines with settings of their own
        (physx: `physx.target`) take them from it; the others run at their defaults."""
        return cls()

    @staticmethod
    def prepare_process(notice: Callable[[str], None] | None = None) -> None:
        """Start the engine's runtime in this process now (a spawned worker's warm-up, a run before its first test),
        not at the first load. `notice`: told, before a long first-run preparation (Newton's kernel compile), what it
        is; the caller gives that phase a budget of its own instead of the watchdog. Nothing to start by default."""

    # -- clock and DOFs ------------------------------------------------------------------------------
    @property
    def time(self) -> float:
        return self._time

    @property
    def dt(self) -> float:
        return self._dt

    @property
    def dof_joints(self) -> list[str]:
        return [d.path for d in self._dofs]

    # -- load, step, reset, close --------------------------------------------------------------------
    def load(self, asset: "AssetModel", scene: "SceneSpec") -> None:
        self.close()
        self.warnings = []
        self._asset, self._spec = asset, scene
        self._dt = 1.0 / float(scene.physics_fps)
        try:
            self._build()
        except EngineError:
            self.close()
            raise
        except Exception as exc:  # the physics library refused the asset while building
            self.close()
            raise EngineError(f"{self.name} engine could not build {asset.path}: {self._build_error_detail(exc)}") from exc
        self._mark_loaded()

    def _mark_loaded(self) -> None:
        """The scene is built: the clock starts and the current targets become the ones reset() restores."""
        self._time = 0.0
        self._initial_targets = self._targets.copy()
        if self._velocity_targets.shape != (len(self._dofs),):
            self._velocity_targets = self._authored_velocity_targets()
        self._initial_velocity_targets = self._velocity_targets.copy()
        self._velocity_targets_commanded = False
        self._loaded = True

    def _authored_velocity_targets(self) -> np.ndarray:
        """Per DOF: the authored drive's targetVelocity (SI), NaN for a joint without a drive."""
        out = np.full(len(self._dofs), np.nan)
        joints = self._asset.joints if self._asset is not None else {}
        for i, dof in enumerate(self._dofs):
            joint = joints.get(dof.path)
            if joint is not None and joint.drive is not None:
                out[i] = joint.drive.target_velocity
        return out

    def step(self) -> None:
        """Forces set since the last step apply to this one step only."""
        self.flush_forces()
        self._advance()
        self._time += self._dt

    def flush_forces(self) -> None:
        """Hand the queued forces to the engine for the coming step and empty the queue."""
        forces, self._pending_forces = self._pending_forces, []
        self._apply_forces(forces)

    def reset(self) -> None:
        """Back to the state right after load: poses, velocities, joint targets, time; queued forces dropped."""
        if not self._loaded:
            return
        self._restore_initial_state()
        self._pending_forces.clear()
        self._targets = self._initial_targets.copy()
        indices = np.flatnonzero(~np.isnan(self._targets))
        if len(indices):
            self._write_targets(indices, self._targets[indices])
        if self._velocity_targets_commanded:
            self._velocity_targets = self._initial_velocity_targets.copy()
            indices = np.flatnonzero(~np.isnan(self._velocity_targets))
            if len(indices):
                self._write_velocity_targets(indices, self._velocity_targets[indices])
            self._velocity_targets_commanded = False
        self._time = 0.0

    def close(self) -> None:
        self._loaded = False
        self._pending_forces = []
        self._dofs = []
        self._targets = np.zeros(0)
        self._velocity_targets = np.zeros(0)
        self._release()

    # -- targets and forces --------------------------------------------------------------------------
    def set_joint_position_targets(self, targets: np.ndarray) -> None:
        """Full-size target array in dof_joints order; NaN entries keep the current target."""
        targets = np.asarray(targets, float)
        if targets.shape != (len(self._dofs),):
            raise EngineError(f"expected {len(self._dofs)} joint targets, got shape {targets.shape}")
        indices = np.flatnonzero(~np.isnan(targets))
        if len(indices):
            values = targets[indices]
            self._targets[indices] = values
            self._write_targets(indices, values)

    def set_joint_position_target(self, index: int, value: float) -> None:
        """One joint's target (the others keep theirs), without a full array per step; NaN keeps it too."""
        value = float(value)
        if value != value:
            return
        self._targets[index] = value
        self._write_targets(np.array([index]), np.array([value]))

    def set_joint_velocity_targets(self, targets: np.ndarray) -> None:
        """Full-size drive velocity targets (rad/s or m/s) in dof_joints order; NaN entries keep the current one."""
        if not self.capabilities().joint_velocity_targets:
            raise EngineCapabilityMissing(f"the {self.name} engine takes no joint velocity targets "
                                          "(EngineCapabilities.joint_velocity_targets is False)")
        targets = np.asarray(targets, float)
        if targets.shape != (len(self._dofs),):
            raise EngineError(f"expected {len(self._dofs)} joint velocity targets, got shape {targets.shape}")
        indices = np.flatnonzero(~np.isnan(targets))
        if len(indices):
            values = targets[indices]
            self._velocity_targets[indices] = values
            self._velocity_targets_commanded = True
            self._write_velocity_targets(indices, values)

    def apply_force(self, body_path: str, force: np.ndarray, point: np.ndarray | None = None) -> None:
        """World-frame force (N) at a world point (default: the centre of mass), for the next step only."""
        handle = self._force_body(body_path)
        if handle is None:
            return
        # copies: the caller may reuse its arrays before the step
        self._pending_forces.append((handle, np.array(force, float), None if point is None else np.array(point, float)))

    # -- state reads: every engine implements them ------------------------------------------------------
    def bounds(self) -> tuple[np.ndarray, np.ndarray]:
        raise NotImplementedError

    def joint_positions(self) -> np.ndarray:
        raise NotImplementedError

    def joint_velocities(self) -> np.ndarray:
        raise NotImplementedError

    def body_poses(self) -> dict[str, tuple[np.ndarray, np.ndarray]]:
        raise NotImplementedError

    # -- reads of what the runtime parsed: engines that offer one override it and claim it ------------------
    def joint_limits(self) -> np.ndarray:
        raise self._missing("joint_limits", "reads_joint_limits")

    def drive_gains(self) -> dict[str, np.ndarray]:
        raise self._missing("drive_gains", "reads_drive_gains")

    def joint_velocity_limits(self) -> np.ndarray:
        raise self._missing("joint_velocity_limits", "reads_joint_velocity_limits")

    def mass_matrix(self) -> np.ndarray:
        raise self._missing("mass_matrix", "reads_mass_matrix")

    def body_masses(self) -> dict[str, float]:
        raise self._missing("body_masses", "reads_body_masses")

    def runtime_values(self):
        raise self._missing("runtime_values", "reads_runtime_values")

    def built_model(self):
        raise self._missing("built_model", "reads_built_model")

    def body_jacobian(self, body_path: str) -> np.ndarray:
        raise self._missing("body_jacobian", "reads_jacobian")

    # -- reads for loops that run every step: engines that offer one override it and claim it --------------
    def outer_bounds(self) -> tuple[np.ndarray, np.ndarray]:
        raise self._missing("outer_bounds", "outer_bounds")

    def body_pose(self, body_path: str):
        raise self._missing("body_pose", "single_body_pose")

    def _missing(self, method: str, field: str) -> EngineCapabilityMissing:
        return EngineCapabilityMissing(f"the {self.name} engine does not offer {method}() "
                                       f"(EngineCapabilities.{field} is False)")

    # -- for engines ---------------------------------------------------------------------------------
    def _warn(self, message: str) -> None:
        if message not in self.warnings:
            self.warnings.append(message)

    def _build_error_detail(self, exc: Exception) -> str:
        """How a build failure reads after 'could not build <asset>: '."""
        return f"{type(exc).__name__}: {exc}"

    # -- hooks (see the module docstring) ------------------------------------------------------------
    def _build(self) -> None:
        raise NotImplementedError

    def _write_targets(self, indices: np.ndarray, values: np.ndarray) -> None:
        raise NotImplementedError

    def _write_velocity_targets(self, indices: np.ndarray, values: np.ndarray) -> None:
        raise NotImplementedError

    def _force_body(self, body_path: str):
        raise NotImplementedError

    def _apply_forces(self, forces: list) -> None:
        raise NotImplementedError

    def _advance(self) -> None:
        raise NotImplementedError

    def _restore_initial_state(self) -> None:
        raise NotImplementedError

    def _release(self) -> None:
        pass
