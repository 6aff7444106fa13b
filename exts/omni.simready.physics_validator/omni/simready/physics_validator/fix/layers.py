"""USD layers of the fix: the override layer (only changed attributes, a comment per joint), the root that
composes it over the asset, and the probe layers the measurements use. The asset is only ever sublayered.

Units: USD authors angular drive gains per degree (stiffness N·m/°, damping N·m·s/°, in stage mass and length
units), maxForce in N·m (N for linear drives), velocity caps in °/s (stage units/s for prismatic joints); the
asset model holds SI per radian. `UsdUnits` converts one way and the other, as `core.usd.joints` reads them.
"""

from __future__ import annotations

import math
import os
from dataclasses import dataclass, field
from pathlib import Path

# The drive attributes the fix may change, by short name.
DRIVE_ATTRS = ("stiffness", "damping", "maxForce")


def drive_axis(angular: bool) -> str:
    return "angular" if angular else "linear"


def drive_attr(angular: bool, name: str) -> str:
    """'drive:angular:physics:stiffness' (name: stiffness, damping, maxForce, targetPosition, type)."""
    return f"drive:{drive_axis(angular)}:physics:{name}"


def axis_velocity_attr(angular: bool) -> str:
    """The per-axis velocity cap PhysX 5.12 and Isaac Sim both parse (PhysxJointAxisAPI:<axis>)."""
    return f"physxJointAxis:{drive_axis(angular)}:maxJointVelocity"


LEGACY_VELOCITY_ATTR = "physxJoint:maxJointVelocity"
# legacy attribute -> the per-axis attribute name it is carried to (after physxJointAxis:<axis>:)
PER_AXIS = {"physxJoint:maxJointVelocity": "maxJointVelocity", "newton:velocityLimit": "maxJointVelocity",
            "physxJoint:armature": "armature"}


def per_axis_attr(legacy: str, angular: bool) -> str:
    """The per-axis spelling PhysX 5.12 and Isaac Sim both parse for a legacy joint attribute."""
    return f"physxJointAxis:{drive_axis(angular)}:{PER_AXIS[legacy]}"


@dataclass(frozen=True)
class UsdUnits:
    """SI <-> USD authored units of drive values for one stage (kilogramsPerUnit, metersPerUnit)."""

    kpu: float = 1.0
    mpu: float = 1.0

    def gain(self, angular: bool) -> float:
        """USD stiffness/damping x this = SI (per radian / per metre)."""
        return self.kpu * self.mpu**2 * 180.0 / math.pi if angular else self.kpu

    def force(self, angular: bool) -> float:
        """USD maxForce x this = SI (N·m / N)."""
        return self.kpu * self.mpu**2 if angular else self.kpu * self.mpu

    def to_usd(self, name: str, value: float, angular: bool) -> float:
        scale = self.force(angular) if name == "maxForce" else self.gain(angular)
        return value / scale

    def to_si(self, name: str, value: float, angular: bool) -> float:
        scale = self.force(angular) if name == "maxForce" else self.gain(angular)
        return value * scale

    @staticmethod
    def label(name: str, angular: bool) -> str:
        """The USD unit of a drive attribute as people read it (stage units taken as SI)."""
        force = "N·m" if angular else "N"
        per = "°" if angular else "m"
        return {"stiffness": f"{force}/{per}", "damping": f"{force}·s/{per}", "maxForce": force,
                "maxJointVelocity": "°/s" if angular else "m/s"}.get(name, "")


@dataclass
class JointOverride:
    """What one joint's over carries: attribute -> value (USD units), applied API schemas, a comment."""

    path: str
    values: dict[str, object] = field(default_factory=dict)  # float; a str is a token (a drive's type); a Gf quaternion
    apis: list[str] = field(default_factory=list)
    comment: str = ""


def authored_value(stage, path: str, attr: str):
    """The composed value of `attr` on the prim at `path` when authored, else None."""
    prim = stage.GetPrimAtPath(path)
    if not prim:
        return None
    a = prim.GetAttribute(attr)
    if not a or not a.HasAuthoredValue():
        return None
    value = a.Get()
    return float(value) if value is not None else None


def write_override_layer(path: str | Path, stage, overrides: list[JointOverride], header: str = "") -> Path:
    """An over-only layer at `path`: for each joint only the given attributes (typed as the composed stage
    types them, float otherwise) and prepended API schemas, with the joint's comment. Never sublayers."""
    from pxr import Sdf

    path = Path(path)
    layer = Sdf.Layer.CreateAnonymous(path.suffix or ".usda")
    if header:
        layer.comment = header
    for item in overrides:
        spec = Sdf.CreatePrimInLayer(layer, item.path)
        _make_overs(layer, item.path)
        if item.comment:
            spec.comment = item.comment
        if item.apis:
            spec.SetInfo("apiSchemas", Sdf.TokenListOp.Create(prependedItems=list(item.apis)))
        prim = stage.GetPrimAtPath(item.path) if stage is not None else None
        for name, value in item.values.items():
            attr = prim.GetAttribute(name) if prim else None
            custom = not (attr and attr.IsDefined() and not attr.IsCustom()) and not name.startswith("drive:")
            if isinstance(value, str):  # a token (a drive's type): uniform, as the schema declares it
                spec_attr = Sdf.AttributeSpec(spec, name, Sdf.ValueTypeNames.Token, Sdf.VariabilityUniform, custom)
                spec_attr.default = value
                continue
            type_name = attr.GetTypeName() if attr and attr.GetTypeName() else Sdf.ValueTypeNames.Float
            spec_attr = Sdf.AttributeSpec(spec, name, type_name, Sdf.VariabilityVarying, custom)
            spec_attr.default = float(value) if isinstance(value, (int, float)) else value  # a Gf value (a joint frame)
    _write_text(layer, path)
    return path


