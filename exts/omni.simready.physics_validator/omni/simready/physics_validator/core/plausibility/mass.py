"""Classes 1-3 of docs/plausibility.md: each moving body's mass and inertia as the runtime built them, against what a
body can have and what its own shapes give.

- INERTIA_PLACEHOLDER: a principal moment more than PLACEHOLDER_FACTOR off the moment the body's colliding shapes give
  at the same mass (uniform density), either way, the moments paired by size (pybullet's I = 1 on a 5 cm cube).
- MASS_ZERO_AUTHORED: physics:mass = 0 authored: Bullet's static, UsdPhysics's "not authored" (a moving 75 kg slab).
- INERTIA_TRIANGLE: principal moments I1 + I2 < I3 (beyond TRIANGLE_SLACK of I3): no distribution of mass has them.
- INERTIA_ZERO: a zero moment authored on a moving body; the runtime uses another.
- MASSLESS_LINK: a moving body with no mass of its own (no mass, density or collider with a volume): the runtime
  substitutes one (omni.physx: 1 kg and a small sphere's inertia, with a "negative mass" record in its log).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

from ..inertial import MassProperties, combine, principal_frame
from ..usd_mass import unit_parts
from .codes import PlausibilityCode as Code
from .findings import finding

if TYPE_CHECKING:
    from ..asset_model import AssetModel, BodyInfo
    from ..results import PlausibilityFinding

PLACEHOLDER_FACTOR = 10.0  # a principal moment 10x larger or smaller than the shape's at the same mass (simcheck's too)
TRIANGLE_SLACK = 1e-3  # relative to the largest moment: float32 round-off and authored rounding stay clear of it
RUNTIME_MASS_RECORD = ("negative mass", "invalid inertia", "invalid mass")  # what omni.physx logs for a substitute


def mass_findings(asset: "AssetModel", moving: dict[str, str], records: list[str]) -> list["PlausibilityFinding"]:
    """The findings on every moving body that carries the runtime's mass properties (`BodyInfo.built_mass_properties`);
    `moving`: body -> the joint that moves it (structure.moving_joints); `records`: the runtime's log."""
    zero_mass = {i.path for i in asset.issues if i.code == "MASS_ZERO_AUTHORED"}
    zero_inertia = {i.path: i.message for i in asset.issues if i.code == "INERTIA_ZERO_AUTHORED"}
    # bodies the world holds (a fixed-base articulation's root link, a body welded to the world): they never move
    held = {a.base_body for a in asset.articulations if a.fixed_base}
    held |= {j.body0 or j.body1 for j in asset.joints.values()
             if j.enabled and j.type == "fixed" and (j.body0 is None) != (j.body1 is None)}
    out: list[PlausibilityFinding] = []
    for body in asset.bodies.values():
        props = body.built_mass_properties
        if not body.enabled or body.kinematic or props is None or body.path in held:
            continue
        joints = [moving[body.path]] if body.path in moving else []
        moments = np.sort(principal_frame(props.inertia)[0])
        runtime = {"mass": props.mass, "principal_moments": moments.tolist()}
        units = {"mass": "kg", "principal_moments": "kg m^2", "shape_moments": "kg m^2", "factor": ""}
        record = next((r for r in records if body.path in r and any(k in r for k in RUNTIME_MASS_RECORD)), "")
        shape = shape_properties(asset, body)
        if _massless(asset, body, shape):
            out.append(finding(Code.MASSLESS_LINK, body=body.path, joints=joints, measured=runtime, units=units,
                               runtime_record=record,
                               message=f"{body.name} has no mass of its own (no physics:mass or density, no collider to "
                                       f"compute one from): the runtime uses {props.mass:.3g} kg and principal moments "
                                       f"{_moments(moments)} kg·m²"))
            continue  # what it substitutes is no placeholder of the author's
        if body.path in zero_mass:
            out.append(finding(Code.MASS_ZERO_AUTHORED, body=body.path, joints=joints, measured=runtime, units=units,
                               message=f"{body.name} authors physics:mass = 0 (static in Bullet); UsdPhysics computes "
                                       f"its mass from the colliders: the runtime moves it as {props.mass:.3g} kg"))
        if body.path in zero_inertia:
            out.append(finding(Code.INERTIA_ZERO, body=body.path, joints=joints, measured=runtime, units=units,
                               runtime_record=record,
                               message=f"{body.name} authors a zero principal moment ({zero_inertia[body.path]}): the "
                                       f"runtime uses {_moments(moments)} kg·m²"))
        elif moments[0] + moments[1] < moments[2] * (1.0 - TRIANGLE_SLACK):
            out.append(finding(Code.INERTIA_TRIANGLE, body=body.path, joints=joints, measured=runtime, units=units,
                               proposal=_proposal(shape, props), limits={"slack": TRIANGLE_SLACK},
                               message=f"{body.name}'s principal moments {_moments(moments)} kg·m² break the triangle "
                                       f"inequality ({moments[0]:.3g} + {moments[1]:.3g} < {moments[2]:.3g}): no body "
                                       "has them"))
        elif shape is not None and shape.mass > 0:
            placeholder = _placeholder(body, props, shape, moments, joints, runtime, units)
            if placeholder is not None:
                out.append(placeholder)
    return out


