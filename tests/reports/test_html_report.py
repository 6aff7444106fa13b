"""The HTML report from a real run, opened in headless Chromium: verdict grid = JSON report, every
video plays (duration > 0), chapters seek, plots load; a screenshot is kept as a test artifact.
Plus, without a browser: series read back from series.json, and each test's own plot."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from omni.simready.physics_validator.physics_tests import default_registry
from omni.simready.physics_validator.core.config import ValidationConfig
from omni.simready.physics_validator import validate
from omni.simready.physics_validator.reports.html import write_html_report
from omni.simready.physics_validator.reports.json_report import read_json_report, write_json_report
from tests.fixtures.recording import CHROMIUM, CHROMIUM_FLAGS, artifacts_dir, require_rendering
from tests.fixtures.usd_assets import box_asset

pytestmark = pytest.mark.usefixtures("physx_available")


@pytest.fixture(scope="module")
def drop_run(tmp_path_factory):
    """ground_drop on three boxes (PASS, FAIL by falling through, NOT_APPLICABLE), with video."""
    require_rendering()
    root = tmp_path_factory.mktemp("html")
    assets = [
        box_asset(root / "assets" / "good_box.usda"),
        box_asset(root / "assets" / "ghost_box.usda", collision_enabled=False),
        box_asset(root / "assets" / "anchored_box.usda", anchored=True),
    ]
    config = ValidationConfig.defaults(default_registry())
    config.run.isolate = False
    config.run.media = "all"  # the passing box's video too (by default only the failing one is drawn)
    out = root / "out"
    report = validate([str(a) for a in assets], ["ground_drop"], config, "physx", out)
    json_path = write_json_report(report, out / "report.json")
    index = write_html_report(report, out, default_registry())
    return report, json_path, index


@pytest.fixture(scope="module")
def browser():
    playwright_api = pytest.importorskip("playwright.sync_api", reason="playwright missing: run tools/install_test_browser.sh")
    if not CHROMIUM.exists():
        pytest.skip(f"{CHROMIUM} not installed and could not be installed: run tools/install_test_browser.sh as root")
    with playwright_api.sync_playwright() as p:
        instance = p.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_FLAGS, headless=True)
        yield instance
        instance.close()


def test_runs_produced_the_expected_verdicts(drop_run):
    report, _, _ = drop_run
    statuses = {Path(a.path).stem: a.tests[0].status.value for a in report.assets}
    assert statuses == {"good_box": "PASS", "ghost_box": "FAIL", "anchored_box": "NOT_APPLICABLE"}


def test_report_in_chromium_matches_json_and_plays_videos(drop_run, browser):
    report, json_path, index = drop_run
    expected = {
        (asset["path"], test["name"]): test["status"]
        for asset in json.loads(Path(json_path).read_text())["assets"]
        for test in asset["tests"]
    }
    page = browser.new_page(viewport={"width": 1280, "height": 900})
    page.goto(index.resolve().as_uri())
    cells = page.eval_on_selector_all(
        "#summary-grid td[data-test]", "els => els.map(e => [e.dataset.asset, e.dataset.test, e.dataset.status])"
    )
    assert {(a, t): s for a, t, s in cells} == expected
    assert len(cells) == len(expected) == 3

    with_video = [t for t in report.all_results() if "video" in t.artifacts]
    assert len(with_video) == 2  # the anchored box never ran: no video
    assert page.locator("video").count() == len(with_video)
    page.wait_for_function(
        "Array.from(document.querySelectorAll('video')).every(v => v.readyState >= 1 || v.error)", timeout=20000
    )
    media = page.eval_on_selector_all("video", "els => els.map(v => [v.duration, v.error ? v.error.code : 0, v.videoWidth])")
    for duration, error, width in media:
        assert error == 0 and duration > 0 and width == 640
    posters = page.eval_on_selector_all("video", "els => els.map(v => v.getAttribute('poster'))")
    assert all(p and (index.parent / p).is_file() for p in posters)  # the verdict card as a still

    page.wait_for_function("Array.from(document.images).every(i => i.complete)", timeout=10000)
    shot = artifacts_dir() / "html_report.png"
    page.screenshot(path=str(shot), full_page=True)
    assert shot.stat().st_size > 10_000

    # A chapter button seeks its video to the chapter's start.
    button = page.locator(".chapters button").nth(1)
    target = float(button.get_attribute("data-time"))
    assert target > 0
    seeked = page.evaluate(
        "() => { const v = document.querySelector('video'); document.querySelectorAll('.chapters button')[1].click();"
        " const t = v.currentTime; v.pause(); return t; }"
    )
    assert seeked == pytest.approx(target, abs=0.05)

    page.wait_for_function("Array.from(document.images).every(i => i.complete)", timeout=10000)
    images = page.eval_on_selector_all("img", "els => els.map(i => i.naturalWidth)")
    assert images and all(width > 100 for width in images)

    page.close()


def test_report_from_the_json_file_reads_series_json(drop_run, tmp_path):
    """A report re-read from JSON has no in-memory series: plots come from the series.json artifact."""
    _, json_path, _ = drop_run
    reloaded = read_json_report(json_path)
    good = next(a for a in reloaded.assets if "good_box" in a.path).tests[0]
    assert good.series == {} and Path(good.artifacts["series"]).is_file()
    index = write_html_report(reloaded, tmp_path, default_registry())
    html = index.read_text()
    assert "ground_drop: movement in the rest window against rest_tolerance_m" in html
    pngs = list((tmp_path / "html" / "media").rglob("ground_drop-*.png"))
    assert len(pngs) == 2  # good and ghost box; the anchored box has no series
    videos = list((tmp_path / "html" / "media").rglob("*.mp4"))
    assert len(videos) == 2 and all(v.stat().st_size > 1000 for v in videos)
