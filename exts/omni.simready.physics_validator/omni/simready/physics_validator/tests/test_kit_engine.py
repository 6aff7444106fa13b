"""The kit engine in Kit: ground_drop PASS / NOT_APPLICABLE, a driven arm through the four joint tests, and
the user's root layer, edit target, timeline, selection, GPU override and simulation layer unchanged after
a run on the open stage.

Kit-only (omni.kit.test, omni.physx, omni.physx.tests); written against the public Kit 107.3 / Isaac Sim 5.x
sources. Run in a real Kit 110.4 kernel by the kit test tier (tests/kit/test_kit_suites.py), with omni.kit.test,
omni.kit.ui_test, omni.ui, omni.usd, omni.timeline and the omni.physx chain as test doubles
(tests/fixtures/fake_kit: omni.physx over ovphysx); not yet run in a real Isaac Sim with omni.physx. Plain
pytest runs the same engine over the same doubles (tests/engines/test_kit_double.py). The verdict tests step a
memory stage in manual mode
(attach_stage + simulate / fetch_results), never the user's stage, through omni.physx's own test case
(omni.physxtests.utils.physicsBase.PhysicsMemoryStageBaseAsyncTestCase, NVIDIA-Omniverse/PhysX
omni/extensions/ux/source/omni.physx.tests/python/utils/physicsBase.py:130-225). Its `new_stage` rewrites
the stage to Y-up, 0.01 m per unit unless `def_up_and_mpu=False`, and attaches the stage unless
`attach_stage=False`: the engine attaches it itself.
"""

import time

import omni.kit.app
import omni.kit.test
import omni.physx
import omni.timeline
import omni.usd
from omni.physxtests.utils.physicsBase import PhysicsMemoryStageBaseAsyncTestCase

from ..core.session import TestSession
from ..core.status import Status
from ..engines.kit.engine import KitPhysxEngine
from ..live.open_stage import read_open_stage, read_stage
from ..physics_tests import default_registry
from .stage_builders import build_arm, build_box

JOINT_TESTS = ("velocity_limit", "full_range_sweep", "drive_gain_validation", "effort_limit")


def _run(test_name: str, target: str, stage=None):
    test_cls = default_registry().get(test_name)
    asset = read_stage(stage, target) if stage is not None else read_open_stage(target=target)
    engine = KitPhysxEngine(mode="manual", target=target, stage=stage)
    try:
        return TestSession(test_cls(), asset, test_cls.Config(), engine, watchdog_seconds=120).run_to_end()
    finally:
        engine.close()


async def _frames(count: int = 1) -> None:
    for _ in range(count):
        await omni.kit.app.get_app().next_update_async()


class TestKitEngineOnAMemoryStage(PhysicsMemoryStageBaseAsyncTestCase):
    async def _new_stage(self):
        return await self.new_stage(def_up_and_mpu=False, attach_stage=False)

    async def test_ground_drop_passes_on_a_box(self):
        stage = build_box(await self._new_stage())
        result = _run("ground_drop", "/Box", stage)
        self.assertEqual(result.status, Status.PASS, result.reason)
        self.assertEqual(result.engine, "kit")
        self.assertGreater(result.simulated_seconds, 1.0)

    async def test_ground_drop_is_not_applicable_on_an_anchored_box(self):
        stage = build_box(await self._new_stage(), anchored=True)
        result = _run("ground_drop", "/Box", stage)
        self.assertEqual(result.status, Status.NOT_APPLICABLE, result.reason)

    async def test_driven_arm_through_the_four_joint_tests(self):
        stage = build_arm(await self._new_stage())
        for name in JOINT_TESTS:
            result = _run(name, "/Arm", stage)
            self.assertEqual(result.status, Status.PASS, f"{name}: {result.reason}")
            self.assertEqual({r.joint for r in result.joints}, {"joint1", "joint2"}, name)


class TestKitEngineOnTheOpenStage(omni.kit.test.AsyncTestCase):
    async def tearDown(self):
        omni.timeline.get_timeline_interface().stop()
        await _frames()  # timeline changes apply at the start of the next frame (omni.timeline FRAME_INTEGRITY)

    async def test_user_layers_timeline_selection_and_settings_are_restored(self):
        context = omni.usd.get_context()
        await context.new_stage_async()
        await _frames()
        stage = context.get_stage()
        build_box(stage)
        root_before = stage.GetRootLayer().ExportToString()
        dirty_before = stage.GetRootLayer().dirty
        timeline = omni.timeline.get_timeline_interface()
        timeline.set_current_time(0.5)
        await _frames()  # applied now, not when set
        self.assertAlmostEqual(timeline.get_current_time(), 0.5, places=5)
        selection = context.get_selection()
        selection.set_selected_prim_paths(["/Box/Collider"], True)
        session_sublayers = list(stage.GetSessionLayer().subLayerPaths)
        physx = omni.physx.get_physx_interface()
        gpu_before = physx.get_overwrite_gpu_setting()

        result = _run("ground_drop", "/Box")
        await _frames()

        self.assertIn(result.status, (Status.PASS, Status.FAIL))
        self.assertEqual(stage.GetRootLayer().ExportToString(), root_before)
        self.assertEqual(stage.GetRootLayer().dirty, dirty_before)
        self.assertEqual(list(stage.GetSessionLayer().subLayerPaths), session_sublayers)
        self.assertFalse(stage.GetPrimAtPath("/PhysicsValidator").IsValid())
        self.assertEqual(stage.GetEditTarget().GetLayer(), stage.GetRootLayer())
        self.assertAlmostEqual(timeline.get_current_time(), 0.5, places=5)
        self.assertTrue(timeline.is_stopped())
        self.assertEqual(list(selection.get_selected_prim_paths()), ["/Box/Collider"])
        self.assertEqual(physx.get_overwrite_gpu_setting(), gpu_before)

    async def test_manual_mode_refuses_a_playing_timeline(self):
        context = omni.usd.get_context()
        await context.new_stage_async()
        await _frames()
        build_box(context.get_stage())
        timeline = omni.timeline.get_timeline_interface()
        timeline.play()
        deadline = time.monotonic() + 10.0
        while not timeline.is_playing() and time.monotonic() < deadline:
            await _frames()
        result = _run("ground_drop", "/Box")
        self.assertEqual(result.status, Status.ERROR)
        self.assertIn("stop the timeline first", result.reason)
