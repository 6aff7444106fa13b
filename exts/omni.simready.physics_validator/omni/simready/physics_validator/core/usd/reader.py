"""Read a USD asset into an AssetModel: one pxr pass, SI units, Z-up, never writes the file.

Rigid bodies, shapes, joints, drives, limits and articulations come from OpenUSD's own UsdPhysics
parser (the parser omni.physx uses), so body/shape ownership and joint frames follow the same
rules as Isaac Sim. What the parser does not cover is read here: MassAPI, materials, PhysX and
Newton attributes (velocity limits in three spellings), mimic and actuator relations. Schemas that
stock usd-core does not know (PhysxMimicJointAPI, NewtonMimicAPI, ...) are read from the raw
`apiSchemas` metadata, which lists them even when no schema plugin is installed.
"""

from __future__ import annotations

import math
import os
import re
import warnings
from pathlib import Path

import numpy as np

from ..asset_model import (
    ArticulationInfo,
    AssetIssue,
    AssetModel,
    BodyInfo,
    ColliderInfo,
    DriveInfo,
    JointInfo,
    LimitInfo,
    MaterialInfo,
    Pose,
)
from ..geometry import quat_mul, quat_normalize, quat_to_matrix

DEFAULT_DENSITY = 1000.0  # kg/m^3, what PhysX uses when nothing is authored
USD_EXTENSIONS = (".usd", ".usda", ".usdc", ".usdz")

_JOINT_TYPES = {
    "RevoluteJoint": "revolute",
    "PrismaticJoint": "prismatic",
    "FixedJoint": "fixed",
    "SphericalJoint": "spherical",
    "D6Joint": "d6",
    "DistanceJoint": "distance",
    "CustomJoint": "d6",
}
_SHAPE_TYPES = {
    "CubeShape": "box",
    "SphereShape": "sphere",
    "CapsuleShape": "capsule",
    "Capsule1ShapeDesc": "capsule",
    "Capsule1Shape": "capsule",
    "CylinderShape": "cylinder",
    "Cylinder1Shape": "cylinder",
    "ConeShape": "cone",
    "MeshShape": "mesh",
    "PlaneShape": "plane",
}
_AXIS_TOKENS = ("angular", "linear", "rotX", "rotY", "rotZ", "transX", "transY", "transZ")


class AssetLoadError(Exception):
    """The file cannot be opened as a USD stage (missing, unreadable, not USD, syntax error)."""


def read_asset(path: str | os.PathLike) -> AssetModel:
    """Open `path` read-only and build its AssetModel. Raises AssetLoadError when it cannot be opened."""
    stage = open_stage(path)
    return AssetReader(stage, str(path)).read()


def open_stage(path: str | os.PathLike):
    """Open a stage for reading, turning every failure into an AssetLoadError with a one-line reason."""
    from pxr import Tf, Usd

    path = Path(path)
    if not path.exists():
        raise AssetLoadError(f"file not found: {path}")
    if path.is_dir():
        raise AssetLoadError(f"is a folder, not a USD file: {path}")
    if path.suffix.lower() not in USD_EXTENSIONS:
        raise AssetLoadError(f"not a USD file (expected {', '.join(USD_EXTENSIONS)}): {path}")
    if path.stat().st_size == 0:
        raise AssetLoadError(f"empty file (0 bytes): {path}")
    try:
        stage = Usd.Stage.Open(str(path), Usd.Stage.LoadAll)
    except Tf.ErrorException as exc:
        raise AssetLoadError(f"cannot open {path.name}: {_first_line(str(exc))}") from None
    except Exception as exc:  # noqa: BLE001 - pxr raises several types for corrupt files
        raise AssetLoadError(f"cannot open {path.name}: {_first_line(str(exc))}") from None
    if stage is None:
        raise AssetLoadError(f"cannot open {path.name}: not a readable USD stage")
    return stage


_TF_ERROR = re.compile(r"Error in '[^']*' at line \d+ in file [^\n]*? : '(.*?)'\s*(?=\n\s*Error in|$)", re.S)


