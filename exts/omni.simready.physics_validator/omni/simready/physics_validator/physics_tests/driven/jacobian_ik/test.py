"""jacobian_ik (FET_022, NVIDIA's 1.4.0): damped least squares on the runtime's own Jacobian brings the arm's end
effector to poses its kinematics reach, and not to poses beyond its reach.

The end effector and the chain to it: chain.py. Targets and the closed-loop solve on the simulated arm: solve.py.
Before the targets, the authored kinematics (joint frames, the runtime's joint positions, the base's simulated pose)
must put the end effector where the runtime does: otherwise the targets would not be the arm's and the run decides
nothing (ERROR). Scene: the driven family's (pinned base, gravity on). Spec: docs/tests/jacobian_ik.md.
"""

from __future__ import annotations

import math
from typing import Iterator

import numpy as np

from ....core.context import TestContext
from ....core.plugin import Precheck
from ....core.quantities import listed
from ....core.results import JointRow
from ....core.status import Status
from ..base import DrivenJointTest, explosion_watch, exploded_story, jv, settle
from ..codes import DrivenCode
from ..selection import articulation_precheck
from .chain import ArmTree, NoEndEffector, chain_to, find_end_effector, forward_kinematics
from .membership import held_articulation, maximal_joints_beyond, outside_story
from .clearance import Clearance, body_poses_at
from .codes import JacobianIkCode as Code
from .config import JacobianIkConfig
from .fix_rules import FIX_RULES
from .hints import HINTS
from .solve import Outcome, Solver, make_targets, rotation_error
from .view import VIEW

SERIES_EVERY = 4


def is_standalone_gripper(asset) -> bool:
    """NVIDIA's rule (robot_type.is_standalone_gripper), read on the asset: a gripper signal (a gripper site, or a mimic
    coupling authored on a joint) and one independent joint at most, or every independent joint a jaw beyond a gripper
    site's body. Without a signal an asset is an arm, as theirs (a one-joint arm keeps its reach checks). A joint
    without a drive is independent too: an arm imported without drives (a six-joint TALOS arm with its gripper) is an
    arm whose chain cannot be commanded (CHAIN_NOT_DRIVEN), not a gripper."""
    from ...manipulation.gripper.gripper_rig import jaw_joints

    if not asset.markers.gripper_sites and not any(j.mimic_reference for j in asset.joints.values()):
        return False
    independent = {j.path for j in asset.dof_joints if not j.is_mimic_follower and not j.loop_closing}
    jaws = {j.path for site in asset.markers.gripper_sites if site.body for j in jaw_joints(asset, site.body)}
    return len(independent) <= 1 or independent <= jaws


