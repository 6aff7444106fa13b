"""What the runtime parsed, in SI: joint limits, drive values, velocity caps, masses, the mass matrix.

One-off reads through the session API (valid before the first step), converted once with
`core.units.StageFrame`: the session reports angular joint quantities in degrees (limits, deg/s caps,
per-degree gains) and everything else in stage units. FLT_MAX means "free" / "unlimited" and reads as
inf. Joints outside any articulation are not covered by the API: NaN, except the velocity cap, which
PhysX does not enforce on them (inf).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

from .session import read_columns, read_handles

if TYPE_CHECKING:
    from ...core.units import StageFrame
    from .articulations import ArticulationRow
    from .dofs import Dof

FLT_MAX_READ = 1e30  # a session value at or above this is FLT_MAX: free / unlimited
DRIVE_COLUMNS = ("jointStiffness", "jointDamping", "jointMaxForce", "jointArmature", "jointDriveType",
                 "jointStaticFriction", "jointDynamicFriction", "jointViscousFriction")


class RuntimeProperties:
    """Reads of one attached PhysX instance, per DOF joint (`dofs` order) or per body."""

    def __init__(self, runtime, physx, dofs: list["Dof"], frame: "StageFrame", articulations: list[str],
                 art_dofs: list[list[str]]):
        self.runtime, self.physx, self.dofs, self.frame = runtime, physx, dofs, frame
        self.articulations, self.art_dofs = articulations, art_dofs
        self.coord = np.array([frame.joint_coordinate_scale(d.angular) for d in dofs])  # USD coordinate -> SI
        self.effort = np.array([frame.joint_effort_scale(d.angular) for d in dofs])  # USD effort -> SI
        # the length power of a coordinate's inertia
        self.length = np.array([frame.meters_per_unit if d.angular else 1.0 for d in dofs])
        self.inertia = frame.kilograms_per_unit * self.length**2  # kg u^2 -> kg m^2 (angular), kg (linear)

    def _joint_columns(self, names) -> dict:
        if not self.articulations:
            return {}
        return read_columns(self.physx, self.runtime.SimObjectType.ARTICULATION_JOINT, names, per_prim=True)

    def _per_dof(self, column: dict, lanes: int = 1) -> np.ndarray:
        out = np.full((len(self.dofs), lanes), np.nan)
        for i, d in enumerate(self.dofs):
            values = column.get(d.path)
            if values is not None and len(values) >= lanes:
                out[i] = values[:lanes]
        return out

    def joint_limits(self) -> np.ndarray:
        raw = self._per_dof(self._joint_columns(["jointLimit"]).get("jointLimit", {}), 2)
        out = raw * self.coord[:, None]
        free = np.abs(raw) >= FLT_MAX_READ
        out[free] = np.sign(raw[free]) * np.inf
        return out

    def drive_gains(self) -> dict[str, np.ndarray]:
        columns = self._joint_columns(list(DRIVE_COLUMNS))
        v = {name: self._per_dof(columns.get(name, {}))[:, 0] for name in DRIVE_COLUMNS}
        out = {
            "stiffness": v["jointStiffness"] * self.effort / self.coord,  # per degree -> per radian
            "damping": v["jointDamping"] * self.effort / self.coord,
            "max_force": v["jointMaxForce"] * self.effort,
            "armature": v["jointArmature"] * self.inertia,  # kg u^2 (angular, per rad^2) or kg
            "drive_type": v["jointDriveType"],  # 0 none, 1 force, 2 acceleration
            # joint friction efforts (N m | N): physxJointAxis:<axis>:*FrictionEffort, else newton:friction
            "static_friction": v["jointStaticFriction"] * self.effort,
            "dynamic_friction": v["jointDynamicFriction"] * self.effort,
            # viscous friction (N m s/rad | N s/m): physxJointAxis:<axis>:viscousFrictionCoefficient, else newton:damping
            "viscous_friction": v["jointViscousFriction"] * self.effort / self.coord,
        }
        out["max_force"][np.abs(v["jointMaxForce"]) >= FLT_MAX_READ] = np.inf
        return out

    def joint_velocity_limits(self) -> np.ndarray:
        raw = self._per_dof(self._joint_columns(["jointMaxVelocity"]).get("jointMaxVelocity", {}))[:, 0]
        out = raw * self.coord
        out[np.abs(raw) >= FLT_MAX_READ] = np.inf
        out[np.array([d.art < 0 for d in self.dofs], bool)] = np.inf  # not enforced outside articulations
        return out

    def body_masses(self, bodies: list[str]) -> dict[str, float]:
        SOT = self.runtime.SimObjectType
        masses: dict[str, float] = {}
        for sim_type in (SOT.RIGID_BODY, SOT.ARTICULATION_LINK):
            for path, row in read_columns(self.physx, sim_type, ["mass"]).get("mass", {}).items():
                masses[path] = float(row[0]) * self.frame.kilograms_per_unit
        return {p: masses[p] for p in bodies if p in masses}

    def mass_matrix(self, rows: list["ArticulationRow"]) -> np.ndarray:
        """(n, n) joint-space inertia over the DOF joints (SI; NaN outside articulations).

        The session's `massMatrix` per articulation (`rows`, the session's order) is (D, D) for a fixed base, (6 + D)^2
        for a floating one (the root's 6 first), in radians and stage units; only the joint block is returned. Signs
        follow USD body order (a joint authored child -> parent flips its rows and columns)."""
        n = len(self.dofs)
        out = np.full((n, n), np.nan)
        if not self.articulations:
            return out
        prims, data = read_handles(self.physx, None, self.runtime, self.runtime.SimObjectType.ARTICULATION,
                                   ["massMatrix"]).get("massMatrix", ([], np.zeros((0, 0))))
        for a, art in enumerate(rows):  # row by row: one prim can name several (articulations.py)
            if a >= len(prims) or prims[a] != art.prim:
                continue
            size = len(art.dofs) + (0 if art.fixed_base else 6)
            m = np.asarray(data[a], float).ravel()[: size * size].reshape(size, size)
            offset = size - len(art.dofs)  # 6 root DOFs first on a floating base
            members = [i for i, d in enumerate(self.dofs) if d.art == a]
            for i in members:
                for j in members:
                    out[i, j] = m[offset + self.dofs[i].col, offset + self.dofs[j].col]
        return out * self.frame.kilograms_per_unit * np.outer(self.length, self.length)
