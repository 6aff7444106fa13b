"""The two FET028 tests as one base (gripper_close_lift_sphere and gripper_close_lift_cube set the object's shape and
their payload share): prechecks on the gripper site and its jaws, the rig, the phases, the verdict.

Spec: docs/tests/gripper_close_lift_sphere.md (the cube's page says where it differs).
"""

from __future__ import annotations

from typing import ClassVar, Iterator, TypeVar

from ....core.context import TestContext
from ....core.plugin import PhysicsTest, Precheck
from ....core.quantities import listed
from ....core.results import JointRow
from ....core.scene import GroundSpec, SceneSpec
from ....core.status import Status
from .close_lift import CloseLift
from .codes import GripperCode as Code
from .fix_rules import FIX_RULES
from .gripper_config import GripperConfig
from .gripper_rig import GripperPlan, build_gripper_rig, complete_site, jaw_joints, plan_rig
from .hints import HINTS, add_drives, add_site
from .jaw_geometry import converter_grasp_site, gripper_base
from .jaw_convention import reversed_reason
from .view import VIEW

GripperConfigT = TypeVar("GripperConfigT", bound=GripperConfig)
MAX_JAWS = 2  # one leader (its followers mimic it) or two jaws driven alike; more is a hand


class GripperCloseLiftTest(PhysicsTest[GripperConfigT]):
    """Base of the two gripper tests (not registered itself)."""

    shape: ClassVar[str] = "sphere"
    features = ("FET_028_ISAAC",)
    codes = (Code,)
    hints = HINTS
    view = VIEW
    fix_rules = FIX_RULES
    scene_reads_runtime_model = True  # the rig is planned from the shapes that collide and the masses as the runtime built them

    def __init__(self) -> None:
        self.plan: GripperPlan | None = None

    def precheck(self, asset, config: GripperConfigT) -> Precheck | None:
        sites = asset.markers.gripper_sites
        if not sites:
            return self._no_site(asset)
        site = complete_site(asset)
        if site is None:
            problems = listed([f"{s.path}: {'; '.join(s.problems)}" for s in sites], 2)
            return Precheck(Status.PRECHECK_FAILURE, f"the gripper site is incomplete: {problems}",
                            HINTS.for_codes([Code.INCOMPLETE_SITE]), code=Code.INCOMPLETE_SITE)
        jaws = jaw_joints(asset, site.body or "")
        if not jaws:
            return Precheck(Status.PRECHECK_FAILURE, f"no driven jaw joint beyond {site.body}: nothing closes the gripper",
                            [add_drives(asset.path)], code=Code.NO_JAW_DRIVE)
        unlimited = [j.name for j in jaws if j.limits is None]
        if unlimited:
            return Precheck(Status.PRECHECK_FAILURE, f"jaw joint {listed(unlimited, 3)} has no limits to open (lower) and "
                                                     "close (upper) to", HINTS.for_codes([Code.NO_JAW_DRIVE]),
                            code=Code.NO_JAW_DRIVE)
        if len(jaws) > MAX_JAWS:
            return Precheck(Status.SKIP, f"{len(jaws)} independently driven jaw joints ({listed([j.name for j in jaws], 4)})"
                                         ": a hand, not a parallel or centric jaw", code=Code.UNSUPPORTED_TOPOLOGY)
        return None

    @staticmethod
    def _no_site(asset) -> Precheck:
        """No FET028 site: a gripper all the same when a converter's site lies between its fingers (jaw_geometry.py) or
        isaac:robotType says so (SKIP), else not one (NOT_APPLICABLE); the command that adds a site wherever the asset
        has jaws."""
        found = converter_grasp_site(asset)
        if found is not None:
            frame, jaws = found
            return Precheck(Status.SKIP, f"no FET028 gripper site, but the converter's site {frame.path} "
                                         f"({', '.join(frame.schemas)}) lies between the fingers of "
                                         f"{listed([j.rsplit('/', 1)[-1] for j in jaws], 3)}: a gripper nothing says how to "
                                         "grasp with (forward axis, grip line, opening, payload)",
                            [add_site(asset.path, frame.path)], code=Code.NO_GRIPPER_SITE)
        if asset.robot_type in ("gripper", "end_effector"):
            return Precheck(Status.SKIP, "a gripper (isaac:robotType) without a gripper site: nothing says where it grasps",
                            [add_site(asset.path), *HINTS.for_codes([Code.NO_GRIPPER_SITE])], code=Code.NO_GRIPPER_SITE)
        coupled = [j.name for j in asset.joints.values() if j.is_mimic_follower] if gripper_base(asset) else []
        if coupled:  # NVIDIA's other gripper signal: not judged as one without a site, and the way to add it said
            return Precheck(Status.NOT_APPLICABLE, "no gripper site (simready:attactment:socketType = \"Gripper\" or "
                                                   f"IsaacSiteAPI): not tested as a gripper (mimic joints {listed(coupled, 3)}"
                                                   " couple its jaws: the hint's command adds a site)", [add_site(asset.path)],
                            code=Code.NO_GRIPPER_SITE)
        return Precheck(Status.NOT_APPLICABLE, "no gripper site (simready:attactment:socketType = \"Gripper\" or "
                                               "IsaacSiteAPI): not a gripper", code=Code.NO_GRIPPER_SITE)

    def scene(self, asset, config: GripperConfigT) -> SceneSpec:
        site = complete_site(asset)
        assert site is not None  # the precheck ran
        plan, rotation, translation = plan_rig(asset, site, config, self.shape)
        self.plan = plan
        rig = build_gripper_rig(asset, plan, rotation, translation, config)
        return SceneSpec(physics_fps=config.physics_fps, ground=GroundSpec(), rig=rig)

    def run(self, ctx: TestContext[GripperConfigT]) -> Iterator[None]:
        plan = self.plan
        assert plan is not None  # scene() ran
        if not ctx.engine_capabilities.simulates_given_model:
            ctx.finish(Status.SKIP, f"the {ctx.engine.name} engine simulates the stage open in Kit, not the test's rig "
                                    "(a gantry and an object beside the asset)", code=Code.NO_RIG)
            return
        ctx.metric("object_size", plan.size, unit="m")
        ctx.metric("object_mass", plan.mass, unit="kg")
        ctx.metric("payload_from_heuristic", plan.heuristic)
        ctx.metric("jaws", len(plan.jaws))
        if plan.heuristic:
            ctx.warn(f"no gripper_maxPayload on {plan.site.path}: the object's mass comes from NVIDIA's heuristic "
                     f"({plan.mass:.3g} kg for a {plan.site.max_opening * 100:.1f} cm opening); author the rated payload")
        if plan.disabled_welds:
            ctx.warn(f"the gantry holds the gripper: its weld to the world ({listed(plan.disabled_welds, 2)}) is off")
        phases = CloseLift(ctx, plan)
        yield from phases.run()
        grip = phases.grip
        for name, value in grip.metrics.items():
            ctx.metric(name, value, unit=None if name == "jaw_gap_to_closed_limit" else "m")
        ctx.result.series.update(grip.series)
        what = f"a {plan.size * 100:.1f} cm {plan.shape} of {plan.mass:.3g} kg"
        for side in grip.reversed:  # one row per jaw that follows the reverse convention: what `fix` reads (by code)
            ctx.joint_row(JointRow(joint=side.joint.name, path=side.joint.path, status=Status.FAIL, code=Code.JAW_REVERSED,
                                   reason=reversed_reason([side]),
                                   measured={"fingers_at_lower": side.at_lower, "fingers_at_upper": side.at_upper},
                                   units={"fingers_at_lower": "m", "fingers_at_upper": "m"}))
        if grip.failure is not None:
            code, reason = grip.failure
            status = Status.ERROR if code is Code.GANTRY_SHORT else Status.FAIL
            ctx.finish(status, f"{what}: {reason}", code=code)
            return
        ctx.finish(Status.PASS, f"held {what} through a {ctx.config.lift_height * 100:g} cm lift and the shake (slip "
                                f"{grip.metrics.get('max_slip', 0.0) * 100:.2f} cm), then let it fall "
                                f"{grip.metrics.get('released_fall', 0.0) * 100:.1f} cm", code=Code.OK)
