"""What the HTML report shows of one test result, ready for the template: verdict order and labels, the
metrics in units for people next to the threshold that judges them (the failing number marked), the
joint rows the same way, and the video's chapters grouped per joint.

Which metrics are judged and by what, and which row value pairs with which limit, is the test's own
`TestView` (core.test_view, declared in the test's folder); this module names no test. SI values become text
through core.quantities.for_people (revolute angles in degrees, small lengths in mm). A value's unit is the
one the test recorded (TestResult.metric_units, JointRow.units), else the view's, else inferred from the key.
"""

from __future__ import annotations

import math
import re

from ..core.quantities import for_people
from ..core.status import SEVERITY_ORDER, Status, asset_warnings, verdict_label, verdict_text
from ..core.test_view import GENERIC_VIEW, TestView

# Verdicts worst first (core.status.SEVERITY_ORDER); a PASS with warnings sorts between WARN and a clean PASS.
_LABELS = [s.value for s in SEVERITY_ORDER]
RANK = {label: i for i, label in enumerate(_LABELS[:_LABELS.index("PASS")] + ["PASS*"] + _LABELS[_LABELS.index("PASS"):])}
OPEN = {"ERROR", "PRECHECK_FAILURE", "FAIL", "WARN"}  # sections shown open; the rest start collapsed
SHORT = {"NOT_APPLICABLE": "N/A", "PRECHECK_FAILURE": "PRECHECK"}
LEGEND = [  # (css class, label, short meaning shown, full meaning as its tooltip): one line at 1400 px
    ("PASS", "PASS", "conforms", "conforms"),
    ("PASS PASS-warn", "PASS*", "with warnings", "conforms, with warnings to read"),
    ("WARN", "WARN", "not fatal", "below the reference, not fatal (e.g. a slow step response)"),
    ("FAIL", "FAIL", "does not conform", "does not conform"),
    ("PRECHECK_FAILURE", "PRECHECK", "broken asset", "precheck failure: the asset is incomplete or broken"),
    ("ERROR", "ERROR", "undecided", "the tool could not decide (hang, crash)"),
    ("SKIP", "SKIP", "could not run", "applies but could not run (e.g. joints without drives): not a pass"),
    ("INCOMPLETE", "INCOMPLETE", "not all ran", "an asset's headline: what passed does not cover what applies (a test "
                                                "SKIPped)"),
    ("NOT_APPLICABLE", "N/A", "does not apply", "not applicable (e.g. welded to the world): not a pass"),
]

SUFFIX_UNITS = (("_pct", "%"), ("_percent", ""), ("_seconds", "s"), ("_s", "s"), ("_newtons", "N"), ("_ratio", ""),
                ("_deg", "°"), ("_m", "m"), ("_fps", "Hz"))


def rank(result) -> int:
    return RANK.get(verdict_label(result), 9)


def asset_rank(asset) -> int:
    return min((rank(t) for t in asset.tests), default=8 if not asset.error else 0)


def short_label(result) -> str:
    label = verdict_label(result)
    return SHORT.get(label, label)


def is_bad(value, threshold, rule: str) -> bool | None:
    """Whether `value` breaks its rule (None: cannot tell)."""
    if rule == "true":
        return value is False if isinstance(value, bool) else None
    if rule == "false":
        return value is True if isinstance(value, bool) else None
    if rule == "zero":
        return value not in (0, None) if isinstance(value, (int, float)) else None
    if rule in ("max", "min"):
        if value is None:
            return None
        try:
            value, threshold = float(value), float(threshold)
        except (TypeError, ValueError):
            return None
        if not math.isfinite(threshold):
            return None
        return not (math.isfinite(value) and (value <= threshold if rule == "max" else value >= threshold))
    return None


def text(value, unit: str = "") -> str:
    """A value for people: flags as yes/no, SI numbers through core.quantities.for_people."""
    if isinstance(value, bool):
        return "yes" if value else "no"
    if value is None:
        return "—"
    if isinstance(value, (int, float)) and unit == "°" and math.isfinite(value):
        return f"{value:.3g}°"
    if isinstance(value, float) and not math.isfinite(value):
        return str(value)
    if isinstance(value, (list, tuple)):
        return ", ".join(text(v) for v in value) or "—"
    return for_people(value, unit) if isinstance(value, (int, float)) else str(value)


def setting_unit(key: str) -> str:
    for suffix, unit in SUFFIX_UNITS:
        if key.endswith(suffix):
            return unit
    return ""


