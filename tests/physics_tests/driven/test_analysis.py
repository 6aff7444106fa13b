"""Unit tests of the pure analysis behind the driven-joint tests (no engine)."""

import math

import numpy as np
import pytest

from omni.simready.physics_validator.physics_tests.driven.bbox_watch import BoxWatch
from omni.simready.physics_validator.physics_tests.driven.force_directions import icosahedron_directions
from omni.simready.physics_validator.physics_tests.driven.motion import (
    ConvergenceCounter, ease, far_target, hold_failed, sweep_plan,
)
from omni.simready.physics_validator.physics_tests.driven.step_response import (
    count_sign_changes, overshoot_pct, settling_time, step_target,
)


def test_overshoot_positive_and_negative_steps():
    assert overshoot_pct([0, 0.5, 1.2, 1.0], 0.0, 1.0) == pytest.approx(20.0)
    assert overshoot_pct([0, -0.5, -1.5, -1.0], 0.0, -1.0) == pytest.approx(50.0)
    assert overshoot_pct([0, 0.4, 0.9], 0.0, 1.0) == 0.0


def test_settling_time_is_start_of_trailing_in_band_run():
    t = np.arange(6) * 0.1
    q = [0.0, 1.2, 0.9, 1.01, 0.99, 1.0]
    assert settling_time(t, q, 1.0, 0.05) == pytest.approx(0.3)
    assert settling_time(t, [0, 1, 1, 1, 1, 0.5], 1.0, 0.05) is None


def test_sign_changes_ignore_deadband_jitter():
    v = [1, -1, 1, -1, 0.001, -0.001, 0.001]
    assert count_sign_changes(v) == 6
    assert count_sign_changes(v, deadband=0.01) == 3
    # a damped sine: several swings
    t = np.linspace(0, 5, 1200)
    assert count_sign_changes(np.exp(-0.2 * t) * np.cos(2 * np.pi * 2 * t), 0.05) >= 15


def test_step_target_stays_within_limits():
    r = math.radians(30)
    assert step_target(0.0, -1.0, 1.0, r) == pytest.approx(r)
    assert step_target(0.9, -1.0, 1.0, r) == pytest.approx(0.9 - r)
    assert step_target(0.0, -0.1, 0.2, r) == pytest.approx(0.2)  # range narrower than the step: farther limit
    assert step_target(0.0, None, None, r) == pytest.approx(r)


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
    flat = BoxWatch((np.zeros(3), np.array([1.0, 1.0, 0.0])), 10.0)
    assert not flat.exploded((np.zeros(3), np.full(3, 5.0)))
