"""What PhysX built from the wrapper stage, after each attach: articulations and their DOF order, the
bodies it simulates, and the per-step machinery over them (`reads.StateIO`, `properties`, `bounds`).

The articulations are read back (session `dofJointPath`, `isFixedBase`), not assumed from the asset model:
after pinning, the articulation's prim is the pin joint, and the runtime may leave a joint the model puts in
an articulation outside it (it then is a maximal joint: `dofs.MaximalJoints`).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Callable

import numpy as np

from .bounds import ColliderBounds
from .dofs import Dof, MaximalJoints, map_dofs
from .properties import RuntimeProperties
from .reads import StateIO
from .articulations import ArticulationRow, articulation_rows
from .session import read_columns

if TYPE_CHECKING:
    from ...core.asset_model import AssetModel
    from ...core.units import StageFrame
    from .wrapper import Wrapper


@dataclass
class Built:
    articulations: list[str]  # per articulation, in the session's row order, the path that selects it alone (its prim,
    # the pin joint after pinning; articulations.py)
    art_dofs: list[list[str]]  # per articulation, its DOF joints in PhysX's column order
    fixed_base: dict[str, bool]  # selector -> isFixedBase
    dofs: list[Dof]  # the engine's DOF joints, in `dof_joints` order
    maximal: MaximalJoints
    bodies: list[str]  # simulated bodies, asset order: rows of the pose tensors
    wrench_bodies: list[str]  # the dynamic ones: rows of the wrench tensor
    state_io: StateIO
    properties: RuntimeProperties
    bounds: ColliderBounds
    com_local: np.ndarray  # (len(wrench_bodies), 3) centres of mass in the body frame, m
    targets_raw: np.ndarray  # (A, D) drive targets in binding units, as PhysX holds them
    rows: list[ArticulationRow] = field(default_factory=list)  # the articulations as the session lists them

    def __post_init__(self) -> None:
        self.wrench_row = {p: i for i, p in enumerate(self.wrench_bodies)}
        self.body_row = {p: i for i, p in enumerate(self.bodies)}
        self.art_index = np.array([i for i, d in enumerate(self.dofs) if d.art >= 0], int)
        self.art_rows = np.array([self.dofs[i].art for i in self.art_index], int)
        self.art_cols = np.array([self.dofs[i].col for i in self.art_index], int)
        self.art_scale = np.array([self.dofs[i].scale for i in self.art_index], float)
        # the common case, one articulation holding every DOF in dof_joints order: a slice instead of a gather
        n = len(self.dofs)
        self.art_prefix = (n > 0 and len(self.art_index) == n and not np.any(self.art_rows)
                           and np.array_equal(self.art_cols, np.arange(n)))
        self.art_unit = bool(np.all(self.art_scale == 1.0))  # binding units are SI already (radians, metres)


def discover(runtime, physx, stage, asset: "AssetModel", frame: "StageFrame", wrapper: "Wrapper",
             warn: Callable[[str], None]) -> Built:
    SOT = runtime.SimObjectType
    rows = articulation_rows(runtime, physx, stage)
    articulations = [row.selector for row in rows]  # what selects each alone (articulations.py: one prim can name several)
    art_dofs = [list(row.dofs) for row in rows]
    fixed_base = {row.selector: row.fixed_base for row in rows}
    fixed_prims = {row.prim for row in rows if row.fixed_base}
    for root in wrapper.pinned:
        prim = wrapper.articulation_prims.get(root)
        if prim is not None and prim not in fixed_prims:
            warn(f"{root}: base pinning did not give PhysX a fixed-base articulation")
    dofs = map_dofs(asset, art_dofs, frame)
    maximal = MaximalJoints(asset, dofs, frame)
    for i in maximal.indices:
        warn(f"{dofs[i].path}: joint outside any articulation (maximal joint): its coordinate is read from the body "
             "poses and its drive target written to the stage (no velocity limit, as in omni.physx)")
    simulated: set[str] = set()
    for sim_type in (SOT.RIGID_BODY, SOT.ARTICULATION_LINK):
        simulated.update(read_columns(physx, sim_type, ["mass"]).get("mass", {}))
    candidates = [b.path for b in asset.bodies.values() if b.enabled]
    bodies = [p for p in candidates if p in simulated]
    if len(bodies) < len(candidates):
        missing = [p for p in candidates if p not in simulated]
        warn(f"PhysX simulates no rigid body at {', '.join(missing[:3])}{' ...' if len(missing) > 3 else ''}: "
             "left out of poses and bounds")
    wrench_bodies = [p for p in bodies if not asset.bodies[p].kinematic]
    angular = {j.path: j.is_angular for j in asset.joints.values()}
    state_io = StateIO(runtime, physx, stage, articulations, art_dofs, angular, bodies, wrench_bodies)
    _check_dof_names(state_io.dof_names, art_dofs, warn)
    return Built(
        articulations, art_dofs, fixed_base, dofs, maximal, bodies, wrench_bodies, state_io,
        RuntimeProperties(runtime, physx, dofs, frame, articulations, art_dofs), ColliderBounds(asset, bodies),
        state_io.snapshot["com"] * frame.meters_per_unit, np.array(state_io.snapshot["target"], np.float32), rows,
    )


def _check_dof_names(binding_names: list[str], art_dofs: list[list[str]], warn) -> None:
    """The bindings' DOF order must be dofJointPath's (a sanity check on leaf names; multi-DOF joints read name:axis)."""
    names = [n.split(":")[0] for n in binding_names]
    flat = [p.rsplit("/", 1)[-1] for joints in art_dofs for p in joints]
    if names and flat and names[: len(flat)] != flat and sorted(names) != sorted(flat):
        warn("DOF order check: tensor-binding dof_names differ from dofJointPath; the joint mapping may be wrong")
