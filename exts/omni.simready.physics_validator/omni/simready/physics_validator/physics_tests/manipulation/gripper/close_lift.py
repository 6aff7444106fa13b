"""The FET028 phases on the rig (gripper_rig.py): convention (the jaws to their upper and then their lower limits, in
the air: which limit opens them, jaw_convention.py), open, descend, close, lift, hold, shake, release, judged as they run.

Slip is the object's displacement in the grasp centre's frame (the site, carried by the base) since the end of the close,
over the lift, the hold and the shake: one number for NVIDIA's three checks (lift follow error < 5 cm, drift < 5 cm,
shake slip < 3 cm), held to `max_slip`. Every pose is the runtime's.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Iterator

import numpy as np

from ....core.geometry import compose, inverse
from ....core.quantities import joint_value
from .codes import GripperCode as Code
from .gripper_rig import GANTRY, OBJECT, GripperPlan
from .jaw_convention import FingerGauge, JawSide, reversed_jaws, reversed_reason, sides

if TYPE_CHECKING:
    from ....core.context import TestContext


@dataclass
class Grip:
    """What the phases found; `failure` is the first (code, reason) or None."""

    failure: tuple[Code, str] | None = None
    metrics: dict = field(default_factory=dict)
    sides: list[JawSide] = field(default_factory=list)  # each jaw's fingers at its lower and upper limits
    reversed: list[JawSide] = field(default_factory=list)  # the jaws whose lower limit closes them
    series: dict = field(default_factory=lambda: {"time": [], "slip": [], "object_z": [], "gantry": []})


def smoothstep(x: float) -> float:
    x = min(max(x, 0.0), 1.0)
    return x * x * (3.0 - 2.0 * x)


class CloseLift:
    def __init__(self, ctx: "TestContext", plan: GripperPlan):
        self.ctx, self.plan, self.cfg = ctx, plan, ctx.config
        self.t = self.cfg.thresholds_for(plan.site.max_opening, plan.site.max_payload)
        self.jaws = [ctx.asset.joints[p] for p in plan.jaws]
        self.open = np.array([j.limits[0] for j in self.jaws])  # type: ignore[index]
        self.closed = np.array([j.limits[1] for j in self.jaws])  # type: ignore[index]
        self.columns = [ctx.dof_index(p) for p in plan.jaws]
        self.grip = Grip()
        self.gantry_target = 0.0

    # -- reads -----------------------------------------------------------------------------------------
    def object_pos(self) -> np.ndarray:
        pose = self.ctx.body_pose(OBJECT)
        return np.full(3, np.nan) if pose is None else np.asarray(pose[0], float)

    def site_pose(self):
        base = self.ctx.body_pose(self.plan.base)
        return compose(base[0], base[1], *self.plan.site_local)

    def in_site(self, point: np.ndarray) -> np.ndarray:
        return compose(*inverse(*self.site_pose()), point, np.array([1.0, 0.0, 0.0, 0.0]))[0]

    def jaw_q(self) -> np.ndarray:
        return np.asarray(self.ctx.joint_positions(), float)[self.columns]

    def gantry_q(self) -> float:
        return float(self.ctx.joint_positions()[self.ctx.dof_index(GANTRY)])

    # -- commands ----------------------------------------------------------------------------------------
    def command_jaws(self, values: np.ndarray) -> None:
        for path, value in zip(self.plan.jaws, values):
            self.ctx.set_joint_target(path, float(value))

    def command_gantry(self, value: float) -> None:
        self.gantry_target = value
        self.ctx.set_joint_target(GANTRY, value)

    def steps(self, seconds: float) -> int:
        return max(1, int(round(seconds / self.ctx.dt)))

    def fail(self, code: Code, reason: str) -> None:
        if self.grip.failure is None:
            self.grip.failure = (code, reason)

    # -- the phases --------------------------------------------------------------------------------------
    def run(self) -> Iterator[None]:
        for phase in (self._open, self._descend, self._close, self._lift_hold_shake, self._release):
            yield from phase()
            if self.grip.failure is not None:
                return

    def _open(self) -> Iterator[None]:
        """The jaws to their upper limits (as long as a close gets), then to their lower ones (in the air, the object far
        below): which limit opens each jaw is measured there (jaw_convention.py) before the open limit is judged."""
        ctx, t = self.ctx, self.t
        gauge = FingerGauge(ctx.asset, self.plan)
        ctx.label = "convention"
        self.command_gantry(0.0)
        readings = [(list(self.jaw_q()), gauge.offsets(ctx.body_pose, self.in_site))]
        self.command_jaws(self.closed)
        for _ in range(self.steps(self.cfg.close_seconds)):
            yield
        readings.append((list(self.jaw_q()), gauge.offsets(ctx.body_pose, self.in_site)))
        q_upper = self.jaw_q()
        ctx.label = "open"
        self.command_jaws(self.open)
        for _ in range(self.steps(self.cfg.open_seconds)):
            yield
        readings.append((list(self.jaw_q()), gauge.offsets(ctx.body_pose, self.in_site)))
        found = sides(ctx.asset, self.plan.jaws, readings, t.limit_fraction)
        self.grip.sides = found
        self.grip.metrics["fingers_at_lower"] = float(np.nanmean([s.at_lower for s in found]))
        self.grip.metrics["fingers_at_upper"] = float(np.nanmean([s.at_upper for s in found]))
        backwards = reversed_jaws(found, t.convention_min_shift)
        if backwards:
            self.grip.reversed = backwards
            self.fail(Code.JAW_REVERSED, reversed_reason(backwards))
            return
        untold = [s.joint.name for s in found if not s.shift >= t.convention_min_shift]
        if untold:
            ctx.warn(f"jaw {', '.join(untold)} moved its fingers less than {t.convention_min_shift * 1000:g} mm between "
                     f"its limits (driven to the upper for {self.cfg.close_seconds:g} s: it reached "
                     f"{', '.join(joint_value(float(q), j.is_angular) for j, q in zip(self.jaws, q_upper))}): which limit "
                     "opens it was not told")
        q = self.jaw_q()
        off = np.abs(q - self.open)
        allowed = np.minimum(t.open_tolerance, t.limit_fraction * (self.closed - self.open))
        self.grip.metrics["open_error"] = float(off.max())
        if bool(np.any(off > allowed)):
            worst = int(np.argmax(off / allowed))
            jaw = self.jaws[worst]
            self.fail(Code.OPEN_NOT_REACHED, f"jaw {jaw.name} stopped {joint_value(float(off[worst]), jaw.is_angular)} "
                                             f"from its open (lower) limit {joint_value(float(self.open[worst]), jaw.is_angular)}"
                                             f" after {self.cfg.open_seconds:g} s (allowed "
                                             f"{joint_value(float(allowed[worst]), jaw.is_angular)}: open_tolerance, at most "
                                             f"{t.limit_fraction:.0%} of its travel)")

    def _descend(self) -> Iterator[None]:
        ctx, cfg = self.ctx, self.cfg
        ctx.label = "descend"
        for _ in range(self.steps(cfg.settle_seconds)):
            yield
        rest = self.object_pos()
        travel = self.plan.descent
        frames = self.steps(abs(travel) / cfg.descent_speed)
        for k in range(1, frames + 1):
            self.command_gantry(travel * smoothstep(k / frames))
            yield
            if float(np.linalg.norm(self.object_pos() - rest)) > cfg.contact_shift:
                ctx.warn(f"descent: the object moved at {self.gantry_q():+.3f} m of gantry travel (contact before the "
                         "grasp depth); backed up before closing")
                self.command_gantry(self.gantry_q() + cfg.contact_backoff_fraction * self.plan.site.max_opening)
                break
        for _ in range(self.steps(cfg.settle_seconds)):
            yield
        self.grip.metrics["descent"] = self.gantry_q()

    def _close(self) -> Iterator[None]:
        ctx, t = self.ctx, self.t
        ctx.label = "close"
        self.command_jaws(self.closed)
        history: list[np.ndarray] = []
        start = self.jaw_q()
        for _ in range(self.steps(self.cfg.close_seconds)):
            yield
            q = self.jaw_q()
            history.append(q)
            if len(history) > t.stall_window:
                moved = np.abs(q - start) >= t.engage_eps
                still = np.abs(q - history[-1 - t.stall_window]) < t.stall_eps
                if bool(np.all(moved & still)):
                    break
        for _ in range(self.steps(self.cfg.settle_seconds)):
            yield
        q = self.jaw_q()
        short = self.closed - q
        travel = self.closed - self.open
        self.grip.metrics["jaw_gap_to_closed_limit"] = float(short.min())
        if bool(np.all(short <= t.limit_fraction * travel)):
            gaps = ", ".join(f"{j.name} {joint_value(float(g), j.is_angular)} of {joint_value(float(r), j.is_angular)}"
                             for j, g, r in zip(self.jaws, short, travel))
            self.fail(Code.CLOSED_ON_NOTHING, f"the jaws closed to their closed (upper) limits without the object between "
                                              f"them: each ended within {t.limit_fraction:.0%} of its travel from "
                                              f"the limit ({gaps})")
            return
        site_pos = self.site_pose()[0]
        lateral = float(np.linalg.norm((self.object_pos() - site_pos)[:2]))
        self.grip.metrics["object_off_axis"] = lateral
        if lateral > t.object_size:
            self.fail(Code.OBJECT_PUSHED_AWAY, f"after the close the object is {lateral * 100:.1f} cm off the grasp axis "
                                               f"(more than its {t.object_size * 100:.1f} cm size)")

    def _lift_hold_shake(self) -> Iterator[None]:
        ctx, cfg, t = self.ctx, self.cfg, self.t
        reference = self.in_site(self.object_pos())
        top0, object0 = self.gantry_q(), self.object_pos()
        base0 = self.site_pose()[0]
        worst, highest = 0.0, -math.inf
        lifted = self.steps(cfg.lift_seconds)
        held = lifted + self.steps(cfg.hold_seconds)
        total = held + self.steps(cfg.shake_seconds)
        for k in range(1, total + 1):
            if k <= lifted:
                ctx.label = "lift"
                target = top0 + cfg.lift_height * smoothstep(k / lifted)
            elif k <= held:
                ctx.label = "hold"
                target = top0 + cfg.lift_height
            else:
                ctx.label = "shake"
                target = top0 + cfg.lift_height + cfg.shake_amplitude * math.sin(
                    2 * math.pi * cfg.shake_frequency * (k - held) * ctx.dt)
            self.command_gantry(target)
            yield
            position = self.object_pos()
            slip = float(np.linalg.norm(self.in_site(position) - reference))
            worst = max(worst, slip if math.isfinite(slip) else math.inf)
            if k == lifted:
                site_rise = float(self.site_pose()[0][2] - base0[2])
                self.grip.metrics["gantry_lift"] = site_rise
                self.grip.metrics["lift_follow_error"] = abs(float(position[2] - object0[2]) - site_rise)
            if k % 4 == 0:
                for name, value in (("time", ctx.time), ("slip", slip), ("object_z", float(position[2])),
                                    ("gantry", self.gantry_q())):
                    self.grip.series[name].append(value)
            bottom = float(position[2]) - t.object_size / 2
            highest = max(highest, bottom)
            if (k > lifted and not bottom > t.drop_height) or not slip <= t.object_size:  # on the floor, or out of the jaws
                self.grip.metrics["max_slip"] = worst
                self.grip.metrics["object_highest"] = highest
                rose = float(self.site_pose()[0][2] - base0[2])
                if not highest > t.drop_height:
                    self.fail(Code.NOT_LIFTED, f"the object never left the floor: the gripper rose {rose * 100:.1f} cm "
                                               f"and the object's bottom was never more than {max(highest, 0.0) * 100:.1f} cm "
                                               f"above "
                                               f"the floor (drop_height {t.drop_height * 100:g} cm): the jaws did not hold it")
                else:
                    how = (f"it moved {slip * 100:.1f} cm in the grip, more than its {t.object_size * 100:.1f} cm size"
                           if not slip <= t.object_size else
                           f"its bottom is {bottom * 100:.1f} cm above the floor, under drop_height {t.drop_height * 100:g} cm")
                    self.fail(Code.DROPPED, f"the object fell out during the {ctx.label}: lifted to {highest * 100:.1f} cm "
                                            f"above the floor, {how}")
                return
        self.grip.metrics["max_slip"] = worst
        if self.grip.metrics.get("gantry_lift", 0.0) < t.min_gantry_lift:
            self.fail(Code.GANTRY_SHORT, f"the test's gantry lifted the gripper {self.grip.metrics.get('gantry_lift', 0.0):.3f}"
                                         f" m of {cfg.lift_height:g} m: the rig failed, the grip is not judged")
        elif worst > t.max_slip:
            self.fail(Code.SLIPPED, f"the object moved {worst * 100:.1f} cm in the grip during the lift, hold and shake "
                                    f"(max_slip {t.max_slip * 100:g} cm)")

    def _release(self) -> Iterator[None]:
        ctx, t = self.ctx, self.t
        ctx.label = "release"
        before = float(self.object_pos()[2])
        self.command_jaws(self.open)
        for _ in range(self.steps(self.cfg.release_seconds)):
            yield
        fall = before - float(self.object_pos()[2])
        self.grip.metrics["released_fall"] = fall
        if not fall >= t.min_fall:
            self.fail(Code.NOT_RELEASED, f"opened again, the object fell {fall * 100:.1f} cm (at least "
                                         f"{t.min_fall * 100:g} cm expected)")
