"""The fix's files and its report block: each round's layer, the accepted layer with a comment per joint, and the
`fix` block (core.results.FixResult) with before/after verdicts, the changes in USD units and what cannot be fixed."""

from __future__ import annotations

import math
from pathlib import Path
from typing import TYPE_CHECKING

from ..core.quantities import listed
from ..core.results import FixChange, FixJoint, FixResult, FixTest
from ..core.status import Status
from ..core.usd import read_asset
from .layers import (
    DRIVE_ATTRS, JointOverride, UsdUnits, add_filtered_pairs, authored_value, drive_attr, drive_axis, open_stage,
    per_axis_attr, stage_metadata, write_composed_root, write_override_layer,
)
from .overlaps import filter_entries, is_filter_entry, settled_trial, story
from .causes import MEASURED_CAUSES, clip, named_joints, not_fixable, stop_text  # noqa: F401 - re-exported (tools, tests)
from .jaw_axis import joints_to_negate, negate as negate_axis
from .rounds import Round, verdict_of

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


def _overrides(state: "AssetFix", proposals: dict, migrate: dict, comments: dict | None = None,
               negate: dict | None = None):
    """The layer's overs and changes: drive proposals, legacy spellings carried per axis, and joints whose axis is negated
    (`negate`, fix/jaw_axis.py: after the drive values, which turn with it)."""
    asset = read_asset(state.path)
    stage = open_stage(state.path)
    units = UsdUnits(asset.kilograms_per_unit, asset.meters_per_unit)
    out: list[JointOverride] = []
    changes: dict[str, list[FixChange]] = {}
    turned = joints_to_negate(asset, negate or {})
    for path in sorted(set(proposals) | set(migrate) | set(turned)):
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
        if path in turned:
            rows += negate_axis(item, stage, asset)
        out.append(item)
    return out, changes, stage


def write_round_layers(state: "AssetFix", index: int, target: str, proposals: dict | None = None) -> Round | None:
    """Round `index`'s layer and its root over the asset: `proposals` (default: the plan's changed proposals but the
    reverted joints) and the legacy spellings to carry; None when there is nothing to write."""
    if proposals is None:
        proposals = {p: prop for p, prop in (state.plan.proposals.items() if state.plan else ())
                     if prop.changed and p not in state.reverted}
    assert state.diagnosis is not None  # diagnosed before any round
    migrate, negate = dict(state.diagnosis.migrate), dict(state.diagnosis.negate)
    if not proposals and not migrate and not negate:
        return None
    folder = state.work / f"round{index}"
    stem = Path(state.path).stem
    overrides, _, stage = _overrides(state, proposals, migrate, negate=negate)
    layer = write_override_layer(folder / f"{stem}.fix.usda", stage, overrides, f"{TOOL}: round {index} for {state.path}")
    trial = settled_trial(state)  # measured with the rest overlaps filtered: the drives hold only with them filtered
    if trial is not None:
        add_filtered_pairs(layer, trial.filtered, {pair[0]: f"{TOOL}: {story(trial)}" for pair in trial.filtered})
    composed = write_composed_root(folder / f"{stem}.fixed.usda", [layer, state.path], stage_metadata(stage))
    return Round(index, proposals, migrate, layer, composed, negate=negate, filtered=trial)


def final_names(out: Path, path: str, taken: set[str]) -> tuple[Path, Path]:
    stem = Path(path).stem
    if stem in taken:
        import hashlib

        stem = f"{stem}-{hashlib.sha1(str(Path(path).resolve()).encode()).hexdigest()[:8]}"
    taken.add(stem)
    return out / f"{stem}.fix.usda", out / f"{stem}.fixed.usda"


def write_final_layers(state: "AssetFix", best: Round, out: Path, target: str, taken: set[str] | None = None,
                       privacy=None) -> None:
    """The accepted layer next to the report, with a comment per joint (reason, before -> after verdicts); its header
    names the asset as `privacy` (reports.path_privacy) writes paths, absolute without one."""
    comments = {}
    _, changes, _ = _overrides(state, best.proposals, best.migrate, negate=best.negate)
    for path in set(changes):
        name = path.rsplit("/", 1)[-1]
        verdicts = "; ".join(f"{t} {b.value} -> {a.value if a else '-'}" for t, b, a in _joint_verdicts(state, best, path, name))
        assert state.diagnosis is not None
        why = clip("; ".join((state.diagnosis.drive.get(path, []) + best.negate.get(path, []))[:2]), 300) or (
            "only legacy PhysxJointAPI spellings, carried per axis" if path in best.migrate else
            "a mimic follower of a jaw whose axis is negated")
        what = "; ".join(f"{c.attribute.rsplit(':', 1)[-1]} {_before_text(c)} -> {_value_text(c.after)} {c.unit}".rstrip()
                         + f" ({clip(c.why, 160)})" for c in changes.get(path, []))
        comments[path] = (f"{TOOL}. Why: {why}. Changes: {what}. "
                          f"Verdicts as authored -> with this layer: {verdicts or 'unchanged'}")
    overrides, _, stage = _overrides(state, best.proposals, best.migrate, comments, negate=best.negate)
    layer_path, root_path = final_names(out, state.path, taken if taken is not None else set())
    kind = "drive-tuning and jaw-axis" if best.negate and (best.proposals or best.migrate) else (
        "jaw-axis" if best.negate else "drive-tuning")
    kind += " and collision-filter" if best.filtered is not None else ""
    named = privacy.text(state.path) if privacy else state.path
    header = (f"{TOOL}: {kind} overrides for {named} (only changed attributes; the asset is not modified). "
              f"Sublayer it over the asset, or open {root_path.name}. Proved by re-running "
              f"{', '.join(t.name for t in state.before.tests)}: {proved(best)}.")
    state.final_layer = write_override_layer(layer_path, stage, overrides, header)
    if best.filtered is not None:
        add_filtered_pairs(state.final_layer, best.filtered.filtered,
                           {pair[0]: f"{TOOL}: {story(best.filtered)}" for pair in best.filtered.filtered})
    state.final_root = write_composed_root(root_path, [state.final_layer, state.path], stage_metadata(stage),
                                           f"{TOOL}: {Path(state.path).name} with {layer_path.name} over it")


