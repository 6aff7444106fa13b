"""`physx.target`: which runtime a verdict speaks for, where the two disagree on legacy joint attributes.

Isaac Sim 5.x (omni.physx 107.x) parses PhysxJointAPI; PhysX 5.12 / ovphysx 0.7 does not: an authored
`physxJoint:maxJointVelocity`, `physxJoint:armature` or `physxJoint:jointFriction` is silently ignored
(ovphysx docs/migrating_0_6_to_0_7.md, "USD and schema"). The per-axis spelling
`physxJointAxis:<axis>:*` (PhysxJointAxisAPI:<axis>, articulation joints only) is parsed by both.

- `isaacsim-5` (default): the legacy values are carried over to their per-axis form in the wrapper layer
  (never in the asset) where the per-axis value is not authored already, so the run behaves as Isaac Sim
  5.x; each carried value adds a forward-compatibility warning naming the attribute and the spelling to
  author.
- `latest`: nothing is carried over; a warning says the attribute is ignored by the runtime.

`jointFriction` has no per-axis numeric equivalent: a warning under both targets.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from .settings import TARGETS

if TYPE_CHECKING:
    from ...core.asset_model import AssetModel, JointInfo

RUNTIME = "PhysX 5.12 / ovphysx 0.7"
# legacy PhysxJointAPI attribute -> per-axis PhysxJointAxisAPI attribute (None: no numeric equivalent)
LEGACY_JOINT_ATTRS = {
    "physxJoint:maxJointVelocity": "maxJointVelocity",
    "physxJoint:armature": "armature",
    "physxJoint:jointFriction": None,
}
# which PhysxJointAxisAPI instances a joint type reads (ovphysx docs/population/PhysxJointAxisAPI.md, Notes)
AXIS_INSTANCES = {"revolute": ("angular",), "prismatic": ("linear",), "spherical": ("rotX", "rotY", "rotZ"),
                  "d6": ("rotX", "rotY", "rotZ")}
FRICTION_ADVICE = "newton:friction / newton:damping or physxJointAxis:<axis>:staticFrictionEffort / dynamicFrictionEffort"


def carry_over_legacy_joint_attrs(stage, asset: "AssetModel", target: str) -> tuple[dict[str, list[str]], list[str]]:
    """Author the per-axis form of legacy joint attributes on `stage`'s edit target (isaacsim-5).

    Returns ({joint path: [per-axis attributes authored]}, warnings)."""
    if target not in TARGETS:
        raise ValueError(f"physx.target must be one of {', '.join(TARGETS)}, not {target!r}")
    carried: dict[str, list[str]] = {}
    warnings: list[str] = []
    for joint in asset.joints.values():
        prim = stage.GetPrimAtPath(joint.path)
        if not prim:
            continue
        for name, per_axis in LEGACY_JOINT_ATTRS.items():
            attr = prim.GetAttribute(name)
            if not (attr and attr.HasAuthoredValue()) or attr.Get() is None:
                continue
            value = float(attr.Get())
            done = _carry(prim, joint, name, per_axis, value, target, warnings)
            if done:
                carried.setdefault(joint.path, []).extend(done)
    return carried, warnings


def _carry(prim, joint: "JointInfo", name: str, per_axis: str | None, value: float, target: str,
           warnings: list[str]) -> list[str]:
    from pxr import Sdf

    instances = AXIS_INSTANCES.get(joint.type, ())
    spelled = f"physxJointAxis:{instances[0] if instances else '<axis>'}:{per_axis}" if per_axis else FRICTION_ADVICE
    api = f" with PhysxJointAxisAPI:{instances[0]}" if per_axis and instances else ""
    if per_axis is None or not instances:
        warnings.append(f"{joint.path}: {name} = {value:g} has no per-axis equivalent and is ignored by {RUNTIME} "
                        f"(Isaac Sim 5.x honours it); retune with {spelled}")
        return []
    if target == "latest":
        warnings.append(f"{joint.path}: {name} = {value:g} (PhysxJointAPI) is not parsed by {RUNTIME} and is ignored "
                        f"(physx.target=latest); author {spelled}{api} to have it honoured")
        return []
    if joint.articulation is None or joint.exclude_from_articulation:
        warnings.append(f"{joint.path}: {name} is honoured on articulation joints only; this joint is outside any "
                        "articulation, so it is ignored (as in omni.physx)")
        return []
    from ..validation_layer import applied_api_tokens

    done = []
    applied = applied_api_tokens(prim)
    for inst in instances:
        new = f"physxJointAxis:{inst}:{per_axis}"
        existing = prim.GetAttribute(new)
        if existing and existing.HasAuthoredValue() and f"PhysxJointAxisAPI:{inst}" in applied:
            continue  # the per-axis value is authored: it wins, as in the runtime
        prim.AddAppliedSchema(f"PhysxJointAxisAPI:{inst}")  # a prepend list op in the wrapper layer
        prim.CreateAttribute(new, Sdf.ValueTypeNames.Float).Set(value)
        done.append(new)
    if done:
        warnings.append(f"{joint.path}: {name} = {value:g} (PhysxJointAPI) is honoured by Isaac Sim 5.x but not parsed by "
                        f"{RUNTIME}; carried over to {', '.join(done)} for this run (physx.target=isaacsim-5). "
                        f"Author {spelled}{api} to stay forward-compatible")
    return done
