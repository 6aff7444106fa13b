"""Unit tests of the pure analysis behind the driven-joint tests (no engine)."""

import math

import numpy as np
import pytest

from omni.simready.physics_validator.physics_tests.driven.bbox_watch import BoxWatch
from omni.simready.physics_validator.physics_tests.driven.force_directions import icosahedron_directions
from omni.simready.physics_validator.physics_tests.driven.load_point import (
    deflection_tolerance, joint_deflection, load_point,
)
from omni.simready.physics_validator.physics_tests.driven.motion import (
    ConvergenceCounter, ease, far_target, hold_failed, range_scaled_tolerance, sweep_plan,
)
from omni.simready.physics_validator.physics_tests.driven.step_response import (
    count_reversals, overshoot_pct, settling_time, step_target,
)


def test_overshoot_positive_and_negative_steps():
    assert overshoot_pct([0, 0.5, 1.2, 1.0], 0.0, 1.0) == pytest.approx(20.0)
    assert overshoot_pct([0, -0.5, -1.5, -1.0], 0.0, -1.0) == pytest.approx(50.0)
    assert overshoot_pct([0, 0.4, 0.9], 0.0, 1.0) == 0.0


def test_reversals_count_swings_relative_to_the_step():
    t = np.linspace(0, 5, 1200)
    ringing = 1 - np.exp(-0.2 * t) * np.cos(2 * np.pi * 2 * t)  # a 1.0 step ringing at 2 Hz
    assert count_reversals(ringing, 0.001) >= 15
    # The same motion scaled to a 5 cm prismatic step counts the same (the old absolute 0.05 m/s deadband
    # hid every swing of it), and a 30 deg revolute step likewise.
    assert count_reversals(0.05 * ringing, 0.001 * 0.05) == count_reversals(ringing, 0.001)
    assert count_reversals(0.5236 * ringing, 0.001 * 0.5236) == count_reversals(ringing, 0.001)
    # Solver jitter at rest (1e-5 rad) on a 30 deg step is far below 0.1 % of it: no reversals.
    rest = 0.5236 + 1e-5 * np.random.default_rng(0).standard_normal(1200)
    assert count_reversals(np.concatenate([[0.0], rest]), 0.001 * 0.5236) == 0
    assert count_reversals([0, 1, 0.5, 1.2, 0.3], 0.1) == 3
    assert count_reversals([0, 1, 0.95, 1.0], 0.1) == 0  # a 5 % dip under a 10 % threshold


def test_step_target_leaves_room_for_the_overshoot():
    r = math.radians(30)
    room = 0.6  # 50 % overshoot + 10 % of the step
    assert step_target(0.0, -3.0, 3.0, r, room) == (pytest.approx(r), False)
    assert step_target(0.0, -3.0, r * 1.2, r, room) == (pytest.approx(-r), False)  # +30 deg would end near the limit
    target, scaled = step_target(0.0, math.radians(-10), math.radians(35), r, room)
    assert scaled and target == pytest.approx(math.radians(35) / 1.6)  # neither side fits: scaled, roomier side
    assert target + 0.5 * target < math.radians(35)  # a 50 % overshoot still shows before the limit
    assert step_target(0.0, None, None, r, room) == (pytest.approx(r), False)


def test_settling_needs_the_band_through_the_end():
    t = np.arange(6) * 0.1
    assert settling_time(t, [0.0, 1.2, 0.9, 1.01, 0.99, 1.0], 1.0, 0.05) == pytest.approx(0.3)
    assert settling_time(t, [0.0, 1.0, 1.0, 1.0, 1.2, 1.0], 1.0, 0.05) == pytest.approx(0.5)  # left and re-entered
    assert settling_time(t, [0, 1, 1, 1, 1, 0.5], 1.0, 0.05) is None


def test_range_scaled_tolerance_makes_a_stuck_joint_fail_a_hold():
    for lo, hi in ((-1.0, 1.0), (0.0, 0.05), (-0.035, 0.035), (0.0, 2 * math.pi), (1.0, 1.001)):
        tol = range_scaled_tolerance(0.10, hi - lo, 0.10)
        plan = sweep_plan(lo, hi, lo, fps=240, speed_scale=0.8, pause_seconds=0.15, margin_ratio=0.1,
                          max_sweep_range=2 * math.pi)
        for start in np.linspace(lo, hi, 11):  # a joint that stays wherever it starts
            errors = (abs(plan.max_target - start), abs(plan.min_target - start))
            assert max(errors) > tol, (lo, hi, start)
    assert range_scaled_tolerance(0.10, 4.0, 0.10) == 0.10  # wide revolute ranges keep the spec's 0.10 rad
    assert range_scaled_tolerance(0.01, 0.05, 0.01) == pytest.approx(0.0005)