def proved(best: Round) -> str:
    """What the accepted round's re-run proved, in the words the console's summary uses."""
    parts = []
    if best.fixed:
        parts.append(f"{len(best.fixed)} failing verdict(s) fixed ({', '.join(best.fixed)})")
    if best.judged:
        parts.append(f"{len(best.judged)} SKIP -> PASS with first drives ({', '.join(best.judged)})")
    if best.unblocked:
        parts.append(f"{len(best.unblocked)} PRECHECK_FAILURE -> PASS ({', '.join(best.unblocked)})")
    if best.improved:
        parts.append(f"{len(best.improved)} FAIL -> WARN ({', '.join(best.improved)})")
    if best.warnings_removed:
        parts.append(f"{best.warnings_removed} forward-compatibility warning(s) gone")
    if best.gained and not (best.fixed or best.judged or best.improved):
        parts.append(f"{len(best.gained)} joint row(s) better ({rows_text(best.gained)})")
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
    status = state.status or (("partially_accepted" if left_out(state, best) else "accepted") if best else
                              "rejected" if state.rounds else "error" if failed else "not_fixable")
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
        _, changes, _ = _overrides(state, shown.proposals, shown.migrate, negate=shown.negate)
        for path, rows in changes.items():
            name = path.rsplit("/", 1)[-1]
            assert state.diagnosis is not None
            joint = FixJoint(joint=name, path=path, changes=rows,
                             reason=clip("; ".join(state.diagnosis.drive.get(path, []) + shown.negate.get(path, [])), 600))
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
        if shown.filtered is not None:  # the rest overlaps the layer filters, each on its first body
            result.joints += filter_entries(shown.filtered)
    result.not_fixable = not_fixable(state, best)
    result.summary = _summary(state, best, result)
    return result


def rows_text(rows: list[tuple[str, str]], limit: int = 6) -> str:
    """'full_range_sweep: joint1, joint2; state_accuracy: joint2' (at most `limit` rows, then how many more)."""
    by_test: dict[str, list[str]] = {}
    for test, joint in rows[:limit]:
        by_test.setdefault(test, []).append(joint.rsplit("/", 1)[-1])
    more = f"; {len(rows) - limit} more" if len(rows) > limit else ""
    return "; ".join(f"{test}: {', '.join(joints)}" for test, joints in by_test.items()) + more


def left_out(state: "AssetFix", best: Round | None) -> list[str]:
    """The joints whose change a re-run showed breaking something and that the accepted layer leaves as authored."""
    return sorted(p for p in state.dropped if best is not None and p not in best.proposals)


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
            return f"no layer accepted: every round that improved something broke something that passed{tail}"
        return f"no layer accepted: no round fixed a verdict or made a joint row better{tail}"
    parts = [f"{len(best.fixed)} of {len(failing)} failing verdict(s) fixed"
             + (f" ({', '.join(best.fixed)})" if best.fixed else "")]
    if best.judged:
        added = sum(1 for prop in best.proposals.values() if prop.added)  # what the layer holds, not what was diagnosed
        parts = parts if failing else []
        parts.append(f"{len(best.judged)} SKIP -> PASS with first drives on {added} joint(s) ({', '.join(best.judged)})")
    if best.unblocked:
        parts.append(f"{len(best.unblocked)} PRECHECK_FAILURE -> PASS ({', '.join(best.unblocked)})")
    fixed = ", ".join(parts)
    if best.improved:
        fixed += f", {len(best.improved)} FAIL -> WARN ({', '.join(best.improved)})"
    if best.warnings_removed:
        fixed += f", {best.warnings_removed} forward-compatibility warning(s) gone (per-axis spellings)"
    if best.gained and not (best.fixed or best.judged or best.improved):
        fixed += f", {len(best.gained)} joint row(s) better where no test's verdict changed ({rows_text(best.gained)})"
    worse = sorted({test for test, _ in best.worse})
    if worse:
        fixed += f"; {', '.join(worse)} SKIP -> FAIL/WARN only on joints named below"
    dropped = left_out(state, best)
    if dropped:  # joint by joint: which joints the layer keeps, which it leaves as authored
        kept = sorted(p.rsplit("/", 1)[-1] for p in best.proposals)
        fixed = (f"kept {len(kept)} joint(s) ({listed(kept)}), left {len(dropped)} as authored "
                 f"({listed([p.rsplit('/', 1)[-1] for p in dropped])}: what their change did is named below); {fixed}")
    if best.filtered is not None:
        fixed += (f", collisions filtered between {len(best.filtered.pairs)} body pair(s) that overlap at rest "
                  "(the probe blew up without)")
    joints = sum(1 for j in result.joints if not is_filter_entry(j))
    return f"{fixed}; {joints} joint override(s), {len(state.rounds)} round(s){tail}"
