"""`simready-physics fix --shape-inertia`: the inertia a body's shape gives, proposed as a layer and proved by the re-run.

For each body the plausibility checks (core/plausibility) find with an inertia its own colliders contradict
(INERTIA_PLACEHOLDER: 10x off; INERTIA_TRIANGLE: no body has it), the finding carries the proposal: the colliders'
solid at the body's runtime mass, about its runtime centre of mass, as MassAPI spells it (physics:diagonalInertia in
the stage's units, physics:principalAxes). This writes them into an override layer (OUT/<asset>.inertia.usda, the
asset never touched) and a root that sublayers it over the asset (OUT/<asset>.inertia_fixed.usda), validates that
root with the same tests, and says "accepted" only when the re-run shows every such finding gone and no verdict worse
than as authored; otherwise "rejected", naming the verdicts that got worse. Never silently: each change says the
finding, the authored and the proposed moments.
"""

from __future__ import annotations

import re
from pathlib import Path

from ..core.config import ValidationConfig
from ..core.results import FixChange, FixJoint, FixResult, FixTest, RunReport
from ..core.status import Status, severity
from .layers import JointOverride, open_stage, stage_metadata, write_composed_root, write_override_layer

CODES = ("INERTIA_PLACEHOLDER", "INERTIA_TRIANGLE")  # the findings whose proposal this writes
JUDGED = (Status.PASS, Status.WARN, Status.FAIL, Status.PRECHECK_FAILURE, Status.ERROR)


def fix_shape_inertia(paths, tests: list[str] | None, config: ValidationConfig, engine: str, out: Path,
                      jobs: int | None = None, progress=None) -> RunReport:
    """Validate `paths`, propose the shapes' inertia where a finding calls for it, re-run with the layer, and give
    each asset its `fix` block (accepted only when proved)."""
    from ..run.batch import validate_batch

    report = validate_batch(paths, tests, config, engine, out / ".as_authored", progress=progress, jobs=jobs)
    roots: dict[str, Path] = {}
    for asset in report.assets:
        proposals = [f for f in (asset.plausibility.findings if asset.plausibility else []) if f.code in CODES
                     and f.body and f.proposal.get("diagonal_inertia")]
        if not proposals:
            asset.fix = FixResult(status="nothing_to_fix", summary="no body with an inertia its shape contradicts "
                                                                   "(INERTIA_PLACEHOLDER, INERTIA_TRIANGLE)")
            continue
        layer, root, changes = _write_layers(asset.path, proposals, out)
        asset.fix = FixResult(status="error", layer=str(layer), composed=str(root), joints=changes)
        roots[asset.path] = root
    if roots:
        rerun = validate_batch([str(r) for r in roots.values()], tests, config, engine, out / ".with_layer", jobs=jobs)
        by_root = {a.path: a for a in rerun.assets}
        for asset in report.assets:
            if asset.path in roots:
                _judge(asset, by_root.get(str(roots[asset.path])))
    return report


def _write_layers(asset_path: str, proposals, out: Path):
    stage = open_stage(asset_path)
    kg, m = _stage_units(stage)
    overrides, changes = [], []
    for found in proposals:
        diagonal = [v / (kg * m * m) for v in found.proposal["diagonal_inertia"]]  # kg m^2 -> the stage's kg u^2
        axes = found.proposal["principal_axes"]
        prim = stage.GetPrimAtPath(found.body)
        before = prim.GetAttribute("physics:diagonalInertia").Get() if prim else None
        from pxr import Gf

        overrides.append(JointOverride(found.body, {"physics:diagonalInertia": Gf.Vec3f(*diagonal),
                                                    "physics:principalAxes": Gf.Quatf(*axes)},
                                       ["PhysicsMassAPI"], f"{found.code}: {found.message}"))
        changes.append(FixJoint(joint=found.body.rsplit("/", 1)[-1], path=found.body, reason=found.message,
                                changes=[FixChange(attribute="physics:diagonalInertia",
                                                   before=", ".join(f"{v:.4g}" for v in before) if before else None,
                                                   after=", ".join(f"{v:.4g}" for v in diagonal), unit="kg·u²",
                                                   why=f"{found.code}: the colliders' solid at the runtime's mass")]))
    name = re.sub(r"[^A-Za-z0-9_.-]", "_", Path(asset_path).stem)
    layer = write_override_layer(out / f"{name}.inertia.usda", stage, overrides,
                                 "simready-physics fix --shape-inertia: the inertia each body's colliders give")
    root = write_composed_root(out / f"{name}.inertia_fixed.usda", [layer, asset_path], stage_metadata(stage),
                               "the asset with its shapes' inertia (simready-physics fix --shape-inertia)")
    return layer, root, changes


def _stage_units(stage) -> tuple[float, float]:
    from pxr import UsdGeom, UsdPhysics

    return float(UsdPhysics.GetStageKilogramsPerUnit(stage)), float(UsdGeom.GetStageMetersPerUnit(stage))


def _judge(asset, rerun) -> None:
    """accepted: every proposed finding gone from the re-run and no verdict worse; else rejected, saying why."""
    fix = asset.fix
    if rerun is None or not rerun.tests:
        fix.status, fix.summary = "error", "the re-run with the layer gave no verdicts"
        return
    after = {t.name: t for t in rerun.tests}
    worse, fixed = [], 0
    for test in asset.tests:
        new = after.get(test.name)
        fix.tests.append(FixTest(test=test.name, before=test.status, after=new.status if new else None,
                                 before_reason=test.reason, after_reason=new.reason if new else "",
                                 before_code=test.code, after_code=new.code if new else ""))
        if new is None:
            continue
        if test.status in JUDGED and new.status in JUDGED and severity(new.status) < severity(test.status):
            worse.append(f"{test.name} {test.status.value} -> {new.status.value}")
        fixed += test.status in (Status.FAIL, Status.WARN) and new.status == Status.PASS
    remaining = [f.code for f in (rerun.plausibility.findings if rerun.plausibility else [])
                 if f.code in CODES and f.body in {j.path for j in fix.joints}]
    fix.fixed, fix.broken, fix.rounds = fixed, len(worse), 1
    if worse or remaining:
        fix.status = "rejected"
        fix.summary = "; ".join([*(f"worse with the layer: {w}" for w in worse),
                                 *(f"still flagged: {c}" for c in remaining)])
        fix.layer = fix.composed = ""
        return
    fix.status = "accepted"
    fix.summary = (f"the shapes' inertia on {len(fix.joints)} bod{'y' if len(fix.joints) == 1 else 'ies'}: the re-run "
                   f"shows no such finding and no verdict worse ({fixed} FAIL/WARN -> PASS)")
