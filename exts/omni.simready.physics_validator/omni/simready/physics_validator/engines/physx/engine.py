"""OvPhysxEngine: the Engine protocol on ovphysx, NVIDIA's Omni PhysX runtime (PhysX 5.12, CPU).

EngineBase keeps the protocol rules (target shape, NaN keeps a target, the one-joint setter, the force
queue, targets restored on reset, the clock, warnings). This class:

- load: writes the wrapper stage (`wrapper.py`), populates an ovstage from it and attaches a fresh
  PhysX instance (a pinned scene first attaches the asset without pins, to read the root links PhysX elects:
  `built.py`, `engines.pins`); discovers the articulations PhysX built (`dofJointPath`, `isFixedBase`); measures
  the start pose and re-lifts a miss (`placement.py`; the newton ant started 0.40 m under the floor otherwise);
- per step: everything through `reads.StateIO` (tensor bindings after the first step, the session API
  before it), converted to SI once, here, through `core.units.StageFrame`;
- reset: detach + attach of the same sealed ovstage ordinal (5-23 ms measured; poses and joint values
  exactly as at load);
- warnings: the wrapper's notes (carried-over legacy attributes, ...) and the runtime's own log records
  (WARNING and up), at load and while stepping.
"""

from __future__ import annotations

import dataclasses
import math
import shutil
import weakref
from typing import Any

import numpy as np

from ...core.geometry import quats_to_matrices
from ...core.units import StageFrame
from ..base import EngineBase, EngineCapabilities, EngineError
from .attachments import Attachment, make_room, register, unregister
from .built import built_articulations, elected_cache, read_built_model
from .discovery import Built, discover
from .jacobian import ArticulationJacobian
from .fastpath import Stepper
from .reads import StateIO
from .settings import TARGETS, PhysxSettings
from .runtime import LogCapture, Runtime, capture_log, ensure_runtime, ovphysx_version, physx_sdk_version, version_string
from .placement import exact_lift_correction, miss_note, missed_bodies, placement_miss
from .wrapper import Wrapper, author_wrapper, make_workdir
from .wrenches import step_wrenches

LOG_DRAIN_STEPS = 240  # runtime log records are collected this often while stepping (and on every warnings read)


