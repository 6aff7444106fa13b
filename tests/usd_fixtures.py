"""Small USD assets authored with pxr for the core and ground_drop tests.

Each builder writes a real .usda file and returns its path. Options cover the spec's failure
modes (kinematic, anchored, no rigid body, no collider, authored velocities) and the unit/up-axis
variants the asset model must normalise.
"""

from __future__ import annotations

from pathlib import Path

from pxr import Gf, Sdf, Usd, UsdGeom, UsdPhysics

SHARED_ASSETS = Path(__file__).resolve().parents[1].parent / "shared" / "assets"


def new_stage(path: Path, up_axis: str = "Z", meters_per_unit: float = 1.0, kilograms_per_unit: float = 1.0):
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    stage = Usd.Stage.CreateNew(str(path))
    UsdGeom.SetStageUpAxis(stage, UsdGeom.Tokens.y if up_axis == "Y" else UsdGeom.Tokens.z)
    UsdGeom.SetStageMetersPerUnit(stage, meters_per_unit)
    UsdPhysics.SetStageKilogramsPerUnit(stage, kilograms_per_unit)
    root = UsdGeom.Xform.Define(stage, "/Asset")
    stage.SetDefaultPrim(root.GetPrim())
    return stage


def add_material(stage, path: str, static_friction=0.8, dynamic_friction=0.6, restitution=0.0):
    from pxr import UsdShade

    material = UsdShade.Material.Define(stage, path)
    api = UsdPhysics.MaterialAPI.Apply(material.GetPrim())
    api.CreateStaticFrictionAttr(static_friction)
    api.CreateDynamicFrictionAttr(dynamic_friction)
    api.CreateRestitutionAttr(restitution)
    return material


def bind_physics_material(prim, material) -> None:
    from pxr import UsdShade

    UsdShade.MaterialBindingAPI.Apply(prim).Bind(material, UsdShade.Tokens.weakerThanDescendants, "physics")


def box_asset(
    path: Path,
    size: float = 0.1,
    mass: float | None = 1.0,
    position=(0.0, 0.0, 0.5),
    up_axis: str = "Z",
    meters_per_unit: float = 1.0,
    rigid_body: bool = True,
    collider: bool = True,
    collision_enabled: bool = True,
    kinematic: bool = False,
    anchored: bool = False,
    velocity=None,
    angular_velocity=None,
    shape: str = "cube",
    restitution: float = 0.0,
    friction: float = 0.7,
) -> Path:
    """A single rigid body with one collider: the ground_drop workhorse.

    `size` and `position` are in metres and Z-up; they are converted to the stage's own units and
    up axis so Y-up / centimetre twins describe the same physical object.
    """
    stage = new_stage(path, up_axis, meters_per_unit)
    units = 1.0 / meters_per_unit

    def to_stage(v, scale=units):
        x, y, z = v
        return Gf.Vec3d(x * scale, z * scale, -y * scale) if up_axis == "Y" else Gf.Vec3d(x * scale, y * scale, z * scale)

    body = UsdGeom.Xform.Define(stage, "/Asset/Body")
    body.AddTranslateOp().Set(to_stage(position))
    if rigid_body:
        rb = UsdPhysics.RigidBodyAPI.Apply(body.GetPrim())
        if kinematic:
            rb.CreateKinematicEnabledAttr(True)
        if velocity is not None:
            rb.CreateVelocityAttr(Gf.Vec3f(*to_stage(velocity)))
        if angular_velocity is not None:
            rb.CreateAngularVelocityAttr(Gf.Vec3f(*to_stage(angular_velocity, 1.0)))  # deg/s
        if mass is not None:
            UsdPhysics.MassAPI.Apply(body.GetPrim()).CreateMassAttr(mass)
    if shape == "cube":
        geom = UsdGeom.Cube.Define(stage, "/Asset/Body/Geom")
        geom.CreateSizeAttr(size * units)
    elif shape == "sphere":
        geom = UsdGeom.Sphere.Define(stage, "/Asset/Body/Geom")
        geom.CreateRadiusAttr(size / 2 * units)
    else:
        raise ValueError(shape)
    if collider:
        api = UsdPhysics.CollisionAPI.Apply(geom.GetPrim())
        if not collision_enabled:
            api.CreateCollisionEnabledAttr(False)
        material = add_material(stage, "/Asset/PhysicsMaterial", friction, friction, restitution)
        bind_physics_material(geom.GetPrim(), material)
    if anchored:
        joint = UsdPhysics.FixedJoint.Define(stage, "/Asset/WorldAnchor")
        joint.CreateBody1Rel().SetTargets([Sdf.Path("/Asset/Body")])
    stage.GetRootLayer().Save()
    return Path(path)


def shared_asset(relative: str) -> Path:
    return SHARED_ASSETS / relative
