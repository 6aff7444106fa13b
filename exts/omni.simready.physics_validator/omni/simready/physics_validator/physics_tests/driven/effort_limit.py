"""effort_limit (FET022): the drives hold a stable configuration against a 10 N load from 12 directions.

All driven joints hold their settled configuration with the authored gains; for each driven joint
a world-frame force is applied at its child body in the 12 icosahedron directions (re-applied every
step, test_duration_seconds spread over the 12). A break is any joint beyond its authored limits by
more than break_tolerance x its range, or NaN / explosion. Spec: docs/tests/effort_limit.md.
"""

from __future__ import annotations

from typing import Iterator

import numpy as np
from pydantic import Field

from .bbox_watch import BoxWatch
from ...core.context import TestContext
from .force_directions import direction_label, icosahedron_directions
from ...core.results import JointRow
from ...core.status import Status
from .base import DrivenJointConfig, ADD_DRIVE_HINT, BBOX_CHECK_EVERY, DrivenJointTest, SeriesRecorder, fmt, settle

HINT_MAX_FORCE = (
    "Joint breaks under the external force: raise driveMaxForce on the failing joint's UsdPhysics.DriveAPI to the "
    "real robot's rated torque, and check driveStiffness and driveDamping resist loads on top of gravity."
)
HINT_MASS = (
    "Check that link mass and inertia values are physically plausible: unrealistically low masses make a 10 N load "
    "break joints (and destabilise the solver) even with correct drives."
)
HINT_LOAD = (
    "If the asset is not meant to hold external loads (e.g. a kinematic articulation), lower "
    "force_magnitude_newtons to its expected operating load."
)


