"""The fix's files and its report block: each round's layer, the accepted layer with a comment per joint, and the
`fix` block (core.results.FixResult) with before/after verdicts, the changes in USD units and what cannot be fixed."""

from __future__ import annotations

import math
from pathlib import Path
from typing import TYPE_CHECKING

from ..core.quantities import for_people, listed
from ..core.results import FixChange, FixJoint, FixResult, FixTest, NotFixable
from ..core.status import Status
from ..core.usd import read_asset
from .layers import (
    DRIVE_ATTRS, JointOverride, UsdUnits, authored_value, drive_attr, drive_axis, open_stage, per_axis_attr,
    stage_metadata, write_composed_root, write_override_layer,
)
from .rounds import Round, verdict_of
from .targets import endpoint_tolerance

if TYPE_CHECKING:
    from .state import AssetFix
    from .targets import FixTargets

TOOL = "simready-physics fix"


def written_by_fix(path: Path) -> bool:
    """Whether `path` is a layer fix wrote (its header names the tool), so a fix run may replace it: a regular file,
    read no further than its first 4 KiB."""
    from ..core.usd.dependencies import REGULAR, file_kind

    if file_kind(path) != REGULAR:
        return False
    with open(path, "rb") as handle:
        return TOOL.encode("utf-8") in handle.read(4096)


def clip(text: str, limit: int) -> str:
    """`text` cut to `limit` characters at a word boundary, with an ellipsis when anything was cut."""
    if len(text) <= limit:
        return text
    return text[: limit - 1].rsplit(" ", 1)[0].rstrip(" ;,:") + "…"


def _overrides(state: "AssetFix", proposals: dict, migrate: dict, comments: dict | None = None):
    asset = read_asset(state.path)
    stage = open_stage(state.path)
    units = UsdUnits(asset.kilograms_per_unit, asset.meters_per_unit)
    out: list[JointOverride] = []
    changes: dict[str, list[FixChange]] = {}
    for path in sorted(set(proposals) | set(migrate)):
        joint = asset.joints[path]
        item = JointOverride(path, comment=(comments or {}).get(path, ""))
        rows = changes.setdefault(path, [])
        prop = proposals.get(path)
        if prop is not None and prop.added:  # a first drive: its schema, a force drive, the held target
            axis = drive_axis(joint.is_angular)
            item.apis.append(f"PhysicsDriveAPI:{axis}")
            item.values[drive_attr(joint.is_angular, "type")] = "force"
            target = state.allow[path].hold if path in state.allow else 0.0
            item.values[drive_attr(joint.is_angular, "targetPosition")] = (
                math.degrees(target) if joint.is_angular else target / asset.meters_per_unit)
            rows.append(FixChange(attribute=f"PhysicsDriveAPI:{axis}", before=None, after="applied, type force",
                                  why="no drive authored: a first force drive (its maxForce is a torque or force the actuator's "
                                      "rating bounds), held at the target the tests hold it at"))
        for name in DRIVE_ATTRS if prop is not None else ():
            assert prop is not None
            if name not in prop.proposed:
                continue
            attr = drive_attr(joint.is_angular, name)
            value = units.to_usd(name, prop.proposed[name], joint.is_angular)
            item.values[attr] = value
            rows.append(FixChange(attribute=attr, before=authored_value(stage, path, attr), after=float(f"{value:.6g}"),
                                  unit=UsdUnits.label(name, joint.is_angular), why=prop.why.get(name, ""),
                                  assumed=name in prop.assumed))
        for legacy in migrate.get(path, ()):
            attr = per_axis_attr(legacy, joint.is_angular)
            value = authored_value(stage, path, legacy)
            item.values[attr] = value
            api = f"PhysxJointAxisAPI:{drive_axis(joint.is_angular)}"
            if api not in item.apis:
                item.apis.append(api)
            name = attr.rsplit(":", 1)[-1]
            rows.append(FixChange(attribute=attr, before=value, before_attribute=legacy, after=value,
                                  unit=UsdUnits.label(name, joint.is_angular),
                                  why=f"{legacy} carried to the per-axis spelling PhysX 5.12 and Isaac Sim both parse "
                                      f"({api} applied)"))
        out.append(item)
    return out, changes, stage


