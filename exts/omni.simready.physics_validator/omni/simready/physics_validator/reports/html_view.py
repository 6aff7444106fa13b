"""What the HTML report shows of one test result, ready for the template: verdict order and labels, the
metrics in units for people next to the threshold that judges them (the failing number marked), the
joint rows the same way, and the video's chapters grouped per joint.

SI values become text through core.quantities.for_people (revolute angles in degrees, small lengths in
mm). A value's unit is the one the test recorded (TestResult.metric_units, JointRow.units); for results
that do not carry one, the unit is inferred from the key (a joint row's "unit" limit, *_seconds, *_pct...).
"""

from __future__ import annotations

import math
import re

from ..core.quantities import for_people
from ..core.status import Status, asset_warnings, verdict_label, verdict_text

# Verdicts worst first; a PASS with warnings sorts between WARN and a clean PASS.
RANK = {"ERROR": 0, "PRECHECK_FAILURE": 1, "FAIL": 2, "WARN": 3, "PASS*": 4, "PASS": 5, "SKIP": 6, "NOT_APPLICABLE": 7}
OPEN = {"ERROR", "PRECHECK_FAILURE", "FAIL", "WARN"}  # sections shown open; the rest start collapsed
SHORT = {"NOT_APPLICABLE": "N/A", "PRECHECK_FAILURE": "PRECHECK"}
LEGEND = [
    ("PASS", "PASS", "conforms"),
    ("PASS PASS-warn", "PASS*", "conforms, with warnings to read"),
    ("WARN", "WARN", "below the reference, not fatal (e.g. a slow step response)"),
    ("FAIL", "FAIL", "does not conform"),
    ("PRECHECK_FAILURE", "PRECHECK", "precheck failure: the asset is incomplete or broken"),
    ("ERROR", "ERROR", "the tool could not decide (hang, crash)"),
    ("SKIP", "SKIP", "nothing to validate (e.g. no driven joint): not a pass"),
    ("NOT_APPLICABLE", "N/A", "not applicable (e.g. welded to the world): not a pass"),
]

# test -> [(metric, threshold: config key or (label, function of the config), rule)] in the order people read them.
# rule: "max" value <= threshold, "true" / "false" the flag must be so, "zero" must be 0.
JUDGED: dict[str, list] = {
    "ground_drop": [
        ("touched", None, "true"),
        ("max_penetration", "floor_margin", "max"),
        ("penetrated", None, "false"),
        ("max_rest_deviation", "rest_tolerance", "max"),
        ("settle_seconds_after_contact", "rest_detection_max_seconds", "max"),
        ("rested", None, "true"),
        ("diverged", None, "false"),
    ],
    "velocity_limit": [
        ("joints_failed", None, "zero"),
        ("max_velocity_ratio", ("1 + tolerance_percent", lambda c: 1.0 + float(c["tolerance_percent"])), "max"),
    ],
    "full_range_sweep": [("joints_failed", None, "zero"), ("bbox_max_ratio", "bbox_explode_ratio", "max")],
    "drive_gain_validation": [
        ("joints_poor", None, "zero"),
        ("max_overshoot_pct", "max_overshoot_pct", "max"),
        ("max_settling_time_s", "max_settling_seconds", "max"),
        ("max_oscillations", "max_oscillations", "max"),
    ],
    "effort_limit": [("joints_failed", None, "zero")],
}
# Units of metrics whose test does not record them (TestResult.metric_units wins).
METRIC_UNITS = {
    "max_penetration": "m", "max_rest_deviation": "m", "initial_z_min": "m", "bbox_height": "m", "effective_fall": "m",
    "floor_level": "m", "final_z_min": "m", "touch_time": "s", "rest_time": "s", "settle_seconds_after_contact": "s",
    "max_overshoot_pct": "%", "max_settling_time_s": "s", "bbox_baseline_volume": "m³",
}
# Joint-row keys: measured value -> the limit it is judged against (besides the generic x / max_x pairing).
LIMIT_OF = {
    "peak_velocity": "allowed",
    "peak": "allowed",
    "peak_displacement_rate": "allowed",
    "settling_time_s": "max_settling_seconds",
    "final_error": "settling_band",
    "zero_error": "zero_return_tolerance",
    "hold_error_max": "rest_tolerance",
    "hold_error_min": "rest_tolerance",
}
POSITION_KEYS = {
    "hold_error_max", "hold_error_min", "zero_error", "lower", "upper", "max_target", "min_target", "zero_target",
    "rest_tolerance", "zero_return_tolerance", "start", "target", "final_error", "settling_band", "max_deflection",
    "max_deflection_any_joint", "deflection_limit", "deflection_tolerance", "held_pose_sag",
}
VELOCITY_KEYS = {"peak_velocity", "velocity_limit", "allowed", "peak_displacement_rate", "peak"}
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
    if rule == "max":
        if value is None:
            return None
        try:
            value, threshold = float(value), float(threshold)
        except (TypeError, ValueError):
            return None
        return not (math.isfinite(value) and value <= threshold) if math.isfinite(threshold) else None
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