def metric_rows(result, test_view: TestView = GENERIC_VIEW) -> tuple[list[dict], dict]:
    """(rows of the metrics table, the config keys not shown there -> text). Judged metrics come first,
    each with its threshold and whether it fails; then the other metrics."""
    units = {**test_view.metric_units, **(result.metric_units or {})}
    cfg = result.config or {}
    rows, used = [], set()
    for judged in test_view.judged:
        metric, rule = judged.metric, judged.rule
        if metric not in result.metrics:
            continue
        value, unit = result.metrics[metric], units.get(metric, "")
        limit_text, limit, bound = "", None, "≥" if rule == "min" else "≤"
        if judged.threshold_of is not None:
            try:
                limit = judged.threshold_of(cfg)
                limit_text = f"{bound} {text(limit, unit)} ({judged.threshold_label})"
            except (KeyError, TypeError, ValueError):
                limit_text = ""
        elif judged.threshold_metric is not None and judged.threshold_metric in result.metrics:
            limit = result.metrics[judged.threshold_metric]
            limit_text = f"{bound} {text(limit, units.get(judged.threshold_metric, unit))} ({judged.threshold_metric})"
        elif judged.threshold_key is not None and judged.threshold_key in cfg:
            limit = cfg[judged.threshold_key]
            used.add(judged.threshold_key)
            limit_text = f"{bound} {text(limit, unit)} ({judged.threshold_key})"
        else:
            limit_text = {"true": "must be yes", "false": "must be no", "zero": "must be 0"}.get(rule, "")
        rows.append({"name": metric, "value": text(value, unit), "limit": limit_text,
                     "bad": bool(is_bad(value, limit, rule)), "judged": True})
    judged_names = {r["name"] for r in rows}
    for metric, value in result.metrics.items():
        if metric not in judged_names:
            rows.append({"name": metric, "value": text(value, units.get(metric, "")), "limit": "", "bad": False,
                         "judged": False})
    settings = {k: text(v, setting_unit(k)) for k, v in cfg.items() if k not in used}
    return rows, settings


def _joint_unit(row, key: str, test_view: TestView = GENERIC_VIEW) -> str:
    units = row.units or {}
    if key in units:
        return units[key]
    base = str(row.limits.get("unit") or "")
    base = base[:-2] if base.endswith("/s") else base
    if not base:  # a position unit recorded for any other position key of the row
        base = next((u for u in units.values() if u in ("rad", "m")), "")
    if key in test_view.row_positions:
        return base
    if key in test_view.row_rates:
        return f"{base}/s" if base else ""
    if key.endswith("overshoot_pct"):
        return "%"
    if key.endswith("_s") or key.endswith("_seconds"):
        return "s"
    if key.endswith("newtons"):
        return "N"
    return ""


def joint_view(row, siblings: dict | None = None, test_view: TestView = GENERIC_VIEW) -> dict:
    """A joint row: measured next to its limit (units, the failing one marked), the other values after.
    `siblings` (joint name -> row) lets the test's own pairings judge a value by another joint's limit."""
    measured = dict(row.measured)
    limits = {k: v for k, v in row.limits.items() if k != "unit"}
    failing = Status(row.status).value in OPEN
    used: set[str] = set()
    pairs = []
    for key, value in list(measured.items()):
        named = test_view.row_limits.get(key)
        limit_key = named if named is not None and named in limits else f"max_{key}"
        if limit_key in limits:
            limit = limits[limit_key]
            bad = is_bad(value, limit, "max")
            pairs.append({"key": key, "value": text(value, _joint_unit(row, key, test_view)), "limit_key": limit_key,
                          "limit": text(limit, _joint_unit(row, limit_key, test_view)),
                          "bad": bool(bad) or (failing and value is None)})
            used.add(limit_key)
            measured.pop(key)
    if test_view.row_pairs is not None:
        extra, consumed = test_view.row_pairs(row, siblings or {})
        for pair in extra:
            pairs.append({"key": pair.key, "value": text(pair.value, pair.unit), "limit_key": pair.limit_key,
                          "limit": text(pair.limit, pair.limit_unit), "bad": bool(is_bad(pair.value, pair.limit, "max"))})
        for key in consumed:
            measured.pop(key, None)
    return {
        "row": row,
        "status": Status(row.status).value,
        "open": failing,
        "pairs": pairs,
        "measured": {k: text(v, _joint_unit(row, k, test_view)) for k, v in measured.items()},
        "limits": {k: text(v, _joint_unit(row, k, test_view)) for k, v in limits.items() if k not in used},
    }


JOINT_CHAPTER = re.compile(r"^joint (?P<joint>[^:]+):\s*(?P<phase>.*)$")


def chapter_groups(chapters: list[dict], rows) -> dict:
    """{"general": [chapters not about a joint], "joints": [{joint, status, time, sim, phases: [{label, time, sim}]}]}
    (time: the video's, sim: the simulated time the 3D replay plays on)."""
    status = {r.joint: Status(r.status).value for r in rows}
    general: list = []
    joints: list = []
    index: dict = {}
    for chapter in chapters:
        label = str(chapter.get("label", ""))
        time = float(chapter.get("video_time", 0.0))
        sim = float(chapter.get("sim_time", 0.0))  # the 3D replay's time axis
        match = JOINT_CHAPTER.match(label)
        if not match:
            general.append({"label": label, "time": time, "sim": sim})
            continue
        name = match.group("joint").strip()
        if name not in index:
            index[name] = len(joints)
            joints.append({"joint": name, "status": status.get(name, ""), "time": time, "sim": sim, "phases": []})
        joints[index[name]]["phases"].append({"label": match.group("phase") or label, "time": time, "sim": sim})
    return {"general": general, "joints": joints}


