"""Which joints the driven-joint tests exercise, and why the others are left out.

Shared by the driven-joint tests that select joints (velocity_limit, full_range_sweep, drive_gain_validation,
effort_limit, state_accuracy, multi_joint_coordination; mimic_joint selects mimic pairs, joint_movement every movable
joint, both with the same exclusion codes) so that all exclude the same joints for the same reasons (anchor rule, notes
§2.0 steps 18-20):
mimic followers, loop-closing joints and passive joints (no drive with stiffness or damping > 0
and no NewtonActuator / MjcActuator targeting it) are never exercised. Each test may add its
own requirement (both limits, a velocity limit). The result is data: the tests turn it into
`exclude_joint` rows and count metrics. Pure: reads the AssetModel only.
"""

from __future__ import annotations

import math
from collections import Counter
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Iterable

from ...core.codes import ExclusionCode
from ...core.quantities import listed

if TYPE_CHECKING:
    from ...core.asset_model import AssetModel, JointInfo

Code = ExclusionCode
# code -> short human reason, in the order the rules are applied (the first that matches wins).
EXCLUSION_REASONS: dict[ExclusionCode, str] = {
    Code.DISABLED: "joint is disabled (physics:jointEnabled = false)",
    Code.UNSUPPORTED_TYPE: "multi-axis joint (D6/spherical): the single-DOF joint tests do not drive it",
    Code.MIMIC_FOLLOWER: "mimic follower: moves with its reference joint (covered by the mimic test)",
    Code.LOOP_CLOSING: "closes a kinematic loop (excludeFromArticulation): not an articulation DOF",
    Code.LOCKED: "locked: lowerLimit >= upperLimit, so PhysX holds it fixed (no range to move in)",
    Code.PASSIVE: "passive: no drive with stiffness or damping > 0 and no actuator targets it",
    Code.VELOCITY_DRIVE: "velocity drive (driveStiffness 0, driveDamping > 0): it follows velocity targets, not positions; "
                         "velocity_limit exercises it",
    Code.ACTUATOR_ONLY: "driven only by an MjcActuator/NewtonActuator, which this engine does not simulate (no DriveAPI)",
    Code.NOT_SIMULATED: "the engine does not simulate this joint as a degree of freedom",
    Code.NO_LIMITS: "no finite lower and upper limit authored",
    Code.NO_VELOCITY_LIMIT: "no velocity limit authored (physxJoint:maxJointVelocity / newton:velocityLimit)",
    Code.NOT_REQUESTED: "not in this run's joint filter (config key `joints`)",
}


@dataclass(frozen=True)
class Exclusion:
    joint: str
    path: str
    code: ExclusionCode
    why: str


@dataclass
class JointSelection:
    tested: list["JointInfo"] = field(default_factory=list)
    excluded: list[Exclusion] = field(default_factory=list)

    def counts(self) -> dict[ExclusionCode, int]:
        """Excluded joints per reason code (only codes that occur)."""
        return dict(Counter(e.code for e in self.excluded))

    def summary(self) -> str:
        """One line for a SKIP reason: '2 passive (a, b); 1 mimic_follower (c)'."""
        if not self.excluded:
            return "no revolute or prismatic joints"
        parts = []
        for code, n in self.counts().items():
            names = [e.joint for e in self.excluded if e.code == code]
            shown = listed(names, 6)
            parts.append(f"{n} {code.value.lower().replace('_', ' ')} ({shown})")
        return "; ".join(parts)


def has_velocity_limit(joint: "JointInfo") -> bool:
    v = joint.velocity_limit
    return v is not None and math.isfinite(v) and v > 0


def select_driven_joints(
    asset: "AssetModel",
    *,
    require_limits: bool = False,
    require_velocity_limit: bool = False,
    require_position_control: bool = False,
    simulated: Iterable[str] | None = None,
    simulated_actuator_schemas: Iterable[str] | None = None,
    only: Iterable[str] | None = None,
) -> JointSelection:
    """The joints a driven-joint test exercises, in asset order, and the rest with a reason.

    `simulated`: joint paths the engine exposes as DOFs (None = trust the asset model).
    `simulated_actuator_schemas`: the actuator prim types the engine runs (EngineCapabilities; Newton:
    NewtonActuator, PhysX: none; None = trust every actuator): a joint driven only by actuators of other types
    counts as driven (anchor rule) but cannot be commanded there.
    `only`: joint names or paths to exercise (a QA re-run of one joint); None or empty = all.
    `require_position_control`: leave out velocity drives (stiffness 0, damping > 0), which follow velocity
    targets: a test that commands and judges positions cannot exercise them (and must not call them dead).
    Fixed joints are not DOFs and are neither tested nor listed.
    """
    wanted = set(only or ())
    simulated_set = None if simulated is None else set(simulated)
    selection = JointSelection()
    for joint in asset.joints.values():
        if joint.type in ("fixed", "distance"):  # not a degree of freedom: neither tested nor listed
            continue
        code = _exclusion_code(joint, require_limits, require_velocity_limit, simulated_set, simulated_actuator_schemas)
        if code is None and require_position_control and joint.drive is not None and joint.drive.velocity_controlled:
            code = Code.VELOCITY_DRIVE
        if code is None and wanted and not ({joint.name, joint.path} & wanted):
            code = Code.NOT_REQUESTED
        if code is None:
            selection.tested.append(joint)
        else:
            selection.excluded.append(Exclusion(joint.name, joint.path, code, EXCLUSION_REASONS[code]))
    return selection