def test_load_point_is_off_the_axis_of_a_roll_joint(tmp_path):
    from omni.simready.physics_validator.core.usd import read_asset
    from tests.fixtures.arms import build_arm
    from tests.fixtures.driven_arms import prismatic_finger

    asset = read_asset(build_arm(tmp_path / "arm.usda", joints=4))
    authored = {path: (body.world_pose.pos, body.world_pose.quat) for path, body in asset.bodies.items()}
    roll = load_point(asset, asset.joints["/Robot/joints/joint4"], authored)  # axis Z through the link's centre
    assert roll.body == "/Robot/link4" and roll.lever_arm == pytest.approx(math.hypot(0.025, 0.025),
                                                                           abs=1e-7)  # rounded to 0.1 um for ties
    assert abs(roll.local[0]) == pytest.approx(0.025) and abs(roll.local[1]) == pytest.approx(0.025)
    pitch = load_point(asset, asset.joints["/Robot/joints/joint2"], authored)  # axis Y at the link's bottom
    assert pitch.lever_arm == pytest.approx(math.hypot(0.025, 0.2), abs=1e-7)
    assert np.allclose(roll.world((np.array([1.0, 2.0, 3.0]), np.array([1.0, 0, 0, 0]))), roll.local + [1, 2, 3])
    finger = read_asset(prismatic_finger(tmp_path / "finger.usda"))
    posed = {path: (body.world_pose.pos, body.world_pose.quat) for path, body in finger.bodies.items()}
    slide = load_point(finger, finger.joints["/Robot/joints/joint"], posed)
    assert np.allclose(slide.local, 0.0) and "centre" in slide.how


def test_deflection_tolerance_and_wrapped_deflection():
    from omni.simready.physics_validator.core.asset_model import JointInfo, Pose

    def joint(kind, **limits):
        return JointInfo(path="/j", type=kind, body0=None, body1="/b", local_pose0=Pose(), local_pose1=Pose(), **limits)

    half_turn, metre = math.pi, 1.0
    assert deflection_tolerance(joint("prismatic", lower=0.0, upper=0.05), 0.1, half_turn, metre) == pytest.approx(0.005)
    assert deflection_tolerance(joint("revolute"), 0.1, half_turn, metre) == pytest.approx(0.1 * math.pi)  # unlimited
    assert deflection_tolerance(joint("prismatic"), 0.1, half_turn, metre) == pytest.approx(0.1)
    # issue 24 item 1: a wide range counts at most a half turn (a +-360 deg joint may give 18 deg, not 72 deg)
    wide = joint("revolute", lower=-2 * math.pi, upper=2 * math.pi)
    assert deflection_tolerance(wide, 0.1, half_turn, metre) == pytest.approx(0.1 * math.pi)
    narrow = joint("revolute", lower=-math.pi / 4, upper=math.pi / 4)
    assert deflection_tolerance(narrow, 0.1, half_turn, metre) == pytest.approx(0.1 * math.pi / 2)  # the spec's rule
    d = joint_deflection([3.1, 3.1], [-3.1, -3.1], np.array([True, False]))
    assert d[0] == pytest.approx(2 * math.pi - 6.2) and d[1] == pytest.approx(6.2)


def test_ease_profiles_hit_endpoints():
    for p in ("linear", "smoothstep", "smootherstep"):
        assert ease(p, 0) == 0 and ease(p, 1) == 1 and 0 < ease(p, 0.5) < 1
    with pytest.raises(ValueError):
        ease("bogus", 0.5)


def test_sweep_plan_margins_zero_and_durations():
    plan = sweep_plan(-1.0, 2.0, 0.0, fps=240, speed_scale=0.8, pause_seconds=0.15, margin_ratio=0.1,
                      max_sweep_range=2 * math.pi)
    assert plan.max_target == pytest.approx(1.7) and plan.min_target == pytest.approx(-0.7)
    assert plan.zero_target == 0.0 and plan.pause_frames == 36
    assert [s.frames for s in plan.segments] == [300, 300, 300]
    assert plan.segments[0].target(299, "smoothstep") == pytest.approx(1.7)
    # zero outside the range: the nearer endpoint
    plan = sweep_plan(0.5, 1.5, 0.5, fps=240, speed_scale=0.8, pause_seconds=0.15, margin_ratio=0.1,
                      max_sweep_range=2 * math.pi)
    assert plan.zero_target == pytest.approx(0.6)
    # a slow velocity limit stretches the segment so the peak speed is 0.8 x the limit
    plan = sweep_plan(-3.0, 3.0, 0.0, fps=240, speed_scale=0.8, pause_seconds=0.15, margin_ratio=0.1,
                      max_sweep_range=2 * math.pi, velocity_limit=1.0)
    seg = plan.segments[1]
    assert 1.5 * abs(seg.end - seg.start) / (seg.frames / 240) == pytest.approx(0.8, rel=0.01)


