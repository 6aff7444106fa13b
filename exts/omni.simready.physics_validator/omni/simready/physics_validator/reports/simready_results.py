"""Each verdict in the per-test `result.json` layout of NVIDIA's SimReady benchmark (`simready-benchmark` 2026.8), so
its reporter and pipelines read our runs (`--format simready`).

    OUT/results/<asset key>/.simready/runtime/<test>/<engine>/result.json

`<asset key>` is the asset's path relative to the run's content root (the deepest folder holding every asset), as
their runner mirrors it; `<engine>` is our engine's name. Their statuses are pass / fail / skipped / error: WARN is
`pass` with the reason among the warnings (their tests have no WARN: an advisory finding passes with a warning there
too), SKIP and NOT_APPLICABLE are `skipped`, PRECHECK_FAILURE is `fail` (their precheck failure on an asset claiming
the feature), ERROR is `error` (their reporter counts it as fail). Metrics are `{name: {value, unit}}`; media list our
videos and plots inside OUT. Our own verdict, code and rows travel along in `validator` (their reader ignores what it
does not know).
"""

from __future__ import annotations

import json
import math
import os
from pathlib import Path
from typing import TYPE_CHECKING

from ..core import out_writer
from ..core.feature_ids import canonical, feature_for_engine
from ..core.status import Status

if TYPE_CHECKING:
    from ..core.results import AssetResult, RunReport, TestResult

PROVIDER = "omni.simready.physics_validator"
STATUS = {
    Status.PASS: "pass", Status.WARN: "pass", Status.FAIL: "fail", Status.PRECHECK_FAILURE: "fail",
    Status.SKIP: "skipped", Status.NOT_APPLICABLE: "skipped", Status.ERROR: "error",
}
VIDEO_SUFFIXES = (".mp4", ".webm", ".gif")
IMAGE_SUFFIXES = (".png", ".jpg", ".jpeg", ".svg")


def content_root(paths: list[str]) -> str:
    """The deepest folder holding every asset (their `content_root`): asset keys are relative to it."""
    folders = [os.path.dirname(os.path.abspath(p)) for p in paths] or [os.getcwd()]
    return os.path.commonpath(folders)


def asset_key(path: str, root: str) -> str:
    """The asset's path relative to the content root, with forward slashes (their `asset_rel_key`)."""
    return os.path.relpath(os.path.abspath(path), root).replace(os.sep, "/")


def _json_number(value):
    if isinstance(value, float) and not math.isfinite(value):
        return None
    return value


def result_payload(result: "TestResult", asset: "AssetResult", key: str, out_dir: Path, engine_version: str,
                   summary: str = "") -> dict:
    """One verdict as their result.json object."""
    warnings = list(result.warnings)
    if result.status is Status.WARN and result.reason:
        warnings.insert(0, f"WARN: {result.reason}")
    failing = [{"joint": r.joint, "status": r.status.value, "codes": list(r.codes), "reason": r.reason}
               for r in result.joints if r.status not in (Status.PASS,)]
    payload = {
        "status": STATUS.get(result.status, "error"),
        "duration": round(float(result.wall_seconds), 3),
        "message": result.reason,
        "metrics": {name: {"value": _json_number(value), "unit": result.metric_units.get(name)}
                    for name, value in result.metrics.items()},
        "media": _media(result, out_dir),
        "warnings": warnings,
        "logs": list(result.log),
        "test_name": result.name,
        "test_version": result.version,
        "test_provider": PROVIDER,
        "test_output_name": result.name,
        "feature": feature_for_engine(result.features, result.engine),  # FET_022_NEWTON for a newton run
        "description": summary,
        "asset": key,
        "engine": result.engine,
        "engine_version": engine_version,
        "validator": {"status": result.status.value, "code": result.code, "fix_hints": list(result.fix_hints),
                      "physics_variants": list(result.physics_variants),
                      "features": [canonical(f) for f in result.features], "simulated_seconds": result.simulated_seconds,
                      "joints_not_passing": failing},
    }
    if result.status in (Status.FAIL, Status.PRECHECK_FAILURE, Status.ERROR):
        payload["failure_details"] = {"code": result.code, "joints": failing, "fix_hints": list(result.fix_hints)}
    return payload


def _media(result: "TestResult", out_dir: Path) -> list[dict]:
    """Our artifacts inside OUT, as their media entries: filename relative to OUT, kind, role."""
    media = []
    for _label, path in sorted(result.artifacts.items()):
        suffix = Path(path).suffix.lower()
        kind = "video" if suffix in VIDEO_SUFFIXES else "image" if suffix in IMAGE_SUFFIXES else None
        if kind is None:
            continue
        try:
            relative = Path(path).resolve().relative_to(out_dir.resolve())
        except ValueError:
            continue  # outside OUT: their reporter refuses paths that escape the output folder
        media.append({"filename": relative.as_posix(), "role": "summary" if kind == "video" else "normal", "kind": kind})
    return media


def write_simready_results(report: "RunReport", out_dir: str | Path, registry=None, privacy=None) -> Path:
    """Write every verdict of `report` under OUT/results/; returns that folder. `registry` (the run's TestRegistry)
    gives each test's one-line summary as their `description`."""
    out_dir = Path(out_dir)
    root = content_root([a.path for a in report.assets])
    results_root = out_dir / "results"
    engine_version = report.engine.version or report.engine.name
    for asset in report.assets:
        key = asset_key(asset.path, root)
        for result in asset.tests:
            engine = result.engine or report.engine.name or "engine"
            folder = results_root / key / ".simready" / "runtime" / result.name / engine
            known = registry is not None and result.name in registry
            summary = registry.get(result.name).summary if known else ""
            payload = result_payload(result, asset, key, out_dir, engine_version, summary)
            if privacy is not None:  # a reports.path_privacy.PathPrivacy: as their own saved results, no absolute paths
                payload = privacy.data(payload)
            out_writer.write_text(folder / "result.json", json.dumps(payload, indent=2, allow_nan=False))
    return results_root
