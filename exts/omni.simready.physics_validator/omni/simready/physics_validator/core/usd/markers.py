"""Read the SimReady markers (core/markers.py): gripper sites, grasp lines, robot links, tool frames, converter sites
(MjcSiteAPI / NewtonSiteAPI, read by their schema, never their name). After the bodies
are read (a marker is placed on its rigid body); never raises: an incomplete gripper site is kept with its problems
named, for the test to report."""

from __future__ import annotations

import numpy as np

from ..asset_model import Pose
from ..geometry import compose, inverse
from ..markers import AssetMarkers, GraspLine, GripperSite, SiteFrame, ToolFrame
from .read_context import ReadContext, authored

SOCKET_ATTRIBUTES = ("simready:attactment:socketType", "simready:attachment:socketType")  # NVIDIA's spelling first
FORWARD_NAMES = ("gripper_forward_axis", "forward_axis")
GRIP_LINE_NAMES = ("gripper_grip_line", "grip_line")
MAX_OPENING_NAMES = ("gripper_maxOpening", "custom:maxOpening")
MAX_PAYLOAD_NAMES = ("gripper_maxPayload", "custom:maxPayload")
TOOL_FRAME_NAMES = frozenset({"flange", "tool0", "tcp", "ee_link", "tool", "end_effector", "coupling"})
GRASP_PREFIX = "grasp_identifier"
SITE_SCHEMAS = ("MjcSiteAPI", "NewtonSiteAPI")  # mujoco-usd-converter's MJCF <site> (both applied)


def read_markers(ctx: ReadContext) -> AssetMarkers:
    from pxr import Usd, UsdGeom

    markers = AssetMarkers()
    for prim in ctx.stage.Traverse(Usd.TraverseInstanceProxies(Usd.PrimDefaultPredicate)):
        name = prim.GetName()
        if _is_gripper_site(prim):
            markers.gripper_sites.append(_gripper_site(ctx, prim))
        elif any(_applied(prim, schema) for schema in SITE_SCHEMAS) and prim.IsA(UsdGeom.Xformable):
            markers.site_frames.append(_site_frame(ctx, prim))
        elif name.startswith(GRASP_PREFIX):
            line = _grasp_line(ctx, prim)
            if line is not None:
                markers.grasp_lines.append(line)
        elif name.lower() in TOOL_FRAME_NAMES and prim.IsA(UsdGeom.Xform) and str(prim.GetPath()) not in ctx.model.bodies:
            body = _owning_body(ctx, prim)
            if body is not None and str(prim.GetParent().GetPath()) == body:
                markers.tool_frames.append(ToolFrame(str(prim.GetPath()), body, _local_pose(ctx, prim, body)))
        if not markers.robot_links:
            rel = prim.GetRelationship("isaac:physics:robotLinks")
            if rel and rel.GetTargets():
                markers.robot_links = [str(t) for t in rel.GetTargets()]
    return markers


def _applied(prim, schema: str) -> bool:
    listop = prim.GetMetadata("apiSchemas")
    tokens = [str(t) for t in listop.ApplyOperations([])] if listop else []
    return schema in tokens or schema in prim.GetAppliedSchemas()


def _is_gripper_site(prim) -> bool:
    from pxr import UsdGeom

    if not prim.IsA(UsdGeom.Xform) or _applied(prim, "IsaacSurfaceGripperAPI"):
        return False
    parent = prim.GetParent()
    if parent and _applied(parent, "IsaacSurfaceGripperAPI"):
        return False  # suction and magnet sites: not a parallel jaw
    if any(authored(prim, name) == "Gripper" for name in SOCKET_ATTRIBUTES):
        return True
    return _applied(prim, "IsaacSiteAPI")


def _first_float(prim, names) -> float | None:
    for name in names:
        value = authored(prim, name)
        if value is not None:
            try:
                number = float(value)
            except (TypeError, ValueError):
                return None
            return number if np.isfinite(number) else None
    return None


def _curve_points(ctx: ReadContext, prim) -> tuple[np.ndarray, np.ndarray] | None:
    """The first two points of a BasisCurves prim, world SI; None when it has fewer or they are not finite."""
    from pxr import UsdGeom

    if prim is None or not prim.IsValid() or not prim.IsA(UsdGeom.BasisCurves):
        return None
    points = UsdGeom.BasisCurves(prim).GetPointsAttr().Get()
    if points is None or len(points) < 2:
        return None
    world = ctx.xform_cache.GetLocalToWorldTransform(prim)
    out = [ctx.frame.point_to_si(np.array(world.Transform(points[i]), float)) for i in (0, 1)]
    if not all(np.all(np.isfinite(p)) for p in out):
        return None
    return out[0], out[1]


