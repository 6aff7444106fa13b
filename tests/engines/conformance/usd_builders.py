"""pxr-authored assets with analytic answers, for the engine conformance suite.

Every builder takes positions and sizes in metres, Z-up, and writes them in the stage's own
units and up axis, so a Y-up centimetre twin describes the same physical object.
"""

from __future__ import annotations

import math
from pathlib import Path

from pxr import Gf, Sdf, Usd, UsdGeom, UsdPhysics, UsdShade


class StageWriter:
    def __init__(self, path: Path, up_axis: str = "Z", meters_per_unit: float = 1.0):
        self.path = Path(path)
        self.path.parent.mkdir(parents=True, exist_ok=True)
        self.stage = Usd.Stage.CreateNew(str(self.path))
        self.up_axis = up_axis
        self.units = 1.0 / meters_per_unit
        UsdGeom.SetStageUpAxis(self.stage, UsdGeom.Tokens.y if up_axis == "Y" else UsdGeom.Tokens.z)
        UsdGeom.SetStageMetersPerUnit(self.stage, meters_per_unit)
        UsdPhysics.SetStageKilogramsPerUnit(self.stage, 1.0)
        root = UsdGeom.Xform.Define(self.stage, "/Asset")
        self.stage.SetDefaultPrim(root.GetPrim())
        material = UsdShade.Material.Define(self.stage, "/Asset/Material")
        api = UsdPhysics.MaterialAPI.Apply(material.GetPrim())
        api.CreateStaticFrictionAttr(0.8)
        api.CreateDynamicFrictionAttr(0.6)
        api.CreateRestitutionAttr(0.0)
        self.material = material

    def vec(self, v, scale=None) -> Gf.Vec3d:
        """A Z-up metre vector in stage coordinates (Y-up: (x, z, -y))."""
        s = self.units if scale is None else scale
        x, y, z = (float(c) * s for c in v)
        return Gf.Vec3d(x, z, -y) if self.up_axis == "Y" else Gf.Vec3d(x, y, z)

    def length(self, value: float) -> float:
        return value * self.units

    def axis(self, axis: str) -> str:
        """A Z-up axis name in stage terms (for Y-up stages, world Z is stage Y and world Y is stage -Z)."""
        if self.up_axis == "Y":
            return {"X": "X", "Y": "Z", "Z": "Y"}[axis]
        return axis

    def body(self, path: str, position, mass=None, density=None, kinematic=False, rigid=True):
        xform = UsdGeom.Xform.Define(self.stage, path)
        xform.AddTranslateOp().Set(self.vec(position))
        if self.up_axis == "Y":
            pass  # bodies carry no rotation; shapes below use stage axes
        if rigid:
            rb = UsdPhysics.RigidBodyAPI.Apply(xform.GetPrim())
            if kinematic:
                rb.CreateKinematicEnabledAttr(True)
            if mass is not None or density is not None:
                mass_api = UsdPhysics.MassAPI.Apply(xform.GetPrim())
                if mass is not None:
                    mass_api.CreateMassAttr(mass)
                if density is not None:
                    mass_api.CreateDensityAttr(density / self.units**3)
        return xform

    def collide(self, prim, approximation: str | None = None) -> None:
        UsdPhysics.CollisionAPI.Apply(prim)
        if approximation is not None:
            UsdPhysics.MeshCollisionAPI.Apply(prim).CreateApproximationAttr(approximation)
        UsdShade.MaterialBindingAPI.Apply(prim).Bind(self.material, UsdShade.Tokens.weakerThanDescendants, "physics")

    def box(self, path: str, half_extents) -> None:
        cube = UsdGeom.Cube.Define(self.stage, path)
        cube.CreateSizeAttr(2.0)
        hx, hy, hz = half_extents
        s = self.units
        cube.AddScaleOp().Set(Gf.Vec3f(hx * s, hz * s, hy * s) if self.up_axis == "Y" else Gf.Vec3f(hx * s, hy * s, hz * s))
        self.collide(cube.GetPrim())

    def sphere(self, path: str, radius: float) -> None:
        sphere = UsdGeom.Sphere.Define(self.stage, path)
        sphere.CreateRadiusAttr(self.length(radius))
        self.collide(sphere.GetPrim())

    def capsule(self, path: str, radius: float, height: float, axis: str) -> None:
        capsule = UsdGeom.Capsule.Define(self.stage, path)
        capsule.CreateRadiusAttr(self.length(radius))
        capsule.CreateHeightAttr(self.length(height))
        capsule.CreateAxisAttr(self.axis(axis))
        self.collide(capsule.GetPrim())

    def cylinder(self, path: str, radius: float, height: float, axis: str) -> None:
        cylinder = UsdGeom.Cylinder.Define(self.stage, path)
        cylinder.CreateRadiusAttr(self.length(radius))
        cylinder.CreateHeightAttr(self.length(height))
        cylinder.CreateAxisAttr(self.axis(axis))
        self.collide(cylinder.GetPrim())

    def mesh(self, path: str, points, faces, approximation: str = "convexHull") -> None:
        mesh = UsdGeom.Mesh.Define(self.stage, path)
        mesh.CreatePointsAttr([self.vec(p) for p in points])
        mesh.CreateFaceVertexCountsAttr([len(f) for f in faces])
        mesh.CreateFaceVertexIndicesAttr([i for f in faces for i in f])
        self.collide(mesh.GetPrim(), approximation)

    def world_anchor(self, path: str, body: str, position) -> None:
        joint = UsdPhysics.FixedJoint.Define(self.stage, path)
        joint.CreateBody1Rel().SetTargets([Sdf.Path(body)])
        joint.CreateLocalPos0Attr(Gf.Vec3f(self.vec(position)))

    def revolute(self, path: str, body0: str | None, body1: str, pos0, pos1, axis: str, limits_deg=None):
        joint = UsdPhysics.RevoluteJoint.Define(self.stage, path)
        if body0:
            joint.CreateBody0Rel().SetTargets([Sdf.Path(body0)])
        joint.CreateBody1Rel().SetTargets([Sdf.Path(body1)])
        joint.CreateLocalPos0Attr(Gf.Vec3f(self.vec(pos0)))
        joint.CreateLocalPos1Attr(Gf.Vec3f(self.vec(pos1)))
        joint.CreateAxisAttr(self.axis(axis))
        if limits_deg is not None:
            joint.CreateLowerLimitAttr(limits_deg[0])
            joint.CreateUpperLimitAttr(limits_deg[1])
        return joint

    def angular_drive(self, joint, stiffness_per_deg, damping_per_deg, max_force=None, target_deg=0.0) -> None:
        drive = UsdPhysics.DriveAPI.Apply(joint.GetPrim(), "angular")
        drive.CreateTypeAttr("force")
        drive.CreateStiffnessAttr(stiffness_per_deg)
        drive.CreateDampingAttr(damping_per_deg)
        if max_force is not None:
            drive.CreateMaxForceAttr(max_force)
        drive.CreateTargetPositionAttr(target_deg)

    def max_joint_velocity(self, joint, deg_per_s: float) -> None:
        prim = joint.GetPrim()
        prim.CreateAttribute("physxJoint:maxJointVelocity", Sdf.ValueTypeNames.Float).Set(deg_per_s)
        prim.AddAppliedSchema("PhysxJointAPI")

    def save(self) -> Path:
        self.stage.GetRootLayer().Save()
        return self.path


