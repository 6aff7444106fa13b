"""Colliders: shape parameters in metres, mesh points in the collider frame, size checks, filtering.

A collider's pose is kept both relative to its body (what engines attach) and in the world (what
bounds and the floor checks use). A collider without a rigid body is static world geometry. Flat
or zero-size colliders are errors: every engine either rejects them or lets bodies fall through.
"""

from __future__ import annotations

import numpy as np

from ..asset_model import ColliderInfo, MaterialInfo, Pose
from ..geometry import collider_local_extent, compose, quat_to_matrix
from .bodies import mass_value
from .read_context import ReadContext, api_tokens, as_quat, axis_letter, finite

# UsdPhysics parser object type -> ColliderInfo.shape
SHAPE_TYPES = {
    "CubeShape": "box",
    "SphereShape": "sphere",
    "CapsuleShape": "capsule",
    "Capsule1ShapeDesc": "capsule",
    "Capsule1Shape": "capsule",
    "CylinderShape": "cylinder",
    "Cylinder1Shape": "cylinder",
    "ConeShape": "cone",
    "MeshShape": "mesh",
    "PlaneShape": "plane",
}


def read_collider(ctx: ReadContext, path, desc, shape: str) -> None:
    from pxr import UsdPhysics

    spath = str(path)
    prim = ctx.stage.GetPrimAtPath(path)
    body_path = str(desc.rigidBody) if desc.rigidBody and str(desc.rigidBody) else None
    if body_path is not None and body_path not in ctx.model.bodies:
        body_path = None
    local_pos, local_rot = np.array(desc.localPos, float), as_quat(desc.localRot)
    if not (finite(local_pos) and finite(local_rot)):
        ctx.issue("error", "TRANSFORM_NAN", spath, "collider transform contains NaN or Inf")
        local_pos, local_rot = np.zeros(3), np.array([1.0, 0, 0, 0])
    local = ctx.local_pose(local_pos, local_rot)
    if body_path is not None:
        body = ctx.model.bodies[body_path]
        wp, wq = compose(body.world_pose.pos, body.world_pose.quat, local.pos, local.quat)
        world = Pose(wp, wq)
    else:
        # Without a body the parser's local pose is a stage-world pose.
        world = ctx.world_pose(local_pos, local_rot)
        local = world
    collider = ColliderInfo(
        path=spath,
        shape=shape,
        body=body_path,
        local_pose=local,
        world_pose=world,
        collision_enabled=bool(desc.collisionEnabled),
        collision_groups=[str(g) for g in desc.collisionGroups],
        trigger="PhysxTriggerAPI" in api_tokens(prim),
    )
    _read_shape(ctx, prim, desc, collider)
    collider.material = _material(ctx, desc)
    if prim.HasAPI(UsdPhysics.MassAPI):
        mass_api = UsdPhysics.MassAPI(prim)
        collider.mass = mass_value(ctx, spath, mass_api.GetMassAttr().Get(), "mass", ctx.kpu)
        collider.density = mass_value(ctx, spath, mass_api.GetDensityAttr().Get(), "density", ctx.kpu / ctx.mpu**3)
    _check_size(ctx, collider)
    ctx.model.colliders[spath] = collider
    if body_path is not None:
        ctx.model.bodies[body_path].colliders.append(spath)


def _read_shape(ctx: ReadContext, prim, desc, collider: ColliderInfo) -> None:
    """The shape's own parameters; the parser has already baked the prim's scale into them."""
    shape = collider.shape
    if shape == "box":
        collider.half_extents = np.abs(np.array(desc.halfExtents, float)) * ctx.mpu
    elif shape == "sphere":
        collider.radius = abs(float(desc.radius)) * ctx.mpu
    elif shape in ("capsule", "cylinder", "cone"):
        collider.radius = abs(float(desc.radius)) * ctx.mpu
        collider.half_height = abs(float(desc.halfHeight)) * ctx.mpu
        collider.axis = axis_letter(desc.axis, "Z")
    elif shape == "plane":
        collider.axis = axis_letter(desc.axis, "Z")
    elif shape == "mesh":
        collider.approximation = str(desc.approximation) if desc.approximation else "none"
        _mesh_geometry(ctx, prim, collider)