def write_round_layers(state: "AssetFix", index: int, target: str) -> Round | None:
    proposals = {p: prop for p, prop in (state.plan.proposals.items() if state.plan else ())
                 if prop.changed and p not in state.reverted}
    assert state.diagnosis is not None  # diagnosed before any round
    migrate = dict(state.diagnosis.migrate)
    if not proposals and not migrate:
        return None
    folder = state.work / f"round{index}"
    stem = Path(state.path).stem
    overrides, _, stage = _overrides(state, proposals, migrate)
    layer = write_override_layer(folder / f"{stem}.fix.usda", stage, overrides, f"{TOOL}: round {index} for {state.path}")
    composed = write_composed_root(folder / f"{stem}.fixed.usda", [layer, state.path], stage_metadata(stage))
    return Round(index, proposals, migrate, layer, composed)


def final_names(out: Path, path: str, taken: set[str]) -> tuple[Path, Path]:
    stem = Path(path).stem
    if stem in taken:
        import hashlib

        stem = f"{stem}-{hashlib.sha1(str(Path(path).resolve()).encode()).hexdigest()[:8]}"
    taken.add(stem)
    return out / f"{stem}.fix.usda", out / f"{stem}.fixed.usda"


def write_final_layers(state: "AssetFix", best: Round, out: Path, target: str, taken: set[str] | None = None) -> None:
    """The accepted layer next to the report, with a comment per joint (reason, before -> after verdicts)."""
    comments = {}
    _, changes, _ = _overrides(state, best.proposals, best.migrate)
    for path in set(best.proposals) | set(best.migrate):
        name = path.rsplit("/", 1)[-1]
        verdicts = "; ".join(f"{t} {b.value} -> {a.value if a else '-'}" for t, b, a in _joint_verdicts(state, best, path, name))
        assert state.diagnosis is not None
        why = clip("; ".join(state.diagnosis.drive.get(path, [])[:2]),
                   300) or "only legacy PhysxJointAPI spellings, carried per axis"
        what = "; ".join(f"{c.attribute.rsplit(':', 1)[-1]} {_before_text(c)} -> {_value_text(c.after)} {c.unit}".rstrip()
                         + f" ({clip(c.why, 160)})" for c in changes.get(path, []))
        comments[path] = (f"{TOOL}. Why: {why}. Changes: {what}. "
                          f"Verdicts as authored -> with this layer: {verdicts or 'unchanged'}")
    overrides, _, stage = _overrides(state, best.proposals, best.migrate, comments)
    layer_path, root_path = final_names(out, state.path, taken if taken is not None else set())
    header = (f"{TOOL}: drive-tuning overrides for {state.path} (only changed attributes; the asset is not modified). "
              f"Sublayer it over the asset, or open {root_path.name}. Proved by re-running "
              f"{', '.join(t.name for t in state.before.tests)}: {proved(best)}.")
    state.final_layer = write_override_layer(layer_path, stage, overrides, header)
    state.final_root = write_composed_root(root_path, [state.final_layer, state.path], stage_metadata(stage),
                                           f"{TOOL}: {Path(state.path).name} with {layer_path.name} over it")


def proved(best: Round) -> str:
    """What the accepted round's re-run proved, in the words the console's summary uses."""
    parts = []
    if best.fixed:
        parts.append(f"{len(best.fixed)} failing verdict(s) fixed ({', '.join(best.fixed)})")
    if best.judged:
        parts.append(f"{len(best.judged)} SKIP -> PASS with first drives ({', '.join(best.judged)})")
    if best.improved:
        parts.append(f"{len(best.improved)} FAIL -> WARN ({', '.join(best.improved)})")
    if best.warnings_removed:
        parts.append(f"{best.warnings_removed} forward-compatibility warning(s) gone")
    worse = sorted({test for test, _ in best.worse})
    tail = (f"; {', '.join(worse)} now judge the first drives and fail only on joints named as not fixable by drive values"
            if worse else "")
    return f"{'; '.join(parts) or 'no verdict changed'}, nothing that passed fails{tail}"


def _value_text(value) -> str:
    return f"{value:.6g}" if isinstance(value, float) else str(value)


def _before_text(change: FixChange) -> str:
    """The value before: 'unset', or the value in another spelling ('180.5 as newton:velocityLimit')."""
    if change.before is None:
        return "unset"
    return _value_text(change.before) + (f" as {change.before_attribute}" if change.before_attribute else "")


def _joint_verdicts(state: "AssetFix", rnd: Round | None, path: str, name: str):
    out = []
    for test in state.before.tests:
        b = verdict_of(state.before, test.name, path, name)
        if b is None:
            continue
        out.append((test.name, b, verdict_of(rnd.after if rnd else None, test.name, path, name)))
    return out


