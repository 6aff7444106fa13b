"""Which failures drive values can fix, and which they cannot (and why), from the verdicts of the asset as authored.

A failing row (FAIL or WARN) of a driven-joint test is read by the check that failed, as its reason states it
(docs/tests/*.md, "Verdicts"):

| test | reason says | fixable by |
|---|---|---|
| full_range_sweep | did not reach and hold / dead drive / did not return to | stiffness, damping, maxForce |
| drive_gain_validation | overshoot / not settled / velocity sign changes / dead drive | stiffness, damping, maxForce |
| effort_limit | gave way / sagged / dead drive / beyond its limits | stiffness, maxForce (the loaded and the deflected joint) |
| velocity_limit | the engine enforces no cap ... does not parse | the per-axis spelling (PhysxJointAxisAPI:<axis>) |
| any | exploded | nothing here: masses, inertias, limits |
| velocity_limit | other overspeeds | nothing here: the cap or the actuator is the author's choice |
| ground_drop | any failure | nothing here: collision, mass and settling are not drive values |

Not fixable by drive values whatever the row says: a revolute range under 1° (a limit authored in radians and
read as degrees), a joint outside any articulation, tests that could not run (PRECHECK_FAILURE, ERROR), and a
velocity_limit SKIP for want of any cap (the author must choose one). A joint the probe finds blocked at a
sweep endpoint (collision geometry, friction, a mimic constraint) is added by the pipeline.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from ..core.results import NotFixable
from ..core.status import Status
from .targets import UNIT_SUSPECT_RANGE

if TYPE_CHECKING:
    from ..core.asset_model import AssetModel, JointInfo
    from ..core.results import AssetResult, JointRow

DRIVE_TESTS = ("velocity_limit", "full_range_sweep", "drive_gain_validation", "effort_limit")
FAILING = (Status.FAIL, Status.WARN)
LEGACY_SPELLINGS = ("physxJoint:maxJointVelocity", "newton:velocityLimit")
UNPARSED = "the engine enforces no cap on this joint"


@dataclass
class Diagnosis:
    drive: dict[str, list[str]] = field(default_factory=dict)  # joint path -> why it is tuned ("test: reason")
    migrate: dict[str, str] = field(default_factory=dict)  # joint path -> legacy attribute to carry per axis
    not_fixable: list[NotFixable] = field(default_factory=list)
    failing: list[str] = field(default_factory=list)  # tests that FAIL or WARN

    def cannot(self, item: NotFixable) -> None:
        key = (item.joint, item.test, item.cause)
        if all((n.joint, n.test, n.cause) != key for n in self.not_fixable):
            self.not_fixable.append(item)


def diagnose(before: "AssetResult", asset: "AssetModel") -> Diagnosis:
    out = Diagnosis()
    by_name = {j.name: j for j in asset.joints.values()}
    for result in before.tests:
        if result.status in FAILING:
            out.failing.append(result.name)
        if result.status in (Status.PRECHECK_FAILURE, Status.ERROR):
            out.cannot(NotFixable(test=result.name, cause="precheck" if result.status == Status.PRECHECK_FAILURE else "error",
                                  why=f"{result.status.value}: {result.reason}"))
            continue
        if result.name not in DRIVE_TESTS:
            if result.status in FAILING:
                out.cannot(NotFixable(test=result.name, cause="not_drive",
                                      why=f"{result.name} judges collision, mass and settling, which no drive value changes: "
                                          f"{result.reason}"))
            continue
        if result.name == "velocity_limit" and result.status == Status.SKIP:
            for ex in result.excluded_joints:
                if "no velocity limit" in ex.why:
                    out.cannot(NotFixable(joint=ex.joint, path=ex.path, test=result.name, cause="no_velocity_limit",
                                          why="no velocity limit authored: the cap is the actuator's, which the author must "
                                              "choose (physxJointAxis:<axis>:maxJointVelocity)"))
        if result.status in FAILING and not result.joints and "exploded" in result.reason:
            out.cannot(NotFixable(test=result.name, cause="exploded", why=_EXPLODED))
        for row in result.joints:
            joint = _joint_of(row, asset, by_name)
            if joint is None:
                continue
            if row.status in FAILING:
                _row(out, result.name, row, joint, asset, by_name)
            elif result.name == "effort_limit" and row.status == Status.SKIP and "not loaded" in row.reason:
                out.drive.setdefault(joint.path, []).append("effort_limit: not loaded (the test stopped at the first failing joint)")
    for joint in asset.joints.values():  # the spelling the runtime needs, wherever only a legacy one is authored
        if joint.is_dof and joint.velocity_limit_source in LEGACY_SPELLINGS and joint.articulation is not None \
                and not joint.exclude_from_articulation:
            out.migrate[joint.path] = joint.velocity_limit_source
    for path in list(out.drive):
        joint = asset.joints[path]
        if _unit_suspect(joint):
            out.cannot(NotFixable(joint=joint.name, path=path, cause="limit_unit", why=_unit_story(joint)))
            del out.drive[path]
        elif joint.articulation is None or joint.exclude_from_articulation:
            out.cannot(NotFixable(joint=joint.name, path=path, cause="outside_articulation",
                                  why="outside any articulation: the engine gives no joint-space inertia to size a drive by "
                                      "and enforces no velocity cap; put the joint in an articulation"))
            del out.drive[path]
        elif joint.drive is None or not joint.drive.active:
            out.cannot(NotFixable(joint=joint.name, path=path, cause="no_drive", why="no UsdPhysics.DriveAPI to tune"))
            del out.drive[path]
    return out


_EXPLODED = ("the simulation exploded: masses, inertias or limits, not drive values (a stiffer drive would not help; "
             "check every body's mass and inertia)")


def _row(out: Diagnosis, test: str, row: "JointRow", joint: "JointInfo", asset: "AssetModel", by_name: dict) -> None:
    reason = row.reason or ""
    label = f"{test}: {row.status.value} {reason}".strip()
    if "exploded" in reason:
        out.cannot(NotFixable(joint=joint.name, path=joint.path, test=test, cause="exploded", why=_EXPLODED))
        return
    if test == "velocity_limit":
        if UNPARSED in reason and joint.velocity_limit_source in LEGACY_SPELLINGS:
            return  # the migration below fixes it
        cause = "outside_articulation" if joint.articulation is None else "velocity_cap_exceeded"
        out.cannot(NotFixable(joint=joint.name, path=joint.path, test=test, cause=cause,
                              why=f"{reason}: the cap (or the actuator that presses it) is the author's choice; "
                                  "stiffer or stronger drives would press it harder"))
        return
    out.drive.setdefault(joint.path, []).append(label)
    if test == "effort_limit":  # the joint that gave way may be another than the loaded one
        other = by_name.get(str(row.measured.get("most_deflected_joint") or ""))
        if other is not None and other.path != joint.path and other.is_dof:
            out.drive.setdefault(other.path, []).append(f"effort_limit: gave way under the load on {joint.name}")


def _joint_of(row: "JointRow", asset: "AssetModel", by_name: dict) -> "JointInfo | None":
    return asset.joints.get(row.path) or by_name.get(row.joint)


def _unit_suspect(joint: "JointInfo") -> bool:
    return joint.is_angular and joint.has_limits and (joint.upper - joint.lower) < UNIT_SUSPECT_RANGE


def _unit_story(joint: "JointInfo") -> str:
    lo, hi = math.degrees(joint.lower), math.degrees(joint.upper)
    return (f"limits [{lo:.3g}°, {hi:.3g}°] span {hi - lo:.3g}°: most likely authored in radians and read as degrees "
            f"(in radians they would be [{math.degrees(lo):.3g}°, {math.degrees(hi):.3g}°]); tolerances of a fraction of "
            "that range are below what any drive holds. Author physics:lowerLimit/upperLimit in degrees")
