"""The Kit engine: the Engine protocol on the stage open in Isaac Sim / Kit (omni.physx).

Written against ../shared/notes/kit-api.md and the public omni.physx sources; it only runs inside
Kit. All computation lives in `kit_support` (omni-free, covered by pytest); this module moves data
between omni.physx / omni.physics.tensors and those functions.

Two ways to drive it:
- **manual** (`step()`): `IPhysxSimulation.attach_stage` + `simulate`/`fetch_results`, synchronous.
  Deterministic; the Kit test suites use it through `TestSession.run_to_end()`.
- **live** (`KitLiveRunner`): the timeline plays, a pre-step `subscribe_physics_on_step_events`
  callback calls `TestSession.advance()` (the test sets targets and forces for the coming step)
  and a post-step callback counts time and calls `after_step()`. This is what the panel uses, so the
  user watches the test in the viewport.

Either way the validation edits live on a session sublayer that `close()` removes, and the
timeline time, play state and selection are put back.
"""

from __future__ import annotations

import ctypes
import os
import tempfile
from typing import TYPE_CHECKING, Callable

import numpy as np

from .base import EngineError
from ..core.units import quat_xyzw_to_wxyz
from .kit_support import (
    BodyCornerCache,
    CaptureSchedule,
    DofMap,
    StageFrame,
    UserState,
    ValidationLayer,
    centre_of_mass_world,
    downscale_rgba,
    physics_scene_paths,
    plan_validation_layer,
    usd_drive_target,
)

if TYPE_CHECKING:
    from ..core.asset_model import AssetModel
    from ..core.scene import SceneSpec


def _omni():
    """Import the Kit modules lazily: this module must import (not run) outside Kit."""
    import carb  # noqa: F401
    import omni.physics.tensors as tensors
    import omni.physx as physx
    import omni.timeline
    import omni.usd

    return physx, tensors, omni.timeline, omni.usd