def build_result(state: "AssetFix", best: Round | None, targets: "FixTargets") -> FixResult:
    shown = best or (state.rounds[-1] if state.rounds else None)
    failed = state.plan is not None and bool(state.plan.error)
    status = state.status or ("accepted" if best else "rejected" if state.rounds else "error" if failed else "not_fixable")
    result = FixResult(status=status,
                       rounds=len(state.rounds), targets=targets.describe())
    if best is not None:
        result.layer, result.composed = str(state.final_layer or ""), str(state.final_root or "")
        result.fixed = len(best.fixed)
    elif state.rounds:
        result.broken = len(state.rounds[-1].broken)
    for test in state.before.tests:
        after = next((t for t in shown.after.tests if t.name == test.name), None) if shown and shown.after and best else None
        result.tests.append(FixTest(test=test.name, before=test.status, after=after.status if after else None,
                                    before_reason=test.reason, after_reason=after.reason if after else "",
                                    before_code=test.code, after_code=after.code if after else ""))
    if shown is not None:
        _, changes, _ = _overrides(state, shown.proposals, shown.migrate)
        for path, rows in changes.items():
            name = path.rsplit("/", 1)[-1]
            assert state.diagnosis is not None
            joint = FixJoint(joint=name, path=path, changes=rows,
                             reason=clip("; ".join(state.diagnosis.drive.get(path, [])), 600))
            for test, b, a in _joint_verdicts(state, shown if best else None, path, name):
                joint.before[test] = b
                if a is not None:
                    joint.after[test] = a
            prop = shown.proposals.get(path)
            if prop is not None:
                joint.measured = {k: float(v) for k, v in prop.derived.items()}
                probe = state.plan.probe if state.plan else None
                joint.measured["lever_arm"] = float(probe.joints[path].lever_arm) if probe and path in probe.joints else math.nan
                joint.measured["escalation"] = prop.level
            result.joints.append(joint)
    result.not_fixable = _not_fixable(state, best)
    result.summary = _summary(state, best, result)
    return result


# Causes `fix` measures on the asset (or reads from it) before a re-run: a joint named with one of these is not a
# regression of the layer when its first drive makes a test fail that could not judge it before.
MEASURED_CAUSES = frozenset({"collision", "blocked", "actuator_rating", "not_met", "limit_unit", "outside_articulation",
                             "not_drive_joint", "exploded", "velocity_cap_exceeded"})


def named_joints(state: "AssetFix") -> set[str]:
    """The joint paths `fix` names with a measured cause (MEASURED_CAUSES) for the round last proposed."""
    return {n.path for n in _not_fixable(state, None) if n.path and n.cause in MEASURED_CAUSES}


