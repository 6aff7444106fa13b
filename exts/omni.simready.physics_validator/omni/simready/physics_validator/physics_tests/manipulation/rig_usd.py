"""What the manipulation tests author into their rig layer (core.rig), given in SI and written in the stage's units and
axes: the asset moved and turned as a whole, its world welds disabled, its articulation root handed to the rig, bodies
for the rig (a gantry carriage, a test object, jaw pads) and driven prismatic joints.

One articulation, rooted at a fixed joint from the world to the rig's anchor body: PhysX builds a fixed-base
articulation from ArticulationRootAPI on a joint to the world (the pin trick of engines/validation_layer.py), and the
asset's own bodies join it through the rig's joints, so the gantry is a reduced-coordinate joint of the same
articulation (stiff, no maximal-constraint sag under a payload). Pure pxr.
"""

from __future__ import annotations

import math

import numpy as np

from ...core.geometry import compose, inverse
from ...core.rig import RIG_ROOT
from ...core.units import StageFrame

ROOT_APIS = ("PhysicsArticulationRootAPI", "NewtonArticulationRootAPI", "PhysxArticulationAPI")
ANCHOR = f"{RIG_ROOT}/anchor"
ANCHOR_JOINT = f"{RIG_ROOT}/anchor_joint"
SMALL_INERTIA = 1e-3  # kg m^2 on the rig's bodies without colliders: PhysX refuses an invalid inertia


def _applied(prim) -> list[str]:
    listop = prim.GetMetadata("apiSchemas")
    return [str(t) for t in listop.ApplyOperations([])] if listop else []