def metric_rows(result) -> tuple[list[dict], dict]:
    """(rows of the metrics table, the config keys not shown there -> text). Judged metrics come first,
    each with its threshold and whether it fails; then the other metrics."""
    units = {**METRIC_UNITS, **(result.metric_units or {})}
    cfg = result.config or {}
    rows, used = [], set()
    for metric, threshold, rule in JUDGED.get(result.name, []):
        if metric not in result.metrics:
            continue
        value, unit = result.metrics[metric], units.get(metric, "")
        limit_text, limit = "", None
        if isinstance(threshold, tuple):
            label, function = threshold
            try:
                limit = function(cfg)
                limit_text = f"≤ {text(limit, unit)} ({label})"
            except (KeyError, TypeError, ValueError):
                limit_text = ""
        elif threshold is not None and threshold in cfg:
            limit = cfg[threshold]
            used.add(threshold)
            limit_text = f"≤ {text(limit, unit)} ({threshold})"
        else:
            limit_text = {"true": "must be yes", "false": "must be no", "zero": "must be 0"}.get(rule, "")
        rows.append({"name": metric, "value": text(value, unit), "limit": limit_text,
                     "bad": bool(is_bad(value, limit, rule)), "judged": True})
    judged = {r["name"] for r in rows}
    for metric, value in result.metrics.items():
        if metric not in judged:
            rows.append({"name": metric, "value": text(value, units.get(metric, "")), "limit": "", "bad": False,
                         "judged": False})
    settings = {k: text(v, setting_unit(k)) for k, v in cfg.items() if k not in used}
    return rows, settings


def _joint_unit(row, key: str) -> str:
    units = getattr(row, "units", None) or {}
    if key in units:
        return units[key]
    base = str(row.limits.get("unit") or "")
    base = base[:-2] if base.endswith("/s") else base
    if not base:  # a position unit recorded for any other position key of the row
        base = next((units[k] for k in POSITION_KEYS if units.get(k) in ("rad", "m")), "")
    if key in POSITION_KEYS:
        return base
    if key in VELOCITY_KEYS:
        return f"{base}/s" if base else ""
    if key.endswith("overshoot_pct"):
        return "%"
    if key.endswith("_s") or key.endswith("_seconds"):
        return "s"
    if key.endswith("newtons"):
        return "N"
    return ""


