"""grasp_and_lift (FET_005, NVIDIA's 1.3.0): a parallel jaw of the test's own grasps the prop along each of its grasp
lines, lifts, holds, shakes, holds and releases it; PASS when one line holds, as theirs.

The jaw squeezes with a force sized from the prop's mass as the runtime computed it (the engine loads the prop alone
first: scene_reads_runtime_model; the weight x grip_safety at design_friction), capped
at a real gripper's rating (max_jaw_force), through pads whose friction combines by 'min' (rig.py): a prop too heavy to
grasp, or too slippery, slides out. Each line starts from the prop as it settled (the engine is reset between lines).
Spec: docs/tests/grasp_and_lift.md.
"""

from __future__ import annotations

from typing import Iterator

from ....core.context import TestContext
from ....core.plugin import PhysicsTest, Precheck
from ....core.quantities import listed
from ....core.results import JointRow
from ....core.scene import GroundSpec, SceneSpec
from ....core.status import Status
from .codes import GraspCode as Code
from .config import GraspConfig
from .fix_rules import FIX_RULES
from .hints import HINTS
from .phases import LineOutcome, LineRun
from .rig import GraspPlan, build_grasp_rig, plan_grasp
from .view import VIEW


class GraspAndLiftTest(PhysicsTest[GraspConfig]):
    name = "grasp_and_lift"
    version = "1.3.0"
    features = ("FET_005_STANDARD",)
    summary = ("A parallel jaw squeezing at most 235 N grasps the prop along each grasp line, lifts, holds, shakes and "
               "releases it with at most 1 cm of slip; one line must hold.")
    Config = GraspConfig
    codes = (Code,)
    hints = HINTS
    view = VIEW
    fix_rules = FIX_RULES
    scene_reads_runtime_model = True  # the jaw is sized from the prop's runtime mass and colliding shapes

    def __init__(self) -> None:
        self.plan: GraspPlan | None = None

    def precheck(self, asset, config: GraspConfig) -> Precheck | None:
        if not asset.markers.grasp_lines and is_robot(asset):
            return Precheck(Status.NOT_APPLICABLE, "no grasp lines on a robot or mechanism: FET_005 lifts a prop by the "
                                                   "grasp lines (GSP.001) its author gives it", code=Code.NOT_A_PROP)
        if not asset.markers.grasp_lines:
            return Precheck(Status.SKIP, "no grasp lines: no grasp_identifier_* curve says where a jaw may grasp the "
                                         "asset", HINTS.for_codes([Code.NO_GRASP_LINES]), code=Code.NO_GRASP_LINES)
        if not asset.dynamic_bodies or not any(c.body and c.collides for c in asset.colliders.values()):
            return Precheck(Status.PRECHECK_FAILURE, "grasp lines on an asset with no rigid body and collider to grasp",
                            HINTS.for_codes([Code.NO_RIGID_BODY]), code=Code.NO_RIGID_BODY)
        return None

    def scene(self, asset, config: GraspConfig) -> SceneSpec:
        plan = self.plan = plan_grasp(asset, config)
        t = config.thresholds_for(plan.mass, plan.longest_edge)
        return SceneSpec(physics_fps=config.physics_fps, ground=GroundSpec(),
                         rig=build_grasp_rig(asset, plan, config, t.jaw_force))

    def run(self, ctx: TestContext[GraspConfig]) -> Iterator[None]:
        plan = self.plan
        assert plan is not None  # scene() ran
        if not ctx.engine_capabilities.simulates_given_model:
            ctx.finish(Status.SKIP, f"the {ctx.engine.name} engine simulates the stage open in Kit, not the test's rig "
                                    "(a jaw beside the asset)", code=Code.NO_RIG)
            return
        cfg = ctx.config
        t = cfg.thresholds_for(plan.mass, plan.longest_edge)
        ctx.metric("prop_mass", plan.mass, unit="kg")
        ctx.metric("jaw_force", t.jaw_force, unit="N")
        ctx.metric("jaw_force_capped", t.force_capped)
        ctx.metric("grasp_lines", len(plan.lines))
        outcomes: list[LineOutcome] = []
        for index, line in enumerate(plan.lines):
            if index:
                ctx.reset()  # the prop back where it settled, the jaw open above it
            yield from self._settle(ctx)
            run = LineRun(ctx, plan, line, t)
            yield from run.run()
            outcomes.append(run.out)
            self._row(ctx, run.out)
        held = [o for o in outcomes if o.passed]
        ctx.metric("lines_held", len(held))
        slips = [o.metrics["max_slip"] for o in outcomes if "max_slip" in o.metrics]
        if slips:
            ctx.metric("min_line_slip", min(slips), unit="m")
        weight = f"{plan.mass:.3g} kg, squeezed with {t.jaw_force:.0f} N a jaw{' (capped)' if t.force_capped else ''}"
        if held:
            ctx.finish(Status.PASS, f"held along {listed([o.line.path.rsplit('/', 1)[-1] for o in held], 3)} "
                                    f"({len(held)} of {len(outcomes)} grasp lines; {weight})", code=Code.OK)
            return
        ctx.finish(Status.FAIL, f"no grasp line held ({weight}): "
                                + listed([f"{o.line.path.rsplit('/', 1)[-1]}: {o.reason}" for o in outcomes], 3),
                   code=Code.ALL_LINES_FAILED)

    @staticmethod
    def _settle(ctx) -> Iterator[None]:
        ctx.label = "settle"
        for _ in range(max(1, int(round(ctx.config.settle_seconds / ctx.dt)))):
            yield

    @staticmethod
    def _row(ctx, out: LineOutcome) -> None:
        ctx.joint_row(JointRow(
            joint=out.line.path.rsplit("/", 1)[-1], path=out.line.path,
            status=Status.PASS if out.passed else Status.FAIL, code=out.code, reason=out.reason,
            measured={k: v for k, v in out.metrics.items()}, limits={"max_slip": ctx.config.max_slip},
            units={"max_slip": "m", "rise": "m", "fall": "m", "position_error": "m", "pad_gap": "m"}))


def is_robot(asset) -> bool:
    """A robot or mechanism rather than a rigid prop: it says so (isaac:robotType, a gripper site, robot links) or it
    articulates (a revolute or prismatic joint: a URDF arm arrives without drives, and a drawer is no lifted prop)."""
    markers = asset.markers
    return bool(asset.robot_type or markers.gripper_sites or markers.robot_links
                or any(j.is_dof for j in asset.joints.values()))
