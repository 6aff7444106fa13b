"""Fuzz: mutated small stages never make the asset model or any precheck raise.

Hypothesis mutates a valid articulated asset (a box base, a mesh link, a driven revolute joint, a
physics material): attribute values (NaN, Inf, negative, zero, huge, wrong-length arrays, bad mesh
indices), stage metadata (metersPerUnit, upAxis), removed prims and broken relationships. For each
mutant `read_asset` may only raise AssetLoadError, and `asset_error_precheck`, every registered
test's `precheck` and `scene` must return normally.
"""

from __future__ import annotations

import math
import tempfile
from pathlib import Path

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from pxr import Gf, Sdf, Usd, UsdPhysics, UsdShade, Vt

from omni.simready.physics_validator.core.config import ValidationConfig
from omni.simready.physics_validator.physics_tests import default_registry
from omni.simready.physics_validator.core.session import asset_error_precheck
from omni.simready.physics_validator.core.usd import AssetLoadError, read_asset

from . import builders as b

ROOT = "/Asset"


def _base_layer() -> Sdf.Layer:
    folder = Path(tempfile.mkdtemp(prefix="fuzz-base-"))
    s = b.Stage(folder / "base.usda")
    s.box_body(f"{ROOT}/Base", center=(0, 0, 0.1), half=(0.2, 0.2, 0.1), mass=5.0)
    counts, indices = b.cube_topology()
    s.mesh_body(f"{ROOT}/Link", b.cube_points(0.05), counts, indices, center=(0, 0, 0.35), mass=0.5)
    joint = s.revolute(f"{ROOT}/Joints/shoulder", f"{ROOT}/Base", f"{ROOT}/Link", (0, 0, 0.1), (0, 0, -0.05))
    drive = UsdPhysics.DriveAPI.Apply(joint.GetPrim(), "angular")
    drive.CreateStiffnessAttr(50.0)
    drive.CreateDampingAttr(5.0)
    drive.CreateMaxForceAttr(100.0)
    joint.GetPrim().CreateAttribute("physxJoint:maxJointVelocity", Sdf.ValueTypeNames.Float).Set(90.0)
    mass = UsdPhysics.MassAPI(s.stage.GetPrimAtPath(f"{ROOT}/Link"))
    mass.CreateCenterOfMassAttr(Gf.Vec3f(0, 0, 0.01))
    mass.CreateDiagonalInertiaAttr(Gf.Vec3f(0.001, 0.001, 0.001))
    mass.CreateDensityAttr(0.0)
    material = UsdShade.Material.Define(s.stage, f"{ROOT}/Material")
    UsdPhysics.MaterialAPI.Apply(material.GetPrim()).CreateStaticFrictionAttr(0.7)
    UsdShade.MaterialBindingAPI.Apply(s.stage.GetPrimAtPath(f"{ROOT}/Base/Collider")).Bind(
        material, UsdShade.Tokens.weakerThanDescendants, "physics"
    )
    filtered = UsdPhysics.FilteredPairsAPI.Apply(s.stage.GetPrimAtPath(f"{ROOT}/Base"))
    filtered.CreateFilteredPairsRel().SetTargets([f"{ROOT}/Link"])
    s.articulation_root()
    s.save()
    return Sdf.Layer.FindOrOpen(str(s.path))


BASE = _base_layer()

floats = st.sampled_from([math.nan, math.inf, -math.inf, 0.0, -1.0, -1e-12, 1e-12, 1e30, -1e30, 1.0, 90.0])
vec3 = st.tuples(floats, floats, floats)
int_values = st.sampled_from([-1, 0, 1, 3, 7, 8, 1000, 2**31 - 1])


