"""The panel end to end: open it from the Window menu action, click Validate through
omni.kit.ui_test, wait for the live runner, read the verdict rows.

Kit-only (omni.kit.test + omni.kit.ui_test); written against ../shared/notes/kit-api.md, not run outside Kit.
"""

import omni.kit.actions.core
import omni.kit.app
import omni.kit.test
import omni.kit.ui_test as ui_test
import omni.usd

from ..extension import ACTION_ID, WINDOW_TITLE
from ..ui.view_model import PanelState
from .stage_builders import build_box

MAX_FRAMES = 3000  # ground_drop needs at most 10 s simulated; several physics steps per frame


class TestPanel(omni.kit.test.AsyncTestCase):
    async def setUp(self):
        context = omni.usd.get_context()
        await context.new_stage_async()
        build_box(context.get_stage())
        await ui_test.human_delay()

    async def test_validate_button_runs_ground_drop_on_the_open_stage(self):
        omni.kit.actions.core.get_action_registry().get_action("omni.simready.physics_validator", ACTION_ID).execute()
        await ui_test.human_delay()
        window = ui_test.find(WINDOW_TITLE)
        self.assertIsNotNone(window, "the Window menu action did not open the panel")
        view_model = window.window.vm
        for option in view_model.tests:
            view_model.set_test_enabled(option.name, option.name == "ground_drop")
        root_before = omni.usd.get_context().get_stage().GetRootLayer().ExportToString()

        button = ui_test.find(f"{WINDOW_TITLE}//Frame/**/Button[*].identifier=='physics_validator_validate'")
        self.assertIsNotNone(button)
        await button.click()
        for _ in range(MAX_FRAMES):
            if view_model.state == PanelState.DONE:
                break
            await omni.kit.app.get_app().next_update_async()

        self.assertEqual(view_model.state, PanelState.DONE, view_model.progress_text)
        rows = view_model.rows()
        self.assertEqual([r.name for r in rows], ["ground_drop"])
        self.assertEqual(rows[0].status, "PASS", rows[0].detail)
        self.assertEqual(omni.usd.get_context().get_stage().GetRootLayer().ExportToString(), root_before)
        progress = ui_test.find(f"{WINDOW_TITLE}//Frame/**/Label[*].identifier=='physics_validator_progress'")
        self.assertTrue(progress.widget.text.startswith("done"))
