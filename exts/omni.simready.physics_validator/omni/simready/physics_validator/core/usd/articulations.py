"""How joints tie bodies together once every joint is read: articulations, loops, mimic, actuators.

These need the whole set of bodies and joints, so they run after the per-prim readers. Mimic and
actuator schemas that stock usd-core does not know (PhysxMimicJointAPI, NewtonMimicAPI, MjcActuator)
are read from the raw `apiSchemas` metadata and relationships, which exist without any plugin.
"""

from __future__ import annotations

import math

from ..asset_model import ArticulationInfo, JointInfo, MimicInfo
from .read_context import ReadContext, authored, finite


def read_articulation(ctx: ReadContext, path, desc) -> None:
    """An articulation root: its bodies and joints, whether the world is its base, and its base link."""
    model = ctx.model
    root = str(path)
    # a joint with excludeFromArticulation is none of its joints, whatever the parser lists (it does list one that cuts
    # the tree): UsdPhysics and PhysX keep it an ordinary joint
    joints = [str(j) for j in desc.articulatedJoints if str(j) in model.joints
              and not model.joints[str(j)].exclude_from_articulation]
    # The parser can leave out a root link whose only joint goes to the world (it lists the world
    # instead): take the bodies of the articulated joints and the root prim as well.
    candidates = [str(b) for b in desc.articulatedBodies]
    candidates += [b for j in joints for b in (model.joints[j].body0, model.joints[j].body1) if b]
    candidates.append(root)
    bodies = list(dict.fromkeys(b for b in candidates if b and b in model.bodies))
    prim = ctx.stage.GetPrimAtPath(path)
    counts = (authored(prim, "physxArticulation:solverPositionIterationCount"),
              authored(prim, "physxArticulation:solverVelocityIterationCount"))
    self_collisions = authored(prim, "physxArticulation:enabledSelfCollisions")
    enabled = authored(prim, "physxArticulation:articulationEnabled")
    info = ArticulationInfo(root=root, bodies=bodies, joints=joints,
                            solver_iterations=(None if counts[0] is None else int(counts[0]),
                                               None if counts[1] is None else int(counts[1])),
                            self_collisions=self_collisions is None or bool(self_collisions),
                            enabled=enabled is None or bool(enabled))
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
    for joint in joints.values():
        if joint.mimic_reference is not None:
            joint.mimic = _mimic_relation(ctx, ctx.stage.GetPrimAtPath(joint.path), joint, joints.get(joint.mimic_reference))
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
                    if joints[jpath].effort_limit is None and target == jpath:
                        _actuator_force_range(ctx, prim, joints[jpath])


def _actuator_force_range(ctx: ReadContext, prim, joint: JointInfo) -> None:
    """A MuJoCo actuator's force limit on the one joint it drives is that joint's rated effort when the joint carries
    none: its force range (mjc:forceRange), else, for a motor (gain type fixed, no bias: force = gain x ctrl), its
    control range x gain (mjc:ctrlRange x mjc:gainPrm[0]); MuJoCo clamps the actuator's scalar force and the joint feels
    gear x it (mjc:gear[0]). A range counts when limited: "true", or "auto" (the schema default, which the converter
    leaves unwritten) with a range authored (MuJoCo's autolimits, its compiler default). A position or velocity servo's
    control range is a position or speed, never a force (the UMI gripper's servos: ±20 N; the ViperX's waist motor:
    ctrlrange ±5 x gear 1 = 5 N·m)."""
    gear = abs(_first(prim, "mjc:gear", 1.0))
    force = _limited_range(prim, "force")
    ctrl = _limited_range(prim, "ctrl")
    motor = (str(authored(prim, "mjc:gainType") or "fixed") == "fixed"
             and str(authored(prim, "mjc:biasType") or "none") == "none")
    gain = abs(_first(prim, "mjc:gainPrm", 1.0))
    found = [(force, f"mjc:forceRange of {prim.GetName()}")] if force else []
    if motor and ctrl and gain > 0:
        found.append((ctrl * gain, f"mjc:ctrlRange{'' if gain == 1 else ' x mjc:gainPrm'} of {prim.GetName()} (a motor)"))
    if not found or gear == 0:
        return
    value, source = min(found)  # both bound the actuator's force: the tighter decides
    unit = ctx.kpu * ctx.mpu**2 if joint.type == "revolute" else ctx.kpu * ctx.mpu
    joint.effort_limit = value * gear * unit
    joint.effort_limit_source = source if gear == 1 else source.replace(" of ", f" x mjc:gear {gear:g} of ", 1)


