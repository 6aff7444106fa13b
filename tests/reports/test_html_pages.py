"""Plots drawn where the verdicts are made (reports/pages.py): a batch run's workers draw each test's plots as it
ends; the HTML report takes them when they were drawn for the very result it shows, draws the rest itself, and
removes what it does not link to. The page reads the same either way."""

from __future__ import annotations

import os
import re
from pathlib import Path

import pytest

from omni.simready.physics_validator import validate
from omni.simready.physics_validator.core.config import ValidationConfig
from omni.simready.physics_validator.physics_tests import default_registry
from omni.simready.physics_validator.reports.html import write_html_report
from omni.simready.physics_validator.reports.pages import PlotsAhead, manifest_path, media_folder, result_key
from tests.fixtures.usd_assets import box_asset

pytestmark = pytest.mark.usefixtures("physx_available")


def _page_without_run_times(index: Path) -> str:
    """The page as a reader sees it, without the run's wall times and the relative links out of the report folder."""
    text = re.sub(r"(took|in) [0-9.]+ s", "", index.read_text(encoding="utf-8"))
    return re.sub(r'href="(\.\./)+[^"]*?/([^/"]+)"', r'href="\2"', text)


@pytest.fixture(scope="module")
def worker_run(tmp_path_factory):
    """ground_drop on two boxes in a worker process, the plots drawn there (PlotsAhead)."""
    root = tmp_path_factory.mktemp("pages")
    assets = [box_asset(root / "assets" / "good_box.usda"),
              box_asset(root / "assets" / "ghost_box.usda", collision_enabled=False)]
    config = ValidationConfig.defaults(default_registry())
    config.run.video = False
    out = root / "out"
    report = validate([str(a) for a in assets], ["ground_drop"], config, "physx", out, jobs=1,
                      pages=PlotsAhead(out / "html"))
    return report, out


def test_the_worker_draws_each_tests_plots_for_its_result(worker_run):
    report, out = worker_run
    for asset in report.assets:
        result = asset.tests[0]
        folder = media_folder(out / "html", asset.path)
        manifest = manifest_path(folder, result.name)
        assert manifest.is_file(), "the worker wrote no plots for this test"
        assert result_key(result) in manifest.read_text(), "the plots were drawn for another result"
        assert list(folder.glob("ground_drop-*.png"))


def test_the_report_reuses_the_workers_plots_and_reads_the_same(worker_run, tmp_path):
    report, out = worker_run
    pngs = sorted((out / "html" / "media").rglob("*.png"))
    stamps = {p: p.stat().st_mtime_ns for p in pngs}
    index = write_html_report(report, out, default_registry())
    assert {p: p.stat().st_mtime_ns for p in sorted((out / "html" / "media").rglob("*.png"))} == stamps  # not redrawn
    for png in pngs:
        assert png.relative_to(out / "html").as_posix() in index.read_text()

    # the same report drawn from scratch elsewhere: the same page (the media folders are named alike)
    fresh = write_html_report(report, tmp_path, default_registry())
    assert _page_without_run_times(fresh) == _page_without_run_times(index)


def test_plots_drawn_for_another_result_are_redrawn_and_strays_removed(worker_run, tmp_path):
    report, out = worker_run
    index = write_html_report(report, out, default_registry())
    asset = report.assets[0]
    result = asset.tests[0]
    folder = media_folder(out / "html", asset.path)
    stray = folder / "velocity_limit-0.png"
    stray.write_bytes(b"from an earlier run")
    png = next(folder.glob("ground_drop-*.png"))
    os.utime(png, ns=(0, 0))
    changed = report.model_copy(deep=True)
    changed.assets[0].tests[0].metrics["rest_time"] = 99.0  # another result: the manifest's key no longer matches
    changed.assets[0].tests[0].series = result.series
    write_html_report(changed, out, default_registry())
    assert png.stat().st_mtime_ns > 0, "plots drawn for another result were reused"
    assert result_key(changed.assets[0].tests[0]) in manifest_path(folder, result.name).read_text()
    assert not stray.exists(), "a file the report does not link to was left in its media folder"
    assert index.is_file()
