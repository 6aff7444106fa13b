"""Write a drive-overlay layer: a new root layer that sublayers a robot and adds DriveAPI gains and velocity limits.

The converted robots in shared/assets carry no UsdPhysics.DriveAPI and no physxJoint:maxJointVelocity,
so the driven-joint tests have nothing to exercise. This tool authors, in a NEW file next to nothing
of the original (the original is only sublayered, never modified):

- an angular/linear DriveAPI on every revolute/prismatic joint that is not a mimic follower and not a
  loop closure, with gains sized from the load the joint carries:
  stiffness = max(200 x gravity torque of the subtree, floor), damping = 2 x sqrt(stiffness x inertia)
  (critically damped), maxForce = the URDF/MJCF effort limit when authored (`urdf:limit:effort`),
  else 5 x the gravity torque;
- `physxJoint:maxJointVelocity` (deg/s for revolute, m/s for prismatic) copied from `newton:velocityLimit`
  when present (with PhysxJointAPI applied);
- drive targets inside the authored range, and (unless --self-collisions) FilteredPairsAPI between links
  whose colliders already overlap at the authored pose (converted meshes often do; they would kick the arm).

Usage: python tools/drive_overlay.py ROBOT.usda OUT.usda [--joints a,b] (only these joint names).
"""

from __future__ import annotations

import argparse
import math
import os
from pathlib import Path

import numpy as np
from pxr import Sdf, Usd, UsdGeom, UsdPhysics

from omni.simready.physics_validator.core.asset_model import AssetModel, JointInfo
from omni.simready.physics_validator.core.geometry import collider_world_aabb, compose
from omni.simready.physics_validator.core.usd import read_asset

GRAVITY = 9.81
STIFFNESS_PER_GRAVITY_TORQUE = 200.0  # gravity sag <= 1/200 rad = 0.005 rad
MIN_STIFFNESS = {"revolute": 5.0, "prismatic": 200.0}  # N m/rad, N/m
FALLBACK_MASS = 0.1  # kg, for a body without authored mass


def subtree_bodies(asset: AssetModel, joint: JointInfo) -> list[str]:
    """Bodies on the child (body1) side of `joint`, following the other joints away from body0."""
    neighbours: dict[str, set[str]] = {}
    for other in asset.joints.values():
        if other is joint or not other.enabled or not (other.body0 and other.body1):
            continue
        neighbours.setdefault(other.body0, set()).add(other.body1)
        neighbours.setdefault(other.body1, set()).add(other.body0)
    start = joint.body1
    if start is None:
        return []
    seen, stack = {start}, [start]
    while stack:
        for nxt in neighbours.get(stack.pop(), ()):
            if nxt not in seen and nxt != joint.body0:
                seen.add(nxt)
                stack.append(nxt)
    return sorted(seen)


def joint_anchor(asset: AssetModel, joint: JointInfo) -> np.ndarray:
    if joint.body1 and joint.body1 in asset.bodies:
        body = asset.bodies[joint.body1].world_pose
        return compose(body.pos, body.quat, joint.local_pose1.pos, joint.local_pose1.quat)[0]
    return np.asarray(joint.local_pose0.pos, float)


def sized_gains(asset: AssetModel, joint: JointInfo) -> tuple[float, float, float, float]:
    """(stiffness, damping, gravity load, inertia) in SI per radian / per metre."""
    anchor = joint_anchor(asset, joint)
    load, inertia = 0.0, 1e-6
    for path in subtree_bodies(asset, joint):
        body = asset.bodies[path]
        mass = body.mass or FALLBACK_MASS
        r = float(np.linalg.norm(np.asarray(body.world_pose.pos) - anchor)) + 0.02
        if joint.type == "revolute":
            load += mass * GRAVITY * r
            inertia += mass * r * r
        else:
            load += mass * GRAVITY
            inertia += mass
    stiffness = max(STIFFNESS_PER_GRAVITY_TORQUE * load, MIN_STIFFNESS[joint.type])
    damping = 2.0 * math.sqrt(stiffness * inertia)
    return stiffness, damping, load, inertia