def _limited_range(prim, name: str) -> float:
    """The larger magnitude of mjc:<name>Range when mjc:<name>Limited makes it a limit, else 0."""
    limited = str(authored(prim, f"mjc:{name}Limited") or "auto").lower()
    low, high = (authored(prim, f"mjc:{name}Range:{end}") for end in ("min", "max"))
    values = [float(v) for v in (low, high) if v is not None and finite(v)]
    if limited in ("false", "0") or not values:
        return 0.0
    if limited == "auto" and not (low is not None and high is not None and float(high) > float(low)):
        return 0.0  # autolimits: a range with max > min is a limit
    return max(abs(v) for v in values)


def _first(prim, name: str, default: float) -> float:
    """The first element of an authored double[] (mjc:gear, mjc:gainPrm), else the schema's default."""
    value = authored(prim, name)
    try:
        return float(value[0]) if value is not None and len(value) and finite(value[0]) else default
    except (TypeError, ValueError):
        return default


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


def _mimic_relation(ctx: ReadContext, prim, joint: JointInfo, reference: JointInfo | None) -> MimicInfo:
    """The coupling in SI. Scales: degrees -> rad for a revolute side, stage length -> m for a prismatic one."""
    def scale(j: JointInfo | None) -> float:
        return math.pi / 180.0 if (j is None or j.type != "prismatic") else ctx.mpu

    s_follower, s_reference = scale(joint), scale(reference)
    schema = joint.mimic_schema or ""
    if schema.startswith("PhysxMimicJointAPI:"):
        ns = f"physxMimicJoint:{schema.split(':', 1)[1]}"
        gearing, offset = _number(prim, f"{ns}:gearing", 1.0), _number(prim, f"{ns}:offset", 0.0)
        return MimicInfo(schema, gearing, offset, slope=-gearing * s_follower / s_reference, intercept=-offset * s_follower,
                         natural_frequency=_number(prim, f"{ns}:naturalFrequency", None),
                         damping_ratio=_number(prim, f"{ns}:dampingRatio", None))
    coef1, coef0 = _number(prim, "newton:mimicCoef1", 1.0), _number(prim, "newton:mimicCoef0", 0.0)
    return MimicInfo(schema, coef1, coef0, slope=coef1 * s_follower / s_reference, intercept=coef0 * s_follower,
                     enabled=authored(prim, "newton:mimicEnabled") is not False)


def _number(prim, name: str, default):
    value = authored(prim, name)
    try:
        value = float(value)
    except (TypeError, ValueError):
        return default
    return value if math.isfinite(value) else default


def mark_loops(ctx: ReadContext) -> None:
    """Joints that close a kinematic loop: a second path between two bodies. The joints an articulation may hold go
    first; a joint with excludeFromArticulation closes a loop only where the others already join its two bodies (the
    pattern for loops, ovphysx docs/simulation_setup/articulations.md): elsewhere it cuts the tree, and PhysX simulates
    it as an ordinary (maximal) joint that the tests drive like any other (`JointInfo.loop_closing` stays False)."""
    parent: dict[str, str] = {}

    def find(x: str) -> str:
        while parent.get(x, x) != x:
            x = parent.get(x, x)
        return x

    joints = [j for j in ctx.model.joints.values() if j.enabled]
    for joint in sorted(joints, key=lambda j: bool(j.exclude_from_articulation and j.body0 and j.body1)):
        a, b = joint.body0 or "<world>", joint.body1 or "<world>"
        ra, rb = find(a), find(b)
        if ra == rb and a != b:
            joint.loop_closing = True
            if not joint.exclude_from_articulation:
                ctx.issue("warning", "ARTICULATION_LOOP", joint.path,
                          "joint closes a kinematic loop without excludeFromArticulation")
        else:
            parent[ra] = rb