def _child(prim, names):
    for name in names:
        child = prim.GetChild(name)
        if child and child.IsValid():
            return child
    return None


def _gripper_site(ctx: ReadContext, prim) -> GripperSite:
    problems = []
    forward_line = _curve_points(ctx, _child(prim, FORWARD_NAMES))
    grip_line = _curve_points(ctx, _child(prim, GRIP_LINE_NAMES))
    max_opening = _first_float(prim, MAX_OPENING_NAMES)
    payload = _first_float(prim, MAX_PAYLOAD_NAMES)
    if forward_line is None or np.linalg.norm(forward_line[1] - forward_line[0]) < 1e-9:
        problems.append("no gripper_forward_axis BasisCurves child with two distinct points")
    if grip_line is None or np.linalg.norm(grip_line[1] - grip_line[0]) < 1e-9:
        problems.append("no gripper_grip_line BasisCurves child with two distinct points")
    if max_opening is None or max_opening <= 0:
        problems.append(f"gripper_maxOpening / custom:maxOpening is {'not authored' if max_opening is None else max_opening}"
                        " (a positive jaw opening in metres is required)")
    world = ctx.xform_cache.GetLocalToWorldTransform(prim)
    pos, quat = world.ExtractTranslation(), world.ExtractRotationQuat()
    pose = ctx.world_pose(pos, quat)
    forward = np.array([0.0, 0.0, -1.0])
    if forward_line is not None:
        d = forward_line[1] - forward_line[0]
        forward = d / max(float(np.linalg.norm(d)), 1e-12)
    line = grip_line or (pose.pos.copy(), pose.pos.copy())
    body = _owning_body(ctx, prim)
    if body is None:
        problems.append("no rigid-body ancestor: the site must sit under the gripper's base link")
    return GripperSite(str(prim.GetPath()), pose, forward, line, float(max_opening or 0.0),
                       payload if payload is not None and payload > 0 else None, body, problems)


def _site_frame(ctx: ReadContext, prim) -> SiteFrame:
    world = ctx.xform_cache.GetLocalToWorldTransform(prim)
    pose = ctx.world_pose(world.ExtractTranslation(), world.ExtractRotationQuat())
    return SiteFrame(str(prim.GetPath()), pose, _owning_body(ctx, prim), [s for s in SITE_SCHEMAS if _applied(prim, s)])


def _grasp_line(ctx: ReadContext, prim) -> GraspLine | None:
    from pxr import Usd, UsdGeom

    curve = prim if prim.IsA(UsdGeom.BasisCurves) else next(
        (p for p in Usd.PrimRange(prim) if p.IsA(UsdGeom.BasisCurves)), None)
    points = _curve_points(ctx, curve)
    if points is None:
        return None
    body = _owning_body(ctx, prim) or _body_holding(ctx, *points)
    return GraspLine(str(prim.GetPath()), points[0], points[1], body)


def _owning_body(ctx: ReadContext, prim) -> str | None:
    """The nearest rigid-body ancestor (or the prim itself)."""
    while prim and prim.IsValid() and str(prim.GetPath()) != "/":
        path = str(prim.GetPath())
        if path in ctx.model.bodies:
            return path
        prim = prim.GetParent()
    return None


def _body_holding(ctx: ReadContext, p0: np.ndarray, p1: np.ndarray) -> str | None:
    """A grasp line in an annotation scope: the rigid body whose collision bounds hold most of the segment (NVIDIA's
    rule), or None."""
    from ..geometry import collider_world_aabb

    samples = [p0 + (p1 - p0) * t for t in np.linspace(0.0, 1.0, 11)]
    best, best_count = None, 0
    for path in ctx.model.bodies:
        boxes = [collider_world_aabb(ctx.model.colliders[c]) for c in ctx.model.bodies[path].colliders
                 if c in ctx.model.colliders]
        boxes = [b for b in boxes if b is not None]
        count = sum(any(np.all(p >= lo - 1e-6) and np.all(p <= hi + 1e-6) for lo, hi in boxes) for p in samples)
        if count > best_count:
            best, best_count = path, count
    return best


def _local_pose(ctx: ReadContext, prim, body: str) -> Pose:
    world = ctx.xform_cache.GetLocalToWorldTransform(prim)
    pose = ctx.world_pose(world.ExtractTranslation(), world.ExtractRotationQuat())
    body_pose = ctx.model.bodies[body].world_pose
    pos, quat = compose(*inverse(body_pose.pos, body_pose.quat), pose.pos, pose.quat)
    return Pose(pos, quat)
