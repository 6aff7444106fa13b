"""The FET028 rig: the gripper turned so its site's forward axis points down (-Z) and its grip line runs along X, its
base on a vertical gantry (a driven prismatic joint from the rig's anchor), the test object on the floor below the
grasp centre. Planned from the asset as the runtime builds it alone (PhysicsTest.scene_reads_runtime_model): its lowest
point from the shapes the runtime gives contacts (a trigger volume or a collisionEnabled = false shape hanging below the
fingertips touches nothing, so it neither stops the descent nor places the object), the gantry damped for the
gripper's mass as the runtime computed it; authored by rig_usd.RigAuthor into a core.rig layer (SI).

Which gripper: the first complete gripper site (core.markers); its base is the rigid body the site hangs under; its jaws
are the driven joints (not mimic followers) beyond that body. The FET028 convention decides open and closed: a jaw's
lower limit is open, its upper limit closed (NVIDIA follows it whenever the grip line is authored, as it must be here).
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

import numpy as np

from ....core.geometry import box_corners, collider_world_aabb, compose, inverse
from ....core.rig import RIG_ROOT, build_rig
from ...driven.jacobian_ik.chain import tree_from
from ..rig_usd import ANCHOR, RigAuthor, moved_pose, rotation_taking

if TYPE_CHECKING:
    from ....core.asset_model import AssetModel, JointInfo
    from ....core.markers import GripperSite
    from .gripper_config import GripperConfig

GANTRY = f"{RIG_ROOT}/gantry_z"
OBJECT = f"{RIG_ROOT}/test_object"
DOWN, ALONG = np.array([0.0, 0.0, -1.0]), np.array([1.0, 0.0, 0.0])


@dataclass
class GripperPlan:
    site: "GripperSite"
    base: str
    jaws: list[str]  # joint paths, commanded from lower (open) to upper (closed)
    bodies: list[str]  # the gripper's bodies (the asset's)
    shape: str  # sphere, cube
    size: float  # m
    mass: float  # kg
    heuristic: bool
    object_z: float  # the object's centre at spawn (m)
    descent: float  # gantry travel down to the grasp depth (m, negative)
    site_local: tuple[np.ndarray, np.ndarray]  # the site in the base body's frame
    disabled_welds: list[str] = field(default_factory=list)


def complete_site(asset: "AssetModel") -> "GripperSite | None":
    return next((s for s in asset.markers.gripper_sites if not s.problems), None)


def jaw_joints(asset: "AssetModel", base: str) -> list["JointInfo"]:
    """The driven joints beyond the base (mimic followers follow their leader; passive joints are dragged)."""
    joints = [link.joint for link in tree_from(asset, base).values()]
    return [j for j in joints if j.is_dof and j.enabled and not j.is_mimic_follower and j.drive is not None
            and j.drive.active]


def plan_rig(asset: "AssetModel", site: "GripperSite", config: "GripperConfig", shape: str,
             rotation: np.ndarray | None = None) -> tuple[GripperPlan, np.ndarray, np.ndarray]:
    """(the plan, the asset's rotation, its translation): site down, grip line along X, the gripper's lowest point
    approach_clearance above the object."""
    t = config.thresholds_for(site.max_opening, site.max_payload)
    base = site.body or ""
    rotation = rotation if rotation is not None else rotation_taking((site.forward, site.grip_direction), (DOWN, ALONG))
    centre = rotation @ site.center
    corners = [box_corners(*box) for c in asset.colliders.values() if c.body in asset.bodies and c.collides
               and (box := collider_world_aabb(c)) is not None]  # what can touch the object or the floor
    lowest = min((float((rotation @ p)[2]) for pts in corners for p in pts), default=float(centre[2])) - float(centre[2])
    object_z = t.object_size / 2 + config.spawn_clearance
    site_z = object_z + t.object_size / 2 + config.approach_clearance - lowest
    translation = np.array([0.0, 0.0, site_z]) - centre
    descent = max(object_z - site_z, config.floor_clearance - lowest - site_z)
    base_pose = asset.bodies[base].world_pose
    site_local = compose(*inverse(base_pose.pos, base_pose.quat), site.pose.pos, site.pose.quat)
    plan = GripperPlan(site, base, [j.path for j in jaw_joints(asset, base)], list(asset.bodies), shape, t.object_size,
                       t.object_mass, t.payload_from_heuristic, object_z, descent, site_local)
    return plan, rotation, translation


def build_gripper_rig(asset: "AssetModel", plan: GripperPlan, rotation: np.ndarray, translation: np.ndarray,
                      config: "GripperConfig"):
    """The rig (core.rig.TestRig): anchor, gantry, the moved gripper, the object."""
    base_pose = moved_pose((asset.bodies[plan.base].world_pose.pos, asset.bodies[plan.base].world_pose.quat),
                           rotation, translation)
    moving = sum(b.built_mass_properties.mass for b in asset.dynamic_bodies if b.built_mass_properties) + plan.mass
    damping = 2.0 * math.sqrt(config.gantry_stiffness * max(moving, 1e-3))  # critical for what the gantry carries
    identity = np.array([1.0, 0.0, 0.0, 0.0])

    def author(stage) -> None:
        rig = RigAuthor(stage, asset)
        rig.move_asset(rotation, translation)
        plan.disabled_welds = rig.disable_world_welds(set(plan.bodies))
        rig.anchor(base_pose[0])
        rig.take_articulation_root(set(plan.bodies))
        rig.prismatic(GANTRY, ANCHOR, (base_pose[0], identity), plan.base, base_pose, "Z",
                      (plan.descent - config.lift_height, config.lift_height + config.shake_amplitude + config.lift_height),
                      config.gantry_stiffness, damping, config.gantry_max_force)
        rig.body(OBJECT, (0.0, 0.0, plan.object_z), mass=plan.mass, inertia=0.0)
        rig.shape(OBJECT, "collider", plan.shape, plan.size, friction=config.object_friction, combine="min")

    return build_rig(asset, author, "gripper_rig")
