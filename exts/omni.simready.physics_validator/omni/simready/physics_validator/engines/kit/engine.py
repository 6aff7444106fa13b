"""KitPhysxEngine: the Engine protocol on the stage open in Isaac Sim / Kit (omni.physx).

Written against the public omni.physx sources (NVIDIA-Omniverse/PhysX, omni/extensions/runtime/source:
omni.physx/bindings/BindingsPhysXPython.cpp, omni.physics.tensors/python/api.py); it only runs inside
Kit and has not been run from this repository. What it computes lives in omni-free modules covered
by pytest (`dof_map`, `layer`, `engines.validation_layer`); this module moves data between
omni.physx / omni.physics.tensors and those.

Two ways to drive it:
- **manual** (`step()`): `IPhysxSimulation.attach_stage` + `simulate`/`fetch_results`, synchronous.
  Deterministic; the Kit test suites use it through `TestSession.run_to_end()`.
- **live** (`live.runner.KitLiveRunner`): the timeline plays, a pre-step
  `subscribe_physics_on_step_events` callback calls `TestSession.advance()` (the test sets targets
  and forces for the coming step) and a post-step callback counts time (`physics_stepped()`) and
  calls `after_step()`. This is what the panel uses, so the user watches the test in the viewport.

Either way the validation edits live on a session sublayer that `close()` removes, and the
timeline time, play state and selection are put back.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

from ...core.units import StageFrame, quat_xyzw_to_wxyz
from ..base import EngineBase, EngineError
from ..validation_layer import physics_scene_paths, plan_validation_layer
from .dof_map import BodyCornerCache, DofMap, centre_of_mass_world, usd_drive_target
from .layer import UserState, ValidationLayer

if TYPE_CHECKING:
    from ...core.asset_model import AssetModel
    from ...core.scene import SceneSpec


def _omni():
    """Import the Kit modules lazily: this module must import (not run) outside Kit."""
    import carb  # noqa: F401
    import omni.physics.tensors as tensors
    import omni.physx as physx
    import omni.timeline
    import omni.usd

    return physx, tensors, omni.timeline, omni.usd


class KitPhysxEngine(EngineBase):
    """omni.physx on the open stage. `mode` is "manual" (step() steps PhysX) or "live" (the timeline does).

    EngineBase keeps the protocol rules (target array shape, NaN keeps a target, the one-joint setter,
    the force queue, targets restored on reset, the clock, the DOF list, warnings); this class loads
    onto the open stage and implements the hooks with omni.physx / omni.physics.tensors.
    """

    name = "kit"

    def __init__(self, mode: str = "manual", target: str | None = None, usd_context_name: str = ""):
        if mode not in ("manual", "live"):
            raise ValueError(f"mode must be 'manual' or 'live', not {mode!r}")
        super().__init__()
        self.mode = mode
        self.target = target
        self.usd_context_name = usd_context_name
        self._stage = None
        self._stage_id = -1
        self._frame = StageFrame()
        self._layer: ValidationLayer | None = None
        self._user_state: UserState | None = None
        self._corners: BodyCornerCache | None = None
        self._sim_view = None
        self._articulations = None
        self._rigid_bodies = None
        self._dof_map: DofMap | None = None
        self._initial: dict = {}
        self._attached = False

    # -- identity -----------------------------------------------------------------------------------
    @property
    def version(self) -> str:
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

    # -- protocol: load ------------------------------------------------------------------------------
    def load(self, asset: "AssetModel", scene: "SceneSpec") -> None:
        """EngineBase's load, on the open stage: author the test's scene on a session sublayer, then
        (manual mode) attach and warm-start PhysX; live mode waits for the timeline's first step."""
        physx, _tensors, timeline_mod, omni_usd = _omni()
        if self._layer is not None:
            self.close()  # a second load drops the first scene, as EngineBase.load does
        context = omni_usd.get_context(self.usd_context_name)
        self._stage = context.get_stage()
        if self._stage is None:
            raise EngineError("no stage is open")
        self._stage_id = context.get_stage_id()
        self.warnings = []
        self._asset, self._spec = asset, scene
        self._dofs = list(asset.dof_joints)
        self._targets = np.full(len(self._dofs), np.nan)  # known once the tensor views exist
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
        self._corners = BodyCornerCache(asset)
        # The numpy tensor frontend needs the CPU pipeline (omni.physics.tensors/python/api.py). The setting is
        # process-wide and persistent (omni.physx/plugins/PhysX.cpp) and not restored yet: issue 14.
        physx.get_physx_interface().overwrite_gpu_setting(0)
        self._mark_loaded()
        if self.mode == "manual":
            # IPhysxSimulation attach_stage / simulate / fetch_results: omni.physx/bindings/BindingsPhysXPython.cpp
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
        # omni.physics.tensors/python/api.py: views over (count, max_dofs) float32 arrays, radians, stage lengths
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
            self._warn(f"joint {path} is outside any articulation: read as NaN, driven through USD targets")
        self._initial = self._snapshot()
        if self._articulations is not None:  # the targets reset() puts back (NaN: outside any articulation)
            self._targets = self._dof_map.gather(self._initial["dof_targets"])
        self._initial_targets = self._targets.copy()
        self._time = 0.0  # the warm-up step is not the test's

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
        """Live mode: called from the post-step callback."""
        if self._sim_view is None:
            self.physics_started()
        else:
            self._time += self._dt

    # -- protocol: state -----------------------------------------------------------------------------
    def bounds(self) -> tuple[np.ndarray, np.ndarray]:
        assert self._corners is not None
        return self._corners.world_bounds(self.body_poses())

    def joint_positions(self) -> np.ndarray:
        return self._gather("get_dof_positions")

    def joint_velocities(self) -> np.ndarray:
        return self._gather("get_dof_velocities")

    def _write_targets(self, indices: np.ndarray, values: np.ndarray) -> None:
        """Read-modify-write of the view's full (count, max_dofs) array; joints outside any articulation
        get a USD drive target on the validation sublayer."""
        if self._dof_map is None:
            raise EngineError("physics has not started yet")
        targets = np.full(len(self._dofs), np.nan)
        targets[indices] = values
        if self._articulations is not None:
            data, touched = self._dof_map.scatter_targets(self._articulations.get_dof_position_targets(), targets)
            if len(touched):
                self._articulations.set_dof_position_targets(data, touched)
        self._usd_targets(targets)

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
                point_si = centre_of_mass_world(self._asset, body, poses[body])
            force = self._frame.force_from_si(force_si)
            point = self._frame.point_from_si(point_si)
            body_id = PhysicsSchemaTools.sdfPathToInt(body)
            # World point, stage force units, for the coming step: omni.physx/bindings/BindingsPhysXPython.cpp
            simulation.wake_up(self._stage_id, body_id)
            simulation.apply_force_at_pos(self._stage_id, body_id, carb.Float3(*force), carb.Float3(*point), "Force")

    def body_poses(self) -> dict[str, tuple[np.ndarray, np.ndarray]]:
        physx, _t, _tl, _u = _omni()
        interface = physx.get_physx_interface()
        poses = {}
        assert self._asset is not None
        for body in self._asset.dynamic_bodies:
            # {'ret_val', 'position', 'rotation' (x, y, z, w)}, world, stage units: BindingsPhysXPython.cpp
            pose = interface.get_rigidbody_transformation(body.path)
            if not pose.get("ret_val", False):
                raise EngineError(f"PhysX has no rigid body at {body.path}")
            pos = np.array([pose["position"][i] for i in range(3)], float)
            quat = quat_xyzw_to_wxyz([pose["rotation"][i] for i in range(4)])
            poses[body.path] = self._frame.pose_to_si(pos, quat)
        return poses

    def _restore_initial_state(self) -> None:
        """The state captured right after physics started, through the tensor views (the view's whole
        target array too; EngineBase then re-applies the dof_joints' targets of load)."""
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

    def _release(self) -> None:
        """close(): drop views, detach, remove the session sublayer, restore timeline and selection."""
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
        # Timeline changes apply on the next frame (omni.timeline docs), so the reset-on-stop runs after the
        # layer is gone; issue 14 turns this into a stop -> wait -> remove sequence.
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
            return np.full(len(self._dofs), np.nan)
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