def _first_line(text: str) -> str:
    """The first human message of a pxr error (Tf errors carry C++ function and file names first)."""
    messages = [" ".join(m.split()) for m in _TF_ERROR.findall(text)]
    messages = [m for m in messages if m]
    if messages:
        first = re.sub(r"(?:[A-Za-z]:)?[^\s:'@]*[/\\]([^/\\\s:'@]+):(\d+):(\d+):", r"\1 line \2:\3:", messages[0])
        return first[:300]
    for line in text.splitlines():
        line = line.strip().strip("\t -")
        if line and not line.startswith("Error in"):
            return line[:300]
    return text.strip()[:300] or "unknown error"


def _stage_metadata_problems(mpu: float, kpu: float, up: str) -> list[tuple[str, str]]:
    """Units and up axis that would turn every length or mass into NaN, a mirror image or a wrong frame."""
    problems = []
    for name, value in (("metersPerUnit", mpu), ("kilogramsPerUnit", kpu)):
        if not (math.isfinite(value) and value > 0):
            problems.append(("STAGE_UNITS_INVALID", f"stage {name} is {value}: must be a finite positive number"))
    if up not in ("Y", "Z"):
        problems.append(("STAGE_UP_AXIS_INVALID", f"stage upAxis is {up!r}: USD allows only \"Y\" or \"Z\""))
    return problems


def _finite(value) -> bool:
    try:
        return all(math.isfinite(float(v)) for v in np.ravel(value))
    except (TypeError, ValueError):
        return False


