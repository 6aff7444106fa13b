"""Batch runs through the CLI on the real engine: parallel = sequential, incremental, resumable."""

from __future__ import annotations

import shutil
import time
from pathlib import Path

import pytest
from pxr import Sdf

from tests.fixtures.batch import cache_entries, kill_session, load_report, mixed_library, run_cli, start_cli, verdicts
from tests.fixtures.usd_assets import box_asset

pytestmark = pytest.mark.usefixtures("physx_available")

COMMON = ("--tests", "ground_drop", "--no-video", "--no-html")


@pytest.fixture(scope="module")
def library(tmp_path_factory):
    return mixed_library(tmp_path_factory.mktemp("batch") / "lib")


@pytest.fixture(scope="module")
def sequential_report(library, tmp_path_factory):
    out = tmp_path_factory.mktemp("jobs1")
    proc = run_cli("validate", library, *COMMON, "--jobs", "1", "--out", out)
    assert proc.returncode == 1, proc.stderr  # the mix holds a failing and a broken asset
    return load_report(out)


def test_two_jobs_give_the_same_report_as_one(library, sequential_report, tmp_path):
    proc = run_cli("validate", library, *COMMON, "--jobs", "2", "--out", tmp_path)
    assert proc.returncode == 1, proc.stderr
    assert "Traceback" not in proc.stderr
    parallel = load_report(tmp_path)
    assert verdicts(parallel) == verdicts(sequential_report)
    statuses = {name: tests[0][1] for name, tests in verdicts(parallel)}
    # The mix really is mixed (otherwise "same verdicts" proves little).
    assert {"PASS", "FAIL", "PRECHECK_FAILURE", "NOT_APPLICABLE"} <= set(statuses.values())
    assert statuses["d_broken.usda"] == "PRECHECK_FAILURE"
    for one, two in zip(sequential_report["assets"], parallel["assets"]):
        assert one["tests"][0]["metrics"] == two["tests"][0]["metrics"], one["path"]  # same physics, same numbers
    assert parallel["complete"] is True and parallel["not_run"] == []
    assert (tmp_path / "junit.xml").is_file()


def test_each_asset_reports_its_worker_peak_memory(sequential_report):
    """The peak is per asset (reset between assets in a reused worker): identical boxes cost the same memory,
    whatever the worker ran before them."""
    peaks = {Path(a["path"]).name: a["peak_rss_mb"] for a in sequential_report["assets"]}
    assert all(isinstance(v, float) and 20 < v < 4096 for v in peaks.values()), peaks
    assert peaks["e_layered.usda"] < peaks["a_good.usda"] * 1.25, peaks  # last box asset, no growth across assets


def test_changed_only_revalidates_only_the_touched_asset(library, tmp_path):
    lib = tmp_path / "lib"
    shutil.copytree(library, lib)
    out = tmp_path / "out"
    first = run_cli("validate", lib, *COMMON, "--jobs", "2", "--out", out)
    assert first.returncode == 1, first.stderr
    before = load_report(out)
    assert all(a["from_cache"] == [] for a in before["assets"])

    # Touch only the sublayer of the layered asset: its top file stays byte-identical.
    body = Sdf.Layer.FindOrOpen(str(lib / "Payload" / "e_layered_body.usda"))
    Sdf.AttributeSpec(body.GetPrimAtPath("/Asset/Body"), "physics:kinematicEnabled", Sdf.ValueTypeNames.Bool).default = True
    body.Save()

    started = time.monotonic()
    second = run_cli("validate", lib, *COMMON, "--changed-only", "--out", out)
    assert second.returncode == 1, second.stderr
    after = load_report(out)
    reused = {Path(a["path"]).name for a in after["assets"] if a["from_cache"] == ["ground_drop"]}
    rerun = {Path(a["path"]).name for a in after["assets"] if not a["from_cache"]}
    # The unloadable asset has a content hash too, so it is reused like the others.
    assert rerun == {"e_layered.usda"}
    assert reused == {"a_good.usda", "b_kinematic.usda", "c_anchored.usda", "d_broken.usda"}
    old, new = dict(verdicts(before)), dict(verdicts(after))
    assert old["e_layered.usda"][0][1] == "PASS" and new["e_layered.usda"][0][1] == "FAIL"  # the edit took effect
    assert {k: v for k, v in new.items() if k != "e_layered.usda"} == {k: v for k, v in old.items() if k != "e_layered.usda"}

    # Nothing changed since: everything comes from the cache; without the flag everything runs again.
    third = run_cli("validate", lib, *COMMON, "--changed-only", "--out", out)
    assert all(a["from_cache"] == ["ground_drop"] for a in load_report(out)["assets"]), third.stderr
    config_change = run_cli("validate", lib, *COMMON, "--changed-only", "--set", "ground_drop.rest_tolerance_m=0.03", "--out",
                            out)
    assert all(a["from_cache"] == [] for a in load_report(out)["assets"]), config_change.stderr
    assert time.monotonic() - started < 300


def test_a_killed_run_resumes_without_redoing_finished_assets(tmp_path):
    lib = tmp_path / "lib"
    names = [f"box_{i}.usda" for i in range(5)]
    for name in names:
        box_asset(lib / name)
    out = tmp_path / "out"
    proc = start_cli("validate", lib, *COMMON, "--jobs", "1", "--out", out)
    try:
        deadline = time.monotonic() + 120
        while len(cache_entries(out)) < 2 and time.monotonic() < deadline and proc.poll() is None:
            time.sleep(0.05)
    finally:
        kill_session(proc)  # SIGKILL: no cleanup, no report
    done = {Path(e["asset"]).name for e in cache_entries(out)}
    assert 2 <= len(done) < len(names), "the run must be killed halfway for this test to mean anything"
    assert not (out / "report.json").exists()

    resumed = run_cli("validate", lib, *COMMON, "--resume", "--jobs", "1", "--out", out)
    assert resumed.returncode == 0, resumed.stderr
    report = load_report(out)
    assert [Path(a["path"]).name for a in report["assets"]] == names
    reused = {Path(a["path"]).name for a in report["assets"] if a["from_cache"]}
    assert reused == done  # everything finished before the kill is reused; nothing finished was lost
    assert all(a["tests"][0]["status"] == "PASS" for a in report["assets"])
    assert report["complete"] is True


def test_each_asset_file_is_hashed_once_per_run(tmp_path, monkeypatch):
    """The digest computed when the job is built travels with it (report sha256, the cache's content hash): one read
    of the asset's bytes per run, whatever the tests and with --changed-only on (the cache read and write)."""
    from omni.simready.physics_validator.core import cache
    from omni.simready.physics_validator.core.config import ValidationConfig
    from omni.simready.physics_validator.physics_tests import default_registry
    from omni.simready.physics_validator.run import inputs
    from omni.simready.physics_validator.run.batch import validate_batch

    asset = box_asset(tmp_path / "box.usda", size=0.1, position=(0.0, 0.0, 0.3))
    calls: list[str] = []
    real = cache.file_digest

    def counting(path):
        calls.append(str(Path(path).resolve()))
        return real(path)

    monkeypatch.setattr(cache, "file_digest", counting)
    monkeypatch.setattr(inputs, "file_digest", counting)
    config = ValidationConfig.defaults(default_registry())
    config.run.isolate, config.run.video = False, False
    report = validate_batch([asset], ["ground_drop", "velocity_limit"], config, "physx", tmp_path / "out", jobs=1,
                            changed_only=True)
    assert report.assets[0].sha256 == real(asset)
    assert calls.count(str(asset.resolve())) == 1, calls
