"""A tilted ground: a static box whose top face is an inclined plane, and the geometry tests judge against it.

The ramp descends toward +Y of the SI Z-up world: its top face is the plane through (0, top_y, top_height) with
the upward unit normal n = (0, sin a, cos a), so the surface height is z = top_height - tan(a) (y - top_y). It
runs from y = top_y down to the floor (z = floor_height). Engines build the box (`box_center`, `box_quat`,
`box_half_extents`); tests measure signed distances to the plane (`signed_distance`), which are exact for any
geometry (an AABB can only bound them). Pure numpy: no engine, no USD.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np


@dataclass(frozen=True)
class RampSpec:
    """A ramp of `angle_deg` whose top edge is at (y = top_y, z = top_height), `width` wide along X, with a physics
    material; the box under the surface is `thickness` thick."""

    angle_deg: float = 45.0
    top_height: float = 1.0  # m above floor_height
    top_y: float = 0.0  # m
    width: float = 2.0  # m along X
    thickness: float = 0.1  # m
    floor_height: float = 0.0  # m
    static_friction: float = 0.5
    dynamic_friction: float = 0.4
    restitution: float = 0.0

    @property
    def angle(self) -> float:
        return math.radians(self.angle_deg)

    @property
    def normal(self) -> np.ndarray:
        """The surface's upward unit normal."""
        return np.array([0.0, math.sin(self.angle), math.cos(self.angle)])

    @property
    def downhill(self) -> np.ndarray:
        """Unit vector along the surface, pointing down the slope."""
        return np.array([0.0, math.cos(self.angle), -math.sin(self.angle)])

    @property
    def top_point(self) -> np.ndarray:
        return np.array([0.0, self.top_y, self.floor_height + self.top_height])

    @property
    def bottom_y(self) -> float:
        """Where the surface meets the floor."""
        return self.top_y + self.top_height / math.tan(self.angle)

    @property
    def length(self) -> float:
        """Length of the surface along the slope (m)."""
        return self.top_height / math.sin(self.angle)

    def surface_z(self, y) -> np.ndarray:
        return self.floor_height + self.top_height - math.tan(self.angle) * (np.asarray(y, float) - self.top_y)

    def signed_distance(self, points) -> np.ndarray:
        """Distance of each world point from the surface plane along its normal (m): > 0 above, < 0 inside."""
        return (np.asarray(points, float) - self.top_point) @ self.normal

    def covers(self, lo, hi) -> bool:
        """Whether the XY footprint of the box [lo, hi] lies over the ramp's surface."""
        return (self.top_y <= float(lo[1]) and float(hi[1]) <= self.bottom_y
                and -self.width / 2 <= float(lo[0]) and float(hi[0]) <= self.width / 2)

    # -- the box engines build ---------------------------------------------------------------------
    @property
    def box_half_extents(self) -> np.ndarray:
        return np.array([self.width / 2, self.length / 2, self.thickness / 2])

    @property
    def box_center(self) -> np.ndarray:
        middle = self.top_point + self.downhill * (self.length / 2)
        return middle - self.normal * (self.thickness / 2)

    @property
    def box_quat(self) -> np.ndarray:
        """(w, x, y, z): a rotation about X by -angle turns the box's +Z face into the surface normal."""
        half = -self.angle / 2
        return np.array([math.cos(half), math.sin(half), 0.0, 0.0])


def ramp_for(extent: float, angle_deg: float = 45.0, min_length: float = 2.0, length_factor: float = 6.0,
             floor_height: float = 0.0, static_friction: float = 0.5, dynamic_friction: float = 0.4,
             restitution: float = 0.0) -> RampSpec:
    """A ramp sized for an asset whose largest horizontal extent is `extent` (m): at least `min_length` and
    `length_factor` x the extent along the slope, 4 x the extent (at least 2 m) wide, its top edge at y = 0."""
    length = max(min_length, length_factor * max(extent, 0.0))
    angle = math.radians(angle_deg)
    return RampSpec(angle_deg=angle_deg, top_height=length * math.sin(angle), top_y=0.0,
                    width=max(2.0, 4.0 * extent), thickness=max(0.1, 0.05 * length), floor_height=floor_height,
                    static_friction=static_friction, dynamic_friction=dynamic_friction, restitution=restitution)


def placement_on(ramp: RampSpec, lo, hi, clearance: float, margin: float) -> tuple[tuple[float, float], float]:
    """((x, y) of the bounds' centre, z of the bounds' bottom) that put an asset whose bounds are [lo, hi] over the
    ramp, its footprint `margin` downhill of the top edge and its bottom `clearance` above the highest point of the
    surface under that footprint."""
    half_y = (float(hi[1]) - float(lo[1])) / 2
    y_center = ramp.top_y + margin + half_y
    highest = float(ramp.surface_z(y_center - half_y))
    return (0.0, y_center), highest + clearance
