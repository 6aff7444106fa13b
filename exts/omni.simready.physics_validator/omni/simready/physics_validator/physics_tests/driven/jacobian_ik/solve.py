"""Targets and the closed-loop damped least-squares solve of jacobian_ik.

Targets: joint positions sampled inside the authored limits (NVIDIA's sampler: within `sample_spread` of the range from
home, `limit_margin` of the range inside each limit, +-spread x pi for an unlimited revolute joint), the end-effector
pose the authored kinematics give there (chain.forward_kinematics) as the target; each at least `min_target_travel`
from where its solve starts. Unreachable targets: `out_of_reach_factor` x the farthest target's distance from the base,
in the upper half space, home orientation.

The solve runs on the simulated arm, not on a model of it: every iteration reads the end effector's pose and the
runtime's Jacobian (ctx.body_jacobian), takes the damped least-squares step dq = J^T (J J^T + lambda^2 I)^-1 e over
the commanded joints (each joint's change capped), adds it to the joints' position commands (kept inside their limits)
and lets the drives carry the arm there (until its joints are at rest, at most `iteration_seconds`); it ends when the
error is a `converged_fraction` of the tolerances, when `stall_iterations` in a row made no progress, or after
`max_solver_iterations`. The pose is judged after `hold_seconds`, from the runtime.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Iterator

import numpy as np

from ....core.geometry import compose, quat_conj, quat_mul, shift_jacobian, rotate
from .chain import ChainLink, EndEffector, forward_kinematics
from .clearance import Clearance, body_poses_at

if TYPE_CHECKING:
    from ....core.asset_model import JointInfo
    from ....core.context import TestContext
    from .config import JacobianIkConfig, ReachThresholds

Pose = tuple[np.ndarray, np.ndarray]
PATH_CHECKS = 4  # poses checked on the way from home to a sample (the solve starts each target from home)
RESAMPLES = 50  # attempts at a reachable target clear of the arm's own links and far enough from the previous one


@dataclass
class Target:
    index: int
    pose: Pose
    reachable: bool
    joints: dict[str, float] = field(default_factory=dict)  # the sampled joint positions (reachable targets)


@dataclass
class Outcome:
    target: Target
    position_error: float  # m, runtime pose after the hold
    orientation_error: float  # rad
    iterations: int
    reached: bool
    lags: dict[str, float]  # joint path -> |command - position| when judged (rad or m)


def rotation_error(target: np.ndarray, current: np.ndarray) -> np.ndarray:
    """The world rotation vector turning `current` into `target` (both wxyz)."""
    turn = quat_mul(target, quat_conj(current))
    if turn[0] < 0:
        turn = -turn
    s = float(np.linalg.norm(turn[1:]))
    if s < 1e-12:
        return np.zeros(3)
    return turn[1:] / s * 2.0 * math.atan2(s, float(turn[0]))


def sample_joints(rng, joints: list["JointInfo"], home: dict[str, float], cfg: "JacobianIkConfig") -> dict[str, float]:
    """NVIDIA's sampler; a revolute range wider than a turn spreads as a turn does (a UR's +-360 deg joints sampled
    +-252 deg from home put the arm in another configuration, reached only through its own links)."""
    out = {}
    for joint in joints:
        start = home[joint.path]
        limits = joint.limits
        if limits is not None:
            lo, hi = limits
            span = min(hi - lo, 2 * math.pi) if joint.is_angular else hi - lo
            margin = cfg.limit_margin * (hi - lo)
            out[joint.path] = float(np.clip(start + rng.uniform(-cfg.sample_spread, cfg.sample_spread) * span,
                                            lo + margin, hi - margin))
        else:
            out[joint.path] = start + float(rng.uniform(-1.0, 1.0)) * cfg.sample_spread * math.pi
    return out


def make_targets(chain: list[ChainLink], end: EndEffector, base_pose: Pose, commanded: list["JointInfo"],
                 home: dict[str, float], cfg: "JacobianIkConfig", home_pose: Pose,
                 clearance: "Clearance") -> tuple[list[Target], float, int]:
    """(reachable targets then unreachable ones, the arm's reach bound from its first joint (m), poses rejected because
    the arm's links would meet)."""
    rng = np.random.default_rng(cfg.seed)
    targets: list[Target] = []
    rejected = 0
    for index in range(cfg.num_targets):
        best: tuple[float, dict[str, float], Pose] | None = None
        for _ in range(RESAMPLES):
            q = sample_joints(rng, commanded, home, cfg)
            path = [{p: home[p] + (v - home[p]) * f for p, v in q.items()} for f in np.linspace(0.25, 1.0, PATH_CHECKS)]
            if not all(clearance.clear(body_poses_at(clearance.links, clearance.base, base_pose, {**home, **x}))
                       for x in path):
                rejected += 1
                continue
            pose = forward_kinematics(chain, base_pose, {**home, **q}, end)
            travel = float(np.linalg.norm(pose[0] - home_pose[0]))
            if best is None or travel > best[0]:
                best = (travel, q, pose)
            if travel >= cfg.min_target_travel:
                break
        if best is None:
            continue
        targets.append(Target(index, best[2], True, best[1]))
    first, reach = reach_bound(chain, body_poses_at(clearance.links, clearance.base, base_pose, home), end)
    rng_far = np.random.default_rng(cfg.seed + 1)
    for k in range(cfg.out_of_reach_count):
        direction = rng_far.normal(size=3)
        direction[2] = abs(direction[2])
        direction /= max(float(np.linalg.norm(direction)), 1e-9)
        far = first + direction * reach * cfg.out_of_reach_factor
        targets.append(Target(cfg.num_targets + k, (far, np.asarray(home_pose[1], float)), False))
    return targets, reach, rejected


def reach_bound(chain: list[ChainLink], poses: dict, end: EndEffector) -> tuple[np.ndarray, float]:
    """(the first moving joint's position, the farthest any pose can put the end effector from it): the sum of the
    distances between the joints of the chain and from the last to the end effector, plus every prismatic joint's
    travel. A target farther than this is out of reach whatever the joints do (NVIDIA's 1.4 x the farthest sampled
    target is not: the z1 arm reached one). `poses`: every body's pose at home (clearance.body_poses_at)."""
    points = []
    for link in chain:
        parent = link.joint.body0 if link.parent_is_body0 else link.joint.body1
        if link.joint.is_dof and parent in poses:
            frame = link.joint.local_pose0 if link.parent_is_body0 else link.joint.local_pose1
            pos, quat = poses[parent]
            points.append(compose(pos, quat, frame.pos, frame.quat)[0])
    pos, quat = poses[end.body]
    tip = compose(pos, quat, end.offset.pos, end.offset.quat)[0]
    if not points:
        return tip, 0.0
    path = points + [tip]
    travel = sum(hi - lo for link in chain if link.joint.type == "prismatic" and link.joint.limits
                 for lo, hi in [link.joint.limits])
    return points[0], float(sum(np.linalg.norm(b - a) for a, b in zip(path, path[1:])) + travel)


class Solver:
    """The closed-loop solve on the running arm."""

    def __init__(self, ctx: "TestContext[JacobianIkConfig]", end: EndEffector, commanded: list["JointInfo"],
                 thresholds: "ReachThresholds"):
        self.ctx, self.end, self.commanded, self.t = ctx, end, commanded, thresholds
        self.columns = np.array([ctx.dof_index(j.path) for j in commanded], int)
        self.command = np.array(ctx.joint_positions(), float)[self.columns]
        self.step_cap = np.array([thresholds.step_angular if j.is_angular else thresholds.step_linear
                                  for j in commanded])
        self.lower = np.array([j.limits[0] if j.limits else -np.inf for j in commanded])
        self.upper = np.array([j.limits[1] if j.limits else np.inf for j in commanded])
        self.rest_speed = np.array([thresholds.rest_angular if j.is_angular else thresholds.rest_linear for j in commanded])
        self.times: list[float] = []
        self.errors: list[float] = []

    def pose(self) -> Pose:
        body = self.ctx.body_pose(self.end.body)
        if body is None:
            return np.full(3, np.nan), np.array([1.0, 0.0, 0.0, 0.0])
        return compose(body[0], body[1], self.end.offset.pos, self.end.offset.quat)

    def errors_to(self, target: Pose) -> tuple[np.ndarray, np.ndarray]:
        pos, quat = self.pose()
        return np.asarray(target[0], float) - pos, rotation_error(np.asarray(target[1], float), quat)

    def _command(self) -> None:
        for column, value in zip(self.columns, self.command):
            self.ctx.set_joint_target(self.ctx.dof_joints[int(column)], float(value))

    def hold(self, steps: int) -> Iterator[None]:
        self._command()
        for _ in range(steps):
            yield

    def solve(self, target: Target, cfg: "JacobianIkConfig", watch) -> Iterator[None]:
        """Iterate toward `target`; the outcome is left in `self.outcome`. Stops early when `watch` trips."""
        t, ctx = self.t, self.ctx
        iterations, best, since_best = 0, math.inf, 0
        while iterations < cfg.max_solver_iterations:
            iterations += 1
            dp, dr = self.errors_to(target.pose)
            if not (np.all(np.isfinite(dp)) and np.all(np.isfinite(dr))):
                break
            self.times.append(ctx.time)
            self.errors.append(float(np.linalg.norm(dp)))
            size = float(np.linalg.norm(dp)) + t.length_per_radian * float(np.linalg.norm(dr))
            if (np.linalg.norm(dp) <= cfg.converged_fraction * t.position_tolerance
                    and np.linalg.norm(dr) <= cfg.converged_fraction * t.orientation_tolerance):
                break
            best, since_best = (size, 0) if size < best - t.progress else (best, since_best + 1)
            if since_best >= cfg.stall_iterations:  # no progress: stuck against something, or out of reach
                break
            body = ctx.body_pose(self.end.body)
            offset = rotate(body[1], self.end.offset.pos) if body is not None else np.zeros(3)
            jacobian = shift_jacobian(ctx.body_jacobian(self.end.body), offset)[:, self.columns]
            step = self._step(jacobian, np.concatenate([dp, dr]), cfg.damping_lambda)
            scale = float(np.max(np.abs(step) / self.step_cap)) if len(step) else 0.0
            if scale > 1.0:  # the whole step shrunk, its direction kept
                step = step / scale
            self.command = np.clip(self.command + step, self.lower, self.upper)
            self._command()
            yield from self._follow(watch)
            if watch.tripped:
                return
        yield from self.hold(t.hold_steps)
        dp, dr = self.errors_to(target.pose)
        q = np.array(ctx.joint_positions(), float)[self.columns]
        position_error, orientation_error = float(np.linalg.norm(dp)), float(np.linalg.norm(dr))
        reached = bool(position_error <= t.position_tolerance and orientation_error <= t.orientation_tolerance)
        lags = {j.path: float(abs(c - v)) for j, c, v in zip(self.commanded, self.command, q)}
        self.outcome = Outcome(target, position_error, orientation_error, iterations, reached, lags)

    def _step(self, jacobian: np.ndarray, error: np.ndarray, damping: float) -> np.ndarray:
        """The damped least-squares step; a joint at a limit that the step would push past it is left out and the step
        taken again over the others (a clipped step leaves the error where it was and stalls the solve)."""
        free = np.ones(len(self.columns), bool)
        step = np.zeros(len(self.columns))
        for _ in range(2):
            j = jacobian * free
            step = j.T @ np.linalg.solve(j @ j.T + damping ** 2 * np.eye(6), error)
            pinned = ((self.command <= self.lower) & (step < 0)) | ((self.command >= self.upper) & (step > 0))
            if not np.any(pinned & free):
                break
            free &= ~pinned
        return step * free

    def go_to(self, command: np.ndarray, watch) -> Iterator[None]:
        """Command these joint positions and let the arm get there (at rest, or the settle time)."""
        self.command = np.array(command, float)
        self._command()
        for _ in range(self.t.settle_iterations):
            yield from self._follow(watch)
            speed = np.abs(np.asarray(self.ctx.joint_velocities(), float)[self.columns])
            if watch.tripped or bool(np.all(speed <= self.rest_speed)):
                return

    def _follow(self, watch) -> Iterator[None]:
        """Step until the commanded joints are at rest (slower than their rest speed for `rest_steps` in a row), at
        least `rest_steps` and at most `iteration_steps`."""
        t, ctx = self.t, self.ctx
        calm = 0
        for _ in range(t.iteration_steps):
            yield
            if watch.step(ctx):
                return
            speed = np.abs(np.asarray(ctx.joint_velocities(), float)[self.columns])
            calm = calm + 1 if bool(np.all(speed <= self.rest_speed)) else 0
            if calm >= t.rest_steps:
                return
