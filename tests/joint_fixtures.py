"""pxr builders of small robot assets for the driven-joint tests (each written to a fresh .usda).

`build_arm` makes a UR-like 6-revolute arm (axes Z Y Y Z Y Z) standing up from a base box, with
knobs for every failure case of the four specs: drive gains, maxForce, velocity limits and their
spelling, missing limits, passive joints, a mimic-follower finger pair and a driven joint outside
any articulation. Gains are given in SI (per radian) and written in USD units (per degree).
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from pathlib import Path

from pxr import Gf, Sdf, Usd, UsdGeom, UsdPhysics

AXES = ("Z", "Y", "Y", "Z", "Y", "Z")
LINK_LENGTH = 0.2
LINK_WIDTH = 0.05
LINK_MASS = 0.5
BASE_HALF = (0.1, 0.1, 0.05)


@dataclass
class ArmSpec:
    """What to author. Defaults are a well-tuned arm that passes all four tests."""

    joints: int = 6
    stiffness: float = 2000.0  # N m / rad
    damping: float = 100.0  # N m s / rad
    max_force: float | None = 500.0  # N m; None = not authored (unlimited)
    velocity_limit_deg: float | None = 120.0  # deg/s, None = not authored
    velocity_attr: str = "physxJoint:maxJointVelocity"  # or physxJointAxis:angular:maxJointVelocity, newton:velocityLimit
    limit_deg: tuple[float, float] = (-120.0, 120.0)  # Y joints; Z joints get (-170, 170)
    unlimited: tuple[int, ...] = ()  # 1-based joint numbers authored without limits
    passive: tuple[int, ...] = ()  # 1-based joint numbers without a drive
    link_mass: float = LINK_MASS
    fingers: str | None = None  # None, "physx" (PhysxMimicJointAPI:rotZ) or "newton" (NewtonMimicAPI)
    turntable: bool = False  # a driven, velocity-limited joint to the world outside the articulation
    world_anchor: bool = False  # weld the base to the world with a fixed joint
    overrides: dict[int, dict] = field(default_factory=dict)  # per joint: stiffness/damping/max_force


def _stage(path: Path) -> Usd.Stage:
    stage = Usd.Stage.CreateNew(str(path))
    UsdGeom.SetStageUpAxis(stage, UsdGeom.Tokens.z)
    UsdGeom.SetStageMetersPerUnit(stage, 1.0)
    UsdPhysics.SetStageKilogramsPerUnit(stage, 1.0)
    root = UsdGeom.Xform.Define(stage, "/Robot")
    stage.SetDefaultPrim(root.GetPrim())
    return stage


def _box_body(stage, path: str, center, half, mass: float):
    xf = UsdGeom.Xform.Define(stage, path)
    xf.AddTranslateOp().Set(Gf.Vec3d(*center))
    UsdPhysics.RigidBodyAPI.Apply(xf.GetPrim())
    UsdPhysics.MassAPI.Apply(xf.GetPrim()).CreateMassAttr(mass)
    cube = UsdGeom.Cube.Define(stage, f"{path}/collider")
    cube.CreateSizeAttr(2.0)
    cube.AddScaleOp().Set(Gf.Vec3f(*half))
    UsdPhysics.CollisionAPI.Apply(cube.GetPrim())
    return xf.GetPrim()


def _revolute(stage, path, body0, body1, pos0, pos1, axis, limits_deg, spec: ArmSpec, n: int, driven: bool):
    joint = UsdPhysics.RevoluteJoint.Define(stage, path)
    if body0:
        joint.CreateBody0Rel().SetTargets([body0])
    joint.CreateBody1Rel().SetTargets([body1])
    joint.CreateLocalPos0Attr(Gf.Vec3f(*pos0))
    joint.CreateLocalPos1Attr(Gf.Vec3f(*pos1))
    joint.CreateAxisAttr(axis)
    if limits_deg is not None:
        joint.CreateLowerLimitAttr(limits_deg[0])
        joint.CreateUpperLimitAttr(limits_deg[1])
    prim = joint.GetPrim()
    if driven:
        gains = {"stiffness": spec.stiffness, "damping": spec.damping, "max_force": spec.max_force}
        gains.update(spec.overrides.get(n, {}))
        drive = UsdPhysics.DriveAPI.Apply(prim, "angular")
        drive.CreateTypeAttr("force")
        drive.CreateStiffnessAttr(gains["stiffness"] * math.pi / 180.0)  # USD: per degree
        drive.CreateDampingAttr(gains["damping"] * math.pi / 180.0)
        drive.CreateTargetPositionAttr(0.0)
        if gains["max_force"] is not None:
            drive.CreateMaxForceAttr(gains["max_force"])
    if spec.velocity_limit_deg is not None:
        if spec.velocity_attr.startswith("physx"):
            prim.AddAppliedSchema("PhysxJointAPI")
        if spec.velocity_attr.startswith("physxJointAxis"):
            prim.AddAppliedSchema("PhysxJointAxisAPI:angular")
        prim.CreateAttribute(spec.velocity_attr, Sdf.ValueTypeNames.Float).Set(spec.velocity_limit_deg)
    return prim


def build_arm(path: str | Path, spec: ArmSpec | None = None, **kwargs) -> Path:
    """Write the arm to `path` and return it. kwargs override ArmSpec fields."""
    spec = spec or ArmSpec()
    for key, value in kwargs.items():
        setattr(spec, key, value)
    path = Path(path)
    stage = _stage(path)
    UsdGeom.Scope.Define(stage, "/Robot/joints")
    base = _box_body(stage, "/Robot/base", (0, 0, BASE_HALF[2]), BASE_HALF, 2.0)
    UsdPhysics.ArticulationRootAPI.Apply(base)
    if spec.world_anchor:
        weld = UsdPhysics.FixedJoint.Define(stage, "/Robot/joints/world_weld")
        weld.CreateBody1Rel().SetTargets(["/Robot/base"])
    parent, parent_top = "/Robot/base", (0.0, 0.0, BASE_HALF[2])
    z = 2 * BASE_HALF[2]
    half = (LINK_WIDTH / 2, LINK_WIDTH / 2, LINK_LENGTH / 2)
    for n in range(1, spec.joints + 1):
        link = f"/Robot/link{n}"
        _box_body(stage, link, (0, 0, z + LINK_LENGTH / 2), half, spec.link_mass)
        axis = AXES[(n - 1) % len(AXES)]
        limits = None if n in spec.unlimited else ((-170.0, 170.0) if axis == "Z" else spec.limit_deg)
        _revolute(stage, f"/Robot/joints/joint{n}", parent, link, parent_top, (0, 0, -LINK_LENGTH / 2), axis,
                  limits, spec, n, driven=n not in spec.passive)
        parent, parent_top = link, (0.0, 0.0, LINK_LENGTH / 2)
        z += LINK_LENGTH
    if spec.fingers:
        _fingers(stage, spec, parent, z)
    if spec.turntable:
        # A stand welded to the world and a plate on a driven, velocity-limited revolute joint: two plain
        # rigid bodies, no ArticulationRootAPI covers them, so PhysX builds a maximal (D6) joint.
        _box_body(stage, "/Robot/stand", (0.6, 0, 0.05), (0.05, 0.05, 0.05), 1.0)
        weld = UsdPhysics.FixedJoint.Define(stage, "/Robot/joints/stand_weld")
        weld.CreateBody1Rel().SetTargets(["/Robot/stand"])
        weld.CreateLocalPos0Attr(Gf.Vec3f(0.6, 0, 0.05))
        _box_body(stage, "/Robot/turntable", (0.6, 0, 0.12), (0.1, 0.1, 0.02), 1.0)
        _revolute(stage, "/Robot/joints/turntable_joint", "/Robot/stand", "/Robot/turntable", (0, 0, 0.05),
                  (0, 0, -0.02), "Z", (-170.0, 170.0), spec, 0, driven=True)
    stage.GetRootLayer().Save()
    return path


def _fingers(stage, spec: ArmSpec, parent: str, z: float) -> None:
    """Two small fingers on the last link: finger_a driven, finger_b its mimic follower."""
    half = (0.01, 0.01, 0.03)
    for name, x in (("finger_a", 0.02), ("finger_b", -0.02)):
        _box_body(stage, f"/Robot/{name}", (x, 0, z + 0.03), half, 0.05)
    _revolute(stage, "/Robot/joints/finger_a_joint", parent, "/Robot/finger_a", (0.02, 0, LINK_LENGTH / 2),
              (0, 0, -0.03), "Y", (-30.0, 30.0), spec, 7, driven=True)
    follower = _revolute(stage, "/Robot/joints/finger_b_joint", parent, "/Robot/finger_b", (-0.02, 0, LINK_LENGTH / 2),
                         (0, 0, -0.03), "Y", (-30.0, 30.0), spec, 8, driven=True)
    if spec.fingers == "physx":
        # Raw apiSchemas token: PhysxMimicJointAPI is a multi-apply schema unknown to plain usd-core.
        follower.AddAppliedSchema("PhysxMimicJointAPI:rotY")
        follower.CreateRelationship("physxMimicJoint:rotY:referenceJoint").SetTargets(["/Robot/joints/finger_a_joint"])
        follower.CreateAttribute("physxMimicJoint:rotY:gearing", Sdf.ValueTypeNames.Float).Set(-1.0)
    else:
        follower.AddAppliedSchema("NewtonMimicAPI")
        follower.CreateRelationship("newton:mimicJoint").SetTargets(["/Robot/joints/finger_a_joint"])
        follower.CreateAttribute("newton:mimicCoef1", Sdf.ValueTypeNames.Float).Set(-1.0)


def build_unarticulated(path: str | Path) -> Path:
    """Two bodies and a driven revolute joint, no ArticulationRootAPI anywhere (precheck failure)."""
    path = Path(path)
    stage = _stage(path)
    _box_body(stage, "/Robot/base", (0, 0, 0.05), BASE_HALF, 2.0)
    _box_body(stage, "/Robot/link1", (0, 0, 0.2), (0.025, 0.025, 0.1), 0.5)
    spec = ArmSpec()
    _revolute(stage, "/Robot/joint1", "/Robot/base", "/Robot/link1", (0, 0, 0.05), (0, 0, -0.1), "Y",
              (-90.0, 90.0), spec, 1, driven=True)
    stage.GetRootLayer().Save()
    return path
