"""The combined HTML report of a batch run: filtering the summary grid by verdict, in headless Chromium."""

from __future__ import annotations

import pytest

from tests.fixtures.batch import mixed_library, run_cli

pytestmark = pytest.mark.usefixtures("physx_available")


def test_verdict_filter_hides_assets_without_that_verdict(tmp_path):
    playwright_api = pytest.importorskip("playwright.sync_api", reason="playwright missing: run tools/install_test_browser.sh")
    from tests.fixtures.recording import CHROMIUM, CHROMIUM_FLAGS

    if not CHROMIUM.exists():
        pytest.skip(f"{CHROMIUM} not installed")
    lib = mixed_library(tmp_path / "lib")
    out = tmp_path / "out"
    proc = run_cli("validate", lib, "--tests", "ground_drop", "--no-video", "--jobs", "2", "--out", out)
    assert proc.returncode == 1, proc.stderr
    proc = run_cli("validate", lib, "--tests", "ground_drop", "--no-video", "--jobs", "2", "--changed-only", "--out", out)
    index = out / "html" / "index.html"
    assert index.is_file(), proc.stderr
    with playwright_api.sync_playwright() as p:
        browser = p.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_FLAGS, headless=True)
        try:
            page = browser.new_page()
            page.goto(index.as_uri())
            rows = page.locator("#summary-grid tbody tr")

            def visible_assets() -> set[str]:
                return {rows.nth(i).get_attribute("data-asset").rsplit("/", 1)[-1]
                        for i in range(rows.count()) if rows.nth(i).is_visible()}

            everything = visible_assets()
            assert everything == {"a_good.usda", "b_kinematic.usda", "c_anchored.usda", "d_broken.usda", "e_layered.usda"}
            page.select_option("#verdict-filter", "FAIL")
            assert visible_assets() == {"b_kinematic.usda"}
            assert page.locator("section.asset:visible").count() == 1
            page.select_option("#verdict-filter", "PASS")
            assert visible_assets() == {"a_good.usda", "e_layered.usda"}
            page.select_option("#verdict-filter", "")
            assert visible_assets() == everything
            # The second run reused every verdict and says so once per asset, not once per test.
            assert page.locator("#summary-grid .cached").count() == 5
            assert page.locator("#summary-grid .cached").first.inner_text().strip() == "↺ reused from cache"
        finally:
            browser.close()
