"""Did the robot arrive whole? The converted USD against its source: every movable joint, every link's meshes.

A converter that cannot open a mesh says so in a warning and exits 0 (urdf-usd-converter without `--package`
writes a robot with no meshes at all), and one that does not support a joint type leaves it out. So the USD is
read here with the validator's own pxr, as `validate` will read it, and compared with the source:

- each movable source joint (URDF revolute/continuous/prismatic, MJCF hinge/slide; ball joints too) has a USD joint
  of its name and type (the converters keep joint names; a name they had to encode is kept as `displayName`);
- each link or body whose source geometry names a mesh file has a Mesh prim below its USD prim (not below a child
  link's), with the converter's warning or the missing file as the reason when it has none.
A free joint (MJCF `<freejoint/>`) becomes no joint: the body floats. Unnamed MJCF joints are counted by type.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from .source import SourceModel

USD_KINDS = {"PhysicsRevoluteJoint": "revolute", "PhysicsPrismaticJoint": "prismatic", "PhysicsSphericalJoint": "ball",
             "PhysicsFixedJoint": "fixed"}
SOURCE_KINDS = {"revolute": "revolute", "continuous": "revolute", "hinge": "revolute", "prismatic": "prismatic",
                "slide": "prismatic", "ball": "ball", "floating": "floating", "planar": "planar"}
FAILED_MESH = re.compile(r"Failed to convert mesh: (.+?): ")


@dataclass
class Arrival:
    joints_expected: int = 0
    joints_found: int = 0
    missing_joints: list[str] = field(default_factory=list)  # "name (kind)"
    mesh_links_expected: int = 0
    missing_meshes: list[str] = field(default_factory=list)  # "link: why"
    meshes: int = 0  # Mesh prims in the USD
    bodies: int = 0
    massless_bodies: int = 0  # no mass authored: the engine computes one from the colliders at its default density
    mass_kg: float = 0.0
    drives: int = 0
    rated_joints: int = 0  # joints with a rated effort (core.usd reads it: urdf:limit:effort, an MJCF actuator's range)
    zero_rated_joints: int = 0  # rated 0 (URDF <limit effort="0">): no rating at all
    actuators: int = 0  # MjcActuator prims (an MJCF's motors and servos; PhysX does not simulate them)

    @property
    def complete(self) -> bool:
        return not self.missing_joints and not self.missing_meshes

    def as_json(self) -> dict:
        return {**self.__dict__, "complete": self.complete}


def check(usd_path: Path, source: SourceModel, converter_log: str) -> Arrival:
    from pxr import Usd, UsdGeom, UsdPhysics

    stage = Usd.Stage.Open(str(usd_path))
    arrival = Arrival()
    joints: dict[str, str] = {}
    names_of: dict[object, set[str]] = {}
    for prim in stage.Traverse():
        names = {prim.GetName(), str(prim.GetMetadata("displayName") or "")} - {""}
        names_of[prim.GetPath()] = names
        kind = USD_KINDS.get(prim.GetTypeName())
        if kind or prim.IsA(UsdPhysics.Joint):
            for name in names:
                joints[name] = kind or "other"
            arrival.drives += sum(1 for s in prim.GetAppliedSchemas() if s.startswith("PhysicsDriveAPI"))
        if prim.GetTypeName() == "MjcActuator":
            arrival.actuators += 1
        if prim.HasAPI(UsdPhysics.RigidBodyAPI):
            arrival.bodies += 1
            mass = UsdPhysics.MassAPI(prim).GetMassAttr().Get() if prim.HasAPI(UsdPhysics.MassAPI) else None
            arrival.mass_kg += float(mass or 0.0)
            arrival.massless_bodies += not mass
        if prim.IsA(UsdGeom.Mesh):
            arrival.meshes += 1
    _ratings(arrival, usd_path)
    _compare_joints(arrival, source, joints)
    _compare_meshes(arrival, source, stage, names_of, converter_log)
    return arrival


def _compare_joints(arrival: Arrival, source: SourceModel, joints: dict[str, str]) -> None:
    expected = [j for j in source.joints if j.kind in SOURCE_KINDS]
    arrival.joints_expected = len(expected)
    unnamed: dict[str, int] = {}
    for joint in expected:
        kind = SOURCE_KINDS[joint.kind]
        if not joint.name:
            unnamed[kind] = unnamed.get(kind, 0) + 1
        elif joints.get(joint.name) == kind:
            arrival.joints_found += 1
        else:
            seen = joints.get(joint.name)
            arrival.missing_joints.append(f"{joint.name} ({joint.kind}" + (f"; arrived as {seen})" if seen else ")"))
    named = {j.name for j in expected if j.name}
    for kind, count in unnamed.items():
        spare = sum(1 for n, k in joints.items() if k == kind and n not in named)
        arrival.joints_found += min(count, spare)
        if spare < count:
            arrival.missing_joints.append(f"{count - spare} unnamed {kind} joint(s)")


def _compare_meshes(arrival: Arrival, source: SourceModel, stage, names_of: dict, log: str) -> None:
    from pxr import UsdGeom

    failed = {Path(m.group(1)).name: line.split(": ", 2)[-1].strip()[:160]
              for line in log.splitlines() for m in [FAILED_MESH.search(line)] if m}
    links = {name for name, meshes in source.links.items() if meshes}
    arrival.mesh_links_expected = len(links)
    prims = _link_prims(stage, names_of, set(source.links))
    link_paths = {prim.GetPath() for prim in prims.values()}
    for link in sorted(links):
        prim = prims.get(link)
        count = 0
        if prim is not None:
            stack = list(prim.GetChildren())
            while stack:
                child = stack.pop()
                if child.GetPath() in link_paths:
                    continue  # a child link's own geometry
                count += child.IsA(UsdGeom.Mesh)
                stack.extend(child.GetChildren())
        if count:
            continue
        files = source.links[link]
        reasons = [f"{m.uri}: file not found ({m.path})" for m in files if m.path is not None and not m.exists]
        reasons += [f"{m.uri}: package not resolved" for m in files if m.path is None]
        reasons += [f"{Path(m.uri).name}: {failed[Path(m.uri).name]}" for m in files
                    if m.exists and Path(m.uri).name in failed]
        where = "no USD prim of that name" if prim is None else "no mesh below its prim"
        arrival.missing_meshes.append(f"{link}: {where}" + (f" ({'; '.join(dict.fromkeys(reasons))})" if reasons else ""))


def _link_prims(stage, names_of: dict, links: set[str]) -> dict[str, Any]:
    """Link name -> the USD prim the converter made for that link. Other prims can carry its name: the robot's own
    prim when the robot is named after its root link (the Panda hand: /panda_hand above /panda_hand/Geometry/
    panda_hand), a visual's transform named after its mesh file. The link is the rigid body of that name, else the
    shallowest transform that is not the stage's default prim (a geometry named after a link is never the link)."""
    from pxr import UsdGeom, UsdPhysics

    default = stage.GetDefaultPrim()
    default_path = default.GetPath() if default else None
    found: dict[str, list] = {}
    for path, names in names_of.items():
        prim = stage.GetPrimAtPath(path)
        if prim.IsA(UsdGeom.Gprim):
            continue
        for name in names & links:
            found.setdefault(name, []).append(prim)
    return {name: min(candidates, key=lambda p: (not p.HasAPI(UsdPhysics.RigidBodyAPI), p.GetPath() == default_path,
                                                 p.GetPath().pathElementCount, str(p.GetPath())))
            for name, candidates in found.items()}


def _ratings(arrival: Arrival, usd_path: Path) -> None:
    """The rated efforts as the validator and `fix` read them (core.usd: urdf:limit:effort, an MJCF actuator's force
    range or a motor's control range x gear), not read again here."""
    from ..core.usd import read_asset

    joints = read_asset(usd_path).joints.values()
    arrival.rated_joints = sum(1 for j in joints if j.effort_limit is not None)
    arrival.zero_rated_joints = sum(1 for j in joints if j.effort_limit is None and j.effort_limit_note)