class AssetReader:
    """One pass over a stage. Collects AssetIssue records instead of raising on bad content."""

    def __init__(self, stage, path: str):
        from pxr import UsdGeom

        self.stage = stage
        self.path = path
        self.mpu = float(UsdGeom.GetStageMetersPerUnit(stage) or 1.0)
        self.up = str(UsdGeom.GetStageUpAxis(stage) or "Z")
        self.kpu = self._kilograms_per_unit()
        self.stage_problems = _stage_metadata_problems(self.mpu, self.kpu, self.up)
        self.mpu = self.mpu if math.isfinite(self.mpu) and self.mpu > 0 else 1.0  # reported, then kept harmless
        self.kpu = self.kpu if math.isfinite(self.kpu) and self.kpu > 0 else 1.0
        # Stage world -> SI Z-up world: rotate Y-up by +90 deg about X, then scale to metres.
        self.up_quat = np.array([math.cos(math.pi / 4), math.sin(math.pi / 4), 0.0, 0.0]) if self.up == "Y" else np.array([1.0, 0, 0, 0])
        self.up_rot = quat_to_matrix(self.up_quat)
        self.issues: list[AssetIssue] = []
        default_prim = stage.GetDefaultPrim()
        self.model = AssetModel(
            path=path,
            default_prim=str(default_prim.GetPath()) if default_prim else None,
            up_axis=self.up,
            meters_per_unit=self.mpu,
            kilograms_per_unit=self.kpu,
            issues=self.issues,
        )
        self._xform_cache = UsdGeom.XformCache()

    # -- entry -------------------------------------------------------------------------------------
    def read(self) -> AssetModel:
        from pxr import UsdPhysics

        self._check_stage()
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", DeprecationWarning)
            loader = getattr(UsdPhysics, "LoadUsdPhysicsFromRange")
            try:
                parsed = loader(self.stage, ["/"])
            except Exception as exc:  # noqa: BLE001
                self._issue("error", "PHYSICS_PARSE_FAILED", "/", f"UsdPhysics could not parse the stage: {_first_line(str(exc))}")
                parsed = {}
        by_type: dict[str, list] = {}
        for object_type, (paths, descs) in parsed.items():
            key = str(object_type).rsplit(".", 1)[-1]
            by_type.setdefault(key, []).extend(zip(paths, descs))

        materials = {str(p): self._material(p, d) for p, d in by_type.get("RigidBodyMaterial", [])}
        self._materials = materials
        for path, desc in by_type.get("RigidBody", []):
            self._body(path, desc)
        for key, shape in _SHAPE_TYPES.items():
            for path, desc in by_type.get(key, []):
                self._collider(path, desc, shape)
        for key, jtype in _JOINT_TYPES.items():
            for path, desc in by_type.get(key, []):
                self._joint(path, desc, jtype)
        for path, desc in by_type.get("Articulation", []):
            self._articulation(path, desc)
        self._collision_groups(by_type.get("CollisionGroup", []))
        self._actuators_and_mimics()
        self._mark_loops()
        self._check_content()
        self.model.robot_type = self._robot_type()
        return self.model

    # -- stage-level -------------------------------------------------------------------------------
    def _kilograms_per_unit(self) -> float:
        try:
            from pxr import UsdPhysics

            return float(UsdPhysics.GetStageKilogramsPerUnit(self.stage) or 1.0)
        except Exception:  # noqa: BLE001
            return 1.0

    def _check_stage(self) -> None:
        for code, message in self.stage_problems:
            self._issue("error", code, "/", message)
        root_layer = self.stage.GetRootLayer()
        for layer_path in root_layer.subLayerPaths:
            if not self._resolves(root_layer, layer_path):
                self._issue("error", "UNRESOLVED_SUBLAYER", "/", f"sublayer cannot be found: {layer_path}")
        if not self.stage.GetDefaultPrim():
            roots = [p for p in self.stage.GetPseudoRoot().GetChildren() if p.GetTypeName() != "PhysicsScene"]
            if len(roots) > 1:
                self._issue(
                    "warning",
                    "NO_DEFAULT_PRIM",
                    "/",
                    f"no defaultPrim and {len(roots)} root prims; validating the whole stage",
                )
        self._check_composition()

    def _check_composition(self) -> None:
        for prim in self.stage.Traverse():
            for spec in prim.GetPrimStack():
                for items in (spec.referenceList.GetAddedOrExplicitItems(), spec.payloadList.GetAddedOrExplicitItems()):
                    for item in items:
                        if item.assetPath and not self._resolves(spec.layer, item.assetPath):
                            self._issue(
                                "error",
                                "UNRESOLVED_REFERENCE",
                                str(prim.GetPath()),
                                f"reference or payload cannot be found: {item.assetPath}",
                            )

    @staticmethod
    def _resolves(layer, asset_path: str) -> bool:
        from pxr import Sdf

        try:
            resolved = Sdf.ComputeAssetPathRelativeToLayer(layer, asset_path)
        except Exception:  # noqa: BLE001
            return False
        if not resolved:
            return False
        if Sdf.Layer.Find(resolved):
            return True
        return os.path.exists(resolved)

    def _issue(self, severity: str, code: str, path: str, message: str) -> None:
        self.issues.append(AssetIssue(severity=severity, code=code, path=path, message=message))

    # -- conversions -------------------------------------------------------------------------------
    def _world_pos(self, pos) -> np.ndarray:
        return self.up_rot @ (np.array(pos, dtype=float) * self.mpu)

    def _world_quat(self, quat) -> np.ndarray:
        return quat_normalize(quat_mul(self.up_quat, _quat(quat)))

    def _world_vec(self, vec, scale: float = 1.0) -> np.ndarray:
        return self.up_rot @ (np.array(vec, dtype=float) * scale)

    def _world_pose(self, pos, quat) -> Pose:
        return Pose(self._world_pos(pos), self._world_quat(quat))

    def _local_pose(self, pos, quat) -> Pose:
        return Pose(np.array(pos, dtype=float) * self.mpu, quat_normalize(_quat(quat)))

    # -- materials ---------------------------------------------------------------------------------
    def _material(self, path, desc) -> MaterialInfo:
        prim = self.stage.GetPrimAtPath(path)
        density = float(desc.density) if desc.density and desc.density > 0 else None
        return MaterialInfo(
            path=str(path),
            static_friction=float(desc.staticFriction),
            dynamic_friction=float(desc.dynamicFriction),
            restitution=float(desc.restitution),
            density=density * self.kpu / self.mpu**3 if density else None,
            friction_combine=_attr(prim, "physxMaterial:frictionCombineMode"),
            restitution_combine=_attr(prim, "physxMaterial:restitutionCombineMode"),
        )

    # -- bodies ------------------------------------------------------------------------------------
    def _body(self, path, desc) -> None:
        from pxr import UsdPhysics

        prim = self.stage.GetPrimAtPath(path)
        spath = str(path)
        pos, rot = np.array(desc.position, float), _quat(desc.rotation)
        if not (_finite(pos) and _finite(rot)):
            self._issue("error", "TRANSFORM_NAN", spath, "rigid body transform contains NaN or Inf")
            pos, rot = np.nan_to_num(pos), np.array([1.0, 0, 0, 0])
        body = BodyInfo(
            path=spath,
            world_pose=self._world_pose(pos, rot),
            enabled=bool(desc.rigidBodyEnabled),
            kinematic=bool(desc.kinematicBody),
            linear_velocity=self._world_vec(desc.linearVelocity, self.mpu),
            angular_velocity=self._world_vec(desc.angularVelocity, math.pi / 180.0),
            starts_asleep=bool(desc.startsAsleep),
        )
        mass_api = UsdPhysics.MassAPI(prim)
        if prim.HasAPI(UsdPhysics.MassAPI):
            body.mass = self._mass_value(spath, mass_api.GetMassAttr().Get(), "mass", self.kpu)
            body.density = self._mass_value(spath, mass_api.GetDensityAttr().Get(), "density", self.kpu / self.mpu**3)
            com = mass_api.GetCenterOfMassAttr().Get()
            if com is not None and _finite(com) and not all(abs(c) > 1e30 for c in com):
                body.center_of_mass = np.array(com, float) * self.mpu
            elif com is not None and not _finite(com) and not all(math.isinf(c) and c < 0 for c in com):
                self._issue("error", "COM_NAN", spath, "centerOfMass contains NaN")
            inertia = mass_api.GetDiagonalInertiaAttr().Get()
            if inertia is not None:
                if not _finite(inertia) or any(i < 0 for i in inertia):
                    self._issue("error", "INERTIA_INVALID", spath, f"diagonalInertia must be finite and >= 0, got {tuple(inertia)}")
                elif any(i > 0 for i in inertia):
                    body.diagonal_inertia = np.array(inertia, float) * self.kpu * self.mpu**2
            axes = mass_api.GetPrincipalAxesAttr().Get()
            if axes is not None and body.diagonal_inertia is not None:
                q = _quat(axes)
                if _finite(q) and np.linalg.norm(q) > 1e-6:
                    body.principal_axes = quat_normalize(q)
        self.model.bodies[spath] = body

    def _mass_value(self, path: str, value, what: str, unit: float) -> float | None:
        """MassAPI mass/density: 0 means 'not authored' (UsdPhysics); NaN, Inf and negatives are errors."""
        if value is None:
            return None
        value = float(value)
        if not math.isfinite(value):
            self._issue("error", f"{what.upper()}_NAN", path, f"{what} is {value}: must be a finite positive number")
            return None
        if value < 0:
            self._issue("error", f"{what.upper()}_NEGATIVE", path, f"{what} is negative ({value})")
            return None
        if value == 0:
            return None
        return value * unit

    # -- colliders ---------------------------------------------------------------------------------
    def _collider(self, path, desc, shape: str) -> None:
        from pxr import UsdPhysics

        spath = str(path)
        prim = self.stage.GetPrimAtPath(path)
        body_path = str(desc.rigidBody) if desc.rigidBody and str(desc.rigidBody) else None
        if body_path is not None and body_path not in self.model.bodies:
            body_path = None
        local_pos, local_rot = np.array(desc.localPos, float), _quat(desc.localRot)
        if not (_finite(local_pos) and _finite(local_rot)):
            self._issue("error", "TRANSFORM_NAN", spath, "collider transform contains NaN or Inf")
            local_pos, local_rot = np.zeros(3), np.array([1.0, 0, 0, 0])
        local = self._local_pose(local_pos, local_rot)
        if body_path is not None:
            body = self.model.bodies[body_path]
            from ..geometry import compose

            wp, wq = compose(body.world_pose.pos, body.world_pose.quat, local.pos, local.quat)
            world = Pose(wp, wq)
        else:
            world = self._world_pose(local_pos, local_rot)
            local = world
        collider = ColliderInfo(
            path=spath,
            shape=shape,
            body=body_path,
            local_pose=local,
            world_pose=world,
            collision_enabled=bool(desc.collisionEnabled),
            collision_groups=[str(g) for g in desc.collisionGroups],
        )
        if shape == "box":
            collider.half_extents = np.abs(np.array(desc.halfExtents, float)) * self.mpu
        elif shape == "sphere":
            collider.radius = abs(float(desc.radius)) * self.mpu
        elif shape in ("capsule", "cylinder", "cone"):
            collider.radius = abs(float(desc.radius)) * self.mpu
            collider.half_height = abs(float(desc.halfHeight)) * self.mpu
            collider.axis = str(desc.axis).rsplit(".", 1)[-1][-1] if str(desc.axis) else "Z"
        elif shape == "plane":
            collider.axis = str(desc.axis).rsplit(".", 1)[-1][-1] if str(desc.axis) else "Z"
        elif shape == "mesh":
            collider.approximation = str(desc.approximation) if desc.approximation else "none"
            self._mesh_geometry(prim, collider)
        material = self._collider_material(desc)
        collider.material = material
        if prim.HasAPI(UsdPhysics.MassAPI):
            mass_api = UsdPhysics.MassAPI(prim)
            collider.mass = self._mass_value(spath, mass_api.GetMassAttr().Get(), "mass", self.kpu)
            collider.density = self._mass_value(spath, mass_api.GetDensityAttr().Get(), "density", self.kpu / self.mpu**3)
        self._check_collider_size(collider)
        self.model.colliders[spath] = collider
        if body_path is not None:
            self.model.bodies[body_path].colliders.append(spath)

    def _collider_material(self, desc) -> MaterialInfo | None:
        for material_path in desc.materials:
            material = self._materials.get(str(material_path))
            if material is not None:
                return material
        return None

    def _mesh_geometry(self, prim, collider: ColliderInfo) -> None:
        """Mesh points expressed in the collider frame the parser reports, with all scale baked in."""
        from pxr import UsdGeom

        mesh = UsdGeom.Mesh(prim)
        points = mesh.GetPointsAttr().Get() if mesh else None
        if points is None or len(points) == 0:
            self._issue("error", "MESH_NO_POINTS", collider.path, "mesh collider has no points")
            collider.mesh_points = np.zeros((0, 3))
            return
        pts = np.array(points, dtype=float)
        if not _finite(pts):
            self._issue("error", "MESH_NAN", collider.path, "mesh collider points contain NaN or Inf")
            pts = np.nan_to_num(pts)
        counts = mesh.GetFaceVertexCountsAttr().Get()
        indices = mesh.GetFaceVertexIndicesAttr().Get()
        collider.mesh_face_vertex_counts = np.array(counts, dtype=np.int64) if counts is not None else np.zeros(0, np.int64)
        collider.mesh_face_vertex_indices = np.array(indices, dtype=np.int64) if indices is not None else np.zeros(0, np.int64)
        if len(collider.mesh_face_vertex_counts) == 0:
            self._issue("error", "MESH_NO_FACES", collider.path, "mesh collider has no faces")
        # Full stage-space transform of the mesh, then into the collider frame (unscaled pose).
        matrix = np.array(self._xform_cache.GetLocalToWorldTransform(prim), dtype=float).T  # column-vector form
        world_pts = (matrix[:3, :3] @ pts.T).T + matrix[:3, 3]
        world_pts = (self.up_rot @ (world_pts * self.mpu).T).T
        frame_rot = quat_to_matrix(collider.world_pose.quat)
        collider.mesh_points = (frame_rot.T @ (world_pts - collider.world_pose.pos).T).T

    def _check_collider_size(self, collider: ColliderInfo) -> None:
        from ..geometry import collider_local_extent

        if collider.shape == "plane":
            return
        extent = collider_local_extent(collider)
        if extent is None:
            return
        size = extent[1] - extent[0]
        if not _finite(size):
            self._issue("error", "COLLIDER_NAN", collider.path, "collider size contains NaN or Inf")
            return
        if collider.shape == "mesh":
            thin = int(np.sum(size < 1e-9))
            if thin >= 1:
                self._issue(
                    "error",
                    "ZERO_VOLUME_COLLIDER",
                    collider.path,
                    f"mesh collider is flat or degenerate (extent {np.round(size, 6).tolist()} m): it has no volume",
                )
        elif np.any(size <= 0):
            self._issue("error", "ZERO_VOLUME_COLLIDER", collider.path, f"{collider.shape} collider has zero size")

    # -- joints ------------------------------------------------------------------------------------
    def _joint(self, path, desc, jtype: str) -> None:
        spath = str(path)
        prim = self.stage.GetPrimAtPath(path)
        body0 = self._joint_body(desc.body0)
        body1 = self._joint_body(desc.body1)
        for rel_name, rel_target, resolved in (("body0", desc.rel0, body0), ("body1", desc.rel1, body1)):
            target = str(rel_target) if rel_target else ""
            if target and not self.stage.GetPrimAtPath(target):
                self._issue("error", "JOINT_TARGET_MISSING", spath, f"physics:{rel_name} targets a missing prim {target}")
        pose0 = self._local_pose(desc.localPose0Position, desc.localPose0Orientation)
        pose1 = self._local_pose(desc.localPose1Position, desc.localPose1Orientation)
        if body0 is None:
            # Relative to the world: the local pose is a world pose in stage space.
            pose0 = self._world_pose(desc.localPose0Position, desc.localPose0Orientation)
        if body1 is None:
            pose1 = self._world_pose(desc.localPose1Position, desc.localPose1Orientation)
        joint = JointInfo(
            path=spath,
            type=jtype,
            body0=body0,
            body1=body1,
            local_pose0=pose0,
            local_pose1=pose1,
            enabled=bool(desc.jointEnabled),
            exclude_from_articulation=bool(desc.excludeFromArticulation),
            collision_enabled=bool(desc.collisionEnabled),
            break_force=float(desc.breakForce),
            break_torque=float(desc.breakTorque),
        )
        if jtype in ("revolute", "prismatic"):
            joint.axis = str(desc.axis).rsplit(".", 1)[-1][-1] if str(desc.axis) else "X"
            angular = jtype == "revolute"
            limit = desc.limit
            if limit.enabled and _finite([limit.lower, limit.upper]) and abs(limit.lower) < 1e30 and abs(limit.upper) < 1e30:
                joint.lower = self._joint_value(limit.lower, angular)
                joint.upper = self._joint_value(limit.upper, angular)
            drive = desc.drive
            if drive.enabled:
                joint.drive = self._drive("angular" if angular else "linear", drive, angular)
            self._velocity_limit(prim, joint)
            state = _attr(prim, f"state:{'angular' if angular else 'linear'}:physics:position")
            if state is not None and _finite(state):
                joint.joint_state_position = self._joint_value(float(state), angular)
        elif jtype in ("d6", "spherical"):
            self._d6(desc, joint, jtype)
        self.model.joints[spath] = joint

    def _joint_body(self, path) -> str | None:
        spath = str(path) if path else ""
        if not spath:
            return None
        return spath if spath in self.model.bodies else None

    def _joint_value(self, value: float, angular: bool) -> float:
        return math.radians(value) if angular else value * self.mpu

    def _drive(self, axis: str, drive, angular: bool) -> DriveInfo:
        if angular:
            gain_unit = self.kpu * self.mpu**2 * 180.0 / math.pi
            force_unit = self.kpu * self.mpu**2
        else:
            gain_unit = self.kpu
            force_unit = self.kpu * self.mpu
        max_force = float(drive.forceLimit)
        if not math.isfinite(max_force) or max_force <= 0 or max_force > 1e30:
            max_force = math.inf if (not math.isfinite(max_force) or max_force > 1e30) else max_force
        return DriveInfo(
            axis=axis,
            type="acceleration" if drive.acceleration else "force",
            stiffness=max(float(drive.stiffness), 0.0) * gain_unit,
            damping=max(float(drive.damping), 0.0) * gain_unit,
            max_force=max_force * force_unit if math.isfinite(max_force) else math.inf,
            target_position=self._joint_value(float(drive.targetPosition), angular),
            target_velocity=self._joint_value(float(drive.targetVelocity), angular),
        )

    def _d6(self, desc, joint: JointInfo, jtype: str) -> None:
        if jtype == "spherical":
            joint.axis = str(desc.axis).rsplit(".", 1)[-1][-1] if str(desc.axis) else "X"
            limit = desc.limit
            if limit.enabled:
                joint.d6_limits["cone0"] = LimitInfo(math.radians(limit.angle0), math.radians(limit.angle0))
                joint.d6_limits["cone1"] = LimitInfo(math.radians(limit.angle1), math.radians(limit.angle1))
            return
        for pair in getattr(desc, "jointLimits", []):
            axis, limit = _d6_axis(pair.first), pair.second
            angular = axis.startswith("rot")
            if limit.enabled:
                joint.d6_limits[axis] = LimitInfo(self._joint_value(limit.lower, angular), self._joint_value(limit.upper, angular))
        for pair in getattr(desc, "jointDrives", []):
            axis, drive = _d6_axis(pair.first), pair.second
            if drive.enabled:
                joint.d6_drives[axis] = self._drive(axis, drive, axis.startswith("rot"))

    def _velocity_limit(self, prim, joint: JointInfo) -> None:
        """physxJoint:maxJointVelocity, then physxJointAxis:<axis>:maxJointVelocity, then newton:velocityLimit."""
        angular = joint.type == "revolute"
        axis_names = ["angular", "rotX", "rotY", "rotZ"] if angular else ["linear", "transX", "transY", "transZ"]
        candidates = ["physxJoint:maxJointVelocity"]
        candidates += [f"physxJointAxis:{axis}:maxJointVelocity" for axis in axis_names]
        candidates.append("newton:velocityLimit")
        for name in candidates:
            attr = prim.GetAttribute(name)
            if not attr or not attr.HasAuthoredValue():
                continue
            value = attr.Get()
            if value is None:
                continue
            value = float(value)
            if not math.isfinite(value) or value <= 0:
                self._issue("warning", "VELOCITY_LIMIT_INVALID", joint.path, f"{name} = {value} is not a finite positive limit; ignored")
                continue
            joint.velocity_limit = math.radians(value) if angular else value * self.mpu
            joint.velocity_limit_source = name
            return

    # -- articulations -----------------------------------------------------------------------------
    def _articulation(self, path, desc) -> None:
        root = str(path)
        joints = [str(j) for j in desc.articulatedJoints if str(j) in self.model.joints]
        # The parser can leave out a root link whose only joint goes to the world (it lists the world
        # instead): take the bodies of the articulated joints and the root prim as well.
        candidates = [str(b) for b in desc.articulatedBodies]
        candidates += [b for j in joints for b in (self.model.joints[j].body0, self.model.joints[j].body1) if b]
        candidates.append(root)
        bodies = list(dict.fromkeys(b for b in candidates if b and b in self.model.bodies))
        info = ArticulationInfo(root=root, bodies=bodies, joints=joints)
        for body in bodies:
            self.model.bodies[body].articulation = root
        for jpath in joints:
            joint = self.model.joints[jpath]
            joint.articulation = root
            if joint.enabled and (joint.body0 is None) != (joint.body1 is None):
                info.fixed_base = True  # the world is the base
                if joint.type == "fixed":
                    info.base_body = joint.body1 or joint.body0  # welded base link
        if info.base_body is None:
            if root in self.model.bodies:
                info.base_body = root
            else:
                children = {j.body1 for j in (self.model.joints[p] for p in joints) if j.body0 and j.body1}
                roots = [b for b in bodies if b not in children]
                info.base_body = roots[0] if roots else (bodies[0] if bodies else None)
        self.model.articulations.append(info)

    def _collision_groups(self, groups) -> None:
        for path, desc in groups:
            for other in desc.filteredGroups:
                self.model.collision_group_filters.append((str(path), str(other)))
        # Pairwise filters (UsdPhysics.FilteredPairsAPI) on bodies and colliders.
        from pxr import UsdPhysics

        for prim in self.stage.Traverse():
            if prim.HasAPI(UsdPhysics.FilteredPairsAPI):
                for target in UsdPhysics.FilteredPairsAPI(prim).GetFilteredPairsRel().GetTargets():
                    self.model.filtered_pairs.append((str(prim.GetPath()), str(target)))

    # -- actuators, mimic joints, loops ------------------------------------------------------------
    def _actuators_and_mimics(self) -> None:
        joints = self.model.joints
        tendons: dict[str, list[str]] = {}
        actuators = []
        for prim in self.stage.Traverse():
            type_name = prim.GetTypeName()
            if type_name == "MjcTendon":
                rel = prim.GetRelationship("mjc:path")
                tendons[str(prim.GetPath())] = [str(t) for t in rel.GetTargets()] if rel else []
            elif type_name in ("MjcActuator", "NewtonActuator"):
                actuators.append(prim)
            path = str(prim.GetPath())
            if path in joints:
                self._mimic(prim, joints[path])
        for prim in actuators:
            rel_name = "mjc:target" if prim.GetTypeName() == "MjcActuator" else "newton:targets"
            rel = prim.GetRelationship(rel_name)
            targets = [str(t) for t in rel.GetTargets()] if rel else []
            for target in targets:
                for jpath in tendons.get(target, [target]):
                    if jpath in joints:
                        joints[jpath].actuated_by.append(str(prim.GetPath()))

    def _mimic(self, prim, joint: JointInfo) -> None:
        schemas = [str(s) for s in prim.GetPrimTypeInfo().GetAppliedAPISchemas()]
        for schema in schemas:
            if schema.startswith("PhysxMimicJointAPI:"):
                axis = schema.split(":", 1)[1]
                rel = prim.GetRelationship(f"physxMimicJoint:{axis}:referenceJoint")
                targets = rel.GetTargets() if rel else []
                if targets:
                    joint.mimic_reference = str(targets[0])
                    joint.mimic_schema = schema
                    return
        if "NewtonMimicAPI" in schemas:
            rel = prim.GetRelationship("newton:mimicJoint")
            targets = rel.GetTargets() if rel else []
            if targets:
                joint.mimic_reference = str(targets[0])
                joint.mimic_schema = "NewtonMimicAPI"

    def _mark_loops(self) -> None:
        """Joints that close a kinematic loop: excluded from the articulation, or a second path between bodies."""
        parent: dict[str, str] = {}

        def find(x: str) -> str:
            while parent.get(x, x) != x:
                x = parent.get(x, x)
            return x

        for joint in self.model.joints.values():
            if not joint.enabled:
                continue
            a, b = joint.body0 or "<world>", joint.body1 or "<world>"
            if joint.exclude_from_articulation and joint.body0 and joint.body1:
                joint.loop_closing = True
                continue
            ra, rb = find(a), find(b)
            if ra == rb and a != b:
                joint.loop_closing = True
                self._issue("warning", "ARTICULATION_LOOP", joint.path, "joint closes a kinematic loop without excludeFromArticulation")
            else:
                parent[ra] = rb

    def _check_content(self) -> None:
        if not self.model.bodies:
            return
        for body in self.model.bodies.values():
            if body.enabled and not body.kinematic and not body.colliders and body.mass is None and body.articulation is None:
                self._issue("warning", "BODY_WITHOUT_COLLIDER", body.path, "rigid body has no collider and no authored mass")

    def _robot_type(self) -> str | None:
        prim = self.stage.GetDefaultPrim()
        candidates = [prim, *prim.GetChildren()] if prim else []
        for candidate in candidates:
            value = _attr(candidate, "isaac:robotType")
            if value:
                return str(value).strip().lower().replace(" ", "_")
        return None


