"""Read a USD asset into an AssetModel: one pxr pass, SI units, Z-up, never writes the file.

Rigid bodies, shapes, joints, drives, limits and articulations come from OpenUSD's own UsdPhysics
parser (the parser omni.physx uses), so body/shape ownership and joint frames follow the same
rules as Isaac Sim. What the parser does not cover is read by the prim modules beside this one:
MassAPI, materials, PhysX and Newton attributes (velocity limits in three spellings), mimic and
actuator relations, and (`spellings`) every authored attribute a runtime reads a joint or body value from. This module only orders
the pass: stage checks, then materials, bodies,
colliders, joints, articulations, and last the checks that need all of them.
"""

from __future__ import annotations

import os
import warnings

from ..asset_model import AssetModel
from ..units import StageFrame
from .articulations import mark_loops, read_actuators_and_mimics, read_articulation
from .bodies import check_bodies, read_body, read_material
from .joints import JOINT_TYPES, read_joint
from .markers import read_markers
from .read_context import ReadContext
from .shapes import SHAPE_TYPES, read_collider, read_collision_filters
from .spellings import read_spellings
from .stage import check_stage, first_line, metadata_problems, open_stage, robot_type
from .time_samples import check_time_samples
from .variants import select_runtime_variants
from .xform_ops import check_xform_ops


def read_asset(path: str | os.PathLike, runtime: str | None = None) -> AssetModel:
    """Open `path` read-only and build its AssetModel. Raises AssetLoadError when it cannot be opened.

    `runtime` ("PhysX", "Newton", "MuJoCo"): the physics runtime the asset is read for; its runtime variant sets are
    selected on the stage's session layer first (core.usd.variants; the file is never written)."""
    return read_stage(open_stage(path), str(path), runtime)


def read_stage(stage, path: str, runtime: str | None = None) -> AssetModel:
    """Build the AssetModel of an open stage. Bad content becomes model.issues; nothing raises."""
    from pxr import UsdGeom

    choices = select_runtime_variants(stage, runtime)
    up, mpu, kpu = StageFrame.stage_metadata(stage)
    problems = metadata_problems(mpu, kpu, up)  # reported, then the frame keeps them harmless
    frame = StageFrame.from_metadata(up, mpu, kpu)
    default_prim = stage.GetDefaultPrim()
    model = AssetModel(
        path=path,
        default_prim=str(default_prim.GetPath()) if default_prim else None,
        up_axis=up,
        meters_per_unit=frame.meters_per_unit,
        kilograms_per_unit=frame.kilograms_per_unit,
    )
    ctx = ReadContext(stage=stage, frame=frame, model=model, xform_cache=UsdGeom.XformCache())
    check_stage(ctx, problems)
    by_type = _parse_physics(ctx)
    check_xform_ops(ctx, [p for key in ("RigidBody", *SHAPE_TYPES) for p, _ in by_type.get(key, [])])  # before the
    check_time_samples(ctx)  # parser's poses are read: a non-finite op is named by the op, not lost in a pose
    ctx.materials = {str(p): read_material(ctx, p, d) for p, d in by_type.get("RigidBodyMaterial", [])}
    for path_, desc in by_type.get("RigidBody", []):
        read_body(ctx, path_, desc)
    for key, shape in SHAPE_TYPES.items():
        for path_, desc in by_type.get(key, []):
            read_collider(ctx, path_, desc, shape)
    for key, jtype in JOINT_TYPES.items():
        for path_, desc in by_type.get(key, []):
            read_joint(ctx, path_, desc, jtype)
    for path_, desc in by_type.get("Articulation", []):
        read_articulation(ctx, path_, desc)
    read_collision_filters(ctx, by_type.get("CollisionGroup", []))
    read_actuators_and_mimics(ctx)
    mark_loops(ctx)
    check_bodies(ctx)
    read_spellings(ctx)  # every authored spelling of what a runtime reads (the runtime readback compares them)
    model.robot_type = robot_type(stage)
    model.markers = read_markers(ctx)  # gripper sites, grasp lines, robot links, tool frames (after the bodies)
    model.physics_runtime, model.runtime_variants = runtime, choices
    return model


def _parse_physics(ctx: ReadContext) -> dict[str, list]:
    """UsdPhysics.LoadUsdPhysicsFromRange over the whole stage, grouped by object type name."""
    from pxr import UsdPhysics

    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DeprecationWarning)
        loader = UsdPhysics.LoadUsdPhysicsFromRange
        try:
            parsed = loader(ctx.stage, ["/"])
        except Exception as exc:  # noqa: BLE001
            ctx.issue("error", "PHYSICS_PARSE_FAILED", "/", f"UsdPhysics could not parse the stage: {first_line(str(exc))}")
            parsed = {}
    by_type: dict[str, list] = {}
    for object_type, (paths, descs) in parsed.items():
        key = str(object_type).rsplit(".", 1)[-1]
        by_type.setdefault(key, []).extend(zip(paths, descs))
    return by_type
