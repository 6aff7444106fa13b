"""The HTML reports as an asset author sees them, in headless Chromium, with screenshots kept in
$TEST_ARTIFACTS_DIR (default tmp/artifacts/):

- a failing robot (a real run of a weak arm on the default engine, recorded): the failing tests come
  first and open, passing ones collapsed, the failing numbers marked, the page short; every plot axis
  labelled with its unit; every test's 3D replay plays offline where the recorded poses say;
- a 28-asset grid (every verdict, long names, cached assets): no cell overflows its box, the legend is
  there, SKIP and NOT_APPLICABLE look different, "reused from cache" once per asset, PASS* marked;
- a compare page: links to each engine's report, to each verdict's section there (which opens), and to
  docs/engine-divergences.md.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from omni.simready.physics_validator import validate
from omni.simready.physics_validator.core.comparison import compare_reports
from omni.simready.physics_validator.core.config import ValidationConfig
from omni.simready.physics_validator.core.results import AssetResult, JointRow, RunReport, TestResult
from omni.simready.physics_validator.core.status import Status
from omni.simready.physics_validator.physics_tests import default_registry
from omni.simready.physics_validator.reports.comparison_report import write_compare_html
from omni.simready.physics_validator.reports.html import write_html_report
from omni.simready.physics_validator.reports.json_report import write_json_report
from tests.fixtures.arms import build_arm
from tests.fixtures.recording import artifacts_dir, chromium, require_rendering
from tests.fixtures.usd_assets import SHARED_ASSETS

TESTS = ["ground_drop", "velocity_limit", "full_range_sweep", "drive_gain_validation", "effort_limit"]
FAILING = {"FAIL", "ERROR", "PRECHECK_FAILURE", "WARN"}


@pytest.fixture(scope="module")
def browser():
    with chromium() as instance:
        yield instance


@pytest.fixture(scope="module")
def failing_robot(tmp_path_factory, physx_available):
    """A three-joint arm welded to the world whose drives are too weak (maxForce 2 N·m): the sweep and the load
    test fail, the others pass; recorded (3D replays, no videos: the default media policy)."""
    require_rendering()
    root = tmp_path_factory.mktemp("robot")
    arm = build_arm(root / "weak_arm.usda", joints=3, max_force=2.0, world_anchor=True)
    config = ValidationConfig.defaults(default_registry())
    config.run.isolate = False
    out = root / "out"
    report = validate([str(arm)], TESTS, config, "physx", out)
    write_json_report(report, out / "report.json")
    return report, write_html_report(report, out, default_registry())


def test_failing_robot_shows_its_failures_first_and_open(failing_robot, browser):
    report, index = failing_robot
    statuses = {r.name: r.status.value for r in report.all_results()}
    assert statuses["full_range_sweep"] == "FAIL", report.assets[0].tests
    page = browser.new_page(viewport={"width": 1280, "height": 900})
    page.goto(index.resolve().as_uri())
    sections = page.eval_on_selector_all(
        "section.asset details.test", "els => els.map(e => [e.dataset.test, e.dataset.status, e.open, "
                                      "e.getBoundingClientRect().top])"
    )
    assert len(sections) == len(TESTS)
    first_test, first_status, first_open, _ = sections[0]
    assert first_status == "FAIL" and first_open, sections
    kinds = [status in FAILING for _, status, _, _ in sections]
    assert kinds == sorted(kinds, reverse=True), "a passing test is listed before a failing one"
    for name, status, is_open, _ in sections:
        assert is_open == (status in FAILING), f"{name} {status} open={is_open}"
    tops = [top for *_, top in sections]
    assert tops == sorted(tops)
    # The failing number is marked, next to the threshold that judges it.
    marked = page.eval_on_selector_all(
        f"details.test[data-test='{first_test}'] tr.bad, details.test[data-test='{first_test}'] b.bad", "els => els.map(e => "
                                                                                                        "e.innerText)"
    )
    assert marked and any("°" in m for m in marked), marked
    # Plots of the open sections load; the page of one robot stays short.
    page.wait_for_function("Array.from(document.images).every(i => i.complete)", timeout=20000)
    widths = page.eval_on_selector_all("details.test[open] figure img", "els => els.map(i => i.naturalWidth)")
    assert widths and all(w > 300 for w in widths)
    height = page.evaluate("document.body.scrollHeight")
    assert height < 7000, f"the page of one robot is {height} px long"
    page.wait_for_function(
        "Array.from(document.querySelectorAll('video')).every(v => v.readyState >= 1 || v.error)", timeout=20000
    )
    page.wait_for_timeout(500)  # the players draw their posters
    shot = artifacts_dir() / "html_failing_robot.png"
    page.screenshot(path=str(shot), full_page=True)
    assert shot.stat().st_size > 50_000
    page.close()


def test_every_replay_plays_offline_as_the_recording_says(failing_robot, browser):
    """Each recorded test's 3D replay, in Chromium with every request but the report's own files blocked: it loads,
    its bodies stand where the recorded poses put them (first, middle and last frame), it plays (slowed), and the
    scrubber reaches the verdict's moment, where the verdict card shows."""
    import json
    from urllib.parse import unquote, urlparse

    import numpy as np

    from omni.simready.physics_validator.recording.keyframes import POSITION_TOLERANCE_M
    from omni.simready.physics_validator.recording.replay_glb import _times

    report, index = failing_robot
    out = index.parent.parent.resolve()
    recorded = [r for r in report.all_results() if "replay_glb" in r.artifacts]
    assert len(recorded) >= 4, [r.name for r in report.all_results()]
    page = browser.new_page(viewport={"width": 1280, "height": 900})
    blocked: list[str] = []

    def only_the_report(route):
        url = route.request.url
        if url.startswith("file://") and Path(unquote(urlparse(url).path)).resolve().is_relative_to(out):
            route.continue_()
        else:
            blocked.append(url)
            route.abort()

    page.route("**/*", only_the_report)
    page.goto(index.resolve().as_uri())
    for result in recorded:
        replay = f"details.test[data-test='{result.name}'] .replay3d"
        rid = page.eval_on_selector(replay, "e => { e.closest('details').open = true; e.scrollIntoView(); return e.id; }")
        page.wait_for_function(f"['ready', 'error'].includes(document.getElementById('{rid}').dataset.state)", timeout=90_000)
        assert page.get_attribute(f"#{rid}", "data-state") == "ready", page.get_attribute(f"#{rid}", "data-error")
        timeline = json.loads(Path(result.artifacts["timeline"]).read_text())
        with np.load(Path(result.artifacts["timeline"]).parent / timeline["poses"]) as data:
            paths, poses = [str(p) for p in data["paths"]], np.array(data["poses"])
        times = _times(timeline["frames"])
        for frame in (0, len(times) // 2, len(times) - 1):
            shown = page.evaluate(f"t => {{ const v = SimreadyReplay.viewers['{rid}']; v.seek(t); return v.bodies(); }}",
                                  float(times[frame]))
            for j, path in enumerate(paths):
                if np.all(np.isfinite(poses[frame, j])):
                    error = float(np.linalg.norm(np.array(shown[path]) - poses[frame, j, :3]))
                    assert error <= POSITION_TOLERANCE_M + 1e-5, (result.name, frame, path, error)
        viewer = f"SimreadyReplay.viewers['{rid}']"
        page.select_option(f"#{rid} .r3-speed", "0.25")
        page.click(f"#{rid} .r3-play")
        page.wait_for_function(f"{viewer}.time > {viewer}.start_ + 0.02", timeout=20_000)
        page.click(f"#{rid} .r3-play")  # pause
        end, verdict = page.evaluate(f"[{viewer}.end, {viewer}.verdictTime]")
        assert end == pytest.approx(times[-1], abs=1e-4) and verdict <= end + 1e-9
        assert page.is_hidden(f"#{rid} .r3-card") or page.evaluate(f"{viewer}.time") >= verdict - 1e-6
        page.eval_on_selector(f"#{rid} .r3-scrub", "(e, t) => { e.value = t; e.dispatchEvent(new Event('input')); }", verdict)
        assert float(page.get_attribute(f"#{rid}", "data-time")) == pytest.approx(verdict, abs=1e-6)
        assert page.is_visible(f"#{rid} .r3-card")
        assert page.inner_text(f"#{rid} .r3-card").startswith(result.status.value if result.status.value != "PASS"
                                                               else "PASS"), page.inner_text(f"#{rid} .r3-card")
    page.locator(f"details.test[data-test='{recorded[0].name}'] .replay3d").screenshot(
        path=str(artifacts_dir() / "html_replay3d.png"))
    assert not blocked, blocked
    page.close()


def test_every_plot_axis_is_labelled_with_its_unit(failing_robot):
    report, _ = failing_robot
    checked = 0
    for result in report.all_results():
        plot = default_registry().view_of(result.name).plot
        if not result.series or plot is None:
            continue
        figures = plot(result, result.series)
        assert figures, f"{result.name}: no plot from its series"
        for figure, _ in figures:
            for ax in figure.axes:
                if not ax.get_visible():
                    continue
                assert ax.get_xlabel(), f"{result.name}: an x axis without a label"
                ylabel = ax.get_ylabel()
                assert "(" in ylabel and ylabel.endswith(")"), f"{result.name}: y label without a unit: {ylabel!r}"
                checked += 1
            figure.clf()
    assert checked >= 6


def _library() -> list[str]:
    """28 asset paths: the shared corpus when present (real names), else made-up ones as long."""
    if SHARED_ASSETS.is_dir():
        found = sorted(str(p) for p in SHARED_ASSETS.glob("*/*.usd*"))
        if len(found) >= 28:
            return found[:28]
    return [f"/library/vendor_{i:02d}/asset_{i:02d}_with_a_long_descriptive_name_v{i}.usda" for i in range(28)]


def _grid_report() -> RunReport:
    """Every verdict, a PASS with warnings, cached assets and names without any break opportunity."""
    cycle = [Status.PASS, Status.FAIL, Status.WARN, Status.SKIP, Status.NOT_APPLICABLE, Status.PRECHECK_FAILURE,
             Status.ERROR]
    paths = _library()
    paths[3] = "/library/robosuite_robotiq_gripper_140/RobotiqGripper140ModelWithAnExtremelyLongNameAndNoBreaks.usda"
    report = RunReport(engine="physx", started="2026-12-01T06:00:00+00:00", finished="2026-12-01T06:04:10+00:00")
    for i, path in enumerate(paths):
        asset = AssetResult(path=path)
        for j, name in enumerate(TESTS):
            status = cycle[(i + j) % len(cycle)]
            result = TestResult(name=name, status=status, reason=f"{status.value.lower()} because of reasons {i}-{j}")
            if status == Status.PASS and i % 3 == 0:
                result.warnings = ["joint2: drive too weak", "joint3: drive too weak"]
            asset.tests.append(result)
        if i % 5 == 0:
            asset.from_cache = list(TESTS)
        report.assets.append(asset)
    return report


def test_grid_of_28_assets_has_no_overflow_and_a_legend(tmp_path, browser):
    report = _grid_report()
    index = write_html_report(report, tmp_path, default_registry())
    page = browser.new_page(viewport={"width": 1280, "height": 900})
    page.goto(index.resolve().as_uri())
    assert page.locator("#summary-grid tbody tr").count() == 28
    # No cell's content is wider than the cell, and nothing sticks out of its box into a neighbour.
    boxes = page.eval_on_selector_all("#summary-grid th, #summary-grid td", """els => els.map(e => {
        const r = e.getBoundingClientRect();
        const kids = Array.from(e.querySelectorAll('a, div, span')).map(k => k.getBoundingClientRect())
            .filter(k => k.width > 0).map(k => [k.left, k.right, k.top, k.bottom]);
        return {text: e.innerText, sw: e.scrollWidth, cw: e.clientWidth, box: [r.left, r.right, r.top, r.bottom], kids: kids};
    })""")
    assert len(boxes) == 29 * (len(TESTS) + 1)
    for cell in boxes:
        left, right, top, bottom = cell["box"]
        assert cell["sw"] <= cell["cw"] + 1, f"{cell['text']!r} overflows its cell"
        for k_left, k_right, k_top, k_bottom in cell["kids"]:
            assert left - 1 <= k_left and k_right <= right + 1 and top - 1 <= k_top and k_bottom <= bottom + 1, cell["text"]
    rows = page.eval_on_selector_all("#summary-grid tr", """rows => rows.map(r =>
        Array.from(r.children).map(c => { const b = c.getBoundingClientRect(); return [b.left, b.right]; }))""")
    for row in rows:
        for (_, right), (left, _) in zip(row, row[1:]):
            assert right <= left + 1, "two cells of a row overlap"
    # The legend names every verdict; SKIP and NOT_APPLICABLE are told apart by colour.
    assert page.locator("#legend").is_visible()
    legend = page.eval_on_selector_all("#legend .badge",
                                       "els => els.map(e => [e.innerText, getComputedStyle(e).backgroundColor])")
    labels = [label for label, _ in legend]
    assert labels == ["PASS", "PASS*", "WARN", "FAIL", "PRECHECK", "ERROR", "SKIP", "INCOMPLETE", "N/A"]
    colours = dict(legend)
    assert colours["SKIP"] != colours["N/A"]
    skip = page.eval_on_selector("td.cell.SKIP", "e => getComputedStyle(e).backgroundColor")
    not_applicable = page.eval_on_selector("td.cell.NOT_APPLICABLE", "e => getComputedStyle(e).backgroundColor")
    assert skip != not_applicable
    # PASS with warnings is marked; "reused from cache" once per cached asset; the run time once.
    assert page.locator("#summary-grid td[data-label='PASS*']").count() > 0
    assert page.locator("#summary-grid td[data-label='PASS*']").first.inner_text().strip() == "PASS*"
    cached = sum(1 for a in report.assets if a.from_cache)
    assert page.locator("#summary-grid .cached").count() == cached
    assert page.locator("section.asset .cached-note").count() == cached  # and once in the asset's heading
    assert "took 4.2 min" in page.inner_text("header")
    # Worst first: the first rows carry an ERROR or a PRECHECK_FAILURE, the last ones none.
    first = page.locator("#summary-grid tbody tr").first.get_attribute("data-statuses").split()
    assert "ERROR" in first
    page.locator("#summary-grid").screenshot(path=str(artifacts_dir() / "html_grid_28_assets.png"))
    page.screenshot(path=str(artifacts_dir() / "html_grid_28_assets_page.png"))
    page.close()


def _engine_report(engine: str, flip: bool) -> RunReport:
    report = RunReport(engine=engine, started="2026-12-01T06:00:00+00:00", finished="2026-12-01T06:01:00+00:00")
    for name in ("arm.usda", "gripper.usda"):
        asset = AssetResult(path=f"/assets/{name}")
        for test in TESTS[1:]:
            status = Status.FAIL if (flip and test == "velocity_limit" and name == "arm.usda") else Status.PASS
            result = TestResult(name=test, status=status, reason=f"{engine}: {status.value}", engine=engine,
                                metrics={"joints_failed": int(status == Status.FAIL),
                                         "max_velocity_ratio": 1.2 if flip else 0.97})
            result.joints = [JointRow(joint="joint1", status=status, measured={"peak_velocity": 2.2},
                                      limits={"allowed": 2.1, "unit": "rad/s"})]
            asset.tests.append(result)
        report.assets.append(asset)
    return report


def test_compare_page_links_each_engine_report_and_the_divergences(tmp_path, browser):
    reports = {"physx": _engine_report("physx", False), "newton": _engine_report("newton", True)}
    for engine, report in reports.items():
        write_html_report(report, tmp_path / engine, default_registry())
    page_path = write_compare_html(compare_reports(reports, default_registry()), tmp_path)
    page = browser.new_page(viewport={"width": 1280, "height": 900})
    page.goto(page_path.resolve().as_uri())
    links = page.eval_on_selector_all("#engine-reports a", "els => els.map(a => [a.dataset.engine, a.href])")
    assert [engine for engine, _ in links] == ["physx", "newton"]
    for engine, href in links:
        assert href.endswith(f"{engine}/html/index.html") and Path(href.removeprefix("file://")).is_file()
    docs = page.locator("#divergences")
    if docs.count():  # a source checkout: the page itself
        assert Path(docs.get_attribute("href")).name == "engine-divergences.md"
        assert (tmp_path / docs.get_attribute("href")).resolve().is_file()
    else:
        assert "docs/engine-divergences.md" in page.inner_text("#summary")
    # Disagreements first; a verdict links to its section in that engine's report, which opens there.
    assert page.locator("#comparison tr").nth(1).get_attribute("class") == "disagree"
    page.screenshot(path=str(artifacts_dir() / "html_compare.png"), full_page=True)
    target = page.locator("#comparison tr.disagree a.section").nth(1)
    href = target.get_attribute("href")
    assert href.startswith("newton/html/index.html#")
    target.click()
    page.wait_for_load_state()
    anchor = href.split("#", 1)[1]
    assert page.evaluate(f"document.getElementById('{anchor}').open") is True
    assert page.evaluate(f"document.getElementById('{anchor}').dataset.test") == "velocity_limit"
    page.close()


@pytest.mark.parametrize("arm", ["drive_less", "weak"])
def test_the_first_screen_shows_every_verdict_and_the_first_hint(tmp_path, browser, physx_available, arm):
    """All ten tests on a real run of an arm (drive-less as a URDF import arrives, or with weak drives): at 1400 x 900
    every test's verdict, its reason and the first hint (with the fix command to try) are on the first screen, above
    the readback (collapsed, flagged rows only) and the test sections; nothing is wider than the page."""
    kwargs = {"passive": (1, 2, 3)} if arm == "drive_less" else {"max_force": 2.0}
    asset = build_arm(tmp_path / f"{arm}.usda", joints=3, world_anchor=True, **kwargs)
    config = ValidationConfig.defaults(default_registry())
    config.run.isolate, config.run.video = False, False
    names = [t.name for t in default_registry().select(None)]  # what a plain `validate` runs
    report = validate([str(asset)], names, config, "physx", tmp_path / "out")
    index = write_html_report(report, tmp_path / "out", default_registry())
    page = browser.new_page(viewport={"width": 1400, "height": 900})
    page.goto(index.resolve().as_uri())
    page.screenshot(path=str(artifacts_dir() / f"html_first_screen_{arm}.png"))
    rows = page.eval_on_selector_all("table.glance tbody tr", """rows => rows.flatMap(r => {
        const b = r.getBoundingClientRect();
        const hint = r.querySelector('.hint') ? r.querySelector('.hint').innerText : '';
        const tests = r.dataset.tests ? r.dataset.tests.split(' ') : [r.dataset.test];  // the tests that do not apply: one row
        return tests.map(t => [t, r.dataset.status, b.bottom, hint]);
    })""")
    assert sorted(r[0] for r in rows) == sorted(names)
    assert {(t, s) for t, s, _, _ in rows} == {(r.name, r.status.value) for r in report.assets[0].tests}
    not_applicable = [r.name for r in report.assets[0].tests if r.status.value == "NOT_APPLICABLE"]
    assert len(not_applicable) >= 4 and page.locator("table.glance tr.not-applicable").count() == 1
    assert all(bottom <= 900 for _, _, bottom, _ in rows), rows
    first_hint = next(h for r in report.assets[0].tests if r.status.value not in ("PASS", "NOT_APPLICABLE")
                      for h in r.fix_hints[:1])
    assert any(hint and first_hint.split()[:6] == hint.split()[:6] for _, _, _, hint in rows), (first_hint, rows)
    glance_bottom = page.evaluate("document.querySelector('table.glance').getBoundingClientRect().bottom")
    readback = page.locator("details.readback")
    if readback.count():
        assert readback.get_attribute("open") is None
        assert page.evaluate("document.querySelector('details.readback').getBoundingClientRect().top") > glance_bottom
        assert page.locator("details.readback tr.rb-clean").count() == 0  # flagged rows only
    assert page.evaluate("document.documentElement.scrollWidth") <= 1400
    page.close()