def overlapping_link_pairs(asset: AssetModel, pad: float = 0.002) -> dict[str, list[str]]:
    """Links of one articulation, not joined by a joint, whose collider AABBs overlap at the authored pose."""
    boxes: dict[str, tuple[np.ndarray, np.ndarray]] = {}
    for collider in asset.colliders.values():
        box = collider_world_aabb(collider)
        if collider.body is None or box is None:
            continue
        lo, hi = boxes.get(collider.body, (box[0], box[1]))
        boxes[collider.body] = (np.minimum(lo, box[0]), np.maximum(hi, box[1]))
    joined = {frozenset((j.body0, j.body1)) for j in asset.joints.values() if j.body0 and j.body1}
    pairs: dict[str, list[str]] = {}
    for info in asset.articulations:
        links = [b for b in info.bodies if b in boxes]
        for i, a in enumerate(links):
            for b in links[i + 1:]:
                (alo, ahi), (blo, bhi) = boxes[a], boxes[b]
                if frozenset((a, b)) in joined or np.any(alo > bhi + pad) or np.any(blo > ahi + pad):
                    continue
                pairs.setdefault(a, []).append(b)
    return pairs


def write_overlay(robot: str | Path, out: str | Path, joints: list[str] | None = None, self_collisions: bool = False) -> Path:
    """Author the overlay layer at `out`; returns its path. The robot file is only sublayered."""
    robot, out = Path(robot).resolve(), Path(out).resolve()
    if robot == out:
        raise ValueError("the overlay must be a new file, never the robot itself")
    asset = read_asset(robot)
    source = Usd.Stage.Open(str(robot))
    layer = Sdf.Layer.CreateNew(str(out))
    layer.subLayerPaths.append(os.path.relpath(robot, out.parent))
    stage = Usd.Stage.Open(layer)
    stage.SetEditTarget(Usd.EditTarget(layer))
    if source.GetDefaultPrim():
        layer.defaultPrim = source.GetDefaultPrim().GetName()
    # Stage metrics live on the root layer: without them the composed robot would read as centimetres.
    UsdGeom.SetStageUpAxis(stage, UsdGeom.GetStageUpAxis(source))
    UsdGeom.SetStageMetersPerUnit(stage, UsdGeom.GetStageMetersPerUnit(source))
    UsdPhysics.SetStageKilogramsPerUnit(stage, UsdPhysics.GetStageKilogramsPerUnit(source))
    for joint in asset.joints.values():
        if not joint.is_dof or joint.is_mimic_follower or joint.loop_closing:
            continue
        if joints and joint.name not in joints:
            continue
        prim = stage.GetPrimAtPath(joint.path)
        angular = joint.type == "revolute"
        stiffness, damping, load, _ = sized_gains(asset, joint)
        effort = source.GetPrimAtPath(joint.path).GetAttribute("urdf:limit:effort")
        max_force = float(effort.Get()) if effort and effort.HasAuthoredValue() and effort.Get() else 5.0 * load
        per_unit = math.pi / 180.0 if angular else 1.0  # USD angular gains are per degree
        drive = UsdPhysics.DriveAPI.Apply(prim, "angular" if angular else "linear")
        drive.CreateTypeAttr("force")
        drive.CreateStiffnessAttr(stiffness * per_unit)
        drive.CreateDampingAttr(damping * per_unit)
        drive.CreateMaxForceAttr(max(max_force, 1e-3))
        target = 0.0
        if joint.has_limits:  # the rest target must lie inside the range (panda joint4 excludes 0)
            target = min(max(0.0, joint.lower), joint.upper)
        drive.CreateTargetPositionAttr(math.degrees(target) if angular else target / UsdGeom.GetStageMetersPerUnit(source))
        newton_limit = source.GetPrimAtPath(joint.path).GetAttribute("newton:velocityLimit")
        if newton_limit and newton_limit.HasAuthoredValue():
            prim.AddAppliedSchema("PhysxJointAPI")
            prim.CreateAttribute("physxJoint:maxJointVelocity", Sdf.ValueTypeNames.Float).Set(float(newton_limit.Get()))
    if not self_collisions:
        # Like PhysxArticulationAPI enabledSelfCollisions = false (what robot assets usually ship with):
        # converted link colliders often overlap at the zero pose and would kick the arm.
        for body, others in overlapping_link_pairs(asset).items():
            UsdPhysics.FilteredPairsAPI.Apply(stage.GetPrimAtPath(body)).CreateFilteredPairsRel().SetTargets(others)
    layer.Save()
    return out


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("robot")
    parser.add_argument("out")
    parser.add_argument("--joints", default="", help="comma-separated joint names (default: all driven-capable)")
    parser.add_argument("--self-collisions", action="store_true", help="keep collisions between the robot's own links")
    args = parser.parse_args(argv)
    path = write_overlay(args.robot, args.out, [j for j in args.joints.split(",") if j] or None, args.self_collisions)
    print(path)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