def _make_overs(layer, prim_path: str) -> None:
    from pxr import Sdf

    p = Sdf.Path(prim_path)
    for ancestor in p.GetPrefixes():
        spec = layer.GetPrimAtPath(ancestor)
        if spec is not None and spec.specifier != Sdf.SpecifierOver and not spec.typeName:
            spec.specifier = Sdf.SpecifierOver
    spec = layer.GetPrimAtPath(p)
    spec.specifier = Sdf.SpecifierOver


def _write_text(layer, path: Path) -> None:
    """By replace (core.out_writer): a reader never sees half a layer, a link at `path` is never written through."""
    from ..core import out_writer

    out_writer.write_text(path, layer.ExportToString())


def stage_metadata(stage) -> dict:
    """What a root layer must carry for the composed stage to read as the asset does (a sublayer's metadata
    never reaches the composed stage): upAxis, metersPerUnit, kilogramsPerUnit, defaultPrim."""
    from pxr import UsdGeom, UsdPhysics

    meta = {"upAxis": str(UsdGeom.GetStageUpAxis(stage)), "metersPerUnit": float(UsdGeom.GetStageMetersPerUnit(stage)),
            "kilogramsPerUnit": float(UsdPhysics.GetStageKilogramsPerUnit(stage))}
    prim = stage.GetDefaultPrim()
    if prim:
        meta["defaultPrim"] = prim.GetName()
    return meta


def write_composed_root(path: str | Path, layers: list[str | Path], metadata: dict, header: str = "") -> Path:
    """A root layer at `path` that sublayers `layers` (strongest first, by paths relative to `path`) and
    carries the asset's stage metadata: validated as a plain file it is the asset with the fix."""
    from pxr import Sdf, UsdPhysics  # noqa: F401 - UsdPhysics registers kilogramsPerUnit

    path = Path(path)
    layer = Sdf.Layer.CreateAnonymous(".usda")
    if header:
        layer.comment = header
    for sub in layers:
        layer.subLayerPaths.append(Path(os.path.relpath(Path(sub).resolve(), path.resolve().parent)).as_posix())
    for key, value in metadata.items():
        if key == "defaultPrim":
            layer.defaultPrim = value
        else:
            layer.pseudoRoot.SetInfo(key, value)
    _write_text(layer, path)
    return path


def open_stage(path: str | Path):
    """The composed stage of `path`, read only (never saved)."""
    from pxr import Usd

    return Usd.Stage.Open(str(path), Usd.Stage.LoadAll)


def add_filtered_pairs(layer_path: str | Path, pairs: list[tuple[str, str]], comments: dict[str, str] | None = None,
                       durable: bool = True) -> None:
    """`UsdPhysics.FilteredPairsAPI` between each body pair, added to the layer at `layer_path` (its targets prepended to
    what the asset filters; `comments`: body path -> the comment on its over). The layer is read from the file, never
    from a layer registry that may hold an older version of it, and written back by replace."""
    from pxr import Sdf

    from ..core import out_writer

    layer = Sdf.Layer.OpenAsAnonymous(str(layer_path))
    by_body: dict[str, list[str]] = {}
    for a, b in pairs:
        by_body.setdefault(a, []).append(b)
    for body, others in by_body.items():
        spec = Sdf.CreatePrimInLayer(layer, body)
        _make_overs(layer, body)
        apis = spec.GetInfo("apiSchemas") if spec.HasInfo("apiSchemas") else Sdf.TokenListOp()
        prepended = list(apis.prependedItems)
        if "PhysicsFilteredPairsAPI" not in prepended:
            prepended.append("PhysicsFilteredPairsAPI")
        spec.SetInfo("apiSchemas", Sdf.TokenListOp.Create(prependedItems=prepended))
        rel = spec.relationships.get("physics:filteredPairs") or Sdf.RelationshipSpec(spec, "physics:filteredPairs",
                                                                                       custom=False)
        rel.targetPathList.prependedItems = list(dict.fromkeys([*rel.targetPathList.prependedItems,
                                                                *(Sdf.Path(o) for o in others)]))
        if comments and comments.get(body):
            spec.comment = comments[body]
    out_writer.write_text(Path(layer_path), layer.ExportToString(), durable=durable)  # by replace, never through a link
