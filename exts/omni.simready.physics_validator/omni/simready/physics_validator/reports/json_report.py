"""The JSON report: the machine-readable record of a run (schema in docs/report-schema.md)."""

from __future__ import annotations

import json
from pathlib import Path

from ..core.results import RunReport
from ..core.atomic_write import write_atomic


def report_json(report: RunReport) -> str:
    return json.dumps(report.model_dump(mode="json"), indent=2, allow_nan=False)


def write_json_report(report: RunReport, path: str | Path) -> Path:
    path = Path(path)
    write_atomic(path, report_json(report))
    return path


def read_json_report(path: str | Path) -> RunReport:
    return RunReport.model_validate_json(Path(path).read_text(encoding="utf-8"))