class KitPhysxEngine:
    """omni.physx on the open stage. `mode` is "manual" (step() steps PhysX) or "live" (the timeline does)."""

    name = "kit"

    def __init__(self, mode: str = "manual", target: str | None = None, usd_context_name: str = ""):
        if mode not in ("manual", "live"):
            raise ValueError(f"mode must be 'manual' or 'live', not {mode!r}")
        self.mode = mode
        self.target = target
        self.usd_context_name = usd_context_name
        self.warnings: list[str] = []
        self._stage = None
        self._stage_id = -1
        self._asset: "AssetModel | None" = None
        self._frame = StageFrame()
        self._layer: ValidationLayer | None = None
        self._user_state: UserState | None = None
        self._dt = 1.0 / 240.0
        self._steps = 0
        self._corners: BodyCornerCache | None = None
        self._sim_view = None
        self._articulations = None
        self._rigid_bodies = None
        self._dof_map: DofMap | None = None
        self._initial: dict = {}
        self._pending_forces: list[tuple[str, np.ndarray, np.ndarray | None]] = []
        self._attached = False

    # -- protocol: identity and time -----------------------------------------------------------------
    @property
    def version(self) -> str:
        try:
            import omni.kit.app

            manager = omni.kit.app.get_app().get_extension_manager()
            return manager.get_enabled_extension_id("omni.physx") or "omni.physx"
        except Exception:  # noqa: BLE001 - outside Kit
            return "omni.physx (not loaded)"

    @property
    def time(self) -> float:
        return self._steps * self._dt

    @property
    def dt(self) -> float:
        return self._dt

    @property
    def ready(self) -> bool:
        """Tensor views exist (physics has started and stepped once)."""
        return self._sim_view is not None

    # -- protocol: load ------------------------------------------------------------------------------
    def load(self, asset: "AssetModel", scene: "SceneSpec") -> None:
        physx, _tensors, timeline_mod, omni_usd = _omni()
        context = omni_usd.get_context(self.usd_context_name)
        self._stage = context.get_stage()
        if self._stage is None:
            raise EngineError("no stage is open")
        self._stage_id = context.get_stage_id()
        self._asset = asset
        self._frame = StageFrame.of_asset(asset)
        timeline = timeline_mod.get_timeline_interface()
        self._user_state = UserState(
            time=timeline.get_current_time(),
            playing=timeline.is_playing(),
            selection=list(context.get_selection().get_selected_prim_paths()),
        )
        if not timeline.is_stopped():
            timeline.stop()  # resetOnStop puts the user's simulated poses back first
        plan = plan_validation_layer(asset, scene, self.target, physics_scene_paths(self._stage), self._frame)
        self._layer = ValidationLayer(self._stage, plan).apply()
        self._dt = plan.dt
        self._steps = 0
        self._corners = BodyCornerCache(asset)
        physx.get_physx_interface().overwrite_gpu_setting(0)  # numpy tensors need the CPU pipeline
        if self.mode == "manual":
            simulation = physx.get_physx_simulation_interface()
            if not simulation.attach_stage(self._stage_id):
                raise EngineError("omni.physx could not attach the stage")
            self._attached = True
            simulation.simulate(self._dt, 0.0)  # warm start: tensor views need one step
            simulation.fetch_results()
            self.physics_started()

    def physics_started(self) -> None:
        """Create the tensor views once PhysX has stepped (live mode: called after the first step)."""
        _physx, tensors, _timeline, _usd = _omni()
        assert self._asset is not None
        self._sim_view = tensors.create_simulation_view("numpy", stage_id=self._stage_id)
        roots = [a.root for a in self._asset.articulations]
        view_dof_paths: list[list[str]] = []
        if roots:
            self._articulations = self._sim_view.create_articulation_view(roots)
            view_dof_paths = [list(p) for p in self._articulations.dof_paths]
        free = [b.path for b in self._asset.dynamic_bodies if b.articulation is None]
        if free:
            self._rigid_bodies = self._sim_view.create_rigid_body_view(free)
        self._dof_map = DofMap.build(self._asset, view_dof_paths, self._frame)
        for path in self._dof_map.unmapped:
            self.warnings.append(f"joint {path} is outside any articulation: read as NaN, driven through USD targets")
        self._initial = self._snapshot()
        self._steps = 0

    # -- protocol: stepping --------------------------------------------------------------------------
    def step(self) -> None:
        if self.mode != "manual":
            raise EngineError("the live Kit engine is stepped by the timeline, not by step()")
        physx, _t, _tl, _u = _omni()
        self.flush_forces()
        simulation = physx.get_physx_simulation_interface()
        simulation.simulate(self._dt, self.time)
        simulation.fetch_results()
        self._steps += 1

    def physics_stepped(self) -> None:
        """Live mode: called from the post-step callback."""
        if self._sim_view is None:
            self.physics_started()
        else:
            self._steps += 1

    # -- protocol: state -----------------------------------------------------------------------------
    def bounds(self) -> tuple[np.ndarray, np.ndarray]:
        assert self._corners is not None
        return self._corners.world_bounds(self.body_poses())

    @property
    def dof_joints(self) -> list[str]:
        return [] if self._asset is None else [j.path for j in self._asset.dof_joints]

    def joint_positions(self) -> np.ndarray:
        return self._gather("get_dof_positions")

    def joint_velocities(self) -> np.ndarray:
        return self._gather("get_dof_velocities")

    def set_joint_position_targets(self, targets: np.ndarray) -> None:
        targets = np.asarray(targets, float)
        if self._dof_map is None:
            raise EngineError("physics has not started yet")
        if self._articulations is not None:
            data, indices = self._dof_map.scatter_targets(self._articulations.get_dof_position_targets(), targets)
            if len(indices):
                self._articulations.set_dof_position_targets(data, indices)
        self._usd_targets(targets)

    def apply_force(self, body_path: str, force: np.ndarray, point: np.ndarray | None = None) -> None:
        """Queued; `flush_forces()` hands it to PhysX right before the next step (a force lasts one step)."""
        self._pending_forces.append((body_path, np.asarray(force, float), None if point is None else np.asarray(point, float)))

    def flush_forces(self) -> None:
        if not self._pending_forces:
            return
        import carb
        from pxr import PhysicsSchemaTools

        physx, _t, _tl, _u = _omni()
        simulation = physx.get_physx_simulation_interface()
        poses = self.body_poses()
        for body, force_si, point_si in self._pending_forces:
            if point_si is None:
                point_si = centre_of_mass_world(self._asset, body, poses[body])
            force = self._frame.force_from_si(force_si)
            point = self._frame.point_from_si(point_si)
            body_id = PhysicsSchemaTools.sdfPathToInt(body)
            simulation.wake_up(self._stage_id, body_id)
            simulation.apply_force_at_pos(self._stage_id, body_id, carb.Float3(*force), carb.Float3(*point), "Force")
        self._pending_forces.clear()

    def body_poses(self) -> dict[str, tuple[np.ndarray, np.ndarray]]:
        physx, _t, _tl, _u = _omni()
        interface = physx.get_physx_interface()
        poses = {}
        assert self._asset is not None
        for body in self._asset.dynamic_bodies:
            pose = interface.get_rigidbody_transformation(body.path)
            if not pose.get("ret_val", False):
                raise EngineError(f"PhysX has no rigid body at {body.path}")
            pos = np.array([pose["position"][i] for i in range(3)], float)
            quat = quat_xyzw_to_wxyz([pose["rotation"][i] for i in range(4)])
            poses[body.path] = self._frame.pose_to_si(pos, quat)
        return poses

    def reset(self) -> None:
        """Back to the state captured right after physics started, through the tensor views."""
        if not self._initial:
            raise EngineError("physics has not started yet")
        if self._articulations is not None:
            every = np.arange(self._articulations.count, dtype=np.uint32)
            self._articulations.set_root_transforms(self._initial["root_transforms"], every)
            self._articulations.set_root_velocities(np.zeros_like(self._initial["root_velocities"]), every)
            self._articulations.set_dof_positions(self._initial["dof_positions"], every)
            self._articulations.set_dof_velocities(np.zeros_like(self._initial["dof_positions"]), every)
            self._articulations.set_dof_position_targets(self._initial["dof_targets"], every)
        if self._rigid_bodies is not None:
            every = np.arange(self._rigid_bodies.count, dtype=np.uint32)
            self._rigid_bodies.set_transforms(self._initial["body_transforms"], every)
            self._rigid_bodies.set_velocities(np.zeros_like(self._initial["body_velocities"]), every)
        self._pending_forces.clear()
        self._steps = 0

    def close(self) -> None:
        """Drop views, detach, remove the session sublayer, restore timeline and selection."""
        try:
            physx, _tensors, timeline_mod, omni_usd = _omni()
        except ImportError:
            return
        self._articulations = self._rigid_bodies = None
        if self._sim_view is not None:
            try:
                self._sim_view.invalidate()
            except Exception:  # noqa: BLE001 - already invalid after a stop
                pass
            self._sim_view = None
        if self._attached:
            physx.get_physx_simulation_interface().detach_stage()
            self._attached = False
        timeline = timeline_mod.get_timeline_interface()
        if not timeline.is_stopped():
            timeline.stop()
        if self._layer is not None:
            self._layer.remove()
            self._layer = None
        if self._user_state is not None:
            timeline.set_current_time(self._user_state.time)
            omni_usd.get_context(self.usd_context_name).get_selection().set_selected_prim_paths(
                self._user_state.selection, True
            )
            if self._user_state.playing:
                timeline.play()
            self._user_state = None

    # -- internals -----------------------------------------------------------------------------------
    def _gather(self, getter: str) -> np.ndarray:
        if self._dof_map is None:
            raise EngineError("physics has not started yet")
        if self._articulations is None:
            return np.full(len(self.dof_joints), np.nan)
        return self._dof_map.gather(getattr(self._articulations, getter)())

    def _usd_targets(self, targets: np.ndarray) -> None:
        """Joints outside articulations: author the drive target on the validation sublayer."""
        from pxr import UsdPhysics

        assert self._dof_map is not None and self._asset is not None
        for path in self._dof_map.unmapped:
            value = targets[self._dof_map.joints.index(path)]
            if not np.isfinite(value):
                continue
            joint = self._asset.joints[path]
            kind = "angular" if joint.is_angular else "linear"
            drive = UsdPhysics.DriveAPI.Get(self._stage.GetPrimAtPath(path), kind)
            if drive:
                drive.CreateTargetPositionAttr().Set(float(usd_drive_target(joint, value, self._frame)))

    def _snapshot(self) -> dict:
        state: dict = {}
        if self._articulations is not None:
            state["root_transforms"] = np.array(self._articulations.get_root_transforms())
            state["root_velocities"] = np.array(self._articulations.get_root_velocities())
            state["dof_positions"] = np.array(self._articulations.get_dof_positions())
            state["dof_targets"] = np.array(self._articulations.get_dof_position_targets())
        if self._rigid_bodies is not None:
            state["body_transforms"] = np.array(self._rigid_bodies.get_transforms())
            state["body_velocities"] = np.array(self._rigid_bodies.get_velocities())
        state["ok"] = True
        return state