class OvPhysxEngine(ArticulationJacobian, EngineBase):
    """ovphysx on the asset's own USD. `target`: "isaacsim-5" (default) or "latest" (see legacy.py);
    `workdir`: where wrapper stages go (default: a temporary folder); `keep_wrapper`: leave it there."""

    name = "physx"
    CAPABILITIES = EngineCapabilities(
        reads_joint_limits=True, reads_drive_gains=True, reads_joint_velocity_limits=True, reads_mass_matrix=True,
        reads_body_masses=True, reads_runtime_values=True, reads_built_model=True, reads_jacobian=True, outer_bounds=True,
        describes_components=True, single_joint_position_targets=True, joint_velocity_targets=True, single_body_pose=True,
        # PhysX 5.12 builds a revolute articulation joint without limits as eREVOLUTE: its drive target must lie in
        # [-2 pi, 2 pi] ("setDriveTarget() only supports target angle in range [-2Pi, 2Pi] for joints of type
        # eREVOLUTE"; the old target stays) and its position wraps within that range (measured on pb_r2d2's wheels).
        revolute_target_bound=2.0 * math.pi,
        mimic_joints=True,
        physics_runtime="PhysX",
    )

    def __init__(self, target: str = "isaacsim-5", workdir: str | None = None, keep_wrapper: bool = False):
        if target not in TARGETS:
            raise ValueError(f"physx.target must be one of {', '.join(TARGETS)}, not {target!r}")
        self._warnings: list[str] = []
        super().__init__()
        self.target, self.workdir, self.keep_wrapper = target, workdir, keep_wrapper
        self.version = version_string()  # from package metadata: creating an engine never imports ovphysx
        self.wrapper: Wrapper | None = None
        self.fixed_base: dict[str, bool] = {}  # PhysX's articulation prim -> isFixedBase
        self._runtime: Runtime | None = None
        self._physx: Any = None  # the ovphysx PhysX instance and its ovstage Stage, while attached
        self._stage: Any = None
        self._state_io: StateIO | None = None
        self._log: LogCapture | None = None
        self._attachment: Attachment | None = None  # what this engine holds of the runtime (attachments.py)
        self._released_for: str | None = None  # why a later use fails: released for another engine's stage units
        self._tmp: str | None = None
        self._tmp_cleanup: weakref.finalize | None = None
        self._built: Built | None = None  # what PhysX built, after each attach
        self._frame = StageFrame()
        self._steps = 0
        self._cache: dict = {}  # what was read or derived since the last step (poses, q, qd, bounds, rotations)
        self._stepper: Stepper | None = None
        self._velocity_targets_raw: np.ndarray | None = None  # (A, D) binding units, read when first commanded
        self._velocity_targets_dirty = False

    @classmethod
    def from_config(cls, config) -> "OvPhysxEngine":
        return cls(target=(config.engines.get(cls.name) or PhysxSettings()).target)  # its [physx] section, or defaults

    @staticmethod
    def prepare_process(notice=None) -> None:
        """Start the runtime in this process now (a worker's warm-up), not at the first load; never before a fork."""
        ensure_runtime()

    def describe(self) -> dict:
        version = ovphysx_version() or "not installed"
        return {"name": self.name, "version": self.version, "settings": {"physx.target": self.target},
                "components": {"ovphysx": version, "PhysX": physx_sdk_version(version)}}

    # -- warnings: the runtime's log joins them whenever they are read --------------------------------
    @property
    def warnings(self) -> list[str]:
        if self._log is not None:
            for text in self._log.drain(self._runtime) if self._runtime is not None else ():
                if text not in self._warnings:
                    self._warnings.append(text)
        return self._warnings

    @warnings.setter
    def warnings(self, value: list[str]) -> None:
        self._warnings = value

    # -- what an attach holds: an EngineError (saying why) when nothing is attached ---------------------
    @property
    def built(self) -> Built:
        if self._built is None:
            raise EngineError(self._released_for or "physx engine: used before load() or after close()")
        return self._built

    @property
    def state_io(self) -> StateIO:
        if self._state_io is None:
            raise EngineError(self._released_for or "physx engine: used before load() or after close()")
        return self._state_io

    # -- reads ---------------------------------------------------------------------------------------
    # Each is read (and converted) once per step however often it is asked for: callers get copies.
    def body_poses(self) -> dict[str, tuple[np.ndarray, np.ndarray]]:
        poses = self._cache.get("body_poses")
        if poses is None:
            pos, quat = self._poses()
            poses = self._cache["body_poses"] = {p: (pos[i], quat[i]) for i, p in enumerate(self.built.bodies)}
        return dict(poses)

    def bounds(self) -> tuple[np.ndarray, np.ndarray]:
        if self._state_io is None:
            return np.zeros(3), np.zeros(3)
        box = self._cache.get("bounds")
        if box is None:  # straight from the raw binding poses (bounds.py), else through SI poses and matrices
            box = self.built.bounds.raw_bounds(self.state_io.body_poses())
            if box is None:
                pos, _quat = self._poses()
                box = self.built.bounds.bounds(pos, self._rotations())
            self._cache["bounds"] = box
        return box[0].copy(), box[1].copy()

    def outer_bounds(self) -> tuple[np.ndarray, np.ndarray]:
        """A box holding `bounds()`, cheaper (a sphere per body about its origin; raw poses, no rotations)."""
        io = self._state_io
        return (np.zeros(3), np.zeros(3)) if io is None else self.built.bounds.raw_outer_bounds(io.body_poses())

    def body_pose(self, body_path: str) -> tuple[np.ndarray, np.ndarray] | None:
        """One body's SI (position, wxyz quaternion), as in `body_poses()`; a Z-up stage converts only its row."""
        row = self._built.body_row.get(body_path) if self._built is not None else None
        if row is None:
            return None
        one = None if "poses" in self._cache else self._frame.pose_row_to_si(self.state_io.body_poses()[row])
        return one or (self._poses()[0][row].copy(), self._poses()[1][row].copy())

    def joint_positions(self) -> np.ndarray:
        q = self._cache.get("q")
        if q is None:
            q = self._cache["q"] = self._gather(self.state_io.dof_positions(), velocity=False)
        return q.copy()

    def joint_velocities(self) -> np.ndarray:
        qd = self._cache.get("qd")
        if qd is None:
            qd = self._cache["qd"] = self._gather(self.state_io.dof_velocities(), velocity=True)
        return qd.copy()

    # -- what the runtime parsed (core.engine.Engine reads), SI, dof_joints order ----------------------
    def joint_limits(self) -> np.ndarray:
        return self.built.properties.joint_limits()

    def drive_gains(self) -> dict[str, np.ndarray]:
        return self.built.properties.drive_gains()

    def joint_velocity_limits(self) -> np.ndarray:
        return self.built.properties.joint_velocity_limits()

    def mass_matrix(self) -> np.ndarray:
        return self.built.properties.mass_matrix(self.built.rows)

    def body_masses(self) -> dict[str, float]:
        return self.built.properties.body_masses(self.built.wrench_bodies)

    def built_model(self):
        """What PhysX built (built.py): its articulations and their root links, the couplings, shapes and bodies."""
        return read_built_model(self)

    def runtime_values(self):
        """Every parsed per-DOF and per-body value, SI, for the runtime readback (readback.py; once per asset)."""
        from .readback import read_runtime_values

        return read_runtime_values(self)

    def set_joint_position_target(self, index: int, value: float) -> None:
        """EngineBase's one-joint setter without its one-element arrays (a driven test calls it every step)."""
        value = float(value)
        if value != value:  # NaN keeps the target
            return
        self._targets[index] = value
        d = self._dofs[index]
        if d.art < 0:
            self._write_targets(np.array([index]), np.array([value]))
            return
        raw = np.float32(value / d.scale)
        if self.built.targets_raw[d.art, d.col] != raw:
            self.built.targets_raw[d.art, d.col] = raw
            self._targets_dirty = True  # written once before the next step

    # -- EngineBase hooks ----------------------------------------------------------------------------
    def _build(self) -> None:
        asset, spec = self._asset, self._spec
        assert asset is not None and spec is not None  # set by load()
        self._released_for = None
        self._runtime = ensure_runtime()
        self._frame = StageFrame.of_asset(asset)
        self._tmp = make_workdir(asset.path, self.workdir)
        if not self.keep_wrapper:  # removed on close(), and at the latest when the engine is collected or the process exits
            self._tmp_cleanup = weakref.finalize(self, shutil.rmtree, self._tmp, True)
        extra = exact_lift_correction(asset, spec)
        built = self._elected(extra) if spec.pin_base else None
        self._attach(author_wrapper(asset, spec, self._tmp, self.target, extra, built))
        miss = placement_miss(spec, self.bounds()[0][2]) if not self.built.bounds.empty else 0.0
        if miss:  # PhysX built another start pose (a joint state, a body the lift missed): place again
            missed = missed_bodies(asset, self.body_poses(), self.wrapper.lift_si if self.wrapper else 0.0)
            self._detach()
            self._attach(author_wrapper(asset, spec, self._tmp, self.target, extra + miss, built))
            self._warn(miss_note(missed, miss))
        for note in self.wrapper.warnings if self.wrapper is not None else ():
            self._warn(note)
        self._targets = self._initial_target_values()

    def _build_error_detail(self, exc: Exception) -> str:
        """The runtime's own error records say why an attach failed ("physics source scan failed" alone does not)."""
        errors = [w for w in self._warnings if w.startswith("ovphysx error:")]
        return "; ".join([super()._build_error_detail(exc), *errors[-3:]])

    def _elected(self, extra_lift: float):
        """pin_base: PhysX's articulations of the asset as authored (no pin: it would win the election), with the root
        links the pins hold (engines.pins); one light attach per asset model and process (built.elected_cache)."""
        assert self._asset is not None and self._spec is not None and self._tmp is not None  # set by load(), _build()
        if (cached := elected_cache.get(self._asset)) is not None:
            return cached
        unpinned = dataclasses.replace(self._spec, pin_base=False)
        self._attach(author_wrapper(self._asset, unpinned, self._tmp, self.target, extra_lift), discover=False)
        try:
            return elected_cache.put(self._asset, built_articulations(self._runtime, self._physx, self._stage))
        finally:
            self._detach()

    def _attach(self, wrapper, discover: bool = True) -> None:
        runtime = self._runtime
        assert runtime is not None  # set by _build()
        self.wrapper = wrapper
        # one SDK tolerance scale per process: other engines' attachments at other stage units go first
        make_room(self, self._frame.meters_per_unit)
        attachment = self._attachment = Attachment(None, None, self._frame.meters_per_unit)
        register(self, attachment)  # released with this engine even if nobody closes it
        attachment.stage = self._stage = runtime.ovstage.Stage(f"simready-{id(self)}-{wrapper.path}")
        runtime.ovstage.population.open_usd(self._stage, wrapper.path, ordinal=1, domains=runtime.ovstage.PopulationDomain.ALL)
        self._stage.advance_write_floor(ordinal=1).wait()
        attachment.physx = self._physx = runtime.PhysX()
        self._stepper = Stepper(self._physx, self._dt)
        self._log = capture_log(runtime)
        # NO warmup(): see reads.py (a ≈1 ns step blows up joints authored outside their limits)
        self._physx.wait_task(self._physx.attach_ovstage(self._stage, read_ordinal=1))
        if discover:
            self._discover()

    def _discover(self) -> None:
        assert self._asset is not None and self.wrapper is not None and self._attachment is not None  # _attach()
        self._built = discover(self._runtime, self._physx, self._stage, self._asset, self._frame, self.wrapper, self._warn)
        self._dofs, self.fixed_base, self._state_io = self.built.dofs, self.built.fixed_base, self.built.state_io
        self._attachment.state_io = self._state_io
        self.built.bounds.for_raw_poses(self._frame, len(self.built.bodies))
        self._steps, self._targets_dirty = 0, False
        self._velocity_targets_raw, self._velocity_targets_dirty = None, False  # the attach restored the authored ones
        self._cache.clear()

    def _initial_target_values(self) -> np.ndarray:
        """Per DOF at load (SI): PhysX's targets for articulation joints, the authored drive target for maximal
        ones (NaN without a drive)."""
        targets = np.full(len(self._dofs), np.nan)
        targets[self.built.art_index] = self.built.targets_raw[self.built.art_rows, self.built.art_cols] * self.built.art_scale
        assert self._asset is not None
        for i in self.built.maximal.indices:
            drive = self._asset.joints[self._dofs[i].path].drive
            if drive is not None:
                targets[i] = drive.target_position
        return targets

    def _write_targets(self, indices: np.ndarray, values: np.ndarray) -> None:
        maximal, articulated = {}, False
        for i, value in zip(indices.tolist(), values.tolist()):
            d = self._dofs[i]
            if d.art >= 0:
                raw = np.float32(value / d.scale)
                if self.built.targets_raw[d.art, d.col] != raw:  # e.g. reset() writing back what the re-attach restored
                    self.built.targets_raw[d.art, d.col] = raw
                    articulated = True
            else:
                maximal[d.path] = value
        if articulated:  # written once before the next step, however many joints are commanded until then
            self._targets_dirty = True
        if maximal:
            self.built.maximal.write_targets(self._runtime, self._physx, self._stage, maximal)

    def _write_velocity_targets(self, indices: np.ndarray, values: np.ndarray) -> None:
        """Articulation DOFs: into the (A, D) velocity-target array (read from PhysX when first commanded after an
        attach), written once before the next step; maximal joints: their USD drive targetVelocity."""
        maximal = {}
        for i, value in zip(indices.tolist(), values.tolist()):
            d = self._dofs[i]
            if d.art < 0:
                maximal[d.path] = value
                continue
            if self._velocity_targets_raw is None:
                self._velocity_targets_raw = np.array(self.state_io.velocity_targets(), np.float32)
            self._velocity_targets_raw[d.art, d.col] = np.float32(value / d.scale)
            self._velocity_targets_dirty = True
        if maximal:
            self.built.maximal.write_targets(self._runtime, self._physx, self._stage, maximal, velocity=True)

    def _force_body(self, body_path: str):
        row = self.built.wrench_row.get(body_path)
        assert self._asset is not None
        if row is None and body_path not in self._asset.bodies:
            raise EngineError(f"apply_force: unknown body {body_path}")
        return row  # None: kinematic, disabled or not simulated: nothing moves it

    def _apply_forces(self, forces: list) -> None:
        """The step's forces as world wrenches at their points (`wrenches.step_wrenches`)."""
        if not forces:
            return
        built, f, raw = self.built, self._frame, self.state_io.wrench_buffer  # one buffer: ovphysx caches its view

        def centre_of_mass(row: int) -> np.ndarray:
            i = built.body_row[built.wrench_bodies[row]]
            return self._poses()[0][i] + self._rotations()[i] @ built.com_local[row]
        wrench = step_wrenches(forces, len(built.wrench_bodies), centre_of_mass)
        if f.up_axis == "Z" and f.meters_per_unit == 1.0 and f.kilograms_per_unit == 1.0:
            raw[...] = wrench
        else:
            raw[:, 0:3] = f.vectors_from_si(wrench[:, 0:3], f.kilograms_per_unit * f.meters_per_unit)
            raw[:, 3:6] = f.vectors_from_si(wrench[:, 3:6], f.kilograms_per_unit * f.meters_per_unit**2)
            raw[:, 6:9] = f.vectors_from_si(wrench[:, 6:9], f.meters_per_unit)
        self.state_io.write_wrenches(raw)

    def _advance(self) -> None:
        if self._physx is None:
            raise EngineError(self._released_for or "physx engine: step() before load() or after close()")
        if self._targets_dirty:
            self.state_io.write_dof_targets(self.built.targets_raw)
            self._targets_dirty = False
        if self._velocity_targets_dirty:
            assert self._velocity_targets_raw is not None  # read when first commanded
            self.state_io.write_dof_velocity_targets(self._velocity_targets_raw)
            self._velocity_targets_dirty = False
        assert self._stepper is not None  # made with _physx
        self._stepper()  # px.step_sync(dt), as one native call when it can be (fastpath.py)
        self.state_io.stepped()
        self._cache.clear()
        self._steps += 1
        if self._steps % LOG_DRAIN_STEPS == 0:
            self.warnings  # noqa: B018 - drains the runtime log into the warnings

    def _restore_initial_state(self) -> None:
        """Detach + attach of the same sealed ovstage ordinal: the state PhysX built at load."""
        self.state_io.close()
        self._physx.wait_task(self._physx.detach_ovstage())
        self._physx.wait_task(self._physx.attach_ovstage(self._stage, read_ordinal=1))
        # the same ordinal builds the same scene: what discovery found stands; only the bindings are new (3 ms, not 13)
        assert self._attachment is not None
        self.built.state_io = self._state_io = self._attachment.state_io = self.state_io.reattached(self._physx)
        self.built.targets_raw = np.array(self.state_io.snapshot["target"], np.float32)
        self._steps, self._targets_dirty = 0, False
        self._velocity_targets_raw, self._velocity_targets_dirty = None, False  # the attach restored the authored ones
        self._cache.clear()

    def _release(self) -> None:
        self._detach()
        if self._tmp_cleanup is not None:
            self._tmp_cleanup()  # rmtree once (a finalizer runs at most once)
        self._tmp, self._tmp_cleanup = None, None

    def _detach(self) -> None:
        if self._log is not None:
            self.warnings  # noqa: B018 - the last runtime records before the instance goes
        if self._attachment is not None:
            self._attachment.release()  # bindings, detach, PhysX instance, ovstage; never raises
            unregister(self)
        self._attachment = self._state_io = self._physx = self._stage = self._log = self._stepper = None
        self._cache.clear()

    def release_for_units(self, meters_per_unit: float) -> None:
        """Another engine of this process loads a stage at other units (attachments.make_room): close this one,
        whose later use says why."""
        held = f"{self._attachment.meters_per_unit:g}" if self._attachment is not None else "another"
        self.close()
        self._released_for = (f"physx engine released: another physx engine of this process loaded a stage at "
                              f"{meters_per_unit:g} m per unit while this one held {held} (ovphysx has one PhysX SDK "
                              "tolerance scale per process); load() it again")

    # -- internals -----------------------------------------------------------------------------------
    def _poses(self) -> tuple[np.ndarray, np.ndarray]:
        """SI positions (N, 3) and wxyz quaternions (N, 4) of the bodies, read once per step."""
        poses = self._cache.get("poses")
        if poses is None:
            raw = self.state_io.body_poses()
            poses = self._cache["poses"] = self._frame.poses_to_si(raw[:, :3], raw[:, 3:7])
        return poses

    def _rotations(self) -> np.ndarray:
        """(N, 3, 3) rotation matrices of the bodies (SI world), once per step, only when forces or bounds need them."""
        rot = self._cache.get("rot")
        if rot is None:
            rot = self._cache["rot"] = quats_to_matrices(self._poses()[1])
        return rot

    def _gather(self, raw: np.ndarray, velocity: bool) -> np.ndarray:
        built = self.built
        if built.art_prefix:  # one articulation, dof_joints order: a slice; a cast alone where the scale is 1
            return raw[0, : len(self._dofs)].astype(float) if built.art_unit else raw[0, : len(self._dofs)] * built.art_scale
        out = np.empty(len(self._dofs))
        if len(self.built.art_index):
            out[self.built.art_index] = raw[self.built.art_rows, self.built.art_cols] * self.built.art_scale
        if self.built.maximal:
            poses = self.body_poses()
            if velocity:
                out[self.built.maximal.indices] = self.built.maximal.velocities(poses, *self._body_velocities())
            else:
                out[self.built.maximal.indices] = self.built.maximal.positions(poses)
        return out

    def _body_velocities(self) -> tuple[dict, dict]:
        """({body: COM world position}, {body: (v, ω)}) in SI, for the joints outside articulations."""
        pos, _quat = self._poses()
        rot = self._rotations()
        raw = self.state_io.body_velocities()
        f = self._frame
        linear, angular = f.vectors_to_si(raw[:, 0:3], f.meters_per_unit), f.vectors_to_si(raw[:, 3:6])
        com = {p: pos[self.built.body_row[p]] + rot[self.built.body_row[p]] @ self.built.com_local[r]
               for p, r in self.built.wrench_row.items()}
        return com, {p: (linear[i], angular[i]) for i, p in enumerate(self.built.bodies)}