def _material(ctx: ReadContext, desc) -> MaterialInfo | None:
    """The first bound material the parser found, if it is a physics material."""
    for material_path in desc.materials:
        material = ctx.materials.get(str(material_path))
        if material is not None:
            return material
    return None


def _mesh_geometry(ctx: ReadContext, prim, collider: ColliderInfo) -> None:
    """Mesh points expressed in the collider frame the parser reports, with all scale baked in."""
    from pxr import UsdGeom

    mesh = UsdGeom.Mesh(prim)
    points = mesh.GetPointsAttr().Get() if mesh else None
    if points is None or len(points) == 0:
        ctx.issue("error", "MESH_NO_POINTS", collider.path, "mesh collider has no points")
        collider.mesh_points = np.zeros((0, 3))
        return
    pts = np.array(points, dtype=float)
    if not finite(pts):
        ctx.issue("error", "MESH_NAN", collider.path, "mesh collider points contain NaN or Inf")
        pts = np.nan_to_num(pts)
    counts = mesh.GetFaceVertexCountsAttr().Get()
    indices = mesh.GetFaceVertexIndicesAttr().Get()
    collider.mesh_face_vertex_counts = np.array(counts, dtype=np.int64) if counts is not None else np.zeros(0, np.int64)
    collider.mesh_face_vertex_indices = np.array(indices, dtype=np.int64) if indices is not None else np.zeros(0, np.int64)
    if len(collider.mesh_face_vertex_counts) == 0:
        ctx.issue("error", "MESH_NO_FACES", collider.path, "mesh collider has no faces")
    # Full stage-space transform of the mesh, then into the collider frame (unscaled pose).
    matrix = np.array(ctx.xform_cache.GetLocalToWorldTransform(prim), dtype=float).T  # column-vector form
    world_pts = (matrix[:3, :3] @ pts.T).T + matrix[:3, 3]
    world_pts = ctx.frame.points_to_si(world_pts)
    frame_rot = quat_to_matrix(collider.world_pose.quat)
    collider.mesh_points = (frame_rot.T @ (world_pts - collider.world_pose.pos).T).T


def _check_size(ctx: ReadContext, collider: ColliderInfo) -> None:
    if collider.shape == "plane":
        return
    extent = collider_local_extent(collider)
    if extent is None:
        return
    size = extent[1] - extent[0]
    if not finite(size):
        ctx.issue("error", "COLLIDER_NAN", collider.path, "collider size contains NaN or Inf")
        return
    if collider.shape == "mesh":
        thin = int(np.sum(size < 1e-9))
        if thin >= 1:
            ctx.issue(
                "error",
                "ZERO_VOLUME_COLLIDER",
                collider.path,
                f"mesh collider is flat or degenerate (extent {np.round(size, 6).tolist()} m): it has no volume",
            )
    elif np.any(size <= 0):
        ctx.issue("error", "ZERO_VOLUME_COLLIDER", collider.path, f"{collider.shape} collider has zero size")


def read_collision_filters(ctx: ReadContext, groups) -> None:
    """Collision groups that filter each other, then pairwise filters (FilteredPairsAPI) on any prim."""
    from pxr import UsdPhysics

    for path, desc in groups:
        for other in desc.filteredGroups:
            ctx.model.collision_group_filters.append((str(path), str(other)))
    for prim in ctx.stage.Traverse():
        if prim.HasAPI(UsdPhysics.FilteredPairsAPI):
            for target in UsdPhysics.FilteredPairsAPI(prim).GetFilteredPairsRel().GetTargets():
                ctx.model.filtered_pairs.append((str(prim.GetPath()), str(target)))
