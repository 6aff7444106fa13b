"""NVIDIA's validation record, written from our verdicts (`--format simready`): the file the SimReady benchmark
(`simready-benchmark` 2026.8.0.post1) reads first for an asset, `<asset folder>/.metadata/<folder name>_validation.json`
(its MetadataSidecarSource, record source "metadata_sidecar"; `simready-manage submit` writes it with
`simready-validate --output`), so NVIDIA's planner and reporter see which features our runs passed.

The file maps each USD path (relative to the asset folder) to a record

    {"profile_id": ..., "profile_version": ..., "features_summary": {"FET_003_PHYSX": {"passed": true, ...}, ...},
     "physics_validator": {"version": ..., "engine": ..., "tests": {...}}}

- **Which feature a result speaks for**: `core.feature_ids.feature_for_engine` (FET_003_PHYSX for a physx run, as
  result.json says). `passed` is true when at least one of the feature's tests passed (PASS, or WARN: theirs pass with
  a warning) and none failed, errored or skipped; false when one FAILed or failed its precheck (NVIDIA's planner then
  reports the feature "Validation failed" and does not benchmark it); null otherwise (an ERROR, a SKIP, or only
  NOT_APPLICABLE: NVIDIA's reader counts it neither way). `failing requirements` lists the failing tests with their
  codes (`ground_drop NOT_AT_REST`), our stand-in for their requirement ids.
- **Profile**: NVIDIA's planner schedules tests only for a profile of its catalogs (`Robotics-Prop` 3.2.0, ...):
  `--simready-profile ID@VERSION`, else the profile of the record already beside the asset, else "" (the record is
  read; the planner says the profile is not in its catalogs). Nothing guesses one.
- **Where**: into OUT, `OUT/validation/<asset folder>/.metadata/<name>_validation.json` (the folder path relative to
  the folder above the assets' folders): copy it over the asset's folder to hand NVIDIA's tools our verdicts. Beside
  the asset only with `--record-beside-asset` (reports/asset_sidecar.py, the one write outside OUT, refusing links).
- **Layout**: NVIDIA reads `<asset>/<intermediate>/<root>.usd`'s record from `<asset>/.metadata/` first, then the USD's
  own folder. A record already in the folder above the USD's is merged there (NVIDIA stops at the first file it finds,
  and one without our asset would hide ours); otherwise the USD's own folder holds it.
- **Merge**: an existing record (a `submit`'s, or ours from the other engine of a `--compare`) keeps its profile, its
  other features and keys; the features we judged are replaced. An unreadable one is never overwritten beside the
  asset; the record in OUT is then ours alone, and the problem is said.
"""

from __future__ import annotations

import json
import os
import stat
from dataclasses import dataclass
from functools import partial
from pathlib import Path
from typing import TYPE_CHECKING

from .._version import __version__
from ..core import out_writer
from ..core.feature_ids import feature_for_engine
from ..core.status import Status
from .asset_sidecar import METADATA, MAX_RECORD_BYTES, SidecarRefused, update_record

if TYPE_CHECKING:
    from ..core.results import AssetResult, RunReport, TestResult

OUT_FOLDER = "validation"
PASSING = (Status.PASS, Status.WARN)
FAILING = (Status.FAIL, Status.PRECHECK_FAILURE)
UNDECIDED = (Status.ERROR, Status.SKIP)


class RecordError(ValueError):
    """An existing record cannot be merged (not JSON, not a mapping): it is left as it is."""


@dataclass(frozen=True)
class Profile:
    """The SimReady profile a record declares (NVIDIA's catalogs: `Robotics-Prop` 3.2.0, `Robot-Body` 2.1.0, ...)."""

    id: str = ""
    version: str = ""

    @classmethod
    def parse(cls, text: str | None) -> "Profile | None":
        """`ID@VERSION` (`Robotics-Prop@3.2.0`); None for no text. ValueError for anything else."""
        if not text:
            return None
        ident, sep, version = text.partition("@")
        if not sep or not ident.strip() or not version.strip():
            raise ValueError(f"--simready-profile wants ID@VERSION, e.g. Robotics-Prop@3.2.0 (got '{text}')")
        return cls(ident.strip(), version.strip())


def feature_summary(tests: list["TestResult"]) -> dict[str, dict]:
    """Per feature the verdict of the tests speaking for it (module docstring)."""
    by_feature: dict[str, list] = {}
    for result in tests:
        feature = feature_for_engine(result.features, result.engine)
        if feature:
            by_feature.setdefault(feature, []).append(result)
    out = {}
    for feature, results in sorted(by_feature.items()):
        failing = [f"{r.name} {r.code}".strip() for r in results if r.status in FAILING]
        passing = [r for r in results if r.status in PASSING]
        passed = False if failing else True if passing and not any(r.status in UNDECIDED for r in results) else None
        out[feature] = {"passed": passed, "failing requirements": failing,
                        "tests": {r.name: {"status": r.status.value, "code": r.code, "version": r.version}
                                  for r in results}}
    return out