def _not_fixable(state: "AssetFix", best: Round | None) -> list[NotFixable]:
    out = list(state.diagnosis.not_fixable) if state.diagnosis else []
    if best is not None:  # a row the accepted layer made pass was fixable after all (e.g. an overspeed damped away)
        out = [n for n in out if not (n.joint and n.test and verdict_of(best.after, n.test, n.path, n.joint) == Status.PASS)]
    probe = state.plan.probe if state.plan else None
    asset = read_asset(state.path) if probe is not None and any(m.blocked for m in probe.joints.values()) else None
    for path, m in (probe.joints.items() if probe else ()):
        for pose, info in m.blocked.items():
            allow = state.allow.get(path)
            if allow is not None and abs(info["error"]) <= endpoint_tolerance(allow, pose):
                continue  # stopped inside the tolerance the test judges the endpoint by: no failure of the test's
            end = allow.ends.get(pose, math.nan) if allow is not None else math.nan
            test = allow.ends_test if allow is not None else ""
            unit = "rad" if m.angular else "m"
            where = stop_text(pose, end, end - info["error"], allow.hold if allow is not None else 0.0, unit)
            if info.get("collision") and info.get("unseen"):
                bodies = []
                why = (f"{where} even under an unlimited probe drive; with every collision of the links it moves against the "
                       "rest filtered it reaches it: collision geometry stops it, not the drive (a pair no collider box "
                       "showed touching on the way). Fix the colliders, filter the pair, or narrow the joint's limits")
            elif info.get("collision"):
                bodies = sorted({b for pair in info["pairs"] for b in pair})
                pairs = ", ".join(f"{a.rsplit('/', 1)[-1]} with {b.rsplit('/', 1)[-1]}" for a, b in info["pairs"])
                why = (f"{where} even under an unlimited probe drive; with the collisions of {pairs} filtered it reaches it: "
                       "collision geometry stops it, not the drive. Fix the colliders, filter the pair, or narrow the joint's "
                       "limits")
            if info.get("collision"):
                out.append(NotFixable(joint=m.name, path=path, test=test, cause="collision", why=why, bodies=bodies))
            else:
                assert asset is not None  # read above: a joint is blocked
                out.append(NotFixable(joint=m.name, path=path, test=test, cause="blocked",
                                      why=f"{where} even under a 20x stiffer unlimited probe drive: "
                                          f"{held_by(asset, path, m, info)}"))
    shown = best or (state.rounds[-1] if state.rounds else None)
    limited = dict(state.plan.proposals) if state.plan else {}  # unchanged proposals too (an exploded probe sizes none)
    limited.update(shown.proposals if shown else {})
    for path, prop in limited.items():  # bounds and findings that kept a value short or unproposed
        for cause, sentence in prop.limits:
            if not any(n.path == path and n.cause == cause for n in out):
                out.append(NotFixable(joint=prop.name, path=path, cause=cause, why=sentence))
    for test, joint in (shown.exposed if shown else ()):  # what the maxForce a load needs exposed, named
        assert shown is not None and shown.after is not None  # rows of a round that ran
        path = joint if joint.startswith("/") else next((p for p in shown.proposals if p.endswith("/" + joint)), joint)
        raised = shown.proposals.get(path)
        row = next((r for t in shown.after.tests if t.name == test for r in t.joints if joint in (r.path, r.joint)), None)
        if raised is None:
            continue
        unit = "N·m" if raised.angular else "N"
        out.append(NotFixable(joint=raised.name, path=path, test=test, cause="max_force_exposes",
                              why=clip(f"its measured load {for_people(raised.derived.get('load_max', math.nan), unit)} "
                                       f"exceeds the authored maxForce {for_people(raised.current['maxForce'], unit)}, so the "
                                       f"maxForce it needs comes first ({for_people(raised.value('maxForce'), unit)}); "
                                       f"with it {test} "
                                       f"judges the joint and fails it: {row.reason if row else ''}", 500)))
    for path, why in state.reverted.items():
        if not any(n.path == path for n in out):
            out.append(NotFixable(joint=path.rsplit("/", 1)[-1], path=path, cause="reverted", why=why))
    final = best or (state.rounds[-1] if state.rounds and state.rounds[-1].after else None)
    if final is not None:  # rows still failing with the accepted layer (or, none accepted, with the last one tried)
        tried = "the proposed drive" if best is not None else f"round {final.index}'s drive (no layer accepted)"
        for test, joint in final.remaining:
            path = joint if joint.startswith("/") else next((p for p in state.allow if p.endswith("/" + joint)), joint)
            if any(n.path == path and n.test in ("", test) for n in out):
                continue
            if path in state.allow:
                assert final.after is not None  # a round that ran
                after = next((r for t in final.after.tests if t.name == test for r in t.joints if path in (r.path, r.joint)),
                             None)
                out.append(NotFixable(joint=path.rsplit("/", 1)[-1], path=path, test=test, cause="not_fixed",
                                      why=clip(f"still {after.status.value if after else 'failing'} with {tried} after "
                                          f"{state.levels.get(path, 0)} escalation(s): {after.reason if after else ''}", 500)))
    if best is None:  # why no round was accepted: what the improving rounds broke
        for rnd in [r for r in state.rounds if r.worth and not r.clean][-1:]:
            for test, joint in rnd.regressed:
                assert rnd.after is not None  # it regressed: it ran
                row = next((r for t in rnd.after.tests if t.name == test for r in t.joints if joint in (r.path, r.joint)), None)
                side = "" if joint in rnd.proposals else " (its own drive unchanged: a side effect of the other joints' changes)"
                out.append(NotFixable(joint=joint.rsplit("/", 1)[-1], path=joint, test=test, cause="regression",
                                      why=clip(f"PASS as authored, {row.status.value if row else 'failing'} with round "
                                               f"{rnd.index}'s layer"
                                          f"{side}: {row.reason if row else ''}", 500)))
            for test in rnd.broken:
                out.append(NotFixable(test=test, cause="regression",
                                      why=f"{test} passed as authored and not with round {rnd.index}'s layer"))
    if best is not None and best.after is not None:  # a test the first drives still leave skipping: why, never silent
        for result in best.after.tests:
            if result.status == Status.SKIP and not any(n.test == result.name for n in out):
                out.append(NotFixable(test=result.name, cause="still_skips", why=f"{result.name} SKIP with the layer: "
                                      f"{result.reason}"))
    if state.plan is not None and state.plan.error:
        out.append(NotFixable(cause="error", why=f"measurement failed: {state.plan.error.splitlines()[0]}"))
    return out


