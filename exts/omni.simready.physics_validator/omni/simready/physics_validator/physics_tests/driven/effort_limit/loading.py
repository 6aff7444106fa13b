"""effort_limit's load phase: push one joint's child body from the 12 directions, watch every joint give way or
not, then release and watch the drives pull back. State is explicit: the held pose every deflection is measured
from (`HeldPose`), what one joint's load did (`JointLoad`) and the first joint that gave way (`Break`)."""

from __future__ import annotations

import math
from dataclasses import dataclass
from functools import cached_property
from operator import le, sub
from typing import TYPE_CHECKING

import numpy as np

from ..base import BBOX_CHECK_EVERY, RestWatch, exploded_story, fmt, jv
from ..codes import DrivenCode
from ..load_point import joint_deflection
from .codes import EffortLimitCode as Code

if TYPE_CHECKING:
    from ....core.context import TestContext
    from .config import EffortLimitConfig


@dataclass
class HeldPose:
    """Per DOF (`dofs` order): the commanded hold, the settled pose, the limits, how far a joint may give way
    (`tol`, driven joints only; `slack`, the spec's beyond-the-limits rule) and its sag under gravity."""

    dofs: list[str]
    infos: list  # JointInfo or None per DOF
    hold: np.ndarray
    pose: np.ndarray
    lower: np.ndarray
    upper: np.ndarray
    slack: np.ndarray
    tol: np.ndarray
    wrap: np.ndarray  # unlimited revolute joints: deflection measured modulo a full turn
    sag: np.ndarray

    @classmethod
    def measure(cls, dofs, infos, hold, pose, lower, upper, tested_idx, cfg) -> "HeldPose":
        span = upper - lower
        slack = np.where(np.isfinite(span), cfg.break_tolerance * span, np.inf)  # the spec's literal rule
        tol = np.full(len(dofs), np.inf)  # deflection from the held pose, driven joints only
        for i in tested_idx:
            tol[i] = cfg.thresholds_for(infos[i]).deflection
        wrap = np.array([j is not None and j.is_angular and not j.has_limits for j in infos])
        return cls(dofs, infos, hold, pose, lower, upper, slack, tol, wrap, joint_deflection(pose, hold, wrap))

    def name(self, k: int) -> str:
        return self.dofs[k].rsplit("/", 1)[-1]

    def deflection(self, q: np.ndarray, values: list[float]) -> "np.ndarray | list[float]":
        """`joint_deflection` of `q` (finite; `values` = q.tolist()) from this pose: in plain floats (|q - pose|, the
        same IEEE operations as numpy's, element by element: a few DOFs cost less so, every loaded step) where no joint
        wraps and no limit, tolerance or pose is NaN; else as an array (the modulo where a joint wraps)."""
        plain = self._plain
        if plain is None:
            return joint_deflection(q, self.pose, self.wrap) if self.wrap.any() else np.abs(q - self.pose)
        return list(map(abs, map(sub, values, plain[0])))  # [abs(x - p) ...], iterated in C

    @cached_property
    def _plain(self) -> tuple[list[float], ...] | None:
        """(pose, tol, lower, upper, slack) as float lists, or None where the float path would not match numpy's: a
        joint that wraps, or a NaN (Python's max() and numpy's maximum() differ on NaN)."""
        arrays = (self.pose, self.tol, self.lower, self.upper, self.slack)
        if self.wrap.any() or any(np.isnan(a).any() for a in arrays):
            return None
        return tuple(np.asarray(a, float).tolist() for a in arrays)

    @staticmethod
    def most_deflected(deflection) -> int:
        """The first DOF of the largest deflection (numpy's argmax on an array; the float path has no NaN)."""
        if isinstance(deflection, list):
            return max(range(len(deflection)), key=deflection.__getitem__)
        return int(deflection.argmax())

    def intact(self, q: np.ndarray, values: list[float], deflection) -> bool:
        """No joint gave way: `gave_way`'s two rules as plain comparisons (it names the joint when one did)."""
        plain = self._plain
        if isinstance(deflection, list) and plain is not None:
            _pose, tol, lower, upper, slack = plain
            # all(d <= t) and all(max(lo - x, x - hi) <= s), iterated in C
            return all(map(le, deflection, tol)) and all(map(le, map(max, map(sub, lower, values), map(sub, values, upper)),
                                                              slack))
        return bool((deflection <= self.tol).all()) and bool((np.maximum(self.lower - q, q - self.upper) <= self.slack).all())


@dataclass(frozen=True)
class Break:
    """The first joint that gave way under a load: in which direction, how (`code`, `kind` as the row reports
    it), which DOF (None: the whole scene, an explosion) and the sentence."""

    direction: int
    code: str
    kind: str  # "exploded", "deflected", "beyond limits"
    dof: int | None
    text: str


