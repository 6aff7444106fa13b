"""The asset file into a Newton ModelBuilder through Newton's own USD importer.

Newton reads the USD itself (`add_usd` with the Newton and PhysX schema resolvers). Two things it cannot
take as authored: stages not in metres (Newton 1.8 rejects metersPerUnit != 1; we import a scaled
in-memory stage), and joints outside any articulation (SolverSteel simulates reduced coordinates only;
we group them into articulations, where PhysX would use maximal constraints).
"""

from __future__ import annotations

import warnings

from ...core.asset_model import AssetModel
from ...core.engine import EngineError
from ...core.scene import SceneSpec
from .runtime import import_newton
from .targets import NewtonTarget

wp, newton = import_newton()

FALLBACK = "Falling back to"  # Newton's words when a collider approximation could not be made as authored


def source_of(asset: AssetModel, warn):
    """The asset file, or for metersPerUnit != 1 (which Newton 1.8 rejects) an in-memory stage in metres
    that references the asset's default prim under a scaling Xform of the same path. With runtime variants chosen
    (core.usd.variants), the stage Newton reads carries the same selections on its session layer."""
    from pxr import Gf, Usd, UsdGeom

    from ...core.usd.variants import author_selections

    if abs(asset.meters_per_unit - 1.0) < 1e-9:
        if not asset.runtime_variants:
            return asset.path
        stage = Usd.Stage.Open(asset.path, Usd.Stage.LoadAll)
        author_selections(stage.GetSessionLayer(), asset.runtime_variants)
        return stage

    if not asset.default_prim or asset.default_prim.count("/") != 1:
        raise EngineError(f"{asset.path}: metersPerUnit {asset.meters_per_unit} needs a default prim to rescale for Newton")
    source = Usd.Stage.Open(asset.path, Usd.Stage.LoadAll)
    stage = Usd.Stage.CreateInMemory()
    UsdGeom.SetStageUpAxis(stage, UsdGeom.GetStageUpAxis(source))
    UsdGeom.SetStageMetersPerUnit(stage, 1.0)
    root = UsdGeom.Xform.Define(stage, asset.default_prim)
    root.GetPrim().GetReferences().AddReference(asset.path)
    # The scale goes first (outermost) and the default prim's own ops stay after it: a local xformOpOrder replaces
    # the referenced one, so the prim's own transform (a Y-up asset's root rotation) was lost, and the Y-up
    # centimetre arm stood along -Y (gravity sideways) while its metre twin stood up.
    own = [op for op in UsdGeom.Xformable(source.GetPrimAtPath(asset.default_prim)).GetXformOpOrderAttr().Get() or []
           if op != "!resetXformStack!"]  # nothing above a top-level prim to reset
    s = float(asset.meters_per_unit)
    scale = root.AddScaleOp(UsdGeom.XformOp.PrecisionDouble, "metersPerUnit")
    scale.Set(Gf.Vec3d(s, s, s))
    root.GetXformOpOrderAttr().Set([scale.GetOpName(), *own])
    author_selections(stage.GetSessionLayer(), asset.runtime_variants)
    warn(
        f"metersPerUnit {asset.meters_per_unit}: Newton imports metres only; the asset is imported scaled, and "
        "joint limits, drive gains, maxForce and velocity limits are taken from the asset model (SI)"
    )
    return stage


def import_usd(source, spec: SceneSpec, t: NewtonTarget, xform=None, asset: AssetModel | None = None, warn=None):
    """(builder, importer result) of the source, moved by `xform` (None = as authored), as the target's runtime imports
    it (its builder defaults, schema resolvers and add_usd options; targets.py). With `asset`: an EngineError saying
    why when Newton's importer does not build the asset's joints between the bodies they join (`check_joint_graph`).
    `warn` gets the importer's collider fallbacks (a convexDecomposition without coacd becomes one convex hull: other
    collision geometry than the author asked for), which Newton only issues as Python warnings."""
    builder = newton.ModelBuilder(up_axis=newton.Axis.Z, gravity=(0.0, 0.0, -float(spec.gravity)))
    for name, value in t.shape_defaults:
        setattr(builder.default_shape_cfg, name, value)
    for name, value in t.joint_defaults:
        setattr(builder.default_joint_cfg, name, value)
    if t.solver == "mujoco":
        newton.solvers.SolverMuJoCo.register_custom_attributes(builder)  # the mjc:* attributes it reads
    try:
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            result = builder.add_usd(
                source,
                xform=xform,
                floating=False if spec.pin_base else None,
                schema_resolvers=[getattr(newton.usd, name)() for name in t.resolvers],
                load_visual_shapes=False,
                load_sites=False,
                **dict(t.import_options),
            )
        for note in dict.fromkeys(str(w.message) for w in caught if FALLBACK in str(w.message)):
            if warn is not None:
                warn(f"Newton: {note}" + (" (pip install coacd gives Newton's convex decomposition)" if "coacd" in note else ""))
    except ValueError as exc:
        cut = _excluded_tree_joints(asset) if asset is not None else []
        if not cut:
            raise
        raise EngineError(f"Newton {newton.__version__} cannot import {asset.path if asset else 'the asset'}: {exc} "
                          f"({_cut_story(cut)})") from exc
    if asset is not None:
        check_joint_graph(builder, result, asset)
    return builder, result


