"""Write the bundled example assets under exts/omni.simready.physics_validator/data/examples/.

crate.usda: a 30 cm wooden crate (one rigid body, box collider, 4 kg, wood-like friction): the
asset the README validates. Run again after changing it; the files are committed.
"""

from __future__ import annotations

from pathlib import Path

from pxr import Gf, Usd, UsdGeom, UsdPhysics, UsdShade

EXAMPLES = Path(__file__).resolve().parents[1] / "exts" / "omni.simready.physics_validator" / "data" / "examples"


def build_crate(path: Path) -> Path:
    stage = Usd.Stage.CreateNew(str(path))
    UsdGeom.SetStageUpAxis(stage, UsdGeom.Tokens.z)
    UsdGeom.SetStageMetersPerUnit(stage, 1.0)
    UsdPhysics.SetStageKilogramsPerUnit(stage, 1.0)
    root = UsdGeom.Xform.Define(stage, "/Crate")
    stage.SetDefaultPrim(root.GetPrim())
    UsdPhysics.RigidBodyAPI.Apply(root.GetPrim())
    UsdPhysics.MassAPI.Apply(root.GetPrim()).CreateMassAttr(4.0)
    visual = UsdGeom.Cube.Define(stage, "/Crate/Visual")
    visual.CreateSizeAttr(0.3)
    visual.CreateDisplayColorAttr([Gf.Vec3f(0.62, 0.45, 0.25)])
    collider = UsdGeom.Cube.Define(stage, "/Crate/Collider")
    collider.CreateSizeAttr(0.3)
    collider.CreatePurposeAttr(UsdGeom.Tokens.guide)
    UsdPhysics.CollisionAPI.Apply(collider.GetPrim())
    material = UsdShade.Material.Define(stage, "/Crate/PhysicsMaterials/Wood")
    api = UsdPhysics.MaterialAPI.Apply(material.GetPrim())
    api.CreateStaticFrictionAttr(0.6)
    api.CreateDynamicFrictionAttr(0.5)
    api.CreateRestitutionAttr(0.1)
    UsdShade.MaterialBindingAPI.Apply(collider.GetPrim()).Bind(material, UsdShade.Tokens.weakerThanDescendants, "physics")
    stage.GetRootLayer().Save()
    return path


if __name__ == "__main__":
    EXAMPLES.mkdir(parents=True, exist_ok=True)
    print(build_crate(EXAMPLES / "crate.usda"))
