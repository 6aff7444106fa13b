"""The kit engine on a live Kit stage: ground_drop PASS / NOT_APPLICABLE, a driven arm through the
four joint tests, and the user's root layer, timeline and selection unchanged after a run.

Kit-only (omni.kit.test + omni.physx); written against ../shared/notes/kit-api.md, not run outside Kit.
The engine runs in manual mode (attach_stage + simulate/fetch_results) for determinism; the live
timeline mode is exercised by the panel suite.
"""

import omni.kit.app
import omni.kit.test
import omni.timeline
import omni.usd

from ..physics_tests import default_registry
from ..core.session import TestSession
from ..core.status import Status
from ..engines.kit.engine import KitPhysxEngine
from ..live.open_stage import read_open_stage
from .stage_builders import build_arm, build_box

JOINT_TESTS = ("velocity_limit", "full_range_sweep", "drive_gain_validation", "effort_limit")


async def _new_stage():
    context = omni.usd.get_context()
    await context.new_stage_async()
    await omni.kit.app.get_app().next_update_async()
    return context.get_stage()


def _run(test_name: str, target: str):
    test_cls = default_registry().get(test_name)
    asset = read_open_stage(target=target)
    engine = KitPhysxEngine(mode="manual", target=target)
    try:
        return TestSession(test_cls(), asset, test_cls.Config(), engine, watchdog_seconds=120).run_to_end()
    finally:
        engine.close()


class TestKitEngine(omni.kit.test.AsyncTestCase):
    async def tearDown(self):
        omni.timeline.get_timeline_interface().stop()
        await omni.kit.app.get_app().next_update_async()

    async def test_ground_drop_passes_on_a_box(self):
        build_box(await _new_stage())
        result = _run("ground_drop", "/Box")
        self.assertEqual(result.status, Status.PASS, result.reason)
        self.assertEqual(result.engine, "kit")
        self.assertGreater(result.simulated_seconds, 1.0)

    async def test_ground_drop_is_not_applicable_on_an_anchored_box(self):
        build_box(await _new_stage(), anchored=True)
        result = _run("ground_drop", "/Box")
        self.assertEqual(result.status, Status.NOT_APPLICABLE, result.reason)

    async def test_driven_arm_through_the_four_joint_tests(self):
        build_arm(await _new_stage())
        for name in JOINT_TESTS:
            result = _run(name, "/Arm")
            self.assertEqual(result.status, Status.PASS, f"{name}: {result.reason}")
            self.assertEqual({r.joint for r in result.joints}, {"joint1", "joint2"}, name)

    async def test_user_layers_timeline_and_selection_are_restored(self):
        stage = await _new_stage()
        build_box(stage)
        root_before = stage.GetRootLayer().ExportToString()
        dirty_before = stage.GetRootLayer().dirty
        timeline = omni.timeline.get_timeline_interface()
        timeline.set_current_time(0.5)
        selection = omni.usd.get_context().get_selection()
        selection.set_selected_prim_paths(["/Box/Collider"], True)
        session_sublayers = list(stage.GetSessionLayer().subLayerPaths)

        result = _run("ground_drop", "/Box")
        await omni.kit.app.get_app().next_update_async()

        self.assertIn(result.status, (Status.PASS, Status.FAIL))
        self.assertEqual(stage.GetRootLayer().ExportToString(), root_before)
        self.assertEqual(stage.GetRootLayer().dirty, dirty_before)
        self.assertEqual(list(stage.GetSessionLayer().subLayerPaths), session_sublayers)
        self.assertFalse(stage.GetPrimAtPath("/PhysicsValidator").IsValid())
        self.assertEqual(stage.GetEditTarget().GetLayer(), stage.GetRootLayer())
        self.assertAlmostEqual(timeline.get_current_time(), 0.5, places=5)
        self.assertEqual(list(selection.get_selected_prim_paths()), ["/Box/Collider"])
