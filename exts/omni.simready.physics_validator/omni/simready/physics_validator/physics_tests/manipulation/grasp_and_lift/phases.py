"""grasp_and_lift's phases for one grasp line (NVIDIA's nine, judged as they run): position the jaws at the line, close
slowly, settle, lift, hold, shake in a horizontal circle, hold, open, watch the body fall.

Slip is the grasp line's midpoint (carried by its body) in the jaws' frame (the wrist's axes, midway between the
pads), from the end of the close to the end of the second hold: one number for NVIDIA's drop (10 cm), floor and
separation (5 cm) checks, held to `max_slip`.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Iterator

import numpy as np

from ....core.geometry import compose, inverse, rotate
from .codes import GraspCode as Code
from .rig import FINGERS, JAWS, SLIDES, WRIST, YAW, GraspPlan

if TYPE_CHECKING:
    from ....core.context import TestContext
    from ....core.markers import GraspLine
    from .config import GraspThresholds

IDENTITY = np.array([1.0, 0.0, 0.0, 0.0])


def smoothstep(x: float) -> float:
    x = min(max(x, 0.0), 1.0)
    return x * x * (3.0 - 2.0 * x)


@dataclass
class LineOutcome:
    line: "GraspLine"
    code: Code = Code.OK
    reason: str = ""
    metrics: dict = field(default_factory=dict)

    @property
    def passed(self) -> bool:
        return self.code is Code.OK


class LineRun:
    def __init__(self, ctx: "TestContext", plan: GraspPlan, line: "GraspLine", t: "GraspThresholds"):
        self.ctx, self.plan, self.line, self.t, self.cfg = ctx, plan, line, t, ctx.config
        self.out = LineOutcome(line)
        self.body = line.body or next(iter(ctx.asset.bodies))  # a line on no body: the prop's first (GraspLine)
        body = ctx.asset.bodies[self.body].world_pose
        self.local = [compose(*inverse(body.pos, body.quat), p, IDENTITY)[0] for p in (line.p0, line.p1)]
        self.height = float(self._body_box()[1][2] - self._body_box()[0][2])

    # -- reads ---------------------------------------------------------------------------------------------------
    def points(self) -> list[np.ndarray]:
        pose = self.ctx.body_pose(self.body)
        return [pose[0] + rotate(pose[1], p) for p in self.local]

    def midpoint(self) -> np.ndarray:
        a, b = self.points()
        return (a + b) / 2

    def wrist(self):
        return self.ctx.body_pose(WRIST)

    def in_jaws(self, point: np.ndarray) -> np.ndarray:
        """A point in the jaws' frame: the wrist's axes, its origin midway between the pads (the pads squeeze with a
        capped force, so the pair and what they hold may shift together along the jaw: NVIDIA's 'live midpoint')."""
        pads = [self.ctx.body_pose(finger)[0] for finger in FINGERS]
        return compose(*inverse((pads[0] + pads[1]) / 2, self.wrist()[1]), point, IDENTITY)[0]

    def pad_gap(self) -> float:
        """The gap between the pads' inner faces (m) as the runtime holds them: 0 when they touch each other."""
        pads = [self.ctx.body_pose(finger)[0] for finger in FINGERS]
        across = rotate(self.wrist()[1], np.array([1.0, 0.0, 0.0]))
        return abs(float(np.dot(pads[1] - pads[0], across))) - 2.0 * self.plan.pad_half[0]

    def _body_box(self):
        from ....core.geometry import bodies_box

        return bodies_box(self.ctx.asset, [self.body], self.ctx.body_poses())

    def q(self, path: str) -> float:
        return float(self.ctx.joint_positions()[self.ctx.dof_index(path)])

    # -- commands --------------------------------------------------------------------------------------------------
    def gantry(self, target: np.ndarray) -> None:
        for slide, value, start in zip(SLIDES, target, self.plan.start):
            self.ctx.set_joint_target(slide, float(value - start))

    def jaws(self, value: float) -> None:
        for jaw in JAWS:
            self.ctx.set_joint_target(jaw, value)

    def steps(self, seconds: float) -> int:
        return max(1, int(round(seconds / self.ctx.dt)))

    def fail(self, code: Code, reason: str) -> None:
        self.out.code, self.out.reason = code, reason

    # -- the phases ------------------------------------------------------------------------------------------------
    def run(self) -> Iterator[None]:
        for phase in (self._position, self._close, self._lift, self._hold_shake_hold, self._release):
            yield from phase()
            if not self.out.passed:
                return

    def _position(self) -> Iterator[None]:
        ctx, cfg, t = self.ctx, self.cfg, self.t
        a, b = self.points()
        direction = b - a
        slope = math.atan2(abs(direction[2]), float(np.linalg.norm(direction[:2])))
        if slope > t.max_line_slope:
            self.fail(Code.VERTICAL_LINE, f"{math.degrees(slope):.0f}° from horizontal: the top-down jaw does not grasp "
                                          "along it")
            return
        ctx.label = f"{self.line.path.rsplit('/', 1)[-1]}: position"
        yaw = math.atan2(float(direction[1]), float(direction[0]))
        yaw = (yaw + math.pi / 2) % math.pi - math.pi / 2  # the jaw is symmetric: a half turn at most
        ctx.set_joint_target(YAW, yaw)
        self.jaws(self.plan.open_for(self.line.length))
        above = self.midpoint() * np.array([1.0, 1.0, 0.0]) + np.array([0.0, 0.0, self.plan.start[2]])
        self.gantry(above)
        for _ in range(self.steps(cfg.position_seconds / 2)):
            yield
        error = math.inf
        frames = self.steps(cfg.position_seconds / 2)
        approach = frames // 2  # the move takes the first half, the jaws may then settle
        for k in range(1, frames + 1):
            goal = self.midpoint()
            self.gantry(above + (goal - above) * smoothstep(k / max(approach, 1)))
            yield
            error = float(np.linalg.norm(self.wrist()[0] - goal))
            if k >= approach and error <= t.position_tolerance:
                break
        self.out.metrics["position_error"] = error
        if error > t.position_tolerance:
            self.fail(Code.NOT_REACHED, f"the jaws stopped {error * 1000:.1f} mm from the grasp line's midpoint "
                                        f"(tolerance {t.position_tolerance * 1000:g} mm)")

    def _close(self) -> Iterator[None]:
        ctx, cfg = self.ctx, self.cfg
        ctx.label = f"{self.line.path.rsplit('/', 1)[-1]}: close"
        start = self.plan.open_for(self.line.length)
        frames = self.steps((self.plan.closed - start) / cfg.close_speed)
        for k in range(1, frames + 1):
            self.jaws(start + (self.plan.closed - start) * k / frames)
            yield
        for _ in range(self.steps(cfg.close_settle_seconds)):
            yield
        gap = self.pad_gap()
        self.out.metrics["pad_gap"] = gap
        if gap <= self.t.pads_touching:  # the pads touch each other, not the body: nothing of it between them
            self.fail(Code.PADS_MET, f"the pads closed on each other ({gap * 1000:.1f} mm apart): nothing of the body "
                                     "between them at the grasp line")

    def _lift(self) -> Iterator[None]:
        ctx, t = self.ctx, self.t
        ctx.label = f"{self.line.path.rsplit('/', 1)[-1]}: lift"
        self.reference = self.in_jaws(self.midpoint())
        self.top = self.wrist()[0].copy()
        z0 = float(self.midpoint()[2])
        frames = self.steps(self.cfg.lift_seconds)
        self.worst = 0.0
        for k in range(1, frames + 1):
            self.gantry(self.top + np.array([0.0, 0.0, t.lift * smoothstep(k / frames)]))
            yield
            self._slip()
        rise = float(self.midpoint()[2]) - z0
        self.out.metrics["rise"] = rise
        if not rise >= t.min_rise:
            self.fail(Code.NOT_LIFTED, f"the body rose {rise * 100:.1f} cm while the jaws rose {t.lift * 100:.0f} cm")

    def _slip(self) -> float:
        slip = float(np.linalg.norm(self.in_jaws(self.midpoint()) - self.reference))
        self.worst = max(self.worst, slip if math.isfinite(slip) else math.inf)
        if self.ctx.step_count % 4 == 0:
            self.ctx.record(f"{self.line.path.rsplit('/', 1)[-1]}/slip", slip)
            self.ctx.record(f"{self.line.path.rsplit('/', 1)[-1]}/time", self.ctx.time)
        return slip

    def _hold_shake_hold(self) -> Iterator[None]:
        ctx, cfg, t = self.ctx, self.cfg, self.t
        name = self.line.path.rsplit('/', 1)[-1]
        top = self.top + np.array([0.0, 0.0, t.lift])
        hold, shake = self.steps(cfg.hold_seconds), self.steps(cfg.shake_seconds)
        for k in range(2 * hold + shake):
            ctx.label = f"{name}: {'hold' if k < hold or k >= hold + shake else 'shake'}"
            offset = np.zeros(3)
            if hold <= k < hold + shake:
                s = (k - hold) * ctx.dt
                ramp = min(1.0, smoothstep(s / cfg.shake_ramp_seconds) if cfg.shake_ramp_seconds else 1.0,
                           smoothstep((cfg.shake_seconds - s) / cfg.shake_ramp_seconds) if cfg.shake_ramp_seconds else 1.0)
                angle = 2 * math.pi * cfg.shake_frequency * s
                offset = ramp * cfg.shake_radius * np.array([math.cos(angle) - 1.0, math.sin(angle), 0.0])
            self.gantry(top + offset)
            yield
            slip = self._slip()
            bottom = float(self._body_box()[0][2])
            if not bottom > t.floor_band or not slip <= self.plan.closed:
                self.out.metrics["max_slip"] = self.worst
                self.fail(Code.DROPPED, f"the body fell out of the jaws during the {ctx.label.split(': ')[-1]}")
                return
        self.out.metrics["max_slip"] = self.worst
        if self.worst > t.max_slip:
            self.fail(Code.SLIPPED, f"the grasp line moved {self.worst * 100:.1f} cm in the jaws (max_slip "
                                    f"{t.max_slip * 100:g} cm)")

    def _release(self) -> Iterator[None]:
        ctx, cfg, t = self.ctx, self.cfg, self.t
        ctx.label = f"{self.line.path.rsplit('/', 1)[-1]}: release"
        before = float(self.midpoint()[2])
        frames = self.steps(cfg.open_seconds)
        start = self.plan.closed
        for k in range(1, frames + 1):
            self.jaws(start * (1.0 - k / frames))
            yield
        needed = max(t.min_fall, self.height)
        fall = 0.0
        for _ in range(self.steps(cfg.fall_seconds)):
            yield
            fall = before - float(self.midpoint()[2])
            if fall >= needed:
                break
        self.out.metrics["fall"] = fall
        if not fall >= needed:
            self.fail(Code.NOT_RELEASED, f"opened, the body fell {fall * 100:.1f} cm of {needed * 100:.1f} cm")
