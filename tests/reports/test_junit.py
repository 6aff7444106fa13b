"""JUnit XML mapping of every verdict, including tests an interrupted run never reached."""

from __future__ import annotations

import xml.etree.ElementTree as ET

from omni.simready.physics_validator.core.results import AssetResult, RunReport, TestResult
from omni.simready.physics_validator.core.status import Status
from omni.simready.physics_validator.reports.junit import report_junit


def test_each_status_maps_to_its_junit_element():
    statuses = list(Status)
    report = RunReport(
        assets=[AssetResult(path="/lib/a.usda",
                            tests=[TestResult(name=s.value.lower(), status=s, reason=f"why {s.value}") for s in statuses])],
        complete=False,
        not_run=["/lib/b.usda::ground_drop", "/lib/b.usda::effort_limit"],
    )
    root = ET.fromstring(report_junit(report))
    cases = {(c.get("classname"), c.get("name")): c for c in root.iter("testcase")}
    kind = {name: next((child.tag for child in case if child.tag not in ("system-out", "properties")), "pass")
            for (_, name), case in cases.items()}
    assert kind["fail"] == kind["precheck_failure"] == "failure"
    assert kind["error"] == "error"
    assert kind["skip"] == kind["not_applicable"] == "skipped"
    assert kind["pass"] == kind["warn"] == "pass"
    assert cases[("lib/b.usda", "ground_drop")].find("error").get("type") == "NOT_RUN"
    suites = {s.get("name"): s for s in root.iter("testsuite")}
    assert suites["lib/a.usda"].get("failures") == "2" and suites["lib/a.usda"].get("skipped") == "2"
    assert suites["not run (interrupted)"].get("errors") == "2"


def test_a_pass_with_warnings_is_marked_in_the_testcase_properties():
    results = [
        TestResult(name="effort_limit", status=Status.PASS, warnings=[f"j{i}: drive too weak" for i in range(8)],
                   simulated_seconds=12.5),
        TestResult(name="ground_drop", status=Status.PASS, warnings=["video: not recorded (no EGL)"]),  # about the tool
        TestResult(name="velocity_limit", status=Status.FAIL, reason="too fast"),
    ]
    root = ET.fromstring(report_junit(RunReport(assets=[AssetResult(path="robot.usda", tests=results)])))
    props = {case.get("name"): {p.get("name"): p.get("value") for p in case.iter("property")
                                if p.get("name") in ("verdict", "verdict_text", "warnings", "simulated_seconds")}
             for case in root.iter("testcase")}
    assert props["effort_limit"] == {"verdict": "PASS*", "verdict_text": "PASS with 8 warnings", "warnings": "8",
                                     "simulated_seconds": "12.500"}
    assert props["ground_drop"] == {"verdict": "PASS", "verdict_text": "PASS", "warnings": "0", "simulated_seconds": "0.000"}
    assert props["velocity_limit"]["verdict"] == "FAIL"
    case = next(c for c in root.iter("testcase") if c.get("name") == "effort_limit")
    assert case.find("failure") is None and list(case)[0].tag == "properties"  # still a passing case


def test_classnames_name_assets_below_their_folder_never_by_a_climbing_or_absolute_path(tmp_path):
    """`validate ../corpus/out` used to give classnames `../corpus/out/xarm7/xarm7.usda`: CI tools group by them."""
    from omni.simready.physics_validator.reports.junit import case_names

    paths = ["../corpus/out/xarm7/xarm7.usda", "../corpus/out/z1/z1.usda"]
    passed = [TestResult(name="ground_drop", status=Status.PASS)]
    root = ET.fromstring(report_junit(RunReport(assets=[AssetResult(path=p, tests=passed) for p in paths])))
    assert [c.get("classname") for c in root.iter("testcase")] == ["out/xarm7/xarm7.usda", "out/z1/z1.usda"]
    suite = next(root.iter("testsuite"))
    assert suite.get("name") == "out/xarm7/xarm7.usda" and suite.find("properties/property").get("value") == paths[0]
    assert case_names([str(tmp_path / "erd_ur5" / "ur5.usda")]) == {str(tmp_path / "erd_ur5" / "ur5.usda"): "erd_ur5/ur5.usda"}


def test_each_testcase_names_its_features_as_tier_core_2026_8_does():
    """The `features` property holds the new IDs, also for a result read from an older report."""
    results = [TestResult(name="ground_drop", status=Status.PASS, features=["FET003_BASE_PHYSX"]),
               TestResult(name="state_accuracy", status=Status.PASS, features=["FET_022_PHYSX", "FET_022_NEWTON"])]
    root = ET.fromstring(report_junit(RunReport(assets=[AssetResult(path="robot.usda", tests=results)])))
    features = {case.get("name"): next(p.get("value") for p in case.iter("property") if p.get("name") == "features")
                for case in root.iter("testcase")}
    assert features == {"ground_drop": "FET_003_PHYSX", "state_accuracy": "FET_022_PHYSX, FET_022_NEWTON"}