def free_box(path, half=0.05, position=(0, 0, 1.0), mass=1.0, up_axis="Z", meters_per_unit=1.0, kinematic=False, density=None):
    w = StageWriter(path, up_axis, meters_per_unit)
    w.body("/Asset/Body", position, mass=mass, kinematic=kinematic, density=density)
    w.box("/Asset/Body/Geom", (half, half, half))
    return w.save()


def lying_capsule(path, radius=0.05, height=0.3, axis="Y", position=(0, 0, 0.3), shape="capsule"):
    w = StageWriter(path)
    w.body("/Asset/Body", position, mass=1.0)
    (w.capsule if shape == "capsule" else w.cylinder)("/Asset/Body/Geom", radius, height, axis)
    return w.save()


OCTAHEDRON_POINTS = [(0.1, 0, 0), (-0.1, 0, 0), (0, 0.1, 0), (0, -0.1, 0), (0, 0, 0.1), (0, 0, -0.1)]
OCTAHEDRON_FACES = [(0, 2, 4), (2, 1, 4), (1, 3, 4), (3, 0, 4), (2, 0, 5), (1, 2, 5), (3, 1, 5), (0, 3, 5)]


def convex_octahedron(path, position=(0, 0, 0.5), approximation="convexHull"):
    w = StageWriter(path)
    w.body("/Asset/Body", position, mass=1.0)
    w.mesh("/Asset/Body/Geom", OCTAHEDRON_POINTS, OCTAHEDRON_FACES, approximation)
    return w.save()


def hinge_arm(
    path,
    articulated=True,
    axis="Y",
    link_length=0.5,
    link_mass=1.0,
    stiffness_per_deg=None,
    damping_per_deg=0.0,
    max_force=None,
    target_deg=0.0,
    max_velocity_deg=None,
    limits_deg=None,
):
    """A fixed base on the world and one link hanging from a revolute joint at z = 1 m.

    The link is a thin box along +X (its centre at x = link_length / 2), so gravity along -Z gives
    a torque about Y; a force along Z at the tip gives torque F * link_length about -Y.
    """
    w = StageWriter(path)
    if articulated:
        UsdPhysics.ArticulationRootAPI.Apply(w.stage.GetPrimAtPath("/Asset"))
    w.body("/Asset/Base", (0, 0, 1.0), mass=5.0)
    w.box("/Asset/Base/Geom", (0.05, 0.05, 0.05))
    w.world_anchor("/Asset/BaseAnchor", "/Asset/Base", (0, 0, 1.0))
    half = link_length / 2
    w.body("/Asset/Link", (0.06 + half, 0, 1.0), mass=link_mass)
    w.box("/Asset/Link/Geom", (half, 0.01, 0.01))
    joint = w.revolute("/Asset/Hinge", "/Asset/Base", "/Asset/Link", (0.06, 0, 0), (-half, 0, 0), axis, limits_deg)
    if stiffness_per_deg is not None:
        w.angular_drive(joint, stiffness_per_deg, damping_per_deg, max_force, target_deg)
    if max_velocity_deg is not None:
        w.max_joint_velocity(joint, max_velocity_deg)
    return w.save()


def pendulum_period(link_length: float, gravity: float = 9.81) -> float:
    """Small-oscillation period of a thin rod pivoted at one end."""
    return 2 * math.pi * math.sqrt(2 * link_length / (3 * gravity))
