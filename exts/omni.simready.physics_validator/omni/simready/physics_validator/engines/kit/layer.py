"""The Kit engine's edits of the live stage and the process-wide state it borrows, with no omni import.

- `ValidationLayer`: one anonymous sublayer of the session layer per test. What goes on it is planned and
  authored by `engines.validation_layer` (pure pxr, shared with the headless engine); this class owns where
  it lives and the stage's edit target around it.
- `UserState`: what a live run records once and puts back at its end (timeline time and play state,
  selection, the GPU override), over duck-typed interfaces: omni.timeline's timeline (`get_current_time`,
  `is_playing`, `is_stopped`, `set_current_time`, `play`: omni.timeline Python docs), omni.usd's selection
  (`get_selected_prim_paths`, `set_selected_prim_paths`: omni.usd Python docs) and omni.physx's IPhysx (checked
  against the real 110.4.4 wheel by tests/kit/test_call_audit.py).
- `GpuOverride`: `overwrite_gpu_setting` saved, forced to CPU and restored.

Sources (NVIDIA-Omniverse/PhysX @ 107.3, omni/extensions/runtime/source/omni.physx/):
- PhysX writes simulated poses into the layer given to `set_simulation_layer` (plugins/PhysX.cpp:1402-1418,
  used by updateSimulationOutputs, internal/InternalScene.cpp:2641-2644), but the reset on stop restores
  the parse-time xform ops into the stage's *current edit target* with no edit context
  (plugins/internal/InternalPhysXDatabase.cpp:465-520, internal/InternalXformOpResetStorage.cpp:79-100),
  and actor creation at parse writes there too (internal/InternalActor.cpp:180-191). So the edit target is
  on our sublayer only while PhysX may write through it: from play until the first step (parse) and from
  stop until the STOPPED event (`hold_edit_target` / `release_edit_target`); the rest of the test it is the
  user's, and their edits go where they expect. An edit the user makes during those one or two frames lands
  in the sublayer and goes with it.
- `overwrite_gpu_setting(int)` / `get_overwrite_gpu_setting()`: -1 schema, 0 CPU, 1 GPU; ignored with a
  warning once the simulation has started; stored in the persistent setting
  `/persistent/physics/overrideGPUSettings`, so it outlives the session unless put back
  (bindings/BindingsPhysXPython.cpp:734-749, plugins/PhysX.cpp:625-642, include/omni/physx/IPhysxSettings.h).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from ..validation_layer import ValidationLayerPlan, author_validation_layer
from .dof_map import usd_drive_target

if TYPE_CHECKING:
    from ...core.asset_model import JointInfo
    from ...core.units import StageFrame

CPU_ONLY = 0  # overwrite_gpu_setting: -1 use the schema, 0 force CPU, 1 force GPU
# set_simulation_layer(layer: str) in omni.physx 110.4.4 (Isaac Sim 6.2, bindings/_physx.pyi): None is a TypeError
# there. The plugin looks the identifier up with SdfLayer::Find and stores what it finds (plugins/PhysX.cpp,
# setSimulationLayer), so an identifier no layer has, "", clears it; Kit 107.3's `const char*` binding takes "" too.
NO_SIMULATION_LAYER = ""


class ValidationLayer:
    """An anonymous sublayer of the session layer holding every edit of one validation.

    `apply()` authors the plan into it and leaves the stage's edit target where it was; `remove()` drops the
    layer (and gives the edit target back if it was held): the composed stage is back to what it was and no
    user layer was ever dirtied.
    """

    def __init__(self, stage, plan: ValidationLayerPlan):
        self.stage = stage
        self.plan = plan
        self.layer: Any = None  # the anonymous Sdf.Layer while applied
        self._held_from = None  # the edit target to give back while ours is held

    @property
    def identifier(self) -> str | None:
        return None if self.layer is None else self.layer.identifier

    @property
    def holding(self) -> bool:
        return self._held_from is not None

    def apply(self) -> "ValidationLayer":
        from pxr import Sdf

        self.layer = Sdf.Layer.CreateAnonymous("physics_validator")
        self.stage.GetSessionLayer().subLayerPaths.insert(0, self.layer.identifier)
        try:
            author_validation_layer(self.stage, self.plan, self.layer)  # Usd.EditContext: edit target unchanged
        except Exception:
            self.remove()
            raise
        return self

    def hold_edit_target(self) -> None:
        """Our sublayer becomes the edit target (PhysX's parse and reset write through it) until released."""
        from pxr import Usd

        if self.layer is None or self.holding:
            return
        self._held_from = self.stage.GetEditTarget()
        self.stage.SetEditTarget(Usd.EditTarget(self.layer))

    def release_edit_target(self) -> None:
        """Give the edit target back, unless the user (or an extension) moved it meanwhile."""
        if not self.holding:
            return
        previous, self._held_from = self._held_from, None
        if self.layer is not None and self.stage.GetEditTarget().GetLayer() == self.layer:
            self.stage.SetEditTarget(previous)

    def author_drive_targets(self, targets: list[tuple["JointInfo", float]], velocity: bool, frame: "StageFrame") -> None:
        """(joint, SI value) drive targets of joints outside articulations, on this sublayer as USD authors them
        (degrees, stage units): targetPosition, or targetVelocity with `velocity`. omni.physx applies a changed
        drive:*:physics:targetPosition / targetVelocity to the running joint (plugins/ChangeRegister.cpp:709, 738
        and the targetVelocity lines beside them)."""
        from pxr import Usd, UsdPhysics

        for joint, value in targets:
            drive = UsdPhysics.DriveAPI.Get(self.stage.GetPrimAtPath(joint.path), "angular" if joint.is_angular else "linear")
            if drive:
                with Usd.EditContext(self.stage, Usd.EditTarget(self.layer)):
                    attr = drive.CreateTargetVelocityAttr() if velocity else drive.CreateTargetPositionAttr()
                    attr.Set(float(usd_drive_target(joint, value, frame)))

    def remove(self) -> None:
        if self.layer is None:
            return
        self.release_edit_target()
        session = self.stage.GetSessionLayer()
        if self.layer.identifier in session.subLayerPaths:
            session.subLayerPaths.remove(self.layer.identifier)
        self.layer = None


class GpuOverride:
    """`overwrite_gpu_setting(0)` for a run, and the user's value put back (only valid while stopped)."""

    def __init__(self, physx_interface) -> None:
        self.physx = physx_interface
        self.saved: int | None = None

    def force_cpu(self) -> None:
        if self.saved is None:
            self.saved = int(self.physx.get_overwrite_gpu_setting())
        self.physx.overwrite_gpu_setting(CPU_ONLY)

    def restore(self) -> None:
        if self.saved is not None:
            self.physx.overwrite_gpu_setting(self.saved)
            self.saved = None


@dataclass
class UserState:
    """What a live run puts back at its end: timeline time and play state, the selection, the GPU override."""

    time: float = 0.0
    playing: bool = False
    stopped: bool = True
    selection: list[str] = field(default_factory=list)
    gpu: int = -1

    @classmethod
    def capture(cls, timeline, selection, physx_interface) -> "UserState":
        """The applied timeline state (a change queued this frame is not visible yet: omni.timeline defers)."""
        return cls(
            time=float(timeline.get_current_time()),
            playing=bool(timeline.is_playing()),
            stopped=bool(timeline.is_stopped()),
            selection=list(selection.get_selected_prim_paths()),
            gpu=int(physx_interface.get_overwrite_gpu_setting()),
        )

    def restore_process_wide(self, physx_interface) -> None:
        """GPU override back and no simulation layer: valid even when the stage is gone (call while stopped)."""
        physx_interface.set_simulation_layer(NO_SIMULATION_LAYER)
        physx_interface.overwrite_gpu_setting(self.gpu)

    def restore_stage_side(self, timeline, selection) -> None:
        """Time and selection back, and play again only if the user was playing (queued: next frame)."""
        timeline.set_current_time(self.time)
        selection.set_selected_prim_paths(list(self.selection), True)
        if self.playing:
            timeline.play()
