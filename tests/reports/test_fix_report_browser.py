"""The fix report's first screen in headless Chromium (issue 41 item 6): at 1,400 x 900 it shows the fix's outcome
and the layer it wrote, not the as-imported verdicts with a suggestion to run the fix that was just run; nothing is
wider than the page. A real fix (physx) of the horizontal arm whose 0.1 N·m maxForce cannot hold its 0.49 N·m load,
every default test. Screenshot: $TEST_ARTIFACTS_DIR/html_fix_first_screen.png."""

from __future__ import annotations

import pytest

from omni.simready.physics_validator.fix import FixTargets
from omni.simready.physics_validator.physics_tests import default_registry
from omni.simready.physics_validator.reports.html import write_html_report
from tests.fix.helpers import run_fix
from tests.fixtures.driven_arms import horizontal_arm
from tests.fixtures.recording import artifacts_dir, chromium

pytestmark = pytest.mark.slow

WIDTH, HEIGHT = 1400, 900


@pytest.fixture(scope="module")
def fixed(tmp_path_factory):
    root = tmp_path_factory.mktemp("fix_report")
    asset = horizontal_arm(root / "weak.usda", max_force=0.1)
    report = run_fix(asset, root / "out", targets=FixTargets(raise_max_force=True))
    return report.assets[0].fix, write_html_report(report, root / "out", default_registry())


def test_the_first_screen_shows_the_fixs_outcome_and_its_layer(fixed, physx_available):
    fix, index = fixed
    assert fix.accepted and fix.layer, fix.summary  # a report with a layer to show
    with chromium() as browser:
        page = browser.new_page(viewport={"width": WIDTH, "height": HEIGHT})
        page.goto(index.resolve().as_uri())
        page.screenshot(path=str(artifacts_dir() / "html_fix_first_screen.png"))
        box = page.evaluate("""() => {
            const rect = s => { const e = document.querySelector(s); return e ? e.getBoundingClientRect().toJSON() : null; };
            return {outcome: rect('.fix .outcome'), layer: rect('.fix a.layer'), composed: rect('.fix a.composed'),
                    status: document.querySelector('.fix .fix-status').innerText,
                    tries: Array.from(document.querySelectorAll('.try')).filter(e => e.getClientRects().length > 0
                           && e.getBoundingClientRect().top < innerHeight).map(e => e.innerText),
                    authored_open: document.querySelector('details.as-authored').open,
                    width: document.documentElement.scrollWidth};
        }""")
        changed = [t.test for t in fix.tests if t.after is not None and t.after != t.before]
        rows = page.eval_on_selector_all(".fix table.fix-tests tr[data-test]", """rows => rows.map(r => [r.dataset.test,
            r.dataset.before, r.dataset.after, r.getBoundingClientRect().bottom])""")
        page.close()
    assert box["status"] == fix.status.replace("_", " ")
    assert box["outcome"]["bottom"] <= HEIGHT and box["layer"]["bottom"] <= HEIGHT and box["composed"]["bottom"] <= HEIGHT
    assert box["tries"] == [], box["tries"]  # no suggestion to run the fix that was just run
    assert box["authored_open"] is False  # the verdicts as imported: one click away, not the first screen
    shown = {test: (before, after, bottom) for test, before, after, bottom in rows}
    assert changed and all(shown[t][1] == next(x.after.value for x in fix.tests if x.test == t) for t in changed)
    assert all(shown[t][2] <= HEIGHT for t in changed), shown  # every verdict the layer changed, on the first screen
    assert box["width"] <= WIDTH
