"""joint_movement's probe of one joint, planned from the asset model before the engine exists: which joints, which way
is open, how fast, what drive, and how far the joint should get. Pure: reads the AssetModel only.

Every selected joint gets a drive of the test's own, critically damped at probe_frequency_hz on the joint's estimated
inertia (stiffness = I w^2, damping = 2 I w), holding it at its rest position; the test then moves one joint's
position target toward its open end at the probe speed, the others held. Sized to the bodies, a heavy door and a
light latch follow the moving command alike. The inertia estimate uses authored masses, else the colliders' box
volume at the authored density (1000 kg/m^3 when none): an overestimate, which only makes the probe firmer.
Authored joint friction (the largest static friction effort the asset spells, core/usd/spellings.py) would hold such a
drive at rest (the Allegro hand's URDF gives its 10 g fingers 5-12 N m): the stiffness is raised so that a lag of
friction_lag_fraction x the clear travel pushes through it, and the force cap carries the friction on top.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import TYPE_CHECKING

import numpy as np

from ....core.geometry import collider_local_extent, quat_to_matrix
from ....core.scene import DriveOverride
from ...driven.kinematics import joint_axis_world, moved_bodies
from ....core.codes import ExclusionCode
from ...driven.selection import EXCLUSION_REASONS, Exclusion, JointSelection
from ....core.usd_mass import DEFAULT_DENSITY

if TYPE_CHECKING:
    from ....core.asset_model import AssetModel, JointInfo
    from .config import JointMovementConfig



@dataclass(frozen=True)
class Probe:
    joint: str  # path
    direction: float  # +1 / -1: toward the open end (+1 without limits)
    rest: float  # where the joint starts (rad or m)
    open_end: float | None  # the limit it is pushed toward (None: no limits)
    speed: float  # commanded speed (rad/s or m/s, positive)
    distance: float  # how far the command goes (rad or m): to the open end, or what the speed covers
    expected_travel: float  # how far it should get in the window (rad or m)
    inertia: float  # estimated effective inertia (kg m^2 or kg)
    drive: DriveOverride
    friction: float = 0.0  # authored static friction effort the probe pushes through (N m or N)
    snaps: bool = False  # the authored position lies outside the limits: the joint snaps to its range first

    def command(self, elapsed: float) -> float:
        """The position command `elapsed` seconds into the probe: from rest toward the open end at the probe speed."""
        return self.rest + self.direction * min(self.speed * elapsed, self.distance)


def movable_joints(asset: "AssetModel", simulated=None) -> JointSelection:
    """Every enabled revolute or prismatic joint, driven or not (the probe brings its own drive); left out, with the
    driven family's reasons: multi-axis joints, mimic followers (their reference moves them), loop closers, and joints
    the engine does not simulate. A locked joint (lower = upper) is probed as if it had no limits: it cannot move,
    which is the finding (a part meant to be rigid takes a FixedJoint)."""
    simulated = None if simulated is None else set(simulated)
    out = JointSelection()
    for joint in asset.joints.values():
        if joint.type in ("fixed", "distance"):
            continue
        code = None
        if joint.type not in ("revolute", "prismatic"):
            code = ExclusionCode.UNSUPPORTED_TYPE
        elif not joint.enabled:
            code = ExclusionCode.DISABLED
        elif joint.is_mimic_follower:
            code = ExclusionCode.MIMIC_FOLLOWER
        elif joint.loop_closing:
            code = ExclusionCode.LOOP_CLOSING
        elif simulated is not None and joint.path not in simulated:
            code = ExclusionCode.NOT_SIMULATED
        if code is None:
            out.tested.append(joint)
        else:
            out.excluded.append(Exclusion(joint.name, joint.path, code, EXCLUSION_REASONS[code]))
    return out


def plan_probe(asset: "AssetModel", joint: "JointInfo", cfg: "JointMovementConfig") -> Probe:
    thresholds = cfg.thresholds_for(joint)
    baseline = thresholds.baseline_speed
    rest = joint.joint_state_position if joint.joint_state_position is not None else 0.0
    authored = rest
    lower, upper = joint.lower, joint.upper
    if joint.is_locked:  # lower = upper: expected to move like a joint without limits, which it cannot
        open_end, distance, direction = upper, math.inf, 1.0
    elif lower is not None and upper is not None and math.isfinite(lower) and math.isfinite(upper):
        rest = min(max(rest, lower), upper)
        open_end = upper if abs(upper - rest) >= abs(lower - rest) else lower
        distance = abs(open_end - rest)
        direction = 1.0 if open_end >= rest else -1.0
    else:
        open_end, distance, direction = None, math.inf, 1.0
    speed = max(baseline, distance / cfg.travel_seconds) if math.isfinite(distance) else baseline
    reachable = speed
    if joint.velocity_limit is not None and math.isfinite(joint.velocity_limit) and joint.velocity_limit > 0:
        reachable = min(speed, joint.velocity_limit)  # the solver caps it (articulation joints)
    omega = 2 * math.pi * cfg.probe_frequency_hz
    window = max(cfg.drive_seconds - 2.0 / omega, 0.0)  # the drive lags the command by about 2 / omega
    command = min(distance, speed * cfg.drive_seconds)
    expected = min(command, reachable * window)
    inertia = max(effective_inertia(asset, joint), 1e-6)
    friction = joint_friction(joint)
    stiffness = max(inertia * omega * omega, friction / (cfg.friction_lag_fraction * thresholds.clear_travel))
    reach = command if math.isfinite(command) and command > 0 else 2 * math.pi
    drive = DriveOverride(stiffness=stiffness, damping=2 * math.sqrt(stiffness * inertia),  # critically damped
                          max_force=cfg.force_factor * stiffness * reach + friction, target_position=rest,
                          target_velocity=0.0)
    snaps = abs(authored - rest) > 1e-9
    return Probe(joint.path, direction, rest, open_end, speed, command, expected, inertia, drive, friction, snaps)


def joint_friction(joint: "JointInfo") -> float:
    """The largest static friction effort the asset authors on the joint (N m or N; 0 when none): which spelling a
    runtime reads is its business, and the largest only makes the probe firmer."""
    values = [float(s.value) for s in joint.spellings.get("static_friction", ())
              if isinstance(s.value, (int, float)) and math.isfinite(s.value) and s.value > 0]
    return max(values, default=0.0)


def effective_inertia(asset: "AssetModel", joint: "JointInfo") -> float:
    """The bodies a joint moves, as seen by the joint: their mass (prismatic) or their moment about its axis
    (revolute: m r^2 of each body's centre plus its own extent), at the authored pose."""
    bodies = moved_bodies(asset, joint) or [b for b in (joint.body1, joint.body0) if b in asset.bodies]
    poses = {p: (b.world_pose.pos, b.world_pose.quat) for p, b in asset.bodies.items()}
    axis = joint_axis_world(asset, joint, poses) if joint.is_angular else None
    total = 0.0
    for path in bodies:
        mass, size, centre = _mass_and_size(asset, path)
        if axis is None:
            total += mass
            continue
        point, direction = axis
        rel = centre - point
        radial = rel - (rel @ direction) * direction
        total += mass * (float(radial @ radial) + size * size / 6.0)
    return total


def _mass_and_size(asset: "AssetModel", path: str) -> tuple[float, float, np.ndarray]:
    """(mass in kg, largest extent in m, world centre of mass) of one body: its mass and centre of mass as the runtime
    computed them (BodyInfo.built_mass_properties: the test plans its scene from the runtime's model), the extent of its
    colliders; a model nothing was adopted into: the colliders' boxes at the default density and their centre."""
    body = asset.bodies[path]
    volume, size, centres = 0.0, 0.0, []
    for collider_path in body.colliders:
        collider = asset.colliders.get(collider_path)
        extent = collider_local_extent(collider) if collider is not None else None
        if collider is None or extent is None:
            continue
        span = np.asarray(extent[1], float) - np.asarray(extent[0], float)
        volume += float(np.prod(np.maximum(span, 0.0)))
        size = max(size, float(span.max()))
        centres.append(np.asarray(collider.world_pose.pos, float))
    centre = np.mean(centres, axis=0) if centres else np.asarray(body.world_pose.pos, float)
    props = body.built_mass_properties
    if props is not None:
        pose = body.world_pose
        return float(props.mass), size, np.asarray(pose.pos, float) + quat_to_matrix(pose.quat) @ np.asarray(props.com, float)
    density = DEFAULT_DENSITY  # kg/m^3, UsdPhysics's default
    return max(density * volume, 1e-3), size, centre
