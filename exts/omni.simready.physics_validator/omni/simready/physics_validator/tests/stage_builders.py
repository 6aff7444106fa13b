"""Small physics assets built with pxr on a given stage: the Kit suites build them in a new Kit
stage, pytest (tests/kit_fixtures.py) saves them to files. Pure pxr, no omni import."""

from __future__ import annotations

from pxr import Gf, Sdf, UsdGeom, UsdPhysics


def build_box(
    stage,
    *,
    anchored: bool = False,
    size: float = 0.2,
    height: float = 0.5,
    up: str = "Z",
    meters_per_unit: float = 1.0,
):
    """A dynamic box `/Box` (default prim) with a cube collider; `anchored` adds a world fixed joint."""
    UsdGeom.SetStageUpAxis(stage, UsdGeom.Tokens.y if up == "Y" else UsdGeom.Tokens.z)
    UsdGeom.SetStageMetersPerUnit(stage, meters_per_unit)
    root = UsdGeom.Xform.Define(stage, "/Box")
    stage.SetDefaultPrim(root.GetPrim())
    offset = Gf.Vec3d(0, height, 0) if up == "Y" else Gf.Vec3d(0, 0, height)
    root.AddTranslateOp().Set(offset / meters_per_unit)
    UsdPhysics.RigidBodyAPI.Apply(root.GetPrim())
    UsdPhysics.MassAPI.Apply(root.GetPrim()).CreateMassAttr(1.0)
    cube = UsdGeom.Cube.Define(stage, "/Box/Collider")
    cube.CreateSizeAttr(size / meters_per_unit)
    UsdPhysics.CollisionAPI.Apply(cube.GetPrim())
    if anchored:
        joint = UsdPhysics.FixedJoint.Define(stage, "/Box/Anchor")
        joint.CreateBody1Rel().SetTargets([Sdf.Path("/Box")])
    return stage


def build_arm(stage, *, joints: int = 2):
    """A fixed-base articulated arm: base + `joints` links on revolute Y joints with position drives
    and limits of +-60 deg, maxJointVelocity authored on each joint."""
    UsdGeom.SetStageUpAxis(stage, UsdGeom.Tokens.z)
    UsdGeom.SetStageMetersPerUnit(stage, 1.0)
    root = UsdGeom.Xform.Define(stage, "/Arm")
    stage.SetDefaultPrim(root.GetPrim())
    UsdPhysics.ArticulationRootAPI.Apply(root.GetPrim())
    parent = "/Arm/base"
    base = UsdGeom.Xform.Define(stage, parent)
    base.AddTranslateOp().Set(Gf.Vec3d(0, 0, 0.05))
    UsdPhysics.RigidBodyAPI.Apply(base.GetPrim())
    UsdPhysics.MassAPI.Apply(base.GetPrim()).CreateMassAttr(2.0)
    box = UsdGeom.Cube.Define(stage, f"{parent}/collider")
    box.CreateSizeAttr(0.1)
    UsdPhysics.CollisionAPI.Apply(box.GetPrim())
    anchor = UsdPhysics.FixedJoint.Define(stage, "/Arm/world_anchor")
    anchor.CreateBody1Rel().SetTargets([Sdf.Path(parent)])
    anchor.CreateLocalPos0Attr().Set(Gf.Vec3f(0, 0, 0.05))
    z = 0.05
    for i in range(joints):
        link = f"/Arm/link{i + 1}"
        z += 0.15
        xf = UsdGeom.Xform.Define(stage, link)
        xf.AddTranslateOp().Set(Gf.Vec3d(0, 0, z))
        UsdPhysics.RigidBodyAPI.Apply(xf.GetPrim())
        UsdPhysics.MassAPI.Apply(xf.GetPrim()).CreateMassAttr(0.5)
        geom = UsdGeom.Cube.Define(stage, f"{link}/collider")
        geom.CreateSizeAttr(1.0)
        UsdGeom.Xformable(geom).AddScaleOp().Set(Gf.Vec3f(0.04, 0.04, 0.2))
        UsdPhysics.CollisionAPI.Apply(geom.GetPrim())
        joint = UsdPhysics.RevoluteJoint.Define(stage, f"/Arm/joint{i + 1}")
        joint.CreateAxisAttr("Y")
        joint.CreateBody0Rel().SetTargets([Sdf.Path(parent)])
        joint.CreateBody1Rel().SetTargets([Sdf.Path(link)])
        joint.CreateLocalPos0Attr().Set(Gf.Vec3f(0, 0, 0.075 if i == 0 else 0.075))
        joint.CreateLocalPos1Attr().Set(Gf.Vec3f(0, 0, -0.075))
        joint.CreateLowerLimitAttr(-60.0)
        joint.CreateUpperLimitAttr(60.0)
        drive = UsdPhysics.DriveAPI.Apply(joint.GetPrim(), "angular")
        drive.CreateTypeAttr("force")
        drive.CreateStiffnessAttr(50.0)
        drive.CreateDampingAttr(5.0)
        drive.CreateMaxForceAttr(100.0)
        drive.CreateTargetPositionAttr(0.0)
        joint.GetPrim().CreateAttribute("physxJoint:maxJointVelocity", Sdf.ValueTypeNames.Float).Set(180.0)
        parent = link
    return stage
