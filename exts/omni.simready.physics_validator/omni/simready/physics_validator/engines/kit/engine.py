"""KitPhysxEngine: the Engine protocol on the stage open in Isaac Sim / Kit (omni.physx).

Targets Isaac Sim 6.x (Kit 110.x, omni.physx 110.x) and keeps Isaac Sim 5.1 (Kit 107.3). Its omni.physx,
omni.physics.tensors, omni.kit.app and carb calls are checked against the real Isaac Sim 6.2 wheels (omni.physx
110.4.4: bindings/_physx.pyi, scripts/ifaces.py; omni.physics.tensors 110.4.4: api.py) by
tests/kit/test_call_audit.py; the NVIDIA-Omniverse/PhysX @ 107.3 sources (omni/extensions/runtime/source:
omni.physx/bindings/BindingsPhysXPython.cpp, omni.physics.tensors/python/api.py) give the units and timing, and
every call is listed in docs/kit-extension.md. omni.usd (`get_context(name).get_stage()` / `get_stage_id()`),
omni.timeline (`get_timeline_interface().is_stopped()`) and pxr.PhysicsSchemaTools (`sdfPathToInt`, from
omni.usd.schema.physx) ship only in Kit SDK packages that PyPI has as stubs: they follow omni.usd's and
omni.timeline's Python docs and Isaac Sim 6.2's own use (`get_stage_id()` in isaacsim.core.experimental.objects
impl/stage.py, `sdfPathToInt` in isaacsim.physics.newton impl/property_query.py). The kit test tier runs this engine
in a real Kit 110.4 kernel over test doubles of those calls backed by ovphysx (the same Omni PhysX runtime); the
plain-pytest suites run it over the same doubles (tests/fixtures/fake_kit). What it computes lives in omni-free
modules (`dof_map`, `layer`, `engines.validation_layer`); this module moves data between omni.physx /
omni.physics.tensors and those. Units: tensor views are float32, radians for angular DOFs, stage units otherwise
(api.py:1713-1769); PhysX poses are stage units with x, y, z, w quaternions (BindingsPhysXPython.cpp:915-946);
everything leaving this class is SI in the Z-up world.

Two ways to drive it:
- **manual** (`step()`): `IPhysxSimulation.attach_stage` + `simulate`/`fetch_results`, synchronous, as the
  Kit tensors test runner does (omni.physics.tensors.tests/python/scripts/scenario.py, RunnerInMemory). The
  timeline must be stopped (attach_stage detaches the stage update, plugins/PhysX.cpp:533-549). The engine
  keeps the edit target on its sublayer from attach to detach (nothing else runs in between) and forces CPU
  dynamics for the numpy frontend, restoring the user's GPU override at close.
- **live** (`live.runner.KitLiveRunner`): the timeline plays. The runner owns the timeline, the edit target
  around play / stop, the GPU override and the user's state (once per run); the engine authors its sublayer,
  routes PhysX's write-back into it (`set_simulation_layer`), creates its views when the runner says physics
  has stepped (`physics_started()`), and counts the steps the runner gives it (`physics_stepped()`).

Either way `close()` drops the views, clears the simulation layer and removes the session sublayer; in live
mode the runner calls it only once the timeline has stopped and PhysX has reset.
"""

from __future__ import annotations

import math

from typing import TYPE_CHECKING, Any

import numpy as np

from ...core.units import StageFrame, quat_xyzw_to_wxyz
from ..base import EngineBase, EngineCapabilities, EngineError
from ..validation_layer import physics_scene_paths, plan_validation_layer
from .dof_map import (
    BodyCornerCache, DofMap, centre_of_mass_world, dofs_before_step, maximal_joint_state, parse_state_rows,
)
from .layer import NO_SIMULATION_LAYER, GpuOverride, ValidationLayer
from .readback import read_runtime_values, read_while_valid

if TYPE_CHECKING:
    from ...core.asset_model import AssetModel
    from ...core.scene import SceneSpec