def test_sweep_plan_clips_wide_range_to_window():
    plan = sweep_plan(-4 * math.pi, 4 * math.pi, 0.0, fps=240, speed_scale=0.8, pause_seconds=0.15,
                      margin_ratio=0.1, max_sweep_range=2 * math.pi)
    assert plan.max_target - plan.min_target == pytest.approx(0.8 * 2 * math.pi)


def test_hold_rule_and_convergence():
    assert not hold_failed([0.0] * 10 + [0.5] * 5, 0.1)
    assert hold_failed([0.5] * 10 + [0.0] * 5, 0.1)
    assert hold_failed([float("nan")] * 3, 0.1)
    c = ConvergenceCounter(0.01, 3)
    assert [c.update(e) for e in (0.0, 0.0, 0.5, 0.0, 0.0, 0.0)] == [False, False, False, False, False, True]


def test_far_target_opposite_end_with_margin():
    assert far_target(-0.5, -1, 1, 2.0, 2.0) == pytest.approx(0.9)
    assert far_target(0.5, -1, 1, 2.0, 2.0) == pytest.approx(-0.9)
    assert far_target(0.0, None, None, 2.0, 2.0) == pytest.approx(8.0)


def test_icosahedron_directions_are_evenly_spread_unit_vectors():
    d = icosahedron_directions()
    assert d.shape == (12, 3)
    assert np.allclose(np.linalg.norm(d, axis=1), 1.0)
    assert np.allclose(d.sum(axis=0), 0.0)
    dots = d @ d.T
    nearest = np.sort(dots, axis=1)[:, -2]  # closest other vertex
    assert np.allclose(nearest, 1 / math.sqrt(5))  # every vertex has 5 neighbours at the same angle
    assert np.allclose(np.sort(dots, axis=1)[:, 0], -1.0)  # antipodal pairs


def test_box_watch_volume_ratio_and_nan():
    w = BoxWatch((np.zeros(3), np.ones(3)), 10.0)
    assert not w.exploded((np.zeros(3), np.full(3, 2.0)))  # 8x
    assert w.exploded((np.zeros(3), np.full(3, 3.0)))  # 27x
    assert w.exploded((np.full(3, np.nan), np.ones(3)))
    assert w.worst_ratio == w.window_ratio == math.inf  # NaN counts as the worst
    w = BoxWatch((np.zeros(3), np.ones(3)), 10.0)
    assert w.exploded((np.zeros(3), np.full(3, 3.0)))  # 27x during one joint
    w.new_window()  # the next joint starts its own window; the run's worst stays
    assert not w.exploded((np.zeros(3), np.full(3, 1.5)))
    assert w.window_ratio == pytest.approx(3.375) and w.worst_ratio == pytest.approx(27.0)
    flat = BoxWatch((np.zeros(3), np.array([1.0, 1.0, 0.0])), 10.0)
    assert not flat.exploded((np.zeros(3), np.full(3, 5.0)))


class _BoxesCtx:
    """A TestContext stand-in for BoxWatch.step: the exact and the outer box of each step, and how often each was read."""

    def __init__(self, exact, outer):
        self.exact, self.outer, self.exact_reads, self.outer_reads, self.step = exact, outer, 0, 0, 0

    def bounds(self):
        self.exact_reads += 1
        return self.exact(self.step)

    def outer_bounds(self):
        self.outer_reads += 1
        return None if self.outer is None else self.outer(self.step)


def _watch_until_exploded(ctx, watch, steps=200):
    for step in range(1, steps + 1):
        ctx.step = step
        if watch.step(ctx):
            return step
    return None


