"""A body's mass, centre of mass and inertia as one record (`MassProperties`), and the solids they come from (pure
numpy): what a runtime computes for each body (core.built_model.BuiltModel.mass_properties) and what UsdPhysics's
rules make of the authored shapes (core.usd_mass: the sapien engine gives PhysX those, from_asset states them).
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from .geometry import quat_to_matrix

_CANONICAL_COVARIANCE = np.array([[2.0, 1.0, 1.0], [1.0, 2.0, 1.0], [1.0, 1.0, 2.0]]) / 120.0



@dataclass
class MassProperties:
    """Mass (kg), centre of mass (m) and inertia tensor about the centre of mass (kg m^2, 3x3), in one frame (a body's
    own frame where a body's are meant)."""

    mass: float
    com: np.ndarray
    inertia: np.ndarray  # 3x3

    @property
    def principal_moments(self) -> np.ndarray:
        """The principal moments of inertia (kg m^2), about `principal_axes`."""
        return principal_frame(self.inertia)[0]

    @property
    def principal_axes(self) -> np.ndarray:
        """The principal axes' rotation in this record's frame (quaternion wxyz)."""
        return principal_frame(self.inertia)[1]

    def transformed(self, pos, quat) -> "MassProperties":
        rot = quat_to_matrix(quat)
        return MassProperties(self.mass, rot @ self.com + np.asarray(pos, float), rot @ self.inertia @ rot.T)

    def scaled(self, factor: float) -> "MassProperties":
        return MassProperties(self.mass * factor, self.com.copy(), self.inertia * factor)


def _axis_inertia(axis: str, i_axis: float, i_perp: float) -> np.ndarray:
    diag = np.full(3, i_perp)
    diag["XYZ".index(axis)] = i_axis
    return np.diag(diag)


def box_properties(half_extents, density: float) -> MassProperties:
    hx, hy, hz = np.asarray(half_extents, float)
    mass = density * 8.0 * hx * hy * hz
    inertia = mass / 3.0 * np.diag([hy * hy + hz * hz, hx * hx + hz * hz, hx * hx + hy * hy])
    return MassProperties(mass, np.zeros(3), inertia)


def sphere_properties(radius: float, density: float) -> MassProperties:
    mass = density * 4.0 / 3.0 * math.pi * radius**3
    return MassProperties(mass, np.zeros(3), np.eye(3) * 0.4 * mass * radius * radius)


def cylinder_properties(radius: float, half_height: float, axis: str, density: float) -> MassProperties:
    height = 2.0 * half_height
    mass = density * math.pi * radius * radius * height
    i_axis = 0.5 * mass * radius * radius
    i_perp = mass * (3.0 * radius * radius + height * height) / 12.0
    return MassProperties(mass, np.zeros(3), _axis_inertia(axis, i_axis, i_perp))


def capsule_properties(radius: float, half_height: float, axis: str, density: float) -> MassProperties:
    height = 2.0 * half_height
    m_cyl = density * math.pi * radius * radius * height
    m_caps = density * 4.0 / 3.0 * math.pi * radius**3  # both hemispheres
    i_axis = 0.5 * m_cyl * radius * radius + 0.4 * m_caps * radius * radius
    i_perp = m_cyl * (height * height / 12.0 + radius * radius / 4.0) + m_caps * (
        0.4 * radius * radius + height * height / 4.0 + 3.0 * height * radius / 8.0
    )
    return MassProperties(m_cyl + m_caps, np.zeros(3), _axis_inertia(axis, i_axis, i_perp))


def cone_properties(radius: float, half_height: float, axis: str, density: float) -> MassProperties:
    """A solid cone along `axis`, its apex at +half_height (UsdGeom.Cone): the centre of mass a quarter of its height
    above the base."""
    height = 2.0 * half_height
    mass = density * math.pi * radius * radius * height / 3.0
    com = np.zeros(3)
    com["XYZ".index(axis)] = -half_height / 2.0
    inertia = _axis_inertia(axis, 0.3 * mass * radius * radius, mass * (0.15 * radius * radius + 0.0375 * height * height))
    return MassProperties(mass, com, inertia)


def convex_properties(vertices: np.ndarray, triangles: np.ndarray, density: float) -> MassProperties | None:
    """Mass properties of a closed, outward-wound triangle surface (a convex hull, or any closed mesh) by tetrahedra;
    None for a surface that encloses no volume (open, flat or inward-wound)."""
    vertices = np.asarray(vertices, float)
    ref = vertices.mean(axis=0)
    a = vertices[triangles[:, 0]] - ref
    b = vertices[triangles[:, 1]] - ref
    c = vertices[triangles[:, 2]] - ref
    dets = np.einsum("ij,ij->i", a, np.cross(b, c))
    volume = dets.sum() / 6.0
    if not np.isfinite(volume) or volume <= 1e-15:
        return None
    com_rel = (dets[:, None] * (a + b + c)).sum(axis=0) / 4.0 / 6.0 / volume
    mats = np.stack([a, b, c], axis=2)  # columns are the tetrahedron edges
    cov = np.einsum("n,nij,jk,nlk->il", dets, mats, _CANONICAL_COVARIANCE, mats)
    mass = density * volume
    cov *= density
    # covariance about the reference point -> about the centre of mass
    cov -= mass * np.outer(com_rel, com_rel)
    inertia = np.trace(cov) * np.eye(3) - cov
    return MassProperties(mass, com_rel + ref, inertia)


def combine(parts: list[MassProperties]) -> MassProperties | None:
    parts = [p for p in parts if p.mass > 0]
    if not parts:
        return None
    mass = sum(p.mass for p in parts)
    com = np.asarray(sum(p.mass * p.com for p in parts) / mass)
    inertia = np.zeros((3, 3))
    for p in parts:
        d = p.com - com
        inertia += p.inertia + p.mass * (np.dot(d, d) * np.eye(3) - np.outer(d, d))
    return MassProperties(mass, com, inertia)


def shift_inertia(props: MassProperties, new_com: np.ndarray) -> MassProperties:
    """The same body with its centre of mass moved to `new_com` (an authored centre of mass)."""
    d_old = props.com - new_com
    # inertia about the new point, then treated as the inertia about the (authored) com
    inertia = props.inertia + props.mass * (np.dot(d_old, d_old) * np.eye(3) - np.outer(d_old, d_old))
    return MassProperties(props.mass, np.asarray(new_com, float), inertia)


def principal_frame(inertia: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Diagonal inertia and the rotation (quaternion wxyz) of its principal axes."""
    inertia = 0.5 * (inertia + inertia.T)
    values, vectors = np.linalg.eigh(inertia)
    if np.linalg.det(vectors) < 0:
        vectors[:, 2] *= -1.0
    return np.maximum(values, 0.0), matrix_to_quat(vectors)


def matrix_to_quat(m: np.ndarray) -> np.ndarray:
    trace = m[0, 0] + m[1, 1] + m[2, 2]
    if trace > 0:
        s = math.sqrt(trace + 1.0) * 2.0
        q = [0.25 * s, (m[2, 1] - m[1, 2]) / s, (m[0, 2] - m[2, 0]) / s, (m[1, 0] - m[0, 1]) / s]
    elif m[0, 0] > m[1, 1] and m[0, 0] > m[2, 2]:
        s = math.sqrt(1.0 + m[0, 0] - m[1, 1] - m[2, 2]) * 2.0
        q = [(m[2, 1] - m[1, 2]) / s, 0.25 * s, (m[0, 1] + m[1, 0]) / s, (m[0, 2] + m[2, 0]) / s]
    elif m[1, 1] > m[2, 2]:
        s = math.sqrt(1.0 + m[1, 1] - m[0, 0] - m[2, 2]) * 2.0
        q = [(m[0, 2] - m[2, 0]) / s, (m[0, 1] + m[1, 0]) / s, 0.25 * s, (m[1, 2] + m[2, 1]) / s]
    else:
        s = math.sqrt(1.0 + m[2, 2] - m[0, 0] - m[1, 1]) * 2.0
        q = [(m[1, 0] - m[0, 1]) / s, (m[0, 2] + m[2, 0]) / s, (m[1, 2] + m[2, 1]) / s, 0.25 * s]
    quat = np.array(q)
    return quat / np.linalg.norm(quat)
