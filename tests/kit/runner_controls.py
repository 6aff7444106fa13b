"""Negative controls of the kit tier's minimal test runner (the omni.kit.test double), run in the same Kit process
as the extension's suites: a test that logs an [Error] line and a failing assertion must both come out "fail", a
passing test "pass" (tests/kit/test_kit_suites.py)."""

import omni.kit.app
import omni.kit.test


class RunnerControls(omni.kit.test.AsyncTestCase):
    async def test_passes(self):
        await omni.kit.app.get_app().next_update_async()
        self.assertTrue(True)

    async def test_logs_an_error_line(self):
        import carb

        carb.log_error("runner control: a deliberate [Error] line")

    async def test_fails_an_assertion(self):
        self.assertEqual(1, 2, "runner control: a deliberate failure")
