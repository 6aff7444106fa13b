"""grasp_and_lift's rig: the prop on the floor, centred at the origin, and the test's own parallel jaw above it: an
anchor welded to the world, X, Y and Z carriages on driven prismatic joints, a wrist turning about Z, and two fingers on
driven prismatic joints along the wrist's X, each squeezing with the jaw force (thresholds_for) through a box pad of
friction pad_friction combined by 'min'. One articulation rooted at the anchor (rig_usd.py). Planned from the asset as
the runtime builds it alone (PhysicsTest.scene_reads_runtime_model): sized from the shapes the runtime gives contacts
(a trigger volume or a collisionEnabled = false shape around the prop neither sizes the pads nor places the prop:
BodyInfo.colliders' `collides`), pads 0.1 x their box's mean extent thick (5 mm at least), the jaw opening the longest
grasp line plus open_margin; squeezing with the force that holds the prop's mass as the runtime computed it (whichever
MassAPI spelling, or the default density: BodyInfo.built_mass_properties)."""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import TYPE_CHECKING

import numpy as np

from ....core.geometry import collider_world_aabb
from ....core.rig import RIG_ROOT, build_rig
from ..rig_usd import ANCHOR, RigAuthor

if TYPE_CHECKING:
    from ....core.asset_model import AssetModel
    from ....core.markers import GraspLine
    from .config import GraspConfig

CARRIAGES = tuple(f"{RIG_ROOT}/carriage_{a}" for a in "xyz")
SLIDES = tuple(f"{RIG_ROOT}/slide_{a}" for a in "xyz")
WRIST, YAW = f"{RIG_ROOT}/wrist", f"{RIG_ROOT}/yaw"
FINGERS = (f"{RIG_ROOT}/finger_a", f"{RIG_ROOT}/finger_b")
JAWS = (f"{RIG_ROOT}/jaw_a", f"{RIG_ROOT}/jaw_b")
CARRIAGE_MASS, PAD_MASS = 0.5, 0.05  # kg
IDENTITY = np.array([1.0, 0.0, 0.0, 0.0])
TURN_Z = np.array([0.0, 0.0, 0.0, 1.0])  # half a turn about Z: the second finger closes toward -X


@dataclass
class GraspPlan:
    lines: list["GraspLine"]  # moved with the prop
    mass: float  # kg, the prop's moving bodies' as the runtime computed it
    half_open: float  # m: each pad's centre from the wrist, fully open (its joint at 0)
    pad_half: tuple[float, float, float]  # m
    start: np.ndarray  # the wrist's start position
    shift: np.ndarray  # how far the prop was moved (world)
    margin: float  # open_margin (m)
    longest_edge: float  # m

    @property
    def closed(self) -> float:
        """A finger's travel until the pads' inner faces meet at the wrist (its joint's upper limit)."""
        return self.half_open - self.pad_half[0]

    def open_for(self, length: float) -> float:
        """A finger's joint position with its pad's inner face `open_margin` outside a line of `length` (m)."""
        return self.half_open - (length / 2 + self.margin + self.pad_half[0])


def prop_box(asset: "AssetModel"):
    """The world box of the prop's shapes the runtime gives contacts (what a pad or the floor can touch)."""
    boxes = [b for c in asset.colliders.values()
             if c.body in asset.bodies and c.collides and (b := collider_world_aabb(c)) is not None]
    return np.min([b[0] for b in boxes], axis=0), np.max([b[1] for b in boxes], axis=0)


def prop_mass(asset: "AssetModel") -> float:
    """The prop's mass as the runtime computed it (kg): its moving bodies' (BodyInfo.built_mass_properties)."""
    return float(sum(b.built_mass_properties.mass for b in asset.dynamic_bodies if b.built_mass_properties is not None))


def plan_grasp(asset: "AssetModel", config: "GraspConfig") -> GraspPlan:
    lo, hi = prop_box(asset)
    shift = np.array([-(lo[0] + hi[0]) / 2, -(lo[1] + hi[1]) / 2, 0.002 - lo[2]])
    from ....core.markers import GraspLine

    lines = [GraspLine(line.path, line.p0 + shift, line.p1 + shift, line.body) for line in asset.markers.grasp_lines]
    extent = hi - lo
    mass = prop_mass(asset)
    thickness = max(0.005, 0.1 * float(np.prod(np.maximum(extent, 1e-3))) ** (1 / 3))
    face = max(0.01, 0.35 * float(min(extent[0], extent[1], extent[2])))
    half_open = max(line.length for line in lines) / 2 + config.open_margin + thickness
    start = np.array([0.0, 0.0, hi[2] - lo[2] + 0.002 + face + config.open_margin])
    return GraspPlan(lines, mass, half_open, (thickness, face, face), start, shift, config.open_margin,
                     float(extent.max()))


def build_grasp_rig(asset: "AssetModel", plan: GraspPlan, config: "GraspConfig", jaw_force: float):
    moving = 3 * CARRIAGE_MASS + 2 * PAD_MASS + plan.mass
    k = config.gantry_stiffness
    gantry = (k, 2.0 * math.sqrt(k * moving), config.gantry_max_force)
    wrist_inertia = moving * plan.half_open ** 2
    yaw = (k * wrist_inertia, 2.0 * math.sqrt(k * wrist_inertia * wrist_inertia), config.gantry_max_force)
    finger_k = jaw_force / max(config.open_margin, 1e-3)  # the full squeeze short of the closed target
    squeeze = (finger_k, 2.0 * math.sqrt(finger_k * PAD_MASS), jaw_force)
    reach = 2.0  # m of gantry travel each way
    limits = (-reach, reach)

    def author(stage) -> None:
        rig = RigAuthor(stage, asset)
        rig.move_asset(np.eye(3), plan.shift)
        start = (plan.start, IDENTITY)
        rig.anchor(plan.start)
        parent = ANCHOR
        for carriage, slide, axis in zip(CARRIAGES, SLIDES, "XYZ"):
            rig.body(carriage, plan.start, mass=CARRIAGE_MASS)
            rig.prismatic(slide, parent, start, carriage, start, axis, limits, *gantry)
            parent = carriage
        rig.body(WRIST, plan.start, mass=CARRIAGE_MASS)
        rig.joint("revolute", YAW, parent, start, WRIST, start, "Z", (-math.pi, math.pi), yaw)
        for finger, jaw, sign, turn in ((FINGERS[0], JAWS[0], -1.0, IDENTITY), (FINGERS[1], JAWS[1], 1.0, TURN_Z)):
            position = plan.start + np.array([sign * plan.half_open, 0.0, 0.0])
            rig.body(finger, position, mass=PAD_MASS)
            rig.shape(finger, "pad", "cube", 0.0, half=plan.pad_half, friction=config.pad_friction, combine="min")
            rig.prismatic(jaw, WRIST, start, finger, (position, IDENTITY), "X", (0.0, plan.closed), *squeeze,
                          frame_quat=turn)

    return build_rig(asset, author, "grasp_rig")
