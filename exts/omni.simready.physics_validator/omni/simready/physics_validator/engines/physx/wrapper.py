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

Pinning: ArticulationRootAPI on a rigid body makes that body the root with no election
(docs/population/PhysicsArticulationRootAPI.md), so a fixed joint to the world authored beside it stays
a maximal constraint on a *floating* articulation (measured: isFixedBase = 0, the base drifted 2e-5 m).
The API (and PhysxArticulationAPI, which must sit on the same prim) therefore moves onto the pin joint,
which then is the articulation's root joint. On an Xform root the pin is authored inside the root's
subtree, where a joint to the world wins the election.
"""

from __future__ import annotations

import os
import tempfile
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

from ...core.engine import EngineError
from ...core.units import StageFrame
from ..validation_layer import (
    VALIDATION_ROOT, applied_api_tokens, author_pin_joint, author_validation_layer, physics_scene_paths, plan_validation_layer,
)
from .legacy import carry_over_legacy_joint_attrs

if TYPE_CHECKING:
    from ...core.asset_model import AssetModel
    from ...core.scene import SceneSpec

WRAPPER_PREFIX = "simready_physx_"
# The articulation-root APIs that must sit on one prim (the runtime reads PhysxArticulationAPI on the prim with the
# root API, and treats NewtonArticulationRootAPI as a root too: erd_panda stayed floating while its link kept it).
ROOT_APIS = ("PhysicsArticulationRootAPI", "NewtonArticulationRootAPI", "PhysxArticulationAPI")
ROOT_ATTR_PREFIXES = ("physxArticulation:", "newton:selfCollisionEnabled")


@dataclass
class Wrapper:
    """One authored wrapper stage and what the engine needs to know about it."""

    path: str
    warnings: list[str] = field(default_factory=list)
    carried_over: dict[str, list[str]] = field(default_factory=dict)  # joint path -> per-axis attributes authored
    articulation_prims: dict[str, str] = field(default_factory=dict)  # asset articulation root -> PhysX's articulation prim
    pinned: list[str] = field(default_factory=list)  # asset articulation roots (or the free root body) pinned
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


def author_wrapper(asset: "AssetModel", scene: "SceneSpec", workdir: str, target: str, extra_lift_si: float = 0.0) -> Wrapper:
    """Write the wrapper stage for one load into `workdir` (a fresh file name each time)."""
    from pxr import Sdf, Usd, UsdGeom, UsdPhysics

    if is_below(workdir, Path(asset.path).resolve().parent):
        raise EngineError("the wrapper stage must not be written beside or below the asset")
    frame = StageFrame.of_asset(asset)
    out = _fresh_name(workdir)
    layer = Sdf.Layer.CreateNew(out)
    layer.subLayerPaths.append(str(Path(asset.path).resolve()))
    layer.documentation = "omni.simready.physics_validator wrapper stage (physx engine); the asset is sublayered unchanged"
    stage = Usd.Stage.Open(layer)
    stage.SetEditTarget(Usd.EditTarget(layer))
    UsdGeom.SetStageUpAxis(stage, UsdGeom.Tokens.y if frame.up_axis.upper() == "Y" else UsdGeom.Tokens.z)
    UsdGeom.SetStageMetersPerUnit(stage, frame.meters_per_unit)
    UsdPhysics.SetStageKilogramsPerUnit(stage, frame.kilograms_per_unit)
    if asset.default_prim:
        layer.defaultPrim = asset.default_prim.strip("/").split("/")[0]
    wrapper = Wrapper(path=out)

    plan = plan_validation_layer(asset, scene, None, physics_scene_paths(stage), frame)
    plan.pin_body = None  # pinned below, per articulation, as PhysX needs it
    if plan.lift_prim is None and scene.place_bottom_at is not None and asset.bodies:
        wrapper.warnings.append("placement: the asset has no default prim, so it is simulated where it is authored")
    if plan.lift_prim is not None:
        plan.lift_stage += frame.length_from_si(extra_lift_si)
        wrapper.lift_si = frame.length_to_si(plan.lift_stage)
    author_validation_layer(stage, plan, layer)
    wrapper.articulation_prims = {a.root: a.root for a in asset.articulations}
    if scene.pin_base:
        _pin(stage, asset, wrapper)
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


def _pin(stage, asset: "AssetModel", wrapper: Wrapper) -> None:
    from pxr import UsdPhysics

    if not asset.articulations:  # free bodies: hold the top-most dynamic body with a maximal fixed joint
        roots = sorted((b.path for b in asset.dynamic_bodies), key=lambda p: (p.count("/"), p))
        if roots:
            author_pin_joint(stage, roots[0], f"{VALIDATION_ROOT}/PinBase")
            wrapper.pinned.append(roots[0])
        return
    for index, art in enumerate(asset.articulations):
        base = art.base_body or (art.bodies[0] if art.bodies else None)
        root = stage.GetPrimAtPath(art.root)
        if base is None or not root:
            continue
        anchors = [j for j in asset.world_anchors if j.body0 in art.bodies or j.body1 in art.bodies]
        if any(j.type != "fixed" for j in anchors):
            continue  # held by a revolute/prismatic joint to the world: a weld would freeze that joint
        on_body = root.HasAPI(UsdPhysics.RigidBodyAPI)
        if not on_body and art.fixed_base:
            continue  # a joint to the world inside the root's subtree already wins the election
        if on_body:
            path = f"{VALIDATION_ROOT}/PinBase{index or ''}"
            joint = author_pin_joint(stage, base, path).GetPrim()
            _move_root_api(root, joint)
            wrapper.articulation_prims[art.root] = path
        else:
            author_pin_joint(stage, base, f"{art.root}/PhysicsValidatorPinBase")
        wrapper.pinned.append(art.root)


def _move_root_api(root, joint) -> None:
    """The articulation-root APIs (with their values) from a rigid body onto the pin joint.

    The removal is a `delete` list op in the wrapper layer; the asset's layers are not touched."""
    tokens = applied_api_tokens(root)
    values = [(a.GetName(), a.GetTypeName(), a.Get()) for a in root.GetAttributes()
              if a.GetName().startswith(ROOT_ATTR_PREFIXES) and a.HasAuthoredValue()]
    for api in ROOT_APIS:
        if api in tokens:
            root.RemoveAppliedSchema(api)
            joint.AddAppliedSchema(api)
    for name, type_name, value in values:
        joint.CreateAttribute(name, type_name).Set(value)