def _omni():
    """Import the Kit modules lazily: this module must import (not run) outside Kit."""
    import omni.physics.tensors as tensors
    import omni.physx as physx
    import omni.timeline
    import omni.usd

    return physx, tensors, omni.timeline, omni.usd


class KitPhysxEngine(EngineBase):
    """omni.physx on the open stage. `mode` is "manual" (step() steps PhysX) or "live" (the timeline does).

    EngineBase keeps the protocol rules (target shape, NaN keeps a target, one-joint setter, force queue, reset
    targets, clock, DOF list, warnings); this class loads onto the open stage, hooks in omni.physx / tensors.
    """

    name = "kit"
    # revolute_target_bound as in the physx engine: PhysX 5 bounds an unlimited eREVOLUTE joint's target to 2 pi (measured
    # on ovphysx, not in Kit)
    CAPABILITIES = EngineCapabilities(reads_runtime_values=True, single_joint_position_targets=True,
                                      joint_velocity_targets=True, revolute_target_bound=2.0 * math.pi,
                                      mimic_joints=True, physics_runtime="PhysX", simulates_given_model=False)

    def __init__(self, mode: str = "manual", target: str | None = None, usd_context_name: str = "", stage=None):
        """`stage`: manual mode only, a stage of pxr's UsdUtils.StageCache that is not the open one, e.g. from
        omni.physx.scripts.utils.new_memory_stage(attach_stage=False, file_to_load=...) (omni.physx
        python/scripts/utils.py:585-602): a CI run that never touches the user's stage."""
        if mode not in ("manual", "live"):
            raise ValueError(f"mode must be 'manual' or 'live', not {mode!r}")
        if stage is not None and mode != "manual":
            raise ValueError("a given stage is stepped in manual mode only (the timeline plays the open stage)")
        super().__init__()
        self.mode = mode
        self.target = target
        self.usd_context_name = usd_context_name
        self.given_stage = stage
        self._stage = None
        self._stage_id = -1
        self._frame = StageFrame()
        self._layer: ValidationLayer | None = None
        self._gpu: GpuOverride | None = None
        self._corners: BodyCornerCache | None = None
        self._sim_view: Any = None  # omni.physics.tensors views while attached
        self._articulations: Any = None
        self._rigid_bodies = None
        self._dof_map: DofMap | None = None
        self._initial: dict = {}
        self._parse_poses: dict = {}
        self._attached = False
        # live: the stage was closed, or PhysX has not reset yet at shutdown: close() leaves the sublayer alone
        self.leave_stage_alone = False

    # -- identity -----------------------------------------------------------------------------------
    @property
    def version(self) -> str:  # type: ignore[override]  # read from the running Kit, where the base stores a string
        try:
            import omni.kit.app

            manager = omni.kit.app.get_app().get_extension_manager()
            return manager.get_enabled_extension_id("omni.physx") or "omni.physx"
        except Exception:  # noqa: BLE001 - outside Kit
            return "omni.physx (not loaded)"

    @property
    def ready(self) -> bool:
        """Tensor views exist (physics has started and stepped once)."""
        return self._sim_view is not None

    @property
    def layer(self) -> ValidationLayer | None:
        """The session sublayer of the running test (the live runner holds the edit target on it)."""
        return self._layer

    # -- protocol: load ------------------------------------------------------------------------------
    def load(self, asset: "AssetModel", scene: "SceneSpec") -> None:
        """EngineBase's load, on the open stage: author the test's scene on a session sublayer and route
        PhysX's write-back into it; manual mode then attaches and warm-starts PhysX, live mode leaves
        play to the runner."""
        physx, _tensors, timeline_mod, omni_usd = _omni()
        self.close()  # a second load drops the first scene, as EngineBase.load does
        self.leave_stage_alone = False
        if self.given_stage is not None:
            from pxr import UsdUtils

            self._stage = self.given_stage
            cache = UsdUtils.StageCache.Get()  # stage ids are StageCache ids (IsaacSim isaacsim.core.utils stage.py:107-127)
            self._stage_id = (cache.GetId(self._stage) if cache.Contains(self._stage) else cache.Insert(self._stage)).ToLongInt()
        else:
            context = omni_usd.get_context(self.usd_context_name)
            self._stage = context.get_stage()
            if self._stage is None:
                raise EngineError("no stage is open")
            self._stage_id = context.get_stage_id()
        if self.mode == "manual" and not timeline_mod.get_timeline_interface().is_stopped():
            # attach_stage detaches the stage update (plugins/PhysX.cpp:533-549): not while the timeline plays
            raise EngineError("the timeline is playing: manual mode steps PhysX itself, stop the timeline first")
        self.warnings = []
        self._asset, self._spec = asset, scene
        self._dofs = list(asset.dof_joints)
        self._targets = np.full(len(self._dofs), np.nan)  # known once the tensor views exist
        self._frame = StageFrame.of_asset(asset)
        plan = plan_validation_layer(asset, scene, self.target, physics_scene_paths(self._stage), self._frame)
        self._layer = ValidationLayer(self._stage, plan).apply()
        self._dt = plan.dt
        self._corners = BodyCornerCache(asset)
        interface = physx.get_physx_interface()
        # PhysX writes simulated poses into this layer, not the user's (plugins/PhysX.cpp:1402-1418); the
        # identifier must stay findable (Sdf.Layer.Find): the layer object lives as long as self._layer.
        interface.set_simulation_layer(self._layer.identifier)
        self._mark_loaded()
        if self.mode == "manual":
            # The numpy frontend needs the CPU pipeline (omni.physics.tensors/python/api.py:38-45); the override
            # is persistent and process-wide, so it is put back at close (layer.GpuOverride).
            self._gpu = GpuOverride(interface)
            self._gpu.force_cpu()
            self._layer.hold_edit_target()  # parse, write-back and detach all happen inside this call chain
            simulation = physx.get_physx_simulation_interface()
            if not simulation.attach_stage(self._stage_id):
                raise EngineError("omni.physx could not attach the stage")
            self._attached = True
            self.capture_parse_state()
            # Warm start, as the Kit tensors test runner does before creating views (scenario.py, RunnerInMemory)
            simulation.simulate(self._dt, 0.0)
            simulation.fetch_results()
            self.physics_started()

    def capture_parse_state(self) -> None:
        """The bodies' poses as PhysX parsed them, before its first step (live: from the first pre-step
        callback). `physics_started()` puts them back after the warm-up step."""
        self._parse_poses = {}
        physx, _t, _tl, _u = _omni()
        interface = physx.get_physx_interface()
        for path in self._simulated_bodies():
            pose = interface.get_rigidbody_transformation(path)
            if pose.get("ret_val", False):
                self._parse_poses[path] = np.array(
                    [*(pose["position"][i] for i in range(3)), *(pose["rotation"][i] for i in range(4))], np.float32
                )

    def physics_started(self) -> None:
        """Create the tensor views once PhysX has stepped, undo that step, snapshot the start state."""
        _physx, tensors, _timeline, _usd = _omni()
        assert self._asset is not None and self._layer is not None
        # omni.physics.tensors/python/api.py: views over (count, max_dofs) float32 arrays, radians, stage lengths
        self._sim_view = tensors.create_simulation_view("numpy", stage_id=self._stage_id)
        # a pinned rigid-body root's articulation is named by its pin joint (validation_layer.PinPlan)
        roots = [self._layer.plan.articulation_prim(a.root) for a in self._asset.articulations]
        view_dof_paths: list[list[str]] = []
        if roots:
            self._articulations = self._sim_view.create_articulation_view(roots)
            if self._articulations is None:
                raise EngineError(f"omni.physics.tensors found no articulation at {roots}")
            view_dof_paths = [list(p) for p in self._articulations.dof_paths]
        free = [b.path for b in self._asset.dynamic_bodies if b.articulation is None]
        if free:
            self._rigid_bodies = self._sim_view.create_rigid_body_view(free)
        self._dof_map = DofMap.build(self._asset, view_dof_paths, self._frame)
        for path in self._dof_map.unmapped:
            self._warn(f"joint {path} is outside any articulation: read from its bodies' PhysX poses and velocities, "
                       "driven through its USD drive target")
        self._undo_warm_up()
        self._initial = self._snapshot()
        if self._articulations is not None:  # the targets reset() puts back (NaN: outside any articulation)
            self._targets = self._dof_map.gather(self._initial["dof_targets"])
        self._initial_targets = self._targets.copy()
        self._time = 0.0  # the warm-up step is not the test's
        self._parsed = read_while_valid(self) if self.mode == "live" else None  # the views are gone when a live test ends

    def _undo_warm_up(self) -> None:
        """Bodies back at their parse poses with their authored velocities, articulation DOFs at the positions
        those poses give, DOF velocities zero (PhysicsJointStateAPI velocities are not modelled)."""
        if not self._parse_poses:
            return
        assert self._asset is not None
        if self._rigid_bodies is not None:
            paths = [b.path for b in self._asset.dynamic_bodies if b.articulation is None]
            if all(p in self._parse_poses for p in paths):
                transforms, velocities = parse_state_rows(paths, self._parse_poses, self._asset, self._frame)
                every = np.arange(self._rigid_bodies.count, dtype=np.uint32)
                self._rigid_bodies.set_transforms(transforms, every)
                self._rigid_bodies.set_velocities(velocities, every)
        if self._articulations is not None:
            bases = [a.base_body for a in self._asset.articulations]
            every = np.arange(self._articulations.count, dtype=np.uint32)
            parsed = [b for b in bases if b is not None and b in self._parse_poses]
            if len(bases) == self._articulations.count and len(parsed) == len(bases):  # every base parsed
                transforms, velocities = parse_state_rows(parsed, self._parse_poses, self._asset, self._frame)
                self._articulations.set_root_transforms(transforms, every)
                self._articulations.set_root_velocities(velocities, every)
            q = np.array(self._articulations.get_dof_positions())
            parse_si = {p: self._frame.pose_to_si(r[:3], quat_xyzw_to_wxyz(r[3:])) for p, r in self._parse_poses.items()}
            assert self._dof_map is not None  # built with the views
            joints = [self._asset.joints[path] for path in self._dof_map.joints]
            if (all(j.body0 in parse_si or not j.body0 for j in joints)
                    and all(j.body1 in parse_si or not j.body1 for j in joints)):
                # the DOF positions the parse poses give (USD body0 -> body1 sense, as the views report them)
                at_parse = [maximal_joint_state(j, parse_si)[0] for j in joints]
                positions, _touched = self._dof_map.scatter_targets(q, at_parse)
            else:  # a body PhysX did not report: one step back along the step's velocity
                positions = dofs_before_step(q, np.array(self._articulations.get_dof_velocities()), self._dt)
            self._articulations.set_dof_positions(positions, every)
            self._articulations.set_dof_velocities(np.zeros_like(q), every)

    # -- protocol: stepping --------------------------------------------------------------------------
    def step(self) -> None:
        if self.mode != "manual":
            raise EngineError("the live Kit engine is stepped by the timeline, not by step()")
        super().step()

    def _advance(self) -> None:
        physx, _t, _tl, _u = _omni()
        simulation = physx.get_physx_simulation_interface()
        simulation.simulate(self._dt, self.time)
        simulation.fetch_results()

    def physics_stepped(self) -> None:
        """Live mode: one step of the test happened (the runner calls it from the post-step callback)."""
        self._time += self._dt

    # -- protocol: state -----------------------------------------------------------------------------
    def bounds(self) -> tuple[np.ndarray, np.ndarray]:
        assert self._corners is not None
        return self._corners.world_bounds(self.body_poses())

    def joint_positions(self) -> np.ndarray:
        return self._gather("get_dof_positions")

    def joint_velocities(self) -> np.ndarray:
        return self._gather("get_dof_velocities")

    def runtime_values(self):
        """What omni.physx parsed per DOF and body, SI, from the tensor views (readback.py; the runtime readback)."""
        return getattr(self, "_parsed", None) or read_runtime_values(self)

    def _write_targets(self, indices: np.ndarray, values: np.ndarray) -> None:
        self._write_drive_targets(indices, values, velocity=False)

    def _write_velocity_targets(self, indices: np.ndarray, values: np.ndarray) -> None:
        self._write_drive_targets(indices, values, velocity=True)

    def _write_drive_targets(self, indices: np.ndarray, values: np.ndarray, velocity: bool) -> None:
        """Read-modify-write of the view's full (count, max_dofs) position (or velocity) target array; joints outside
        any articulation get a USD drive target (targetVelocity) on the validation sublayer (ValidationLayer)."""
        if self._dof_map is None:
            raise EngineError("physics has not started yet")
        targets = np.full(len(self._dofs), np.nan)
        targets[indices] = values
        view = self._articulations
        if view is not None:
            current = view.get_dof_velocity_targets() if velocity else view.get_dof_position_targets()
            data, touched = self._dof_map.scatter_targets(current, targets)
            if len(touched) and velocity:
                view.set_dof_velocity_targets(data, touched)
            elif len(touched):
                view.set_dof_position_targets(data, touched)
        assert self._asset is not None and self._layer is not None
        outside = [(self._asset.joints[p], targets[self._dof_map.joints.index(p)]) for p in self._dof_map.unmapped]
        self._layer.author_drive_targets([(j, v) for j, v in outside if np.isfinite(v)], velocity, self._frame)

    def _force_body(self, body_path: str):
        assert self._asset is not None
        body = self._asset.bodies.get(body_path)
        if body is None:
            raise EngineError(f"apply_force: unknown body {body_path}")
        return body_path if body.enabled and not body.kinematic else None

    def _apply_forces(self, forces: list) -> None:
        """Right before a step (manual: step(); live: the pre-step callback through flush_forces())."""
        if not forces:
            return
        import carb
        from pxr import PhysicsSchemaTools

        physx, _t, _tl, _u = _omni()
        simulation = physx.get_physx_simulation_interface()
        poses = self.body_poses()
        for body, force_si, point_si in forces:
            if point_si is None:
                assert self._asset is not None
                point_si = centre_of_mass_world(self._asset, body, poses[body])
            force = self._frame.force_from_si(force_si)
            point = self._frame.point_from_si(point_si)
            body_id = PhysicsSchemaTools.sdfPathToInt(body)
            # World point, stage force units, for the coming step: BindingsPhysXPython.cpp:2636-2660, 2742-2750
            simulation.wake_up(self._stage_id, body_id)
            simulation.apply_force_at_pos(self._stage_id, body_id, carb.Float3(*force), carb.Float3(*point), "Force")

    def body_poses(self) -> dict[str, tuple[np.ndarray, np.ndarray]]:
        physx, _t, _tl, _u = _omni()
        interface = physx.get_physx_interface()
        poses = {}
        for path in self._simulated_bodies():
            # {'ret_val', 'position', 'rotation' (x, y, z, w)}, world, stage units: BindingsPhysXPython.cpp:915-946;
            # actors (kinematic ones too) and articulation links (PhysX.cpp:983-1018)
            pose = interface.get_rigidbody_transformation(path)
            if not pose.get("ret_val", False):
                raise EngineError(f"PhysX has no rigid body at {path}")
            pos = np.array([pose["position"][i] for i in range(3)], float)
            quat = quat_xyzw_to_wxyz([pose["rotation"][i] for i in range(4)])
            poses[path] = self._frame.pose_to_si(pos, quat)
        return poses

    def _restore_initial_state(self) -> None:
        """The state captured right after physics started, through the tensor views (the view's whole
        target array too; EngineBase then re-applies the dof_joints' targets of load)."""
        if not self._initial:
            raise EngineError("physics has not started yet")
        if self._articulations is not None:
            every = np.arange(self._articulations.count, dtype=np.uint32)
            self._articulations.set_root_transforms(self._initial["root_transforms"], every)
            self._articulations.set_root_velocities(self._initial["root_velocities"], every)
            self._articulations.set_dof_positions(self._initial["dof_positions"], every)
            self._articulations.set_dof_velocities(self._initial["dof_velocities"], every)
            self._articulations.set_dof_position_targets(self._initial["dof_targets"], every)
        if self._rigid_bodies is not None:
            every = np.arange(self._rigid_bodies.count, dtype=np.uint32)
            self._rigid_bodies.set_transforms(self._initial["body_transforms"], every)
            self._rigid_bodies.set_velocities(self._initial["body_velocities"], every)

    def _release(self) -> None:
        """close(): drop views, detach (manual), clear the simulation layer, remove the session sublayer,
        put the GPU override back (manual). Live mode: the runner calls this once PhysX has reset."""
        try:
            physx, _tensors, _timeline, _usd = _omni()
        except ImportError:
            return
        self._articulations = self._rigid_bodies = None
        if self._sim_view is not None:
            try:
                self._sim_view.invalidate()  # omni.physics.tensors/python/api.py:150-163
            except Exception:  # noqa: BLE001 - already invalid after a stop
                pass
            self._sim_view = None
        self._dof_map = None
        self._initial, self._parse_poses = {}, {}
        if self._attached:
            physx.get_physx_simulation_interface().detach_stage()  # re-attaches the stage update (PhysX.cpp:552-560)
            self._attached = False
        if self._gpu is not None:
            self._gpu.restore()  # after detach: ignored while a simulation is started (PhysX.cpp:625-642)
            self._gpu = None
        if self._layer is not None:
            physx.get_physx_interface().set_simulation_layer(NO_SIMULATION_LAYER)
            if not self.leave_stage_alone:
                self._layer.remove()
            self._layer = None

    # -- internals -----------------------------------------------------------------------------------
    def _simulated_bodies(self) -> list[str]:
        assert self._asset is not None
        return [b.path for b in self._asset.bodies.values() if b.enabled]

    def _gather(self, getter: str) -> np.ndarray:
        """Articulation DOFs from the view; joints outside every articulation from their bodies' poses
        (and the rigid-body view's velocities)."""
        if self._dof_map is None:
            raise EngineError("physics has not started yet")
        if self._articulations is None:
            out = np.full(len(self._dofs), np.nan)
        else:
            out = self._dof_map.gather(getattr(self._articulations, getter)())
        if self._dof_map.unmapped:
            assert self._asset is not None
            poses = self.body_poses()
            velocities = self._body_velocities() if getter == "get_dof_velocities" else None
            for path in self._dof_map.unmapped:
                position, velocity = maximal_joint_state(self._asset.joints[path], poses, velocities)
                out[self._dof_map.joints.index(path)] = position if velocities is None else velocity
        return out

    def _body_velocities(self) -> dict:
        """Free bodies' (linear at the COM, angular) velocities, SI world, from the rigid-body view."""
        if self._rigid_bodies is None:
            return {}
        rows = np.array(self._rigid_bodies.get_velocities(), float)  # (count, 6), stage units, rad/s
        paths = [b.path for b in self._asset.dynamic_bodies if b.articulation is None]
        mpu = self._frame.meters_per_unit
        return {p: (self._frame.vector_to_si(r[:3], mpu), self._frame.vector_to_si(r[3:])) for p, r in zip(paths, rows)}

    def _snapshot(self) -> dict:
        state: dict = {}
        if self._articulations is not None:
            state["root_transforms"] = np.array(self._articulations.get_root_transforms())
            state["root_velocities"] = np.array(self._articulations.get_root_velocities())
            state["dof_positions"] = np.array(self._articulations.get_dof_positions())
            state["dof_velocities"] = np.array(self._articulations.get_dof_velocities())
            state["dof_targets"] = np.array(self._articulations.get_dof_position_targets())
        if self._rigid_bodies is not None:
            state["body_transforms"] = np.array(self._rigid_bodies.get_transforms())
            state["body_velocities"] = np.array(self._rigid_bodies.get_velocities())
        state["ok"] = True
        return state
