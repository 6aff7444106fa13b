"""The validator wrapper stage: the asset sublayered unchanged, plus what a test asks of the scene.

ovphysx populates a USD file, so the engine writes one small `.usda` per load in a folder of its own
(a temporary folder, or one the caller names, e.g. next to the run's outputs) — **never beside or
below the asset's folder** (a library scan must not pick it up, and the asset folder is not ours).
Its root layer sublayers the asset and holds, in that layer only:

- the stage metadata (upAxis, metersPerUnit, kilogramsPerUnit, defaultPrim) copied from the asset: a
  sublayer's metadata never reaches the composed stage;
- what `engines.validation_layer` authors for every engine that simulates USD (physics scene at the
  test's rate, gravity, CPU dynamics, ground with its restitution-0 material, the drop lift, the
  solver iterations on each articulation);
- base pinning that gives PhysX a *fixed-base* articulation (below);
- `physx.target` semantics: legacy joint attributes carried over (`legacy.py`).

Pinning (`engines.pins`, shared with the Kit engine): the pin holds the root link PhysX elected from the asset as
authored (the engine attaches it once without pins to read it); a rigid-body articulation root's root APIs move onto
the pin joint, so PhysX builds a fixed-base articulation; `Wrapper.articulation_prims` maps each asset articulation
root to the prim PhysX then names it by.
"""

from __future__ import annotations

import os
import tempfile
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

from ...core.engine import EngineError
from ...core.usd.referable import referable_path
from ...core.units import StageFrame
from ..validation_layer import (
    author_validation_layer, physics_scene_paths, plan_validation_layer,
)
from .legacy import carry_over_legacy_joint_attrs

if TYPE_CHECKING:
    from ...core.asset_model import AssetModel
    from ...core.built_model import BuiltArticulation
    from ...core.scene import SceneSpec

WRAPPER_PREFIX = "simready_physx_"


@dataclass
class Wrapper:
    """One authored wrapper stage and what the engine needs to know about it."""

    path: str
    warnings: list[str] = field(default_factory=list)
    carried_over: dict[str, list[str]] = field(default_factory=dict)  # joint path -> per-axis attributes authored
    articulation_prims: dict[str, str] = field(default_factory=dict)  # asset articulation root -> PhysX's articulation prim
    pinned: list[str] = field(default_factory=list)  # asset articulation roots (or the free root body) pinned
    pinned_bodies: list[str] = field(default_factory=list)  # the bodies the pins hold
    held_free: list[str] = field(default_factory=list)  # loose bodies made kinematic where they are authored (pin_base)
    lift_si: float = 0.0


def is_below(path: str | os.PathLike, folder: str | os.PathLike) -> bool:
    """True when `path` is `folder` or lies below it (resolved paths)."""
    path, folder = Path(path).resolve(), Path(folder).resolve()
    return path == folder or folder in path.parents


def make_workdir(asset_path: str, parent: str | os.PathLike | None = None) -> str:
    """A fresh folder for the wrapper stage, never at or below the asset's folder.

    `parent` first (e.g. the run's output folder), then the system temp folder, then the user cache;
    a candidate below the asset's folder is skipped (an asset kept directly in /tmp, say)."""
    asset_dir = Path(asset_path).resolve().parent
    candidates = [parent, tempfile.gettempdir(), Path.home() / ".cache" / "simready-physics" / "wrappers"]
    for candidate in candidates:
        if candidate is None or is_below(candidate, asset_dir):
            continue
        try:
            Path(candidate).mkdir(parents=True, exist_ok=True)
            _sweep_orphans(Path(candidate))
            return tempfile.mkdtemp(prefix=f"{WRAPPER_PREFIX}{os.getpid()}_", dir=str(candidate))
        except OSError:
            continue
    raise EngineError(f"no folder outside {asset_dir} to write the wrapper stage in")


_SWEPT: set[str] = set()  # folders swept by this process (once is enough: 1 ms a glob of the temp folder)


def _sweep_orphans(folder: Path) -> None:
    """Remove wrapper folders whose process is gone: a worker killed by the watchdog (SIGKILL) cannot clean up."""
    import shutil

    if str(folder) in _SWEPT:
        return
    _SWEPT.add(str(folder))
    for old in folder.glob(f"{WRAPPER_PREFIX}*_*"):
        pid = old.name[len(WRAPPER_PREFIX):].split("_", 1)[0]
        if not pid.isdigit() or int(pid) == os.getpid():
            continue
        try:
            os.kill(int(pid), 0)
        except ProcessLookupError:
            shutil.rmtree(old, ignore_errors=True)
        except OSError:  # alive (or not ours to signal): leave it
            pass


def author_wrapper(asset: "AssetModel", scene: "SceneSpec", workdir: str, target: str, extra_lift_si: float = 0.0,
                   built: "list[BuiltArticulation] | None" = None) -> Wrapper:
    """Write the wrapper stage for one load into `workdir` (a fresh file name each time). `built`: the articulations
    PhysX built from the asset as authored, whose root links the pins hold (engines.pins)."""
    from pxr import Sdf, Usd, UsdGeom, UsdPhysics

    if is_below(workdir, Path(asset.path).resolve().parent):
        raise EngineError("the wrapper stage must not be written beside or below the asset")
    frame = StageFrame.of_asset(asset)
    out = _fresh_name(workdir)
    layer = Sdf.Layer.CreateNew(out)
    layer.subLayerPaths.append(referable_path(asset.path, workdir))  # an odd file name composes too
    layer.documentation = "omni.simready.physics_validator wrapper stage (physx engine); the asset is sublayered unchanged"
    stage = Usd.Stage.Open(layer)
    stage.SetEditTarget(Usd.EditTarget(layer))
    UsdGeom.SetStageUpAxis(stage, UsdGeom.Tokens.y if frame.up_axis.upper() == "Y" else UsdGeom.Tokens.z)
    UsdGeom.SetStageMetersPerUnit(stage, frame.meters_per_unit)
    UsdPhysics.SetStageKilogramsPerUnit(stage, frame.kilograms_per_unit)
    if asset.default_prim:
        layer.defaultPrim = asset.default_prim.strip("/").split("/")[0]
    wrapper = Wrapper(path=out)

    plan = plan_validation_layer(asset, scene, None, physics_scene_paths(stage), frame, built)
    if plan.lift_prim is None and scene.place_bottom_at is not None and asset.bodies:
        wrapper.warnings.append("placement: the asset has no default prim and its bodies sit under several top-level "
                                "prims, so it is simulated where it is authored")
    if plan.lift_prim is not None:
        plan.lift_stage += frame.length_from_si(extra_lift_si)
        wrapper.lift_si = frame.length_to_si(plan.lift_stage)
    author_validation_layer(stage, plan, layer)
    wrapper.articulation_prims = {a.root: plan.articulation_prim(a.root) for a in asset.articulations}
    wrapper.pinned = [pin.held for pin in plan.pins]
    wrapper.pinned_bodies = [pin.body for pin in plan.pins] + list(plan.held_free)
    wrapper.held_free = list(plan.held_free)
    wrapper.carried_over, notes = carry_over_legacy_joint_attrs(stage, asset, target)
    wrapper.warnings.extend(notes)
    layer.Save()
    return wrapper


def _fresh_name(workdir: str) -> str:
    """pxr keeps opened layers registered by path, so a re-authored wrapper gets a new file name."""
    index = 0
    while True:
        out = os.path.join(workdir, f"wrapper_{index}.usda" if index else "wrapper.usda")
        if not os.path.exists(out):
            return out
        index += 1


