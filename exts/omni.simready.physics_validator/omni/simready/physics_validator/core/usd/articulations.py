"""How joints tie bodies together once every joint is read: articulations, loops, mimic, actuators.

These need the whole set of bodies and joints, so they run after the per-prim readers. Mimic and
actuator schemas that stock usd-core does not know (PhysxMimicJointAPI, NewtonMimicAPI, MjcActuator)
are read from the raw `apiSchemas` metadata and relationships, which exist without any plugin.
"""

from __future__ import annotations

from ..asset_model import ArticulationInfo, JointInfo
from .read_context import ReadContext


def read_articulation(ctx: ReadContext, path, desc) -> None:
    """An articulation root: its bodies and joints, whether the world is its base, and its base link."""
    model = ctx.model
    root = str(path)
    joints = [str(j) for j in desc.articulatedJoints if str(j) in model.joints]
    # The parser can leave out a root link whose only joint goes to the world (it lists the world
    # instead): take the bodies of the articulated joints and the root prim as well.
    candidates = [str(b) for b in desc.articulatedBodies]
    candidates += [b for j in joints for b in (model.joints[j].body0, model.joints[j].body1) if b]
    candidates.append(root)
    bodies = list(dict.fromkeys(b for b in candidates if b and b in model.bodies))
    info = ArticulationInfo(root=root, bodies=bodies, joints=joints)
    for body in bodies:
        model.bodies[body].articulation = root
    for jpath in joints:
        joint = model.joints[jpath]
        joint.articulation = root
        if joint.enabled and (joint.body0 is None) != (joint.body1 is None):
            info.fixed_base = True  # the world is the base
            if joint.type == "fixed":
                info.base_body = joint.body1 or joint.body0  # welded base link
    if info.base_body is None:
        if root in model.bodies:
            info.base_body = root
        else:
            children = {j.body1 for j in (model.joints[p] for p in joints) if j.body0 and j.body1}
            roots = [b for b in bodies if b not in children]
            info.base_body = roots[0] if roots else (bodies[0] if bodies else None)
    model.articulations.append(info)


def read_actuators_and_mimics(ctx: ReadContext) -> None:
    """Mimic references on joint prims, and which actuators (directly or through a tendon) drive each joint."""
    joints = ctx.model.joints
    tendons: dict[str, list[str]] = {}
    actuators = []
    for prim in ctx.stage.Traverse():
        type_name = prim.GetTypeName()
        if type_name == "MjcTendon":
            rel = prim.GetRelationship("mjc:path")
            tendons[str(prim.GetPath())] = [str(t) for t in rel.GetTargets()] if rel else []
        elif type_name in ("MjcActuator", "NewtonActuator"):
            actuators.append(prim)
        path = str(prim.GetPath())
        if path in joints:
            _mimic(prim, joints[path])
    for prim in actuators:
        rel_name = "mjc:target" if prim.GetTypeName() == "MjcActuator" else "newton:targets"
        rel = prim.GetRelationship(rel_name)
        targets = [str(t) for t in rel.GetTargets()] if rel else []
        for target in targets:
            for jpath in tendons.get(target, [target]):
                if jpath in joints:
                    joints[jpath].actuated_by.append(str(prim.GetPath()))
                    if prim.GetTypeName() not in joints[jpath].actuator_schemas:
                        joints[jpath].actuator_schemas.append(str(prim.GetTypeName()))


def _mimic(prim, joint: JointInfo) -> None:
    """PhysX mimic (one schema instance per axis) first, then Newton's."""
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


def mark_loops(ctx: ReadContext) -> None:
    """Joints that close a kinematic loop: excluded from the articulation, or a second path between bodies."""
    parent: dict[str, str] = {}

    def find(x: str) -> str:
        while parent.get(x, x) != x:
            x = parent.get(x, x)
        return x

    for joint in ctx.model.joints.values():
        if not joint.enabled:
            continue
        a, b = joint.body0 or "<world>", joint.body1 or "<world>"
        if joint.exclude_from_articulation and joint.body0 and joint.body1:
            joint.loop_closing = True
            continue
        ra, rb = find(a), find(b)
        if ra == rb and a != b:
            joint.loop_closing = True
            ctx.issue("warning", "ARTICULATION_LOOP", joint.path, "joint closes a kinematic loop without excludeFromArticulation")
        else:
            parent[ra] = rb