WARNING_SUBJECT = re.compile(r"^(?P<subject>[^\s:]+): (?P<rest>.*)$", re.S)  # "/robot/joints/elbow: ...", "elbow: ..."
NUMBER = re.compile(r"[-+]?\d+(?:\.\d+)?(?:e[-+]?\d+)?")


def warning_groups(warnings: list[str]) -> list[dict]:
    """Warnings grouped when they say the same about different prims (the same sentence after the prim path, numbers
    aside): [{"text": the first one, "count": how many, "others": the other prims' names}], in first-seen order."""
    groups: dict[str, dict] = {}
    for warning in warnings:
        match = WARNING_SUBJECT.match(warning)
        key = NUMBER.sub("#", match.group("rest")) if match else warning
        group = groups.setdefault(key, {"text": warning, "count": 0, "others": []})
        group["count"] += 1
        if group["count"] > 1 and match:
            group["others"].append(match.group("subject").rsplit("/", 1)[-1])
    return list(groups.values())


def verdict_words(result) -> str:
    return verdict_text(result)


def warning_count(result) -> int:
    return len(asset_warnings(result))


def fix_view(fix, html_dir) -> dict | None:
    """The `fix` block for the template: the outcome, each test before -> after, one row per changed attribute
    (old and new value, unit, why) with its joint's verdicts before -> after, and what drives cannot fix."""
    if fix is None:
        return None
    import os
    from pathlib import Path

    def link(path: str) -> str | None:
        return Path(os.path.relpath(Path(path).resolve(), Path(html_dir).resolve())).as_posix() if path else None

    rows = []
    for joint in fix.joints:
        verdicts = [{"test": t, "before": b.value, "after": joint.after[t].value if t in joint.after else ""}
                    for t, b in joint.before.items()]
        for n, change in enumerate(joint.changes):
            rows.append({"joint": joint.joint if n == 0 else "", "path": joint.path, "span": len(joint.changes) if n == 0 else 0,
                         "attribute": change.attribute, "before": "not authored" if change.before is None else (
                             f"{change.before:.4g}" if isinstance(change.before, float) else str(change.before))
                         + (f" ({change.before_attribute})" if change.before_attribute else ""),
                         "after": (f"{change.after:.4g}" if isinstance(change.after, float) else str(change.after))
                         + (" (assumed: confirm the actuator's rating)" if change.assumed else ""),
                         "unit": change.unit, "why": change.why, "verdicts": verdicts if n == 0 else []})
    tests = [{"test": t.test, "before": t.before.value, "after": t.after.value if t.after else "",
              "changed": t.after is not None and t.after != t.before, "reason": t.after_reason or t.before_reason}
             for t in fix.tests]
    # the first screen: the tests the layer changed (or that still fail) one row each, the rest in one line
    shown = [t for t in tests if t["changed"] or (t["after"] or t["before"]) in ("FAIL", "WARN", "ERROR", "SKIP")]
    rest: dict[str, list[str]] = {}
    for t in tests:
        if t not in shown:
            rest.setdefault(t["after"] or t["before"], []).append(t["test"])
    seconds = sum(fix.seconds.values())
    phases = ", ".join(f"{name} {value:.0f} s" for name, value in fix.seconds.items())
    return {"f": fix, "rows": rows, "tests": tests, "layer": link(fix.layer), "composed": link(fix.composed),
            "layer_name": Path(fix.layer).name if fix.layer else "", "not_fixable": fix.not_fixable,
            "shown_tests": shown, "other_tests": sorted(rest.items()), "took": f"{seconds:.0f} s" if seconds else "",
            "phases": phases, "status_text": fix.status.replace("_", " ")}


def glance(asset, registry) -> list[dict]:
    """The asset's verdicts and what to do, worst first, for the top of its section: per test its verdict, reason,
    first hint and the `fix` command that acts on it. A hint or command the row above already gave reads "as above",
    so six tests that skip for one cause say it once."""
    from .console import fix_command

    out: list[dict] = []
    given: set[str] = set()
    not_applicable = [r for r in asset.tests if r.status == Status.NOT_APPLICABLE]
    for result in sorted((r for r in asset.tests if r.status != Status.NOT_APPLICABLE), key=rank):
        hint = " ".join(result.fix_hints[0].split()) if result.fix_hints and result.status != Status.PASS else ""
        command = fix_command(asset.path, [result], registry) if result.status != Status.PASS else ""
        out.append({"name": result.name, "status": Status(result.status).value, "label": verdict_label(result),
                    "short": short_label(result),
                    "reason": result.reason, "hint": "" if hint in given else hint, "hint_as_above": bool(hint) and hint in given,
                    "command": "" if command in given else command, "command_as_above": bool(command) and command in given})
        given.update(v for v in (hint, command) if v)
    if not_applicable:  # one row: the tests that do not apply, by reason (they ask nothing of the author)
        by_reason: dict[str, list[str]] = {}
        for result in not_applicable:
            by_reason.setdefault(result.reason, []).append(result.name)
        out.append({"names": [r.name for r in not_applicable], "status": Status.NOT_APPLICABLE.value,
                    "short": short_label(not_applicable[0]), "reasons": [(names, why) for why, names in by_reason.items()]})
    return out