def asset_folder(path: str) -> tuple[Path, str]:
    """(the folder whose .metadata holds the asset's record, the asset's key in it): the folder above the USD's when it
    already holds a record, else the USD's own folder."""
    usd = Path(os.path.abspath(path))
    above = usd.parent.parent
    if above != usd.parent and _regular(above / METADATA / record_name(above)):
        return above, usd.relative_to(above).as_posix()
    return usd.parent, usd.name


def record_name(folder: Path) -> str:
    return f"{folder.name}_validation.json"


def _regular(path: Path) -> bool:
    try:
        return stat.S_ISREG(os.lstat(path).st_mode)
    except OSError:
        return False


def record_for(asset: "AssetResult", report: "RunReport", profile: Profile | None, existing: dict | None) -> dict:
    """The record of one asset, over `existing` (the record already there for it, or None)."""
    record = dict(existing or {})
    old_profile = Profile(str(record.get("profile_id", "")), str(record.get("profile_version", "")))
    chosen = profile or old_profile
    record["profile_id"], record["profile_version"] = chosen.id, chosen.version
    summary = dict(record.get("features_summary") or {})
    summary.update(feature_summary(asset.tests))
    record["features_summary"] = summary
    engine = report.engine.name or next((t.engine for t in asset.tests if t.engine), "")
    ours = dict(record.get("physics_validator") or {})
    ours.update({"version": __version__, "engines": sorted({*ours.get("engines", []), engine} - {""}),
                 "sha256": asset.sha256})
    record["physics_validator"] = ours
    return record


def merged_text(existing_text: str | None, report: "RunReport", profile: Profile | None,
                assets: dict[str, "AssetResult"]) -> str:
    """The file's new text: the existing mapping with each of our assets' records merged in."""
    payload: dict = {}
    if existing_text is not None:
        try:
            payload = json.loads(existing_text)
        except ValueError as exc:
            raise RecordError(f"not JSON ({exc})") from None
        if not isinstance(payload, dict):
            raise RecordError("not a mapping of USD paths to records")
    for key, asset in assets.items():
        old_key = next((k for k in payload if isinstance(k, str) and Path(k).name == Path(key).name), key)
        old = payload.pop(old_key, None)
        payload[key] = record_for(asset, report, profile, old if isinstance(old, dict) else None)
    return json.dumps(payload, indent=2, allow_nan=False)


def _by_folder(report: "RunReport") -> dict[Path, dict[str, "AssetResult"]]:
    folders: dict[Path, dict[str, AssetResult]] = {}
    for asset in report.assets:
        folder, key = asset_folder(asset.path)
        folders.setdefault(folder, {})[key] = asset
    return folders


def _read_beside(path: Path) -> str | None:
    """The record already beside the asset, for the OUT copy to carry: None when there is none or it is not a regular
    file of a readable size (never read through a link or from a FIFO)."""
    try:
        info = os.lstat(path)
    except OSError:
        return None
    if not stat.S_ISREG(info.st_mode) or info.st_size > MAX_RECORD_BYTES:
        return None
    try:
        return path.read_text(encoding="utf-8", errors="replace")
    except OSError:
        return None


def write_validation_records(report: "RunReport", out_dir: str | Path, profile: Profile | None = None,
                             beside: bool = False) -> tuple[list[tuple[str, Path]], list[str], list[str]]:
    """Each asset folder's record into OUT/validation/ (and beside the asset when `beside`): ([(label, path)], the
    warnings (a record beside the asset that could not be merged: OUT's carries ours alone), the records asked for and
    not written (beside the asset: a link or a foreign file refused, a failed write); one sentence each. A record under
    OUT that cannot be written raises (OSError)."""
    folders = _by_folder(report)
    if not folders:
        return [], [], []
    base = Path(os.path.commonpath([str(f.parent) for f in folders]))
    root = Path(out_dir) / OUT_FOLDER
    written, problems, not_written = [], [], []
    for folder, assets in folders.items():
        name = record_name(folder)
        try:
            text = merged_text(_read_beside(folder / METADATA / name), report, profile, assets)
        except RecordError as exc:
            problems.append(f"{folder / METADATA / name}: {exc}: the record in OUT does not carry it")
            text = merged_text(None, report, profile, assets)
        target = out_writer.folder(root / folder.relative_to(base) / METADATA) / name
        out_writer.write_text(target, text)
        written.append(("SimReady validation record", target))
        if beside:
            try:
                path = update_record(folder, name, partial(merged_text, report=report, profile=profile, assets=assets))
                written.append(("SimReady validation record beside the asset", path))
            except (SidecarRefused, RecordError) as exc:
                not_written.append(f"{folder / METADATA / name}: not written beside the asset: {exc}")
            except OSError as exc:
                not_written.append(f"{folder / METADATA / name}: not written beside the asset: {exc.strerror or exc}")
    return written, problems, not_written
