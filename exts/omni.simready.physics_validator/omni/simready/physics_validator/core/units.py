"""Stage frame and units <-> the SI Z-up world, written once.

USD stages carry their own up axis and units (metersPerUnit, kilogramsPerUnit); the asset model,
the engines and the tests work in metres, kilograms and a Z-up world. The rule is
`world_si = R_up * (stage_world * metersPerUnit)` with R_up = +90 deg about X for a Y-up stage and
identity for Z-up. Every place that crosses that boundary (the USD reader, the video recorder, the
USD replay layer, the Kit and ovphysx engines) uses `StageFrame`, so there is one rule to test.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from .geometry import quat_conj, quat_mul, quat_normalize, quat_to_matrix, quats_mul, rotate


_WXYZ_FROM_XYZW = np.array([3, 0, 1, 2])  # PhysX's x, y, z, w quaternion order -> w, x, y, z
_POSE_ROW_WXYZ = _WXYZ_FROM_XYZW + 3  # the same order within a pose row [x y z qx qy qz qw]


def up_to_z_quat(up_axis: str) -> np.ndarray:
    """Rotation (wxyz) taking the stage's up axis onto +Z (Y-up: +90 deg about X; Z-up: identity)."""
    if str(up_axis).upper() == "Y":
        half = math.pi / 4.0
        return np.array([math.cos(half), math.sin(half), 0.0, 0.0])
    return np.array([1.0, 0.0, 0.0, 0.0])


