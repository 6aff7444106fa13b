"""JUnit XML for CI: one testcase per asset and test.

FAIL and PRECHECK_FAILURE are <failure>, ERROR is <error>, SKIP and NOT_APPLICABLE are <skipped>
with the reason, WARN passes with the warnings in <system-out>. Tests an interrupted run never reached are <error>
NOT_RUN cases in a suite of their own. Each testcase carries <properties>: `verdict` as the console shows it
("PASS*" for a PASS carrying warnings about the asset, core.status.verdict_label), `verdict_text` ("PASS with 8
warnings"), `warnings` (how many), `test_version` (the test's version, e.g. ground_drop 3.2.0), `code` (the verdict
code), `simulated_seconds` (the physics time the test stepped; `time` is wall seconds) and, when the asset has
physics-runtime variants, `physics_variants` (the selections made for the engine). Suites and classnames name an asset
relative to the folder above the run's assets (`erd_ur5/ur5.usda`, never `../corpus/...` or an absolute path: CI
tools group by them); each suite's `path` property keeps the path as given.
"""

from __future__ import annotations

import os
import xml.etree.ElementTree as ET
from pathlib import Path
from typing import TYPE_CHECKING

from ..core.feature_ids import canonical
from ..core.results import RunReport
from ..core import out_writer
from ..core.status import Status, asset_warnings, verdict_label, verdict_text
from .safe_text import xml_text

if TYPE_CHECKING:
    from .path_privacy import PathPrivacy


def case_names(paths: list[str]) -> dict[str, str]:
    """Each asset path as CI shows it: relative to the folder above the assets' common folder (`erd_ur5/ur5.usda`
    for one asset, `out/a/a.usda` for a folder of them), with '/' separators whatever the platform."""
    folders = [os.path.dirname(os.path.abspath(p)) for p in paths]
    if not folders:
        return {}
    above = os.path.dirname(os.path.commonpath(folders))
    return {p: Path(os.path.relpath(os.path.abspath(p), above)).as_posix() for p in paths}


def report_junit(report: RunReport, privacy: "PathPrivacy | None" = None) -> str:
    suites = ET.Element("testsuites", name="simready-physics")
    names = case_names([a.path for a in report.assets] + [item.rpartition("::")[0] for item in report.not_run])
    for asset in report.assets:
        suite = ET.SubElement(suites, "testsuite", name=names[asset.path])
        ET.SubElement(ET.SubElement(suite, "properties"), "property", name="path", value=asset.path)
        counts = {"tests": 0, "failures": 0, "errors": 0, "skipped": 0}
        total_time = 0.0
        for result in asset.tests:
            counts["tests"] += 1
            total_time += result.wall_seconds
            case = ET.SubElement(
                suite,
                "testcase",
                classname=names[asset.path],
                name=result.name,
                time=f"{result.wall_seconds:.3f}",
            )
            properties = ET.SubElement(case, "properties")
            for key, value in (("verdict", verdict_label(result)), ("verdict_text", verdict_text(result)),
                               ("warnings", str(len(asset_warnings(result)))), ("test_version", result.version),
                               ("code", result.code), ("simulated_seconds", f"{result.simulated_seconds:.3f}"),
                               ("features", ", ".join(canonical(f) for f in result.features))):
                ET.SubElement(properties, "property", name=key, value=value)
            if result.physics_variants:
                ET.SubElement(properties, "property", name="physics_variants", value="; ".join(result.physics_variants))
            message = f"{result.status.value}: {result.reason}".strip()
            details = _details(result)
            if result.status in (Status.FAIL, Status.PRECHECK_FAILURE):
                counts["failures"] += 1
                node = ET.SubElement(case, "failure", message=message, type=result.status.value)
                node.text = details
            elif result.status == Status.ERROR:
                counts["errors"] += 1
                node = ET.SubElement(case, "error", message=message, type="ERROR")
                node.text = details
            elif result.status.is_skipped:
                counts["skipped"] += 1
                ET.SubElement(case, "skipped", message=message)
            if result.warnings or result.status == Status.WARN:
                out = ET.SubElement(case, "system-out")
                out.text = "\n".join([message, *result.warnings])
        for key, count in counts.items():
            suite.set(key, str(count))
        suite.set("time", f"{total_time:.3f}")
    if report.not_run:
        # An interrupted run: the tests that never ran are errors, so CI cannot mistake the run for green.
        suite = ET.SubElement(suites, "testsuite", name="not run (interrupted)", tests=str(len(report.not_run)),
                              failures="0", errors=str(len(report.not_run)), skipped="0", time="0")
        for item in report.not_run:
            asset_path, _, test = item.rpartition("::")
            case = ET.SubElement(suite, "testcase", classname=names[asset_path], name=test, time="0")
            ET.SubElement(case, "error", message="NOT_RUN: the run was interrupted before this test", type="NOT_RUN")
    shown = privacy.text if privacy is not None else (lambda text: text)  # reports.path_privacy: no absolute paths
    for element in suites.iter():  # a control character in a name must not make the whole file unparseable
        element.text = xml_text(shown(element.text) if element.text is not None else None)
        element.attrib.update({key: xml_text(shown(value)) or "" for key, value in element.attrib.items()})
    ET.indent(suites)
    return ET.tostring(suites, encoding="unicode", xml_declaration=True)


def _details(result) -> str:
    lines = [result.reason]
    for row in result.joints:
        if row.status in (Status.FAIL, Status.WARN, Status.ERROR):
            lines.append(f"joint {row.joint}: {row.status.value} {row.reason}")
    lines += [f"fix: {hint}" for hint in result.fix_hints]
    return "\n".join(line for line in lines if line)


def write_junit_report(report: RunReport, path: str | Path, privacy: "PathPrivacy | None" = None) -> Path:
    path = Path(path)
    out_writer.write_text(path, report_junit(report, privacy))
    return path