def check_joint_graph(builder, result, asset: AssetModel) -> None:
    """Every enabled joint of the asset that Newton imported must join the bodies the asset authors (the world where a
    side is empty). Newton 1.8's importer takes a joint with physics:excludeFromArticulation for a loop closure, added
    after its articulation: where it closes no loop, the bodies beyond it are left out or their joints rerooted to the
    world (measured: a 4R arm whose joint3 is excluded lost link3, and joint3 and joint4 came out joined to the world);
    what it simulates then is another mechanism, so nothing is judged on it."""
    joint_map = result.get("path_joint_map") or {}
    bodies = {i: label for i, label in enumerate(builder.body_label)}
    wrong = []
    for joint in asset.joints.values():
        j = joint_map.get(joint.path)
        if j is None or not joint.enabled:
            continue
        built = {bodies.get(builder.joint_parent[j]), bodies.get(builder.joint_child[j])}
        authored = {joint.body0, joint.body1}
        if built != authored:
            wrong.append(f"{joint.name} joins {_pair(built)}, not {_pair(authored)}")
    if wrong:
        cut = _excluded_tree_joints(asset)
        raise EngineError(f"Newton {newton.__version__} builds another mechanism than {asset.path}: {'; '.join(wrong[:3])}"
                          + (f" ({_cut_story(cut)})" if cut else ""))


def _pair(bodies: set) -> str:
    return " and ".join(sorted((b or "the world").rsplit("/", 1)[-1] for b in bodies))


def _excluded_tree_joints(asset: AssetModel) -> list[str]:
    """Joints with physics:excludeFromArticulation that close no loop: PhysX simulates them as ordinary joints."""
    return [j.name for j in asset.joints.values() if j.enabled and j.exclude_from_articulation and not j.loop_closing]


def _cut_story(cut: list[str]) -> str:
    return (f"{', '.join(cut)}: physics:excludeFromArticulation on a joint that closes no loop; Newton's importer "
            "takes it for a loop closure, PhysX simulates it as an ordinary joint. Run this asset on physx")


def articulate_loose_joints(builder, asset: AssetModel, warn) -> None:
    """Joints outside any ArticulationRootAPI (PhysX: maximal D6 constraints) become Newton articulations,
    one per connected tree, because SolverSteel simulates joints only in reduced coordinates."""
    loose = [j for j, a in enumerate(builder.joint_articulation) if a < 0]
    if not loose:
        return
    group_of_body: dict[int, int] = {}
    groups: list[list[int]] = []
    for j in loose:
        parent, child = builder.joint_parent[j], builder.joint_child[j]
        owners = {group_of_body[b] for b in (parent, child) if b >= 0 and b in group_of_body}
        if not owners:
            groups.append([j])
            g = len(groups) - 1
        else:
            g = min(owners)
            for other in sorted(owners - {g}, reverse=True):
                groups[g] += groups[other]
                groups[other] = []
                for b, owner in group_of_body.items():
                    if owner == other:
                        group_of_body[b] = g
            groups[g].append(j)
        for b in (parent, child):
            if b >= 0:
                group_of_body[b] = g
    for group in groups:
        if not group:
            continue
        group = sorted(group)
        if group != list(range(group[0], group[-1] + 1)):
            raise EngineError(f"joints {[builder.joint_label[j] for j in group]} cannot form one Newton articulation")
        builder.add_articulation(group, label=f"loose_{group[0]}")
    paths = [asset.joints[p].path for p in asset.joints if asset.joints[p].is_dof and asset.joints[p].articulation is None]
    if paths:
        warn(f"{len(paths)} joints outside an articulation are simulated in reduced coordinates by Newton "
             "(PhysX: maximal constraints)")
