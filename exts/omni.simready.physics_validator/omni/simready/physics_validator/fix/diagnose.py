"""Which failures drive values can fix, and which they cannot (and why), from the verdicts of the asset as authored.

Each test says, by verdict code, what `fix` may do about its failures (its folder's fix_rules.py,
core.fix_rules.FixRules): a failing joint row is a drive-tuning job, a job for the velocity-spelling migration,
or beyond what `fix` changes (a cause code and a sentence); a failing test whose failures no drive value
touches (collision, mass and settling) is named as such. This module reads only those rules and the codes:
it never matches a reason or names a test.

With `add_drives` (`fix --add-drives`), the joints a SKIP left out for having no drive (the rules' `drive_less`
exclusion codes, on a verdict code in `adds_drives_on`) get one: they are tuned as if they had a drive of zero
gains. Without it, such a SKIP is said once per asset (cause `no_drive`, naming the flag).

Not fixable by drive values whatever the rules say: a revolute range under 1° (a limit authored in radians and
read as degrees), a joint outside any articulation, a joint with no drive, and tests that could not run
(PRECHECK_FAILURE, ERROR). A joint the probe finds blocked at an endpoint (collision geometry, friction, a mimic
constraint) is added by the pipeline.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from ..core.fix_rules import not_fixable_result
from ..core.results import NotFixable
from ..core.status import Status
from ..core.quantities import listed
from .targets import UNIT_SUSPECT_RANGE

if TYPE_CHECKING:
    from ..core.asset_model import AssetModel, JointInfo
    from ..core.plugin import TestRegistry
    from ..core.results import AssetResult, TestResult

FAILING = (Status.FAIL, Status.WARN)
LEGACY_SPELLINGS = ("physxJoint:maxJointVelocity", "newton:velocityLimit")  # velocity caps carried per axis
LEGACY_ONLY = ("physxJoint:armature",)  # PhysxJointAPI attributes the runtime ignores, carried per axis too


@dataclass
class Diagnosis:
    drive: dict[str, list[str]] = field(default_factory=dict)  # joint path -> why it is tuned ("test: reason")
    drive_tests: dict[str, set[str]] = field(default_factory=dict)  # joint path -> the tests it is tuned for
    migrate: dict[str, list[str]] = field(default_factory=dict)  # joint path -> legacy attributes to carry per axis
    added: set[str] = field(default_factory=set)  # joint paths with no drive that get one (--add-drives)
    negate: dict[str, list[str]] = field(default_factory=dict)  # joint path -> why its axis is negated (fix/jaw_axis.py)
    not_fixable: list[NotFixable] = field(default_factory=list)
    failing: list[str] = field(default_factory=list)  # tests that FAIL or WARN

    def cannot(self, item: NotFixable) -> None:
        key = (item.joint, item.test, item.cause)
        if all((n.joint, n.test, n.cause) != key for n in self.not_fixable):
            self.not_fixable.append(item)

    def tune(self, path: str, test: str, why: str) -> None:
        self.drive.setdefault(path, []).append(why)
        self.drive_tests.setdefault(path, set()).add(test)


def diagnose(before: "AssetResult", asset: "AssetModel", registry: "TestRegistry", add_drives: bool = False,
             added: set[str] | None = None) -> Diagnosis:
    """`added`: joints a layer already gave a first drive (a re-run's rows judge that drive)."""
    out = Diagnosis()
    out.migrate = legacy_spellings(asset)
    by_name = {j.name: j for j in asset.joints.values()}
    for result in before.tests:
        if result.status in FAILING:
            out.failing.append(result.name)
        if result.status in (Status.PRECHECK_FAILURE, Status.ERROR):
            out.cannot(NotFixable(test=result.name, cause="precheck" if result.status == Status.PRECHECK_FAILURE else "error",
                                  why=f"{result.status.value}: {result.reason}"))
            continue
        _result(out, result, asset, by_name, registry)
        _drive_less(out, result, asset, registry, add_drives)
    drive_less = list(dict.fromkeys(n.joint for n in out.not_fixable if n.cause == "no_drive" and n.test))
    if drive_less:  # one sentence for the asset instead of one per joint and test
        out.not_fixable = [n for n in out.not_fixable if not (n.cause == "no_drive" and n.test)]
        out.cannot(NotFixable(cause="no_drive", why=f"{len(drive_less)} joint(s) have no drive ({listed(drive_less)}), so "
                              "the driven-joint tests skip them: `simready-physics fix --add-drives` proposes first drives "
                              "and proves them"))
    for path in list(out.drive):
        if path in out.added or path in (added or ()):
            continue
        joint = asset.joints[path]
        cause, why = _beyond_drive_values(joint)
        if cause:
            out.cannot(NotFixable(joint=joint.name, path=path, cause=cause, why=why))
            del out.drive[path]
            out.drive_tests.pop(path, None)
    return out


def legacy_spellings(asset: "AssetModel") -> dict[str, list[str]]:
    """Joint path -> the legacy velocity-cap spelling it carries, where only a legacy spelling is authored on an
    articulation joint (the runtime parses the per-axis one). The pipeline adds the other legacy attributes
    (LEGACY_ONLY) it finds authored on the stage."""
    return {j.path: [j.velocity_limit_source] for j in asset.joints.values() if movable(j)
            and j.velocity_limit_source in LEGACY_SPELLINGS}


def movable(joint: "JointInfo") -> bool:
    """A revolute or prismatic joint PhysX simulates in an articulation (where the per-axis spellings apply; a joint
    with excludeFromArticulation belongs to none: core/usd/articulations.py)."""
    return joint.is_dof and joint.articulation is not None


def _drive_less(out: Diagnosis, result: "TestResult", asset: "AssetModel", registry: "TestRegistry", add: bool) -> None:
    """A SKIP that left joints out for having no drive: with `add`, those joints get one; else it is said."""
    rules = registry.fix_rules_of(result.name)
    if result.status != Status.SKIP or result.code not in rules.adds_drives_on:
        return
    for ex in result.excluded_joints:
        joint = asset.joints.get(ex.path)
        if ex.code not in rules.drive_less or joint is None:
            continue
        if not add:
            out.cannot(NotFixable(joint=joint.name, path=joint.path, test=result.name, cause="no_drive", why=""))
            continue
        cause, why = _beyond_drive_values(joint, adding=True)
        if cause:
            out.cannot(NotFixable(joint=joint.name, path=joint.path, cause=cause, why=why))
            continue
        out.added.add(joint.path)
        out.tune(joint.path, result.name, f"{result.name}: SKIP, no drive: a first drive is added")


def _result(out: Diagnosis, result: "TestResult", asset: "AssetModel", by_name: dict, registry: "TestRegistry") -> None:
    rules = registry.fix_rules_of(result.name)
    failing = result.status in FAILING
    not_fixable = not_fixable_result(rules, result) if failing else None
    if not_fixable is not None:
        cause, why = not_fixable
        out.cannot(NotFixable(test=result.name, cause=cause, why=why))
        for row in result.joints:  # each joint it found failing, with what it measured there (px100's stuck gripper)
            joint = asset.joints.get(row.path) or by_name.get(row.joint)
            if row.status in FAILING and joint is not None:
                out.cannot(NotFixable(joint=joint.name, path=joint.path, test=result.name, cause=f"{cause}_joint",
                                      why=f"{result.name} measured it: {row.reason}"))
        return
    if result.status == Status.SKIP:
        for ex in result.excluded_joints:
            if ex.code in rules.exclusions_not_fixable:
                cause, why = rules.exclusions_not_fixable[ex.code]
                out.cannot(NotFixable(joint=ex.joint, path=ex.path, test=result.name, cause=cause, why=why))
    if failing and not result.joints and result.code in rules.not_fixable:
        cause, why_of = rules.not_fixable[result.code]
        out.cannot(NotFixable(test=result.name, cause=cause, why=why_of if isinstance(why_of, str) else result.reason))
    for row in result.joints:
        joint = asset.joints.get(row.path) or by_name.get(row.joint)
        if joint is None:
            continue
        if row.status in FAILING:
            _row(out, result.name, rules, row, joint, by_name)
        elif row.status == Status.SKIP and row.code in rules.tune_on_skip:
            out.tune(joint.path, result.name, f"{result.name}: {rules.tune_on_skip[row.code]}")


def _row(out: Diagnosis, test: str, rules, row, joint: "JointInfo", by_name: dict) -> None:
    action = rules.row_action(row, migratable=joint.path in out.migrate)
    if action.kind == "migrate":
        return  # the per-axis spelling fixes it
    if action.kind == "negate_axis":  # its limits run the reverse of the test's convention: the axis is turned (jaw_axis.py)
        out.negate.setdefault(joint.path, []).append(f"{test}: {row.status.value} {row.reason or ''}".strip())
        return
    if action.kind == "not_fixable":
        why = fixed_follower(joint) if action.cause == "mimic" and not joint.is_dof else action.why
        out.cannot(NotFixable(joint=joint.name, path=joint.path, test=test, cause=action.cause, why=why))
        return
    out.tune(joint.path, test, f"{test}: {row.status.value} {row.reason or ''}".strip())
    for name, why in rules.more_joints_to_tune(test, row):  # e.g. the joint a load moved may be another
        other = by_name.get(name)
        if other is not None and other.path != joint.path and other.is_dof:
            out.tune(other.path, test, why)


def fixed_follower(joint: "JointInfo") -> str:
    """What applies to a mimic coupling on a joint with no degree of freedom (a URDF <mimic> on a fixed joint, which the
    converter carries over): there is nothing to couple and nothing about the reference or a drive changes that."""
    reference = (joint.mimic_reference or "?").rsplit("/", 1)[-1]
    schema = joint.mimic_schema or "its mimic schema"
    return (f"a {joint.type} joint: it has no degree of freedom, so its {schema} coupling to {reference} couples nothing "
            "(no runtime builds it, and no drive value or reference changes that). If the part is meant to stay fixed, "
            f"remove {schema} from it (the source's <mimic> on a fixed joint means nothing); if the mechanism moves there, "
            "make it the revolute or prismatic joint it is, with its limits, in the source, and convert again")


def _beyond_drive_values(joint: "JointInfo", adding: bool = False) -> tuple[str, str]:
    """(cause, why) when no drive value can fix this joint whatever its rows say, else ('', ''). `adding`: the joint
    gets its first drive (no drive is then no reason)."""
    if joint.is_angular and joint.limits is not None and (joint.limits[1] - joint.limits[0]) < UNIT_SUSPECT_RANGE:
        return "limit_unit", _unit_story(joint)
    if joint.is_mimic_follower:
        return ("mimic_follower", f"a mimic follower of {(joint.mimic_reference or '?').rsplit('/', 1)[-1]}: the coupling "
                                  "moves it, and a drive of its own would fight the coupling; its reference's drive and the "
                                  "coupling's gearing, offset and limits decide what the tests see")
    if joint.articulation is None:
        return ("outside_articulation", "outside any articulation: the engine gives no joint-space inertia to size a "
                                        "drive by and enforces no velocity cap; put the joint in an articulation")
    if not adding and (joint.drive is None or not joint.drive.active):
        return "no_drive", "no UsdPhysics.DriveAPI to tune (`simready-physics fix --add-drives` proposes one)"
    return "", ""


def _unit_story(joint: "JointInfo") -> str:
    assert joint.limits is not None  # told for limited joints only
    lo, hi = math.degrees(joint.limits[0]), math.degrees(joint.limits[1])
    return (f"limits [{lo:.3g}°, {hi:.3g}°] span {hi - lo:.3g}°: most likely authored in radians and read as degrees "
            f"(in radians they would be [{math.degrees(lo):.3g}°, {math.degrees(hi):.3g}°]); tolerances of a fraction of "
            "that range are below what any drive holds. Author physics:lowerLimit/upperLimit in degrees")