class EffortLimitTest(DrivenJointTest):
    name = "effort_limit"
    version = "1.0.0"
    features = ("FET022_DRIVEN_JOINTS_PHYSX", "FET022_DRIVEN_JOINTS_ISAAC")
    summary = "The drives hold a stable configuration under a 10 N load at each joint's child body from 12 directions."

    class Config(DrivenJointConfig):
        capture_fps: float = Field(8.0, gt=0, description="Video frames per simulated second.")
        settle_seconds: float = Field(0.3, ge=0, description="Physics time holding the configuration before loading.")
        force_magnitude_newtons: float = Field(10.0, ge=0, description="External force at each joint's child body (N).")
        test_duration_seconds: float = Field(2.0, gt=0, description="Load time per joint, spread over the 12 directions (s).")
        break_tolerance: float = Field(0.10, ge=0, description="Break: a joint beyond its limits by more than this x its range.")
        stop_on_first_break: bool = Field(True, description="Stop the test at the first break (avoids cascading instability).")

    def run(self, ctx: TestContext) -> Iterator[None]:
        cfg = ctx.config
        selection = self.select(ctx)
        if not selection.tested:
            self.skip_nothing_to_test(ctx, selection, "no driven joint to load", [ADD_DRIVE_HINT])
            return

        # Hold the configuration the robot starts in (clamped inside the limits) with the authored gains.
        dofs = ctx.dof_joints
        hold = np.array(ctx.joint_positions(), dtype=float)
        lower = np.full(len(dofs), -np.inf)
        upper = np.full(len(dofs), np.inf)
        for i, path in enumerate(dofs):
            joint = ctx.asset.joints.get(path)
            if joint is not None and joint.has_limits:
                lower[i], upper[i] = joint.lower, joint.upper
        hold = np.clip(hold, lower, upper)
        tested_idx = [ctx.dof_index(j.path) for j in selection.tested]
        targets = np.full(len(dofs), np.nan)
        targets[tested_idx] = hold[tested_idx]
        ctx.set_joint_targets(targets)
        yield from settle(ctx, cfg.settle_seconds)
        pose = np.array(ctx.joint_positions(), dtype=float)  # the held pose under gravity: deflection baseline
        watch = BoxWatch(ctx.bounds(), cfg.bbox_explode_ratio)
        span = upper - lower
        slack = np.where(np.isfinite(span), cfg.break_tolerance * span, np.inf)
        directions = icosahedron_directions()
        frames_per_direction = max(1, int(round(cfg.test_duration_seconds / ctx.dt / len(directions))))
        series = SeriesRecorder(ctx)
        ctx.metric("frames_per_direction", frames_per_direction)
        broken_rows: list[JointRow] = []
        stopped = False

        for joint in selection.tested:
            idx = ctx.dof_index(joint.path)
            body = joint.body1 or joint.body0
            if stopped or body is None:
                why = "not loaded: the test stopped at the first break" if stopped else "no child body to load"
                ctx.joint_row(JointRow(joint=joint.name, path=joint.path, status=Status.SKIP, reason=why))
                continue
            own_max, any_max, worst_dir, worst_joint = 0.0, 0.0, 0, ""
            broke, gave_way = None, set()
            for d, direction in enumerate(directions):
                ctx.label = f"joint {joint.name}: force {d + 1}/12"
                force = cfg.force_magnitude_newtons * direction
                for frame in range(frames_per_direction):
                    ctx.apply_force(body, force)
                    yield
                    q = np.asarray(ctx.joint_positions(), dtype=float)
                    check_box = frame % BBOX_CHECK_EVERY == 0 or frame == frames_per_direction - 1
                    if not np.all(np.isfinite(q)) or (check_box and watch.exploded(ctx.bounds())):
                        broke = (d, "", "simulation exploded (NaN joint state or bounding box > "
                                        f"{fmt(cfg.bbox_explode_ratio)} x baseline)")
                        break
                    deflection = np.abs(q - pose)
                    series.sample(f"effort/{joint.name}", deflection=float(deflection[idx]))
                    own_max = max(own_max, float(deflection[idx]))
                    k = int(np.argmax(deflection))
                    if deflection[k] > any_max:
                        any_max, worst_dir, worst_joint = float(deflection[k]), d, dofs[k].rsplit("/", 1)[-1]
                    for j in np.flatnonzero(deflection > slack):
                        gave_way.add(dofs[int(j)].rsplit("/", 1)[-1])
                    excess = np.maximum(lower - q, q - upper)
                    over = np.flatnonzero(excess > slack)
                    if over.size:
                        j = int(over[0])
                        name = dofs[j].rsplit("/", 1)[-1]
                        broke = (d, name, f"joint {name} at {fmt(q[j])} is beyond its limits [{fmt(lower[j])}, "
                                          f"{fmt(upper[j])}] by {fmt(excess[j])} > break_tolerance x range "
                                          f"{fmt(slack[j])}")
                        break
                if broke:
                    worst_dir = broke[0]
                    break
            row = JointRow(
                joint=joint.name, path=joint.path, status=Status.FAIL if broke else Status.PASS,
                reason=(f"broke under {fmt(cfg.force_magnitude_newtons)} N at {body.rsplit('/', 1)[-1]} in direction "
                        f"{worst_dir + 1} {direction_label(directions[worst_dir])}: {broke[2]}") if broke else "",
                measured={"max_deflection": own_max, "max_deflection_any_joint": any_max,
                          "most_deflected_joint": worst_joint, "worst_direction": worst_dir + 1,
                          "worst_direction_vector": direction_label(directions[worst_dir])},
                limits={"force_newtons": cfg.force_magnitude_newtons, "break_tolerance": cfg.break_tolerance,
                        "lower": joint.lower, "upper": joint.upper, "loaded_body": body},
                fix_hints=[HINT_MAX_FORCE, HINT_MASS, HINT_LOAD] if broke else [],
            )
            if gave_way and not broke:
                row.measured["gave_way"] = ", ".join(sorted(gave_way))
                ctx.warn(f"load at {joint.name}'s child body moved {', '.join(sorted(gave_way))} by more than "
                         f"break_tolerance x range from the held pose (the limits held, so this is not a break): "
                         f"the drive is too weak to hold against {fmt(cfg.force_magnitude_newtons)} N")
            ctx.joint_row(row)
            if broke:
                broken_rows.append(row)
                stopped = cfg.stop_on_first_break or "exploded" in broke[2]

        loaded = [r for r in ctx.result.joints if r.status is not Status.SKIP]
        ctx.metric("joints_loaded", len(loaded))
        ctx.metric("joints_passed", len(loaded) - len(broken_rows))
        ctx.metric("joints_failed", len(broken_rows))
        ctx.metric("max_deflection", max((r.measured["max_deflection"] for r in loaded), default=0.0))
        if broken_rows:
            detail = "; ".join(f"{r.joint}: {r.reason}" for r in broken_rows[:3])
            ctx.finish(Status.FAIL, f"{len(broken_rows)} joint(s) broke under load: {detail}",
                       [HINT_MAX_FORCE, HINT_MASS, HINT_LOAD])
        else:
            ctx.finish(Status.PASS, f"{len(loaded)} joints held under {fmt(cfg.force_magnitude_newtons)} N from 12 "
                                    f"directions (max deflection {fmt(ctx.result.metrics['max_deflection'])})")