class JacobianIkTest(DrivenJointTest[JacobianIkConfig]):
    name = "jacobian_ik"
    version = "1.4.0"
    features = ("FET_022_PHYSX", "FET_022_NEWTON", "FET_022_ISAAC")
    summary = ("Damped least squares on the runtime's Jacobian brings the end effector within 5 cm and 10° of poses "
               "its kinematics reach (40 % of them, NVIDIA's rate), and never to poses beyond its reach.")
    Config = JacobianIkConfig
    codes = (DrivenCode, Code)
    hints = HINTS
    view = VIEW
    fix_rules = FIX_RULES

    def precheck(self, asset, config: JacobianIkConfig) -> Precheck | None:
        decision = articulation_precheck(asset)
        if decision is not None:
            return decision
        if asset.robot_type in ("gripper", "end_effector", "end-effector"):
            return Precheck(Status.NOT_APPLICABLE, f"a gripper (isaac:robotType = {asset.robot_type}): no arm to solve "
                                                   "inverse kinematics for", code=Code.GRIPPER)
        if is_standalone_gripper(asset):
            return Precheck(Status.NOT_APPLICABLE, "a gripper: a gripper site or a mimic coupling, and no joint but its "
                                                   "jaws: no arm to solve inverse kinematics for", code=Code.GRIPPER)
        return None

    def run(self, ctx: TestContext[JacobianIkConfig]) -> Iterator[None]:
        cfg = ctx.config
        if not ctx.engine_capabilities.reads_jacobian:
            ctx.finish(Status.SKIP, f"the {ctx.engine.name} engine gives no articulation Jacobian (the test solves on the "
                                    "runtime's own)", code=Code.NO_JACOBIAN)
            return
        selection = self.select(ctx)
        held = held_articulation(ctx)
        if held is None or held.base_body is None:
            ctx.finish(Status.SKIP, "no articulation the scene holds: the runtime's articulation Jacobian has nothing to "
                                    "solve on", code=Code.NO_END_EFFECTOR)
            return
        base = held.base_body
        tested = {j.path for j in selection.tested}
        beyond = maximal_joints_beyond(ctx.asset, base, tested)
        if beyond:
            ctx.metric("joints_outside_articulation", len(beyond))
            ctx.finish(Status.SKIP, outside_story(ctx, beyond), code=Code.CHAIN_OUTSIDE_ARTICULATION)
            return
        tree = ArmTree(ctx.asset, base, [ctx.asset.joints[j] for j in held.joints if j in ctx.asset.joints])
        end = find_end_effector(ctx.asset, tree)
        if isinstance(end, NoEndEffector):
            ctx.metric("end_effector_candidates", len(end.tips))
            ctx.finish(Status.SKIP, f"no end effector: {end.why} (a link is never chosen by its name)",
                       code=Code.NO_END_EFFECTOR)
            return
        links = tree.links
        chain = chain_to(links, end.body)
        excluded = {e.path: e for e in selection.excluded}
        blocked = [link.joint for link in chain if link.joint.is_dof and link.joint.path not in tested
                   and not link.joint.is_mimic_follower]
        commanded = [link.joint for link in chain if link.joint.path in tested]
        ctx.metric("end_effector", end.path)
        ctx.metric("end_effector_source", end.source)
        ctx.metric("chain_joints", len(commanded))
        if blocked or not commanded:
            why = listed([f"{j.name} ({excluded[j.path].why if j.path in excluded else 'not commandable'})"
                          for j in blocked], 3) or "none"
            ctx.finish(Status.SKIP, f"the chain from {base.rsplit('/', 1)[-1]} to {end.path.rsplit('/', 1)[-1]} cannot be "
                                    f"commanded: {why}", code=Code.CHAIN_NOT_DRIVEN)
            return
        watch = explosion_watch(ctx)
        yield from settle(ctx, cfg.settle_seconds, until_rest=True)
        q_settled = np.asarray(ctx.joint_positions(), float)
        runaway = runaway_joints(ctx, commanded, q_settled)
        if watch.exploded(ctx.bounds()) or runaway:  # else the kinematics check would blame the joint frames
            story = f"simulation exploded: {runaway}" if runaway else exploded_story(watch)
            ctx.finish(Status.FAIL, f"{story} (settling at home, before any target)", code=DrivenCode.EXPLODED)
            return
        base_pose = ctx.body_pose(base)
        q_now = dict(zip(ctx.dof_joints, (float(v) for v in q_settled)))
        home_pose = Solver(ctx, end, commanded, cfg.thresholds_for()).pose()
        model_pose = forward_kinematics(chain, base_pose, q_now, end)
        mismatch = float(np.linalg.norm(model_pose[0] - home_pose[0]))
        turn = float(np.linalg.norm(rotation_error(model_pose[1], home_pose[1])))
        ctx.metric("home_kinematics_error", mismatch, unit="m")
        if mismatch > cfg.converged_fraction * cfg.position_tolerance or turn > math.radians(cfg.orientation_tolerance_deg):
            ctx.finish(Status.ERROR, f"the joint frames put the end effector {mismatch * 100:.2f} cm and "
                                     f"{math.degrees(turn):.1f}° from where the runtime has it: targets from them would "
                                     "not be the arm's", code=Code.KINEMATICS_DISAGREE)
            return
        clearance = Clearance(ctx.asset, links, base)
        clearance.ignore_touching_at(body_poses_at(links, base, base_pose, q_now))
        targets, reach, rejected = make_targets(chain, end, base_pose, commanded, q_now, cfg, home_pose, clearance)
        ctx.metric("reach", reach, unit="m")
        ctx.metric("poses_rejected_self_contact", rejected)
        if not any(t.reachable for t in targets):
            meeting = clearance.most_blocking()
            ctx.finish(Status.SKIP, f"no sampled pose keeps the arm's links apart ({rejected} tried"
                                    + (f"; the links that met most: {meeting})" if meeting else ")"),
                       code=Code.NO_CLEAR_POSE)
            return
        solver = Solver(ctx, end, commanded, cfg.thresholds_for(reach))
        watch = explosion_watch(ctx)
        outcomes: list[Outcome] = []
        home = np.array([q_now[j.path] for j in commanded])
        for target in targets:
            ctx.label = "home"
            yield from self._recorded(ctx, solver.go_to(home, watch), commanded, solver)  # each solve starts at home
            ctx.label = f"target {target.index + 1}{'' if target.reachable else ' (beyond reach)'}"
            yield from self._recorded(ctx, solver.solve(target, cfg, watch), commanded, solver)
            if watch.tripped or ctx.finished:
                break
            outcomes.append(solver.outcome)
        ctx.result.series.update({"time": solver.times, "position_error": solver.errors})
        self._finish(ctx, outcomes, commanded, watch, solver.t)

    @staticmethod
    def _recorded(ctx, steps: Iterator[None], commanded, solver: Solver) -> Iterator[None]:
        """The solve's steps, with each chain joint's position and command sampled for the plot."""
        for step, _ in enumerate(steps):
            yield
            if step % SERIES_EVERY == 0:
                q = ctx.joint_positions()
                for joint, column, command in zip(commanded, solver.columns, solver.command):
                    ctx.record(f"{joint.name}/time", ctx.time)
                    ctx.record(f"{joint.name}/q", float(q[int(column)]))
                    ctx.record(f"{joint.name}/target", float(command))

    def _finish(self, ctx, outcomes: list[Outcome], commanded, watch, t) -> None:
        cfg = ctx.config
        reachable = [o for o in outcomes if o.target.reachable]
        beyond = [o for o in outcomes if not o.target.reachable]
        reached = [o for o in reachable if o.reached]
        missed = [o for o in reachable if not o.reached]
        false_reach = [o for o in beyond if o.reached]
        rate = len(reached) / len(reachable) if reachable else 0.0
        for name, value in (("targets", len(reachable)), ("targets_reached", len(reached)), ("pass_rate", rate),
                            ("unreachable_reached", len(false_reach))):
            ctx.metric(name, value)
        if reachable:
            ctx.metric("max_position_error", max(o.position_error for o in reachable), unit="m")
            ctx.metric("max_orientation_error", max(o.orientation_error for o in reachable), unit="rad")
        short: dict[str, int] = {}
        for joint in commanded:
            lag_limit = t.blocked_lag_angular if joint.is_angular else t.blocked_lag_linear
            lags = [o.lags.get(joint.path, 0.0) for o in reachable]
            stopped = sum(o.lags.get(joint.path, 0.0) > lag_limit for o in missed)
            if stopped:
                short[joint.name] = stopped
            unit = "rad" if joint.is_angular else "m"
            ctx.joint_row(JointRow(
                joint=joint.name, path=joint.path, status=Status.FAIL if stopped else Status.PASS,
                code=Code.JOINT_BLOCKED if stopped else DrivenCode.OK,
                reason=f"stopped short of its command at {stopped} missed target(s)" if stopped else "",
                measured={"max_lag": max(lags, default=0.0)}, limits={"blocked_lag": lag_limit},
                units={"max_lag": unit, "blocked_lag": unit}))
        if watch.tripped or any(not np.isfinite(o.position_error) for o in outcomes):
            ctx.finish(Status.FAIL, exploded_story(watch), code=DrivenCode.EXPLODED)
            return
        worst = (f"worst {max(o.position_error for o in reachable) * 100:.2f} cm and "
                 f"{math.degrees(max(o.orientation_error for o in reachable)):.1f}°") if reachable else ""
        if false_reach:
            ctx.finish(Status.FAIL, f"{len(false_reach)} of {len(beyond)} target(s) {cfg.out_of_reach_factor:g}x beyond "
                                    f"the arm's reach ({reach_text(ctx)}) read as reached", code=Code.UNREACHABLE_REACHED)
            return
        tol = f"{cfg.position_tolerance * 100:g} cm and {cfg.orientation_tolerance_deg:g}°"
        if rate < cfg.min_pass_rate:
            stopped_text = listed([f"{name} at {n}" for name, n in short.items()], 4)
            ctx.finish(Status.FAIL, f"reached {len(reached)} of {len(reachable)} reachable targets within {tol} "
                                    f"({rate:.0%} < min_pass_rate {cfg.min_pass_rate:.0%}); "
                                    + (f"stopped short of their commands: {stopped_text}" if short else
                                       "no joint stopped short: the solve did not converge"),
                       code=Code.TARGETS_MISSED)
            return
        ctx.finish(Status.PASS, f"reached {len(reached)} of {len(reachable)} reachable targets within {tol} ({worst}); "
                                f"{len(beyond)} target(s) beyond reach not reached", code=DrivenCode.OK)


def runaway_joints(ctx, joints, q: np.ndarray) -> str:
    """'joint_2 at -2.7e+10° (limits -128° … 128°)' for the joints read non-finite or more than `runaway_ranges` of
    their range beyond their limits, or ''."""
    out = []
    for joint in joints:
        value = float(q[ctx.dof_index(joint.path)])
        limits = joint.limits
        span = (limits[1] - limits[0]) if limits else None
        beyond = max(limits[0] - value, value - limits[1]) if limits else 0.0
        if not math.isfinite(value) or (span is not None and beyond > ctx.config.runaway_ranges * span):
            bounds = f" (limits {jv(joint, limits[0])} … {jv(joint, limits[1])})" if limits else ""
            out.append(f"{joint.name} at {jv(joint, value)}{bounds}")
    return listed(out, 3)


def reach_text(ctx) -> str:
    reach = ctx.result.metrics.get("reach")
    return f"{float(reach) * 100:.0f} cm from the first joint" if isinstance(reach, (int, float)) else "?"
