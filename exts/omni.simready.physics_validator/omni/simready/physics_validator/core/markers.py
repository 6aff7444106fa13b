"""What an asset says about how it is used, besides its physics: the SimReady markers the manipulation tests read.

- **Gripper sites** (FET_028, requirements GR.001-004): an Xform marked `simready:attactment:socketType = "Gripper"`
  (NVIDIA's spelling; `attachment` is read too) or carrying `IsaacSiteAPI`, with child BasisCurves
  `gripper_forward_axis` (the approach direction) and `gripper_grip_line` (pad to pad, fully open), and
  `gripper_maxOpening` / `custom:maxOpening` (m) > 0; `gripper_maxPayload` / `custom:maxPayload` (kg) optional.
- **Grasp lines** (FET_005, GSP.001): `grasp_identifier_*` prims (BasisCurves, or an Xform with a curve under it):
  the segment a parallel jaw closes along, and the rigid body it belongs to.
- **Converter sites**: prims carrying `MjcSiteAPI` or `NewtonSiteAPI`, as mujoco-usd-converter writes an MJCF `<site>`
  (robosuite's `grip_site`, `ft_frame`, ...): a frame on a rigid body and nothing more. The schema says it is a site,
  never what for; whether one is a grasp centre is the geometry's to say (it lies between the fingers' colliders:
  manipulation/gripper/jaw_geometry.py), never its name.
- **Robot links** (`isaac:physics:robotLinks`, the Isaac robot schema): the kinematic chain base -> tip, whose last
  entry is the end effector; and **tool frames**: an Xform named tool0, flange, tcp, ee_link, tool, end_effector or
  coupling directly under a rigid body (NVIDIA's `ee_discovery`).

Everything is in the SI Z-up world of the asset model (core/asset_model.py); `core/usd/markers.py` reads them.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from .pose import Pose


@dataclass
class GripperSite:
    path: str
    pose: Pose  # world
    forward: np.ndarray  # unit approach direction, world
    grip_line: tuple[np.ndarray, np.ndarray]  # pad to pad when fully open, world points (m)
    max_opening: float  # m
    max_payload: float | None  # kg, None when not authored
    body: str | None  # the rigid body the site hangs under (nearest rigid-body ancestor)
    problems: list[str] = field(default_factory=list)  # what keeps it from being usable (empty: complete)

    @property
    def grip_direction(self) -> np.ndarray:
        d = self.grip_line[1] - self.grip_line[0]
        n = float(np.linalg.norm(d))
        return d / n if n > 1e-12 else np.array([1.0, 0.0, 0.0])

    @property
    def center(self) -> np.ndarray:
        """The grasp centre: the site's origin (NVIDIA's grasp centre between the pads)."""
        return np.asarray(self.pose.pos, float)


@dataclass
class GraspLine:
    path: str
    p0: np.ndarray  # world points (m)
    p1: np.ndarray
    body: str | None  # the rigid body it is authored under, or the one whose bounds hold most of it

    @property
    def midpoint(self) -> np.ndarray:
        return (self.p0 + self.p1) / 2.0

    @property
    def length(self) -> float:
        return float(np.linalg.norm(self.p1 - self.p0))


@dataclass
class ToolFrame:
    path: str
    body: str  # the rigid body it is fixed to
    local: Pose  # in the body's frame (m)


@dataclass
class SiteFrame:
    """A converter's site (MjcSiteAPI / NewtonSiteAPI): a frame fixed to a rigid body."""

    path: str
    pose: Pose  # world
    body: str | None  # the rigid body it hangs under (nearest rigid-body ancestor)
    schemas: list[str] = field(default_factory=list)  # the site schemas it carries


@dataclass
class AssetMarkers:
    gripper_sites: list[GripperSite] = field(default_factory=list)
    grasp_lines: list[GraspLine] = field(default_factory=list)
    robot_links: list[str] = field(default_factory=list)  # isaac:physics:robotLinks, base -> tip
    tool_frames: list[ToolFrame] = field(default_factory=list)
    site_frames: list[SiteFrame] = field(default_factory=list)  # converter sites (MjcSiteAPI / NewtonSiteAPI)