@dataclass(frozen=True)
class StageFrame:
    """A stage's up axis and units, and the conversions to and from the SI Z-up world."""

    up_axis: str = "Z"
    meters_per_unit: float = 1.0
    kilograms_per_unit: float = 1.0

    @classmethod
    def of_asset(cls, asset) -> "StageFrame":
        """The frame an AssetModel was read in."""
        return cls(asset.up_axis or "Z", float(asset.meters_per_unit or 1.0), float(asset.kilograms_per_unit or 1.0))

    @classmethod
    def of_stage(cls, stage) -> "StageFrame":
        """The frame of an open pxr stage, the same one the USD reader reads the asset in (see `from_metadata`)."""
        return cls.from_metadata(*cls.stage_metadata(stage))

    @staticmethod
    def stage_metadata(stage) -> tuple[str, float, float]:
        """(upAxis, metersPerUnit, kilogramsPerUnit) as pxr reports them, not yet checked.

        Unauthored values are pxr's fallbacks (Y-up centimetres, kilograms); an empty axis or a 0 unit
        reads as Z or 1. The USD reader reports invalid values as asset issues before `from_metadata`
        makes them harmless.
        """
        from pxr import UsdGeom

        mpu = float(UsdGeom.GetStageMetersPerUnit(stage) or 1.0)
        up = str(UsdGeom.GetStageUpAxis(stage) or "Z")
        try:
            from pxr import UsdPhysics

            kpu = float(UsdPhysics.GetStageKilogramsPerUnit(stage) or 1.0)
        except Exception:  # noqa: BLE001 - a usd-core without UsdPhysics stage metadata
            kpu = 1.0
        return up, mpu, kpu

    @classmethod
    def from_metadata(cls, up_axis: str, meters_per_unit: float, kilograms_per_unit: float) -> "StageFrame":
        """The frame for authored metadata: an up axis other than "Y"/"Z" (USD allows only those two) reads
        as Z, and a unit that is not finite and positive reads as 1, so nothing downstream turns into NaN."""
        mpu, kpu = float(meters_per_unit), float(kilograms_per_unit)
        return cls(
            up_axis if up_axis in ("Y", "Z") else "Z",
            mpu if math.isfinite(mpu) and mpu > 0 else 1.0,
            kpu if math.isfinite(kpu) and kpu > 0 else 1.0,
        )

    # -- rotations -------------------------------------------------------------------------------
    @property
    def to_si_quat(self) -> np.ndarray:
        return up_to_z_quat(self.up_axis)

    @property
    def to_si_rotation(self) -> np.ndarray:
        """3x3 rotation taking stage directions to SI world directions."""
        return quat_to_matrix(self.to_si_quat)

    @property
    def up_vector(self) -> np.ndarray:
        """The stage's up direction in stage coordinates."""
        return np.array([0.0, 1.0, 0.0]) if self.up_axis.upper() == "Y" else np.array([0.0, 0.0, 1.0])

    def to_si_matrix(self) -> np.ndarray:
        """4x4 column-vector matrix mapping stage world coordinates to the SI Z-up world."""
        out = np.eye(4)
        out[:3, :3] = self.to_si_rotation * self.meters_per_unit
        return out

    # -- stage -> SI ------------------------------------------------------------------------------
    def point_to_si(self, p) -> np.ndarray:
        return self.to_si_rotation @ (np.asarray(p, float) * self.meters_per_unit)

    def points_to_si(self, points) -> np.ndarray:
        """`point_to_si` for an (N, 3) array of points, one matrix product for all of them."""
        return (self.to_si_rotation @ (np.asarray(points, float) * self.meters_per_unit).T).T

    def vector_to_si(self, v, scale: float = 1.0) -> np.ndarray:
        """A direction-like quantity (velocity, axis): rotated, and multiplied by `scale`."""
        return self.to_si_rotation @ (np.asarray(v, float) * scale)

    def quat_to_si(self, q_wxyz) -> np.ndarray:
        return quat_normalize(quat_mul(self.to_si_quat, np.asarray(q_wxyz, float)))

    def pose_to_si(self, pos, q_wxyz) -> tuple[np.ndarray, np.ndarray]:
        return self.point_to_si(pos), self.quat_to_si(q_wxyz)

    def length_to_si(self, length: float) -> float:
        return float(length) * self.meters_per_unit

    def poses_to_si(self, positions, quats_xyzw) -> tuple[np.ndarray, np.ndarray]:
        """(N, 3) stage positions and (N, 4) xyzw quaternions (PhysX order) -> SI positions, wxyz quaternions."""
        quats = np.asarray(quats_xyzw).take(_WXYZ_FROM_XYZW, axis=1).astype(float)  # 0.5 us (a fancy index: 2 us)
        if self.up_axis.upper() != "Y":
            return np.asarray(positions, float) * self.meters_per_unit, quats
        return self.points_to_si(positions), quats_mul(self.to_si_quat, quats)

    def pose_row_to_si(self, raw) -> tuple[np.ndarray, np.ndarray] | None:
        """One PhysX pose row [x y z qx qy qz qw] converted exactly as `poses_to_si` converts its row, on a Z-up stage
        (a scale and a reorder, element by element); None on a Y-up stage (a matrix product: convert them all)."""
        if self.up_axis.upper() == "Y":
            return None
        row = np.asarray(raw, float)  # float32 -> float64, exact: as poses_to_si casts before it scales
        return row[:3] * self.meters_per_unit, row.take(_POSE_ROW_WXYZ)

    def vectors_to_si(self, vectors, scale: float = 1.0) -> np.ndarray:
        """`vector_to_si` for an (N, 3) array."""
        return (np.asarray(vectors, float) * scale) @ self.to_si_rotation.T

    # -- joint quantities: USD authors angles in degrees, lengths in stage units -------------------
    def joint_coordinate_scale(self, angular: bool) -> float:
        """USD joint coordinate -> SI: degrees -> rad (angular), stage length -> m (linear); also deg/s, u/s."""
        return math.pi / 180.0 if angular else self.meters_per_unit

    def joint_gain_scale(self, angular: bool) -> float:
        """USD drive stiffness / damping -> SI: per degree -> per radian (angular: kg u^2/s^2 per degree -> N m/rad,
        with kilogramsPerUnit and metersPerUnit), per stage length -> per metre (linear: kg/s^2 -> N/m). The one place
        this conversion is written (the reader, the hints' snippets and the spellings table use it)."""
        return self.kilograms_per_unit * self.meters_per_unit**2 * 180.0 / math.pi if angular else self.kilograms_per_unit

    def joint_effort_scale(self, angular: bool) -> float:
        """USD joint effort -> SI: kg u^2/s^2 -> N m (angular), kg u/s^2 -> N (linear), with kilogramsPerUnit.
        Also the inertia scale of an angular coordinate in radians (kg u^2 -> kg m^2); a linear one's is
        kilogramsPerUnit alone."""
        return self.kilograms_per_unit * self.meters_per_unit * (self.meters_per_unit if angular else 1.0)

    # -- SI -> stage ------------------------------------------------------------------------------
    def point_from_si(self, p) -> np.ndarray:
        return rotate(quat_conj(self.to_si_quat), np.asarray(p, float)) / self.meters_per_unit

    def quat_from_si(self, q_wxyz) -> np.ndarray:
        return quat_normalize(quat_mul(quat_conj(self.to_si_quat), np.asarray(q_wxyz, float)))

    def rigid_from_si(self, pos, q_wxyz) -> np.ndarray:
        """4x4 column-vector transform, in stage units and axes, of a body at an SI world pose (no scale)."""
        out = np.eye(4)
        out[:3, :3] = self.to_si_rotation.T @ quat_to_matrix(q_wxyz)
        out[:3, 3] = self.point_from_si(pos)
        return out

    def force_from_si(self, f) -> np.ndarray:
        """Newtons in the SI world -> stage force units (kgpu * mpu / s^2) in the stage frame."""
        return rotate(quat_conj(self.to_si_quat), np.asarray(f, float)) / (self.meters_per_unit * self.kilograms_per_unit)

    def vectors_from_si(self, vectors, scale: float = 1.0) -> np.ndarray:
        """(N, 3) SI world directions -> stage axes, divided by `scale` (e.g. metersPerUnit for points)."""
        return (np.asarray(vectors, float) @ self.to_si_rotation) / scale

    def length_from_si(self, metres: float) -> float:
        return float(metres) / self.meters_per_unit


def quat_xyzw_to_wxyz(q_xyzw) -> np.ndarray:
    """PhysX, the tensor API and ovphysx give quaternions as (x, y, z, w); the core uses (w, x, y, z)."""
    x, y, z, w = (float(v) for v in q_xyzw)
    return np.array([w, x, y, z])