def joint_view(row, siblings: dict | None = None) -> dict:
    """A joint row: measured next to its limit (units, the failing one marked), the other values after.
    `siblings` (joint name -> row) lets effort_limit's "another joint gave way" be judged by that joint's limit."""
    measured = dict(row.measured)
    limits = {k: v for k, v in row.limits.items() if k != "unit"}
    failing = Status(row.status).value in OPEN
    lower, upper, tol = limits.get("lower"), limits.get("upper"), limits.get("break_tolerance")
    if "max_deflection" in measured and "deflection_tolerance" not in limits and all(
            isinstance(v, (int, float)) for v in (lower, upper, tol)):
        limits["deflection_limit"] = float(tol) * (float(upper) - float(lower))  # effort_limit's "gave way" threshold
    used: set[str] = set()
    pairs = []
    for key, value in list(measured.items()):
        limit_key = LIMIT_OF.get(key) if LIMIT_OF.get(key) in limits else f"max_{key}"
        if key == "max_deflection":
            limit_key = "deflection_tolerance" if "deflection_tolerance" in limits else "deflection_limit"
        if limit_key in limits:
            limit = limits[limit_key]
            bad = is_bad(value, limit, "max")
            pairs.append({"key": key, "value": text(value, _joint_unit(row, key)), "limit_key":
                          "break_tolerance × range" if limit_key == "deflection_limit" else limit_key,
                          "limit": text(limit, _joint_unit(row, limit_key)),
                          "bad": bool(bad) or (failing and value is None)})
            used.add(limit_key)
            measured.pop(key)
    other, moved = measured.get("most_deflected_joint"), measured.get("max_deflection_any_joint")
    other_row = (siblings or {}).get(other) if other and other != row.joint else None
    other_limit = other_row.limits.get("deflection_tolerance") if other_row is not None else None
    if isinstance(moved, (int, float)) and isinstance(other_limit, (int, float)):
        unit = _joint_unit(other_row, "deflection_tolerance")
        pairs.append({"key": f"{other} moved", "value": text(moved, unit), "limit_key": f"{other}'s deflection_tolerance",
                      "limit": text(other_limit, unit), "bad": bool(is_bad(moved, other_limit, "max"))})
        measured.pop("max_deflection_any_joint")
    return {
        "row": row,
        "status": Status(row.status).value,
        "open": failing,
        "pairs": pairs,
        "measured": {k: text(v, _joint_unit(row, k)) for k, v in measured.items()},
        "limits": {k: text(v, _joint_unit(row, k)) for k, v in limits.items() if k not in used},
    }


JOINT_CHAPTER = re.compile(r"^joint (?P<joint>[^:]+):\s*(?P<phase>.*)$")


def chapter_groups(chapters: list[dict], rows) -> dict:
    """{"general": [chapters not about a joint], "joints": [{joint, status, time, phases: [{label, time}]}]}."""
    status = {r.joint: Status(r.status).value for r in rows}
    general, joints, index = [], [], {}
    for chapter in chapters:
        label = str(chapter.get("label", ""))
        time = float(chapter.get("video_time", 0.0))
        match = JOINT_CHAPTER.match(label)
        if not match:
            general.append({"label": label, "time": time})
            continue
        name = match.group("joint").strip()
        if name not in index:
            index[name] = len(joints)
            joints.append({"joint": name, "status": status.get(name, ""), "time": time, "phases": []})
        joints[index[name]]["phases"].append({"label": match.group("phase") or label, "time": time})
    return {"general": general, "joints": joints}


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
                         "attribute": change.attribute, "before": "not authored" if change.before is None else f"{change.before:.4g}"
                         if isinstance(change.before, float) else str(change.before),
                         "after": f"{change.after:.4g}" if isinstance(change.after, float) else str(change.after),
                         "unit": change.unit, "why": change.why, "verdicts": verdicts if n == 0 else []})
    tests = [{"test": t.test, "before": t.before.value, "after": t.after.value if t.after else "",
              "changed": t.after is not None and t.after != t.before, "reason": t.after_reason or t.before_reason} for t in fix.tests]
    return {"f": fix, "rows": rows, "tests": tests, "layer": link(fix.layer), "composed": link(fix.composed),
            "layer_name": Path(fix.layer).name if fix.layer else "", "not_fixable": fix.not_fixable}
