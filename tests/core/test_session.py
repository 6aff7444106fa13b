"""TestSession: a result is ERROR until the test decides; every failure is a verdict."""

from __future__ import annotations

from typing import Iterator

import pytest

from omni.simready.physics_validator.core.config import TestConfig
from omni.simready.physics_validator.core.plugin import PhysicsTest
from omni.simready.physics_validator.core.session import NO_VERDICT, TestSession
from omni.simready.physics_validator.core.status import Status
from omni.simready.physics_validator.core.usd import read_asset
from omni.simready.physics_validator.engines import create_engine
from tests.fixtures.usd_assets import box_asset


class SilentTest(PhysicsTest):
    """Steps a little, then returns without calling finish()."""

    name = "silent"

    def run(self, ctx) -> Iterator[None]:
        for _ in range(10):
            yield


class DecidingTest(SilentTest):
    name = "deciding"

    def run(self, ctx) -> Iterator[None]:
        yield from super().run(ctx)
        ctx.finish(Status.PASS, "stepped ten times")


def _run(test: PhysicsTest, tmp_path):
    asset = read_asset(box_asset(tmp_path / "box.usda"))
    engine = create_engine("physx")
    try:
        return TestSession(test, asset, TestConfig(), engine).run_to_end()
    finally:
        engine.close()


def test_a_test_that_never_decides_is_an_error_not_a_pass(tmp_path):
    result = _run(SilentTest(), tmp_path)
    assert result.status == Status.ERROR
    assert result.reason == NO_VERDICT == "test ended without a verdict"
    assert result.simulated_seconds > 0  # it did step: the missing verdict is the test's fault


def test_finish_sets_the_verdict(tmp_path):
    result = _run(DecidingTest(), tmp_path)
    assert result.status == Status.PASS and result.reason == "stepped ten times"


class GroundedTest(SilentTest):
    """Asks for a ground at 0.3 m and records the scene its context saw (the recorder draws the floor from it)."""

    name = "grounded"

    def scene(self, asset, config):
        from omni.simready.physics_validator.core.scene import GroundSpec, SceneSpec

        return SceneSpec(ground=GroundSpec(height=0.3), place_bottom_at=0.5)

    def run(self, ctx) -> Iterator[None]:
        yield
        ctx.finish(Status.PASS, f"ground at {ctx.scene.ground.height} m")


def test_the_context_carries_the_scene_the_test_asked_for(tmp_path):
    result = _run(GroundedTest(), tmp_path)
    assert result.status == Status.PASS and result.reason == "ground at 0.3 m"


class ResettingTest(SilentTest):
    """Ten steps, a reset (the engine's clock restarts), ten more."""

    name = "resetting"

    def run(self, ctx) -> Iterator[None]:
        yield from super().run(ctx)
        ctx.reset()
        yield from super().run(ctx)
        ctx.finish(Status.PASS, "stepped twice ten times")


def test_simulated_seconds_count_every_step_across_a_reset(tmp_path):
    """The result's simulated time is the physics time the test stepped, not the engine's clock after a reset."""
    result = _run(ResettingTest(), tmp_path)
    assert result.simulated_seconds == pytest.approx(20 / TestConfig().physics_fps, abs=1e-6)