class RigAuthor:
    """Authoring in SI onto a rig stage whose units and axes are the asset's."""

    def __init__(self, stage, asset):
        self.stage, self.asset = stage, asset
        self.frame = StageFrame.of_asset(asset)

    # -- the asset ----------------------------------------------------------------------------------------------
    def move_asset(self, rotation: np.ndarray, translation: np.ndarray) -> None:
        """Every prim of the asset moved rigidly in the world: p -> rotation p + translation (SI). Authored as ops
        prepended on each top-level prim holding a body (in their parent's space: the world)."""
        from pxr import Gf, UsdGeom

        f = self.frame
        stage_rot = f.to_si_rotation.T @ rotation @ f.to_si_rotation
        t = f.point_from_si(translation)
        matrix = Gf.Matrix4d(1.0)
        matrix.SetRotateOnly(Gf.Matrix3d(*stage_rot.T.flatten().tolist()))  # Gf: row vectors
        matrix.SetTranslateOnly(Gf.Vec3d(*t.tolist()))
        for top in sorted({"/" + p.strip("/").split("/")[0] for p in self.asset.bodies}):
            xformable = UsdGeom.Xformable(self.stage.GetPrimAtPath(top))
            ops = xformable.GetOrderedXformOps()
            op = xformable.AddTransformOp(UsdGeom.XformOp.PrecisionDouble, "physicsValidatorRig")
            op.Set(matrix)
            xformable.SetXformOpOrder([op, *ops], xformable.GetResetXformStack())

    def disable_world_welds(self, bodies: set[str]) -> list[str]:
        """The joints holding these bodies to the world are deactivated in the rig (the gantry holds them now; a joint
        only disabled is still parsed, and its frames, left where the asset was, draw a 'disjointed body transforms'
        warning from PhysX)."""
        disabled = []
        for joint in self.asset.world_anchors:
            if {joint.body0, joint.body1} & bodies:
                self.stage.GetPrimAtPath(joint.path).SetActive(False)
                disabled.append(joint.path)
        return disabled

    def take_articulation_root(self, bodies: set[str]) -> None:
        """The articulation roots over these bodies give their root APIs (and PhysX settings) to the rig's anchor joint."""
        joint = self.stage.GetPrimAtPath(ANCHOR_JOINT)
        for art in self.asset.articulations:
            if not set(art.bodies) & bodies:
                continue
            root = self.stage.GetPrimAtPath(art.root)
            tokens = _applied(root)
            values = [(a.GetName(), a.GetTypeName(), a.Get()) for a in root.GetAttributes()
                      if a.GetName().startswith("physxArticulation:") and a.HasAuthoredValue()]
            for api in ROOT_APIS:
                if api in tokens:
                    root.RemoveAppliedSchema(api)
            for name, type_name, value in values:
                joint.CreateAttribute(name, type_name).Set(value)

    # -- the rig's own prims -----------------------------------------------------------------------------------
    def body(self, path: str, position, quat=(1.0, 0.0, 0.0, 0.0), mass: float = 1.0, inertia: float = SMALL_INERTIA):
        from pxr import Gf, UsdGeom, UsdPhysics

        f = self.frame
        xf = UsdGeom.Xform.Define(self.stage, path)
        xf.AddTranslateOp(UsdGeom.XformOp.PrecisionDouble).Set(Gf.Vec3d(*f.point_from_si(position).tolist()))
        w, x, y, z = f.quat_from_si(np.asarray(quat, float))
        xf.AddOrientOp(UsdGeom.XformOp.PrecisionDouble).Set(Gf.Quatd(w, x, y, z))
        prim = xf.GetPrim()
        UsdPhysics.RigidBodyAPI.Apply(prim)
        mass_api = UsdPhysics.MassAPI.Apply(prim)
        mass_api.CreateMassAttr(mass / self.asset.kilograms_per_unit)
        if inertia:
            scale = self.asset.kilograms_per_unit * self.asset.meters_per_unit ** 2
            mass_api.CreateDiagonalInertiaAttr(Gf.Vec3f(*([inertia / scale] * 3)))
        return prim

    def shape(self, body: str, name: str, kind: str, size: float, half=None, offset=(0.0, 0.0, 0.0),
              friction: float | None = None, combine: str | None = None) -> str:
        """A collider on `body` ('sphere' of diameter `size`, or 'cube' of edge `size` / box of `half` extents, m), in
        the body's frame; with its own physics material when `friction` is given."""
        from pxr import Gf, Sdf, UsdGeom, UsdPhysics, UsdShade

        f = self.frame
        path = f"{body}/{name}"
        if kind == "sphere":
            gprim = UsdGeom.Sphere.Define(self.stage, path)
            gprim.CreateRadiusAttr(f.length_from_si(size / 2))
            gprim.AddTranslateOp().Set(Gf.Vec3d(*[f.length_from_si(v) for v in offset]))
        else:
            gprim = UsdGeom.Cube.Define(self.stage, path)
            gprim.CreateSizeAttr(2.0)
            gprim.AddTranslateOp().Set(Gf.Vec3d(*[f.length_from_si(v) for v in offset]))
            extents = half if half is not None else (size / 2,) * 3
            gprim.AddScaleOp().Set(Gf.Vec3f(*[f.length_from_si(v) for v in extents]))
        UsdPhysics.CollisionAPI.Apply(gprim.GetPrim())
        if friction is not None:
            material = UsdShade.Material.Define(self.stage, f"{path}Material")
            api = UsdPhysics.MaterialAPI.Apply(material.GetPrim())
            api.CreateStaticFrictionAttr(float(friction))
            api.CreateDynamicFrictionAttr(float(friction))
            api.CreateRestitutionAttr(0.0)
            if combine:
                material.GetPrim().AddAppliedSchema("PhysxMaterialAPI")
                material.GetPrim().CreateAttribute("physxMaterial:frictionCombineMode", Sdf.ValueTypeNames.Token).Set(combine)
            UsdShade.MaterialBindingAPI.Apply(gprim.GetPrim()).Bind(material, UsdShade.Tokens.weakerThanDescendants,
                                                                    "physics")
        return path

    def anchor(self, position) -> None:
        """The rig's anchor body welded to the world at `position` by the joint that roots the articulation."""
        from pxr import Gf, UsdPhysics

        self.body(ANCHOR, position)
        joint = UsdPhysics.FixedJoint.Define(self.stage, ANCHOR_JOINT)
        joint.CreateBody1Rel().SetTargets([ANCHOR])
        joint.CreateLocalPos0Attr(Gf.Vec3f(*self.frame.point_from_si(position).tolist()))
        w, x, y, z = self.frame.quat_from_si(np.array([1.0, 0.0, 0.0, 0.0]))
        joint.CreateLocalRot0Attr(Gf.Quatf(w, x, y, z))
        prim = joint.GetPrim()
        for api in ROOT_APIS[:1] + ROOT_APIS[2:]:
            prim.AddAppliedSchema(api)

    def prismatic(self, path: str, body0: str, pose0, body1: str, pose1, axis: str, limits: tuple[float, float],
                  stiffness: float, damping: float, max_force: float, frame_quat=None) -> None:
        """A driven prismatic joint along `axis` of its frame: the frame at body1's origin, world-aligned or turned by
        `frame_quat` (wxyz, world), given the bodies' SI world poses at build time. Gains in SI (N/m, N s/m, N)."""
        self.joint("prismatic", path, body0, pose0, body1, pose1, axis, limits, (stiffness, damping, max_force),
                   frame_quat)

    def joint(self, kind: str, path: str, body0: str, pose0, body1: str, pose1, axis: str, limits: tuple[float, float],
              gains: tuple[float, float, float], frame_quat=None) -> None:
        """A driven revolute or prismatic joint (limits in rad or m; gains in SI per radian or per metre)."""
        from pxr import Gf, UsdPhysics

        f = self.frame
        angular = kind == "revolute"
        joint = (UsdPhysics.RevoluteJoint if angular else UsdPhysics.PrismaticJoint).Define(self.stage, path)
        joint.CreateBody0Rel().SetTargets([body0])
        joint.CreateBody1Rel().SetTargets([body1])
        joint.CreateAxisAttr(axis)
        turn = np.array([1.0, 0.0, 0.0, 0.0]) if frame_quat is None else np.asarray(frame_quat, float)
        frame = (np.asarray(pose1[0], float), turn)
        for (pos, quat), pos_attr, rot_attr in ((compose(*inverse(*pose0), *frame), joint.CreateLocalPos0Attr,
                                                 joint.CreateLocalRot0Attr),
                                                (compose(*inverse(*pose1), *frame), joint.CreateLocalPos1Attr,
                                                 joint.CreateLocalRot1Attr)):
            pos_attr(Gf.Vec3f(*[f.length_from_si(v) for v in pos]))
            rot_attr(Gf.Quatf(*[float(v) for v in quat]))
        coordinate, effort = f.joint_coordinate_scale(angular), f.joint_effort_scale(angular)
        joint.CreateLowerLimitAttr(limits[0] / coordinate)
        joint.CreateUpperLimitAttr(limits[1] / coordinate)
        drive = UsdPhysics.DriveAPI.Apply(joint.GetPrim(), "angular" if angular else "linear")
        drive.CreateTypeAttr("force")
        stiffness, damping, max_force = gains
        drive.CreateStiffnessAttr(stiffness * coordinate / effort)
        drive.CreateDampingAttr(damping * coordinate / effort)
        drive.CreateMaxForceAttr(max_force / effort)
        drive.CreateTargetPositionAttr(0.0)