def held_by(asset, path: str, m, info: dict) -> str:
    """What can hold a joint the stiff probe could not take to its endpoint, from what this asset has: the colliders
    filtered there, its joint friction against the probe's pull, a mimic coupling, a kinematic loop. Only causes the
    asset carries are named; each with its numbers."""
    unit = "N·m" if m.angular else "N"
    tried = sorted({b.rsplit("/", 1)[-1] for pair in info.get("candidates", []) for b in pair})
    seen = f"; {', '.join(tried)} touched there" if tried else ""
    found = [f"not collision geometry (every collision of the links it moves filtered, it still stops{seen})"
             if info.get("all_filtered") else f"no collider of the links it moves can collide with the rest{seen}"]
    pull = float(info.get("pull", math.nan))
    if m.friction > 0 and math.isfinite(pull):
        found.append(f"its joint friction {for_people(m.friction, unit)} can hold it (the probe pulled with "
                     f"{for_people(pull, unit)})" if m.friction >= 0.5 * pull else
                     f"not its joint friction ({for_people(m.friction, unit)} against the probe's pull of "
                     f"{for_people(pull, unit)})")
    joint = asset.joints.get(path)
    coupled = [j.name for j in asset.joints.values() if j.mimic_reference == path or (j.path == path and j.mimic_reference)]
    if coupled:
        found.append(f"a mimic coupling ({', '.join(coupled)}) can hold it")
    if joint is not None and any(j.loop_closing for j in asset.joints.values()):
        found.append("a loop-closing joint of the asset can hold it")
    if len(found) == 1 or all(f.startswith(("not ", "no ")) for f in found):
        found.append("what holds it is none of these: look at the joint's limits in the runtime readback and at "
                     "other constraints on its bodies")
    return "; ".join(found)


def stop_text(pose: str, end: float, stop: float, hold: float, unit: str) -> str:
    """Where a blocked joint stopped, relative to the endpoint it was driven to from `hold`: short of it, or held past
    it (something pushes it there), never 'blocked before' an endpoint it went beyond. Digits enough to tell the two
    apart ("stops at 127.6°, short of its max endpoint 128.4°", never "128°, short of 128°")."""
    digits = 3
    while digits < 7 and for_people(stop, unit, digits) == for_people(end, unit, digits):
        digits += 1
    stop_text_, end_text = for_people(stop, unit, digits), for_people(end, unit, digits)
    toward = 1.0 if end >= hold else -1.0
    if (stop - end) * toward > 0:
        return f"held past its {pose} endpoint {end_text}, at {stop_text_} (something pushes it there)"
    return f"stops at {stop_text_}, short of its {pose} endpoint {end_text}"


def _summary(state: "AssetFix", best: Round | None, result: FixResult) -> str:
    if state.summary:
        return state.summary
    failing = [t for t in state.before.tests if t.status in (Status.FAIL, Status.WARN)]
    causes = sorted({n.cause for n in result.not_fixable})
    tail = f"; not fixable by drive values: {', '.join(causes)}" if causes else ""
    if best is None:
        if not state.rounds:
            return ("no layer proposed: the drives already meet what the tests need, the failures are not theirs" if not
                    (state.plan and state.plan.error) else "no layer proposed: the measurement failed") + tail
        unnamed = sorted({f"{j.rsplit('/', 1)[-1]} ({t})" for r in state.rounds if r.worth for t, j in r.unnamed})
        if unnamed:
            return (f"no layer accepted: its drives made tests fail that could not judge the joints before, on joints "
                    f"no cause was measured for: {listed(unnamed)}{tail}")
        if any(r.worth for r in state.rounds):
            return f"no layer accepted: every round that fixed a verdict broke one that passed{tail}"
        return f"no layer accepted: no round fixed a verdict{tail}"
    parts = [f"{len(best.fixed)} of {len(failing)} failing verdict(s) fixed"
             + (f" ({', '.join(best.fixed)})" if best.fixed else "")]
    if best.judged:
        added = len(state.diagnosis.added) if state.diagnosis else 0
        parts = parts if failing else []
        parts.append(f"{len(best.judged)} SKIP -> PASS with first drives on {added} joint(s) ({', '.join(best.judged)})")
    fixed = ", ".join(parts)
    if best.improved:
        fixed += f", {len(best.improved)} FAIL -> WARN ({', '.join(best.improved)})"
    if best.warnings_removed:
        fixed += f", {best.warnings_removed} forward-compatibility warning(s) gone (per-axis spellings)"
    worse = sorted({test for test, _ in best.worse})
    if worse:
        fixed += f"; {', '.join(worse)} SKIP -> FAIL/WARN only on joints named below"
    return f"{fixed}; {len(result.joints)} joint override(s), {len(state.rounds)} round(s){tail}"
