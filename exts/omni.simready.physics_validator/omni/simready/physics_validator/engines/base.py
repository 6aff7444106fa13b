"""EngineBase: the Engine protocol rules every engine keeps the same way, written once.

core/engine.py states the rules; this class enforces them so each engine writes only what is specific
to its physics library:

- targets: a full-size array of `len(dof_joints)` (any other shape is an EngineError), NaN entries keep
  the current target, and `set_joint_position_target(index, value)` sets one joint without a full array;
  the last target of every joint is kept in `_targets`, and `reset()` restores the targets of load;
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

import math

from typing import TYPE_CHECKING

import numpy as np

from ..core.engine import Engine, EngineError, EngineUnavailable  # noqa: F401 - re-exported for engines

if TYPE_CHECKING:
    from ..core.asset_model import AssetModel
    from ..core.scene import SceneSpec


class EngineBase:
    """The shared half of every engine: targets, force queue, reset, clock, DOF list, warnings."""

    name = ""
    version = ""
    # The largest |position target| (rad) the runtime accepts for a revolute joint without limits; inf = any.
    revolute_target_bound = math.inf

    def __init__(self) -> None:
        self.warnings: list[str] = []
        self._asset: "AssetModel | None" = None
        self._spec: "SceneSpec | None" = None
        self._dt = 1.0 / 240.0
        self._time = 0.0
        self._dofs: list = []  # engine-specific records with a `path`, in dof_joints order
        self._targets = np.zeros(0)  # per DOF, SI; NaN = no target
        self._initial_targets = np.zeros(0)
        self._pending_forces: list = []  # (handle, force, point | None) for the next step
        self._loaded = False

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
        self._loaded = True

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
        self._time = 0.0

    def close(self) -> None:
        self._loaded = False
        self._pending_forces = []
        self._dofs = []
        self._targets = np.zeros(0)
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

    def apply_force(self, body_path: str, force: np.ndarray, point: np.ndarray | None = None) -> None:
        """World-frame force (N) at a world point (default: the centre of mass), for the next step only."""
        handle = self._force_body(body_path)
        if handle is None:
            return
        # copies: the caller may reuse its arrays before the step
        self._pending_forces.append((handle, np.array(force, float), None if point is None else np.array(point, float)))

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