def _d6_axis(dof) -> str:
    """UsdPhysics JointDOF enum (TransX, RotY, ...) -> rotX-style token used in USD attribute names."""
    name = str(dof).rsplit(".", 1)[-1]
    return name[0].lower() + name[1:]


def _quat(q) -> np.ndarray:
    """GfQuat (real, imaginary) or a 4-sequence (w, x, y, z) -> numpy wxyz."""
    if hasattr(q, "GetReal"):
        im = q.GetImaginary()
        return np.array([q.GetReal(), im[0], im[1], im[2]], dtype=float)
    return np.array(q, dtype=float)


def _attr(prim, name: str):
    attr = prim.GetAttribute(name) if prim else None
    if attr and attr.HasAuthoredValue():
        return attr.Get()
    return None


def find_usd_files(folder: str | os.PathLike) -> list[Path]:
    """USD files under a folder, sorted; payload/sublayer files of converted assets are skipped.

    Converted assets keep their layers in a `Payload/` folder; those layers are parts, not assets.
    """
    folder = Path(folder)
    found = []
    for path in sorted(folder.rglob("*")):
        if path.suffix.lower() in USD_EXTENSIONS and path.is_file():
            if any(part.lower() == "payload" for part in path.relative_to(folder).parts[:-1]):
                continue
            found.append(path)
    return found