# -- viewport frames -----------------------------------------------------------------------------------
def capsule_to_rgba(capsule, size: int, width: int, height: int) -> np.ndarray:
    """The viewport's ByteCapture hands a PyCapsule; copy it into an HxWx4 uint8 array."""
    get_pointer = ctypes.pythonapi.PyCapsule_GetPointer
    get_pointer.restype = ctypes.POINTER(ctypes.c_byte * size)
    get_pointer.argtypes = [ctypes.py_object, ctypes.c_char_p]
    content = get_pointer(capsule, None).contents
    return np.frombuffer(content, dtype=np.uint8, count=size).reshape(height, width, 4).copy()


class ViewportRecorder:
    """Schedules a viewport capture on due physics steps; frames arrive a render frame later."""

    def __init__(self, physics_fps: float, capture_fps: float, on_frame: Callable[[np.ndarray, int], None]):
        self.schedule = CaptureSchedule(physics_fps, capture_fps)
        self.on_frame = on_frame
        self._viewport = None
        try:
            from omni.kit.viewport.utility import get_active_viewport

            self._viewport = get_active_viewport()
        except ImportError:
            pass

    @property
    def available(self) -> bool:
        return self._viewport is not None

    def maybe_capture(self, step: int) -> None:
        if self._viewport is None or not self.schedule.due(step):
            return
        from omni.kit.viewport.utility import capture_viewport_to_buffer

        def on_capture(buffer, buffer_size, width, height, _format, step=step):
            self.on_frame(downscale_rgba(capsule_to_rgba(buffer, buffer_size, width, height)), step)

        capture_viewport_to_buffer(self._viewport, on_capture)