def _value_for(type_name: str, draw):
    """A hostile value of the attribute's own type (so the mutation is authorable)."""
    if type_name in ("float", "double", "half"):
        return draw(floats)
    if type_name in ("float3", "double3", "point3f", "vector3f", "normal3f", "color3f"):
        return Gf.Vec3d(*draw(vec3)) if type_name == "double3" else Gf.Vec3f(*draw(vec3))
    if type_name in ("quatf", "quatd"):
        w, x, y, z = draw(st.tuples(floats, floats, floats, floats))
        return Gf.Quatf(w, x, y, z) if type_name == "quatf" else Gf.Quatd(w, x, y, z)
    if type_name in ("point3f[]", "vector3f[]", "normal3f[]"):
        points = draw(st.lists(vec3, max_size=9))
        return Vt.Vec3fArray([Gf.Vec3f(*p) for p in points])
    if type_name == "int[]":
        return Vt.IntArray(draw(st.lists(int_values, max_size=12)))
    if type_name == "int":
        return draw(int_values)
    if type_name == "bool":
        return draw(st.booleans())
    if type_name == "token":
        return draw(st.sampled_from(["X", "Y", "Z", "", "W", "none", "convexHull", "sdf", "bogus"]))
    return None


@st.composite
def mutations(draw):
    """A list of (kind, details) edits, applied in order."""
    stage = Usd.Stage.Open(BASE)
    attrs = [
        (str(a.GetPath()), str(a.GetTypeName()))
        for p in stage.Traverse()
        for a in p.GetAttributes()
        if a.HasAuthoredValue() or a.GetName().startswith(("physics:", "xformOp:"))
    ]
    rels = [str(r.GetPath()) for p in stage.Traverse() for r in p.GetRelationships()]
    prims = [str(p.GetPath()) for p in stage.Traverse()]
    edits = []
    for _ in range(draw(st.integers(1, 4))):
        kind = draw(st.sampled_from(["attr", "attr", "attr", "remove", "rel", "meta"]))
        if kind == "attr":
            path, type_name = draw(st.sampled_from(attrs))
            value = _value_for(type_name, draw)
            if value is not None:
                edits.append(("attr", path, value))
        elif kind == "remove":
            edits.append(("remove", draw(st.sampled_from(prims))))
        elif kind == "rel":
            targets = draw(st.lists(st.sampled_from(prims + ["/Nowhere", f"{ROOT}/Missing/Body", ROOT]), max_size=3))
            edits.append(("rel", draw(st.sampled_from(rels)), targets))
        else:
            edits.append(("meta", draw(st.sampled_from(["metersPerUnit", "upAxis", "kilogramsPerUnit", "defaultPrim"])),
                          draw(st.sampled_from([0.0, -1.0, math.nan, 1e-9, "X", "Y", "", "Nowhere"]))))
    return edits


def _apply(stage, edits) -> None:
    for edit in edits:
        if edit[0] == "attr":
            attr = stage.GetAttributeAtPath(edit[1])
            if attr:
                attr.Set(edit[2])
        elif edit[0] == "remove":
            stage.RemovePrim(edit[1])
        elif edit[0] == "rel":
            rel = stage.GetRelationshipAtPath(edit[1])
            if rel:
                rel.SetTargets([Sdf.Path(t) for t in edit[2]])
        else:
            _, key, value = edit
            if key == "defaultPrim":
                if isinstance(value, str) and value:
                    stage.GetRootLayer().defaultPrim = value
                else:
                    stage.ClearDefaultPrim()
            elif isinstance(value, float) == (key != "upAxis"):
                stage.SetMetadata(key, value)


@settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.too_slow], database=None)
@given(edits=mutations())
def test_mutated_stages_never_break_the_reader_or_prechecks(edits):
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "mutant.usda"
        layer = Sdf.Layer.CreateNew(str(path))
        layer.TransferContent(BASE)
        stage = Usd.Stage.Open(layer)
        try:
            _apply(stage, edits)
        except Exception:  # noqa: BLE001 - pxr refused the edit itself: nothing to validate
            return
        layer.Save()
        try:
            asset = read_asset(path)
        except AssetLoadError:
            return
        asset_error_precheck(asset)
        config = ValidationConfig.defaults(default_registry())
        for name, test_cls in default_registry().items():
            test = test_cls()
            decision = test.precheck(asset, config.for_test(name))
            if decision is None and not asset.errors():
                test.scene(asset, config.for_test(name))