def test_the_sweeps_watch_takes_the_exact_box_only_where_the_outer_box_could_matter():
    """A calm asset: the outer box (which holds the exact one) is within the reach, so the exact box is taken every
    EXACT_EVERY steps for the reported maxima only; an asset that flies apart at step 101 is seen within OUTER_EVERY
    steps, with the exact box's story."""
    from omni.simready.physics_validator.physics_tests.driven.bbox_watch import EXACT_EVERY, OUTER_EVERY

    base = (np.zeros(3), np.ones(3))
    calm = _BoxesCtx(lambda s: base, lambda s: (np.full(3, -0.2), np.full(3, 1.2)))
    watch = BoxWatch(base, 10.0, reach=0.5)
    assert _watch_until_exploded(calm, watch) is None
    assert calm.exact_reads == 200 // EXACT_EVERY and calm.outer_reads == 200 // OUTER_EVERY - calm.exact_reads

    def flying(step):
        return base if step < 101 else (np.zeros(3), np.full(3, 3.0))

    ctx = _BoxesCtx(flying, lambda s: (flying(s)[0] - 0.2, flying(s)[1] + 0.2))
    watch = BoxWatch(base, 10.0, reach=0.5)
    seen = _watch_until_exploded(ctx, watch)
    assert seen is not None and 101 <= seen < 101 + OUTER_EVERY
    assert "beyond where it started" in watch.tripped and watch.worst_excursion == pytest.approx(2.0)


def test_the_sweeps_watch_without_an_outer_box_and_on_a_nan_outer_box_takes_the_exact_one():
    from omni.simready.physics_validator.physics_tests.driven.bbox_watch import OUTER_EVERY

    base = (np.zeros(3), np.ones(3))
    plain = _BoxesCtx(lambda s: base, None)  # an engine without outer_bounds
    assert _watch_until_exploded(plain, BoxWatch(base, 10.0, reach=0.5), 40) is None
    assert plain.exact_reads == 40 // OUTER_EVERY
    nan = _BoxesCtx(lambda s: (np.full(3, np.nan), np.ones(3)), lambda s: (np.full(3, np.nan), np.ones(3)))
    watch = BoxWatch(base, 10.0, reach=0.5)
    assert _watch_until_exploded(nan, watch) == OUTER_EVERY and "non-finite" in watch.tripped
    # unbounded reach: the volume rule decides, through the outer box too
    grown = _BoxesCtx(lambda s: (np.zeros(3), np.full(3, 3.0)), lambda s: (np.zeros(3), np.full(3, 3.0)))
    assert _watch_until_exploded(grown, BoxWatch(base, 10.0)) == OUTER_EVERY


class _JointsCtx:
    """A TestContext stand-in for RestWatch: joint positions and velocities per step, one revolute joint of range 2."""

    dt = 1 / 240

    def __init__(self, positions, velocities):
        from types import SimpleNamespace

        self.positions, self.velocities, self.step = positions, velocities, 0
        self.dof_joints = ["/j"]
        self.asset = SimpleNamespace(joints={"/j": SimpleNamespace(has_limits=True, lower=-1.0, upper=1.0)})

    def joint_positions(self):
        return np.array([self.positions(self.step)])

    def joint_velocities(self):
        return np.array([self.velocities(self.step)])


def _steps_to_rest(ctx, steps=240):
    from omni.simready.physics_validator.physics_tests.driven.base import RestWatch

    watch = RestWatch(ctx)
    for step in range(1, steps + 1):
        ctx.step = step
        if watch.update():
            return step
    return None


def test_a_settle_ends_once_every_joint_has_been_at_rest_for_0_1_s():
    from omni.simready.physics_validator.physics_tests.driven.base import REST_FRAMES

    still = _JointsCtx(lambda s: 0.3, lambda s: 0.0)
    assert _steps_to_rest(still) == REST_FRAMES
    # ringing down: at rest only once slower than 1 mrad/s (position change and reported velocity alike)
    ringing = _JointsCtx(lambda s: 0.3 + 0.01 * math.exp(-s / 20) * math.cos(s / 3), lambda s: 0.0)
    seen = _steps_to_rest(ringing)
    assert seen is not None and seen > 60
    creeping = _JointsCtx(lambda s: 0.3 + 0.002 * s / 240, lambda s: 0.002)  # 2 mrad/s: never at rest
    assert _steps_to_rest(creeping) is None
    reported = _JointsCtx(lambda s: 0.3, lambda s: 0.01)  # the position still, the reported velocity not
    assert _steps_to_rest(reported) is None
    broken = _JointsCtx(lambda s: math.nan, lambda s: math.nan)  # a NaN state is never at rest
    assert _steps_to_rest(broken) is None
