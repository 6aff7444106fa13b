"""JUnit XML mapping of every verdict, including tests an interrupted run never reached."""

from __future__ import annotations

import xml.etree.ElementTree as ET

from omni.simready.physics_validator.core.results import AssetResult, RunReport, TestResult
from omni.simready.physics_validator.core.status import Status
from omni.simready.physics_validator.reports.junit import report_junit


def test_each_status_maps_to_its_junit_element():
    statuses = list(Status)
    report = RunReport(
        assets=[AssetResult(path="a.usda", tests=[TestResult(name=s.value.lower(), status=s, reason=f"why {s.value}") for s in statuses])],
        complete=False,
        not_run=["b.usda::ground_drop", "b.usda::effort_limit"],
    )
    root = ET.fromstring(report_junit(report))
    cases = {(c.get("classname"), c.get("name")): c for c in root.iter("testcase")}
    kind = {name: next((child.tag for child in case if child.tag != "system-out"), "pass") for (_, name), case in cases.items()}
    assert kind["fail"] == kind["precheck_failure"] == "failure"
    assert kind["error"] == "error"
    assert kind["skip"] == kind["not_applicable"] == "skipped"
    assert kind["pass"] == kind["warn"] == "pass"
    assert cases[("b.usda", "ground_drop")].find("error").get("type") == "NOT_RUN"
    suites = {s.get("name"): s for s in root.iter("testsuite")}
    assert suites["a.usda"].get("failures") == "2" and suites["a.usda"].get("skipped") == "2"
    assert suites["not run (interrupted)"].get("errors") == "2"