def rotation_taking(source: tuple[np.ndarray, np.ndarray], target: tuple[np.ndarray, np.ndarray]) -> np.ndarray:
    """The rotation matrix taking the orthonormalised pair `source` (a, b) onto `target` (a', b')."""
    def basis(a, b):
        a = np.asarray(a, float) / np.linalg.norm(a)
        b = np.asarray(b, float) - np.dot(b, a) * a
        n = np.linalg.norm(b)
        if n <= 1e-9:  # b along a: any perpendicular (the world axis least along a)
            b = np.cross(a, np.eye(3)[int(np.argmin(np.abs(a)))])
            n = np.linalg.norm(b)
        b = b / n
        return np.column_stack([a, b, np.cross(a, b)])

    return basis(*target) @ basis(*source).T


def quat_of(rotation: np.ndarray) -> np.ndarray:
    """wxyz of a rotation matrix."""
    m = rotation
    w = math.sqrt(max(0.0, 1.0 + m[0, 0] + m[1, 1] + m[2, 2])) / 2
    x = math.copysign(math.sqrt(max(0.0, 1.0 + m[0, 0] - m[1, 1] - m[2, 2])) / 2, m[2, 1] - m[1, 2])
    y = math.copysign(math.sqrt(max(0.0, 1.0 - m[0, 0] + m[1, 1] - m[2, 2])) / 2, m[0, 2] - m[2, 0])
    z = math.copysign(math.sqrt(max(0.0, 1.0 - m[0, 0] - m[1, 1] + m[2, 2])) / 2, m[1, 0] - m[0, 1])
    q = np.array([w, x, y, z])
    return q / np.linalg.norm(q)


def moved_pose(pose, rotation: np.ndarray, translation: np.ndarray):
    """A world pose (pos, wxyz) after the asset's move."""
    return rotation @ np.asarray(pose[0], float) + translation, _mul(quat_of(rotation), np.asarray(pose[1], float))


def _mul(a, b):
    from ...core.geometry import quat_mul

    return quat_mul(a, b)