@dataclass
class JointLoad:
    """What loading one joint did."""

    held_point: np.ndarray | None  # the load point in the world before loading (None: the centre of mass)
    own_max: float = 0.0  # the loaded joint's largest deflection
    any_max: float = 0.0  # the largest deflection of any joint
    worst_dir: int = 0
    worst_joint: str = ""
    broke: Break | None = None
    back: tuple[float, float] | None = None  # (largest deflection after the release, how far the drive pulled back)


def world_point(ctx: "TestContext[EffortLimitConfig]", point):
    """The load point in the world now (None = the centre of mass, when the engine has no pose for the body)."""
    pose = ctx.body_pose(point.body)
    return None if pose is None else point.world(pose)


def load_joint(ctx: "TestContext[EffortLimitConfig]", joint, point, held: HeldPose, watch, directions, frames_per_direction,
               series):
    """Push `point` from each direction in turn (re-applied every step) until a joint gives way or the directions
    run out, then release and let the drives pull back; returns a JointLoad."""
    cfg = ctx.config
    idx = ctx.dof_index(joint.path)
    load = JointLoad(held_point=world_point(ctx, point))
    prefix = f"effort/{joint.name}"
    for d, direction in enumerate(directions):
        ctx.label = f"joint {joint.name}: force {d + 1}/12"
        force = cfg.force_magnitude_newtons * direction
        for frame in range(frames_per_direction):
            ctx.apply_force(point.body, force, world_point(ctx, point))
            yield
            q = np.asarray(ctx.joint_positions(), dtype=float)
            values = q.tolist()
            check_box = frame % BBOX_CHECK_EVERY == 0 or frame == frames_per_direction - 1
            if not all(map(math.isfinite, values)) or (check_box and watch.exploded(ctx.bounds())):
                load.broke = Break(d, DrivenCode.EXPLODED.value, "exploded", None, exploded_story(watch))
                break
            deflection = held.deflection(q, values)
            own = float(deflection[idx])
            series.sample(prefix, deflection=own)
            load.own_max = max(load.own_max, own)
            k = held.most_deflected(deflection)
            if deflection[k] > load.any_max:
                load.any_max, load.worst_dir, load.worst_joint = float(deflection[k]), d, held.name(k)
            if not held.intact(q, values, deflection):
                load.broke = gave_way(q, np.asarray(deflection, float), held, d, cfg.break_tolerance)
                if load.broke:
                    break
        if load.broke:
            load.worst_dir = load.broke.direction
            break
    if not (load.broke and load.broke.code == DrivenCode.EXPLODED):
        load.back = yield from recover(ctx, load.broke.dof if load.broke else None, held, cfg.recovery_seconds)
    return load


def gave_way(q, deflection, held: HeldPose, direction: int, break_tolerance: float) -> Break | None:
    """The first joint that gave way at this step, or None: a driven joint past its deflection tolerance (the
    worst relative to its tolerance), else any joint beyond its limits by more than the spec's slack."""
    over = np.flatnonzero(deflection > held.tol)
    if over.size:
        j = int(over[np.argmax(deflection[over] / held.tol[over])])
        info = held.infos[j]
        return Break(direction, Code.GAVE_WAY.value, "deflected", j,
                     f"{held.name(j)} gave way {jv(info, deflection[j])} from its held pose "
                     f"(> {jv(info, held.tol[j])}, {break_tolerance:.0%} of its range)")
    excess = np.maximum(held.lower - q, q - held.upper)
    over = np.flatnonzero(excess > held.slack)
    if over.size:
        j = int(over[0])
        info = held.infos[j]
        if info is None:
            return Break(direction, Code.BEYOND_LIMITS.value, "beyond limits", j,
                         f"joint {held.name(j)} is beyond its limits by {fmt(excess[j])}")
        return Break(direction, Code.BEYOND_LIMITS.value, "beyond limits", j,
                     f"{held.name(j)} at {jv(info, q[j])} is beyond its limits [{jv(info, held.lower[j])}, "
                     f"{jv(info, held.upper[j])}] by {jv(info, excess[j])} > break_tolerance x range "
                     f"{jv(info, held.slack[j])}")
    return None


def recover(ctx: "TestContext[EffortLimitConfig]", j: int | None, held: HeldPose, seconds: float):
    """Unloaded steps for the drives to pull back. For joint `j` (it gave way): the whole `seconds`, and (its largest
    deflection after the release, how far the drive then brought it back), measured from the largest deflection, not
    from the release (a joint released as it crossed the threshold still carries momentum away from its pose).
    After a load nothing gave way to: until every joint is at rest (base.RestWatch), at most `seconds`; None."""
    ctx.label = "recover"
    worst: float | None = None
    end = 0.0  # set with worst
    rest = RestWatch(ctx) if j is None else None  # after a load nothing gave way to: until at rest, at most `seconds`
    for _ in range(int(round(seconds / ctx.dt))):
        yield
        if j is not None:
            end = float(joint_deflection(np.asarray(ctx.joint_positions(), float), held.pose, held.wrap)[j])
            worst = end if worst is None else max(worst, end)
        elif rest is not None and rest.update():
            break
    if j is None or not worst:
        return None
    return worst, worst - end