def _exclusion_code(joint, require_limits, require_velocity_limit, simulated_set, actuator_schemas) -> ExclusionCode | None:
    """Why `joint` (a revolute, prismatic or multi-axis joint) is left out; None: it is tested."""
    if joint.type not in ("revolute", "prismatic"):
        return Code.UNSUPPORTED_TYPE if not joint.is_passive else Code.PASSIVE
    if not joint.enabled:
        return Code.DISABLED
    if joint.is_mimic_follower:
        return Code.MIMIC_FOLLOWER
    if joint.loop_closing:
        return Code.LOOP_CLOSING
    if joint.is_locked:
        return Code.LOCKED
    if joint.is_passive:
        return Code.PASSIVE
    if not (joint.drive is not None and joint.drive.active) and not _runs_an_actuator_of(joint, actuator_schemas):
        return Code.ACTUATOR_ONLY
    if simulated_set is not None and joint.path not in simulated_set:
        return Code.NOT_SIMULATED
    if require_limits and not joint.has_limits:
        return Code.NO_LIMITS
    if require_velocity_limit and not has_velocity_limit(joint):
        return Code.NO_VELOCITY_LIMIT
    return None


def _runs_an_actuator_of(joint, actuator_schemas) -> bool:
    """Whether the engine runs one of the actuator prims targeting `joint` (None: every actuator counts)."""
    if actuator_schemas is None:
        return bool(joint.actuated_by)
    return bool(set(joint.actuator_schemas) & set(actuator_schemas))


def report_selection(ctx, selection: JointSelection) -> None:
    """Write the exclusions as per-joint rows and count metrics (`joints_excluded_<code>`)."""
    for exclusion in selection.excluded:
        ctx.exclude_joint(exclusion.joint, exclusion.why, exclusion.path, exclusion.code)
    for code, n in selection.counts().items():
        ctx.metric(code.metric, n)
    ctx.metric("joints_tested", len(selection.tested))


def articulation_precheck(asset: "AssetModel"):
    """Before the driven-joint tests: is there a robot to drive?

    No revolute or prismatic joint at all (a prop): NOT_APPLICABLE, the FET_022 tests do not concern it.
    Such joints but no articulation root: PRECHECK_FAILURE, as NVIDIA's runtime does (anchor §2.0 step 5).
    No collider on any rigid body: PRECHECK_FAILURE. Every driven-joint test watches the articulation's collision
    bounding box for an explosion (and effort_limit loads the farthest collider point): with no collision geometry
    that check could never trigger, so nothing the tests pass on would be proved (a converted robot whose meshes
    failed to convert has none).
    """
    from ...core.plugin import Precheck
    from ...core.status import Status
    from .codes import DrivenCode

    if not any(j.is_dof and j.enabled for j in asset.joints.values()):
        return Precheck(
            Status.NOT_APPLICABLE,
            "no revolute or prismatic joint: the driven-joint tests apply to articulated assets",
            code=DrivenCode.NO_DOF_JOINT,
        )
    if not asset.articulations:
        return Precheck(
            Status.PRECHECK_FAILURE,
            "no articulation: no prim carries UsdPhysics.ArticulationRootAPI, so joint drives, limits and "
            "velocity caps are not simulated as a robot",
            ["Apply UsdPhysics.ArticulationRootAPI to the robot's root prim (or its base link) so its joints "
             "form a PhysX articulation."],
            code=DrivenCode.NO_ARTICULATION,
        )
    if not any(c.body for c in asset.colliders.values()):
        return Precheck(
            Status.PRECHECK_FAILURE,
            "no collider (UsdPhysics.CollisionAPI) on any rigid body: the explosion watch bounds the articulation's "
            "collision geometry",
            ["Apply UsdPhysics.CollisionAPI to at least one mesh or gprim under each link (convex hulls for meshes)."],
            code=DrivenCode.NO_COLLIDER,
        )
    return None


def built_articulation_precheck(authored: "AssetModel", built: "AssetModel", engine: str):
    """After the load: the asset authors an articulation and the runtime built none (`built`: its model of the asset).
    Its joints are then ordinary (maximal) joints: PRECHECK_FAILURE NO_ARTICULATION, as for an asset that authors none,
    with the cause the asset authors (physxArticulation:articulationEnabled = false) where there is one."""
    from ...core.plugin import Precheck
    from ...core.status import Status
    from .codes import DrivenCode

    if not authored.articulations or built.articulations:
        return None
    roots = [a.root for a in authored.articulations]
    disabled = [a.root for a in authored.articulations if not a.enabled]
    cause = (f"physxArticulation:articulationEnabled = false on {listed(disabled, 3)}" if disabled
             else "the runtime's warnings may say why")
    hint = (f"Remove physxArticulation:articulationEnabled = false from {listed(disabled, 3)} (or set it true): the "
            "runtime then builds the articulation." if disabled else
            "Read the engine's warnings: the runtime refused the articulation root (a kinematic or static root body, a "
            "root nested inside another root).")
    return Precheck(
        Status.PRECHECK_FAILURE,
        f"no articulation: the {engine} runtime builds none from {listed(roots, 3)} ({cause}): its joints are ordinary "
        "(maximal) joints, so joint drives, limits and velocity caps are not simulated as a robot",
        [hint], code=DrivenCode.NO_ARTICULATION)
