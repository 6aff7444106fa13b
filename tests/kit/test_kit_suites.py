"""The extension's own Kit test modules (omni/simready/physics_validator/tests), run in a real Kit 110.4 kernel by
the omni.kit.test double's minimal runner (omni.kit.test ships only in a stub on PyPI): Kit's extension manager
enables the extension and its `[[test]]` dependencies (test doubles), and each suite runs on Kit's async engine.

Beside them run the runner's negative controls (tests/kit/runner_controls.py): an [Error] log line and a failed
assertion must fail their tests, or a green suite would prove nothing.
"""

from __future__ import annotations

import tomllib

import pytest

from tests.kit.harness import EXT_ROOT, run_kit

PACKAGE = "omni.simready.physics_validator.tests"
SUITES = ["test_extension", "test_kit_engine", "test_panel"]
CONTROLS = "tests.kit.runner_controls"


@pytest.fixture(scope="module")
def suites(kit_venv, tmp_path_factory):
    manifest = tomllib.loads((EXT_ROOT / "config" / "extension.toml").read_text(encoding="utf-8"))
    (test_section,) = manifest["test"]
    run = run_kit("suites", {"test_dependencies": test_section["dependencies"],
                             "modules": [f"{PACKAGE}.{name}" for name in SUITES] + [CONTROLS]},
                  tmp_path_factory.mktemp("suites"))
    record = run.check()
    results = {r["name"]: r for r in record["results"]}
    print(f"\nkit suites: {len(results)} tests in {record['wall_seconds']} s wall: " + ", ".join(
        f"{name.rsplit('.', 1)[1]} {r['outcome']} {r['seconds']} s" for name, r in results.items()))
    return run, record, results


def test_kit_enabled_the_extension_and_its_test_dependencies(suites):
    _run, record, _results = suites
    assert all(record["enabled"].values()), record["enabled"]
    assert set(record["enabled"]) >= {"omni.simready.physics_validator", "omni.kit.test", "omni.kit.ui_test",
                                      "omni.physx.tests"}


@pytest.mark.parametrize("suite", SUITES)
def test_every_test_of_the_suite_passes_in_kit(suites, suite):
    _run, _record, results = suites
    mine = {n: r for n, r in results.items() if n.startswith(f"{PACKAGE}.{suite}.")}
    assert mine, f"no test collected from {suite}"
    failed = {n: r["detail"] for n, r in mine.items() if r["outcome"] != "pass"}
    assert not failed, failed


def test_negative_controls_the_runner_fails_an_error_line_and_a_failed_assertion(suites):
    _run, _record, results = suites
    outcome = {n.rsplit(".", 1)[1]: r["outcome"] for n, r in results.items() if n.startswith(CONTROLS)}
    assert outcome == {"test_passes": "pass", "test_logs_an_error_line": "fail", "test_fails_an_assertion": "fail"}
    error_line = results[f"{CONTROLS}.RunnerControls.test_logs_an_error_line"]["detail"]
    assert "runner control: a deliberate [Error] line" in error_line
