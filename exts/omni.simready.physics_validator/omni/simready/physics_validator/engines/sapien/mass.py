"""Mass properties for the SAPIEN engine, computed the UsdPhysics way (pure numpy).

PhysX needs mass, centre of mass and principal inertia per body; USD gives them only
partially. UsdPhysics rules: a body mass > 0 wins; otherwise each collider contributes its own
mass, or density x volume with density from the collider, the body, the collider's material,
then 1000 kg/m^3. Authored centre of mass, diagonal inertia and principal axes are kept; a mass
without inertia gets the shapes' inertia scaled to that mass. We compute this ourselves (instead
of letting PhysX do it) so the effective mass is known and can be reported.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from ...core.asset_model import BodyInfo, ColliderInfo
from ...core.geometry import quat_to_matrix

DEFAULT_DENSITY = 1000.0  # kg/m^3, the UsdPhysics / omni.physx default
_IDENTITY = np.array([1.0, 0.0, 0.0, 0.0])
_CANONICAL_COVARIANCE = np.array([[2.0, 1.0, 1.0], [1.0, 2.0, 1.0], [1.0, 1.0, 2.0]]) / 120.0


# A body with neither mass nor collider: omni.physx gives it 1 kg with "small sphere approximated inertia", read back
# from ovphysx as 0.004 kg m^2 on a metre stage (a 0.1 m sphere); unit inertia made a massless hand 250x heavier to
# turn on sapien (robosuite iiwa joint_7 overshoot 89 % vs 17 %).
DEFAULT_INERTIA = 0.004


@dataclass
class MassProperties:
    """Mass, centre of mass and inertia tensor about the centre of mass, in one frame."""

    mass: float
    com: np.ndarray
    inertia: np.ndarray  # 3x3

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


def convex_properties(vertices: np.ndarray, triangles: np.ndarray, density: float) -> MassProperties | None:
    """Mass properties of a closed, outward-wound triangle surface (a convex hull) by tetrahedra."""
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


def collider_density(collider: ColliderInfo, body: BodyInfo) -> float:
    """The first positive density of the collider, the body, the collider's material; else the default."""
    for value in (collider.density, body.density, collider.material.density if collider.material else None):
        if value is not None and value > 0:
            return float(value)
    return DEFAULT_DENSITY


def body_mass(body: BodyInfo, parts, warn) -> tuple[MassProperties, np.ndarray, np.ndarray]:
    """(mass properties, principal diagonal inertia, principal axes wxyz) of a body from its shapes'
    unit-density parts [(collider, MassProperties in the body frame)] and what the body authors."""
    by_collider: dict[str, list] = {}
    for collider, unit in parts:
        by_collider.setdefault(collider.path, []).append((collider, unit))
    scaled = []
    for items in by_collider.values():
        collider = items[0][0]
        pieces = [unit.scaled(collider_density(collider, body)) for _, unit in items]
        if collider.mass is not None and collider.mass > 0:
            total = sum(p.mass for p in pieces)
            pieces = [p.scaled(collider.mass / total) for p in pieces] if total > 0 else pieces
        scaled.extend(pieces)
    shapes = combine(scaled)
    if body.mass is not None and body.mass > 0:
        if shapes is not None:
            props = shapes.scaled(body.mass / shapes.mass)
        else:
            props = MassProperties(float(body.mass), np.zeros(3), np.eye(3) * body.mass * 0.01)
            if body.diagonal_inertia is None:
                warn(f"{body.path}: mass without colliders or inertia; inertia set to 0.01*mass (kg m^2)")
    elif shapes is not None:
        props = shapes
    else:
        props = MassProperties(1.0, np.zeros(3), np.eye(3) * DEFAULT_INERTIA)
        warn(f"{body.path}: no mass and no collider to compute it from; 1 kg and {DEFAULT_INERTIA:g} kg m^2 used "
             "(as omni.physx: a small sphere)")
    if body.center_of_mass is not None and np.all(np.isfinite(body.center_of_mass)):
        props = shift_inertia(props, np.asarray(body.center_of_mass, float))
    if body.diagonal_inertia is not None and np.all(np.asarray(body.diagonal_inertia) > 0):
        diag = np.asarray(body.diagonal_inertia, float)
        axes = np.asarray(body.principal_axes, float) if body.principal_axes is not None else _IDENTITY
    else:
        diag, axes = principal_frame(props.inertia)
    diag = np.maximum(diag, max(float(diag.max()) * 1e-6, 1e-12))
    return props, diag, axes


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
