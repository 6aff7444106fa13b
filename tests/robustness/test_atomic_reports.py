"""Reports are written atomically: a crash between writing and renaming never leaves half a report.

Each writer first writes a good report, then is made to fail at the rename (the moment a killed
process would stop); the earlier report must still be on disk, whole and parseable, with no
partial file at its path.
"""

from __future__ import annotations

import json
import os
import xml.etree.ElementTree as ET

import pytest

from omni.simready.physics_validator.core.results import AssetResult, RunReport, TestResult
from omni.simready.physics_validator.core.status import Status
from omni.simready.physics_validator.physics_tests import default_registry
from omni.simready.physics_validator.reports.json_report import write_json_report
from omni.simready.physics_validator.reports.junit import write_junit_report


def _report(reason: str) -> RunReport:
    result = TestResult(name="ground_drop", status=Status.FAIL, reason=reason, metrics={"x": float("nan")})
    return RunReport(assets=[AssetResult(path="/a/ロボット.usda", tests=[result])])


def _html_writer():
    try:
        from omni.simready.physics_validator.reports.html import write_html_report
    except ImportError as exc:  # pragma: no cover - the HTML extra is not installed
        pytest.skip(f"HTML report not available: {exc}")
    return lambda report, folder: write_html_report(report, folder, default_registry())


WRITERS = {
    "json": (lambda report, folder: write_json_report(report, folder / "report.json"), lambda p: json.loads(p.read_text())),
    "junit": (lambda report, folder: write_junit_report(report, folder / "junit.xml"), lambda p: ET.parse(p)),
    "html": (None, lambda p: p.read_text(encoding="utf-8")),
}


@pytest.mark.parametrize("kind", list(WRITERS))
def test_a_crash_at_the_rename_keeps_the_previous_report_whole(kind, tmp_path, monkeypatch):
    write, parse = WRITERS[kind]
    write = write or _html_writer()
    path = write(_report("first run"), tmp_path)
    first = path.read_bytes()
    parse(path)

    def killed(*args, **kwargs):
        raise OSError("process killed before the rename")

    monkeypatch.setattr(os, "replace", killed)
    with pytest.raises(OSError):
        write(_report("second run, interrupted " * 200), tmp_path)
    monkeypatch.undo()
    assert path.read_bytes() == first
    parse(path)


def test_reports_with_nan_metrics_and_non_ascii_paths_stay_valid(tmp_path):
    path = write_json_report(_report("reason with ünïcode"), tmp_path / "report.json")
    data = json.loads(path.read_text(encoding="utf-8"))
    assert data["assets"][0]["tests"][0]["metrics"]["x"] == "nan"
    assert data["assets"][0]["path"].endswith("ロボット.usda")