# -- the panel's live runner ---------------------------------------------------------------------------
def read_open_stage(usd_context_name: str = "", target: str | None = None) -> "AssetModel":
    """The asset model of the open stage (with unsaved edits): flattened to a temp file, read, restricted."""
    import omni.usd

    from ..core.usd import read_asset

    stage = omni.usd.get_context(usd_context_name).get_stage()
    handle, path = tempfile.mkstemp(suffix=".usdc", prefix="physics_validator_")
    os.close(handle)
    try:
        stage.Export(path)
        asset = read_asset(path)
    finally:
        os.unlink(path)
    asset.path = stage.GetRootLayer().identifier
    return asset.restricted_to(target)


class KitLiveRunner:
    """Runs the panel's request on the live stage, one test after another, across app frames.

    Implements the view-model's runner protocol (`start(request, sink)`, `cancel()`). The generator
    of each test advances in the pre-step callback; results, progress and frames go to the sink.
    """

    def __init__(self, usd_context_name: str = ""):
        self.usd_context_name = usd_context_name
        self._queue: list = []
        self._session = None
        self._engine: KitPhysxEngine | None = None
        self._recorder: ViewportRecorder | None = None
        self._subscriptions: list = []
        self._sink = None
        self._request = None
        self._cancelled = False
        self._asset = None
        self._progress_every = 24

    def start(self, request, sink) -> None:
        from ..physics_tests import default_registry

        self._request, self._sink, self._cancelled = request, sink, False
        try:
            self._asset = read_open_stage(self.usd_context_name, request.target)
        except Exception as exc:  # noqa: BLE001 - shown in the panel, not raised into Kit
            sink.on_error(f"cannot read the open stage: {exc}")
            sink.on_finished(complete=False)
            return
        registry = default_registry()
        self._queue = [(registry.get(name)(), request.config.for_test(name)) for name in request.tests]
        self._watch_updates()
        self._next_test()

    def cancel(self) -> None:
        self._cancelled = True

    # -- per test ------------------------------------------------------------------------------------
    def _next_test(self) -> None:
        from ..core.session import TestSession

        self._end_physics()
        if self._cancelled or not self._queue:
            self._shutdown(complete=not self._cancelled and not self._queue)
            return
        test, config = self._queue.pop(0)
        self._sink.on_test_started(test.name)
        self._engine = KitPhysxEngine(mode="live", target=self._request.target, usd_context_name=self.usd_context_name)
        self._session = TestSession(test, self._asset, config, self._engine, watchdog_seconds=self._request.watchdog_seconds)
        if not self._session.start():  # precheck verdict or load error: no physics needed
            self._finish_test()
            return
        if self._request.video:
            self._recorder = ViewportRecorder(config.physics_fps, config.capture_fps, self._on_frame)
        physx, _t, timeline_mod, _u = _omni()
        interface = physx.get_physx_interface()
        self._subscriptions = [
            interface.subscribe_physics_on_step_events(self._pre_step, True, 0),
            interface.subscribe_physics_on_step_events(self._post_step, False, 0),
        ]
        timeline_mod.get_timeline_interface().play()

    def _pre_step(self, _dt: float) -> None:
        session, engine = self._session, self._engine
        if session is None or session.done or not engine.ready or self._cancelled:
            return
        if session.advance():
            engine.flush_forces()

    def _post_step(self, _dt: float) -> None:
        session, engine = self._session, self._engine
        if session is None or session.done:
            return
        was_ready = engine.ready
        engine.physics_stepped()
        if not was_ready:
            return  # the warm-up step: views were just created, the test starts on the next step
        session.after_step()
        step = session.ctx.step_count
        if self._recorder is not None:
            self._recorder.maybe_capture(step)
        if step % self._progress_every == 0:
            self._sink.on_progress(session.test.name, engine.time, session.ctx.label)

    def _on_update(self, _event=None) -> None:
        # Subscriptions cannot change inside a physics callback: the end of a test is handled here.
        if self._session is not None and (self._session.done or self._cancelled):
            self._finish_test()

    def _on_frame(self, frame: np.ndarray, step: int) -> None:
        if self._session is not None:
            self._sink.on_frame(self._session.test.name, frame, step)

    def _finish_test(self) -> None:
        session = self._session
        self._end_physics()
        if session is not None:
            if self._cancelled and not session.done:
                from ..core.status import Status

                session.result.status = Status.ERROR
                session.result.reason = "stopped by the user"
            self._sink.on_result(session.result)
        self._session = None
        self._next_test()

    def _end_physics(self) -> None:
        self._subscriptions = []
        self._recorder = None
        if self._engine is not None:
            self._engine.close()
            self._engine = None

    def _watch_updates(self) -> None:
        import carb.eventdispatcher
        import omni.kit.app

        self._update_observer = carb.eventdispatcher.get_eventdispatcher().observe_event(
            event_name=omni.kit.app.GLOBAL_EVENT_UPDATE, on_event=self._on_update, observer_name="physics_validator.runner"
        )

    def _shutdown(self, complete: bool) -> None:
        self._update_observer = None
        sink, self._sink = self._sink, None
        if sink is not None:
            sink.on_finished(complete=complete)