def shape_properties(asset: "AssetModel", body: "BodyInfo") -> MassProperties | None:
    """The body's colliding shapes as one solid of density 1 kg/m^3, in the body frame (None: no shape with a volume)."""
    parts = []
    for path in body.colliders:
        collider = asset.colliders.get(path)
        if collider is None or not collider.collides:
            continue
        parts += [unit.transformed(collider.local_pose.pos, collider.local_pose.quat) for unit in unit_parts(collider)]
    return combine(parts)


def shape_inertia_at(shape: MassProperties, mass: float) -> MassProperties:
    """The shape's solid scaled to `mass`: the inertia its shape gives (what `fix --shape-inertia` proposes)."""
    return shape.scaled(mass / shape.mass)


def _massless(asset: "AssetModel", body: "BodyInfo", shape: MassProperties | None) -> bool:
    colliders = [asset.colliders[c] for c in body.colliders if c in asset.colliders]
    return (body.mass is None and body.density is None and (shape is None or shape.mass <= 0)
            and not any(c.mass or c.density for c in colliders))


def _placeholder(body, props: MassProperties, shape: MassProperties, moments, joints, runtime, units):
    solid = shape_inertia_at(shape, props.mass)
    shape_moments = np.sort(principal_frame(solid.inertia)[0])
    if shape_moments[0] <= 0 or moments[0] <= 0:
        return None
    ratios = moments / shape_moments
    worst = float(ratios.max() if ratios.max() >= 1.0 / ratios.min() else ratios.min())
    if max(ratios.max(), 1.0 / ratios.min()) <= PLACEHOLDER_FACTOR:
        return None
    how = f"{worst:.3g}x" if worst > 1 else f"1/{1.0 / worst:.3g}"
    return finding(Code.INERTIA_PLACEHOLDER, body=body.path, joints=joints, units=units,
                   measured={**runtime, "shape_moments": shape_moments.tolist(), "factor": worst},
                   limits={"factor": PLACEHOLDER_FACTOR}, proposal=_proposal(shape, props),
                   message=f"{body.name}'s principal moments {_moments(moments)} kg·m² are {how} what its colliders give "
                           f"at {props.mass:.3g} kg ({_moments(shape_moments)} kg·m²; allowed {PLACEHOLDER_FACTOR:g}x "
                           "either way)")


def _proposal(shape: MassProperties | None, props: MassProperties) -> dict[str, list[float]]:
    """The inertia the shape gives at the runtime's mass, about the runtime's centre of mass, as MassAPI spells it."""
    if shape is None or shape.mass <= 0:
        return {}
    solid = shape_inertia_at(shape, props.mass)
    offset = solid.com - props.com  # the shape's own centre of mass; the authored one is kept: shift the inertia to it
    tensor = solid.inertia + solid.mass * (float(offset @ offset) * np.eye(3) - np.outer(offset, offset))
    diagonal, axes = principal_frame(tensor)
    return {"diagonal_inertia": diagonal.tolist(), "principal_axes": axes.tolist(), "center_of_mass": props.com.tolist()}


def _moments(moments) -> str:
    return ", ".join(f"{m:.3g}" for m in moments)
