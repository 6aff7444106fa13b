"""RB.007 (rigid-body mass) as the runtime built each body, judged before any release: a centre of mass outside the
body's colliders' box, an inertia far below what its colliders give at its mass, and (to name why a release did not
settle) one far above it.

Pure reads of the adopted asset model: each body's mass, centre of mass and inertia are the runtime's
(`BodyInfo.built_mass_properties`, core.runtime_model.adopt); what its shape gives is the plausibility checks' (the
colliding shapes as one uniform solid at the runtime mass: core.plausibility.mass, which `fix --shape-inertia`
proposes). The inertia is compared by its trace (twice the polar moment about the centre of mass: independent of the
axes either is stated in): a 5 cm cube given 1/20 of its shape's inertia spun 14 deg off a flat 10 cm drop on physx
and never stopped turning on newton; at 1/10 both settled as the solid cube (docs/tests/ground_stability.md).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

import numpy as np

from ....core.geometry import collider_points
from ....core.plausibility.mass import shape_inertia_at, shape_properties
from ....core.pose import IDENTITY_QUAT
from .config import StabilityThresholds

if TYPE_CHECKING:
    from ....core.asset_model import AssetModel

_AT_ORIGIN = (np.zeros(3), np.asarray(IDENTITY_QUAT, float))


@dataclass(frozen=True)
class BodyMass:
    """One body's mass properties as the runtime built them, beside its colliders."""

    body: str
    mass: float  # kg
    com_outside: float  # m the centre of mass lies outside the colliders' box in the body frame (0: inside)
    box_extent: float  # the largest extent of that box (m)
    inertia_ratio: float | None  # trace of its inertia / trace of its colliders' solid at the same mass (None: none)

    def com_limit(self, thresholds: StabilityThresholds) -> float:
        """How far outside its box the centre of mass may be (m)."""
        return thresholds.com_outside_fraction * self.box_extent


def body_masses(asset: "AssetModel", bodies: list[str]) -> list[BodyMass]:
    """The judged bodies that have both mass properties from the runtime and colliders to compare them with."""
    out = []
    for path in bodies:
        body = asset.bodies.get(path)
        props = body.built_mass_properties if body is not None else None
        corners = collider_points(asset, path, _AT_ORIGIN)
        if props is None or not len(corners) or not props.mass > 0:
            continue
        lo, hi = corners.min(axis=0), corners.max(axis=0)
        com = np.asarray(props.com, float)
        outside = float(np.linalg.norm(np.maximum(0.0, np.maximum(lo - com, com - hi))))
        out.append(BodyMass(path, float(props.mass), outside, float((hi - lo).max()), _inertia_ratio(asset, body, props)))
    return out


def _inertia_ratio(asset: "AssetModel", body, props) -> float | None:
    shape = shape_properties(asset, body)
    if shape is None or not shape.mass > 0:
        return None
    shape_trace = float(np.trace(shape_inertia_at(shape, props.mass).inertia))
    return float(np.trace(np.asarray(props.inertia, float))) / shape_trace if shape_trace > 0 else None


def com_outside(masses: list[BodyMass], thresholds: StabilityThresholds) -> list[BodyMass]:
    """The bodies whose centre of mass lies further outside their colliders' box than the limit, worst first."""
    return sorted((m for m in masses if m.com_outside > m.com_limit(thresholds)),
                  key=lambda m: -m.com_outside / max(m.box_extent, 1e-9))


def inertia_too_small(masses: list[BodyMass], thresholds: StabilityThresholds) -> list[BodyMass]:
    return sorted((m for m in masses if m.inertia_ratio is not None and m.inertia_ratio < thresholds.min_inertia_ratio),
                  key=lambda m: m.inertia_ratio or 0.0)


def inertia_too_large(masses: list[BodyMass], thresholds: StabilityThresholds) -> list[BodyMass]:
    return sorted((m for m in masses if m.inertia_ratio is not None and m.inertia_ratio > thresholds.max_inertia_ratio),
                  key=lambda m: -(m.inertia_ratio or 0.0))
