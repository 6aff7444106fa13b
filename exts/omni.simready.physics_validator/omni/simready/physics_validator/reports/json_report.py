"""The JSON report: the machine-readable record of a run (schema in docs/report-schema.md)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import TYPE_CHECKING

from ..core.results import RunReport
from ..core import out_writer

if TYPE_CHECKING:
    from .path_privacy import PathPrivacy


def report_json(report: RunReport, privacy: "PathPrivacy | None" = None) -> str:
    """The report as JSON; with `privacy` (reports.path_privacy) no absolute path of the user's is in it."""
    data = report.model_dump(mode="json")
    return json.dumps(privacy.data(data) if privacy is not None else data, indent=2, allow_nan=False)


def write_json_report(report: RunReport, path: str | Path, privacy: "PathPrivacy | None" = None) -> Path:
    path = Path(path)
    out_writer.write_text(path, report_json(report, privacy))
    return path


def read_json_report(path: str | Path) -> RunReport:
    return RunReport.model_validate_json(Path(path).read_text(encoding="utf-8"))
