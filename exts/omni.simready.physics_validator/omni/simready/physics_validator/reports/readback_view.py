"""The runtime readback for people: the console lines, the HTML tables and the panel's rows of one asset.

Flagged rows first (those that explain a verdict first, then ignored, clamped, from_other_attribute, differs,
defaulted), each beside the verdicts it explains and its fix. The console shows one line per flag up to `LIMIT` an asset and
counts the rest;
`defaulted` (not authored: the runtime's default applies) is always a count there, and a row in the tables.
"""

from __future__ import annotations

import math
from collections import Counter

from ..core.readback_links import SEVERE, name_of
from ..core.results import AssetResult, ReadbackEntry, RunReport
from .safe_text import escape  # control characters escaped too: names are data

LIMIT = 5
FLAG_ORDER = {flag: i for i, flag in enumerate((*SEVERE, "defaulted"))}
FLAG_WORDS = {
    "ignored": "authored, but the runtime uses its default",
    "clamped": "the runtime clamped the authored value",
    "from_other_attribute": "read from another attribute (another engine's schema, or a fallback spelling)",
    "defaulted": "not authored: the runtime's default applies",
    "differs": "authored and read, but different",
}


def value_text(value, unit: str = "") -> str:
    """A readback value for people: 4 significant digits, inf spelled out, lists joined, the unit attached."""
    if value is None:
        return "—"
    if isinstance(value, list):
        return ", ".join(value_text(v) for v in value) + (f" {unit}" if unit and value else "")
    if isinstance(value, str):
        return f"{value} {unit}".rstrip()
    value = float(value)
    if math.isinf(value):
        return "inf" if value > 0 else "-inf"
    return f"{value:.4g} {unit}".rstrip()


def ordered(entries: list[ReadbackEntry]) -> list[ReadbackEntry]:
    """Flagged first: those that explain a verdict, then by kind (ignored ... defaulted); then the rest, in reading order."""
    def key(e: ReadbackEntry):
        return (0 if e.explains else 1, FLAG_ORDER.get(e.flag, len(FLAG_ORDER))) if e.flag else (2, 0)

    return sorted(entries, key=key)


def row(entry: ReadbackEntry) -> dict:
    """One table row (HTML and panel)."""
    return {"name": name_of(entry), "path": entry.joint or entry.body or "", "property": entry.property,
            "authored": value_text(entry.authored, entry.unit) if entry.authored is not None else "not authored",
            "attribute": entry.authored_attribute, "runtime": value_text(entry.runtime, entry.unit),
            "flag": entry.flag or "", "words": FLAG_WORDS.get(entry.flag or "", ""), "note": entry.note,
            "explains": list(entry.explains), "fix": entry.fix}


def tables(asset: AssetResult, flagged_only: bool = False) -> dict | None:
    """{"joints": rows, "bodies": rows, "counts": {flag: n}, "clean": n, "engine", "settings", "error", "seconds"} or
    None. `flagged_only` (the HTML report, read for its verdicts first): only flagged values are rows, and `clean`
    counts the values the runtime read as authored, which the JSON report keeps; the panel shows every row."""
    readback = asset.runtime_readback
    if readback is None:
        return None
    entries = [e for e in ordered(readback.entries) if e.flag or not flagged_only]
    return {"joints": [row(e) for e in entries if e.joint], "bodies": [row(e) for e in entries if e.body],
            "counts": dict(Counter(e.flag for e in readback.entries if e.flag)), "engine": readback.engine,
            "clean": sum(1 for e in readback.entries if not e.flag),
            "settings": ", ".join(f"{k}={v}" for k, v in readback.settings.items()), "error": readback.error,
            "seconds": readback.seconds}


def line(entry: ReadbackEntry) -> str:
    """'joint2 static_friction: newton:friction = 1 N·m, runtime 1 N·m — from_other_attribute → drive_gain_validation WARN'."""
    authored = (f"{entry.authored_attribute} = {value_text(entry.authored, entry.unit)}" if entry.authored is not None
                else "not authored")
    text = f"{name_of(entry)} {entry.property}: {authored}, runtime {value_text(entry.runtime, entry.unit)} — {entry.flag}"
    if entry.explains:
        text += f" → {', '.join(entry.explains)}"
    return text


def console_lines(asset: AssetResult, limit: int = LIMIT) -> list[str]:
    """The asset's flagged readback, one line each up to `limit`, then counts."""
    readback = asset.runtime_readback
    if readback is None:
        return []
    if readback.error:
        return [f"runtime readback failed: {readback.error}"]
    severe = [e for e in ordered(readback.entries) if e.flag in SEVERE]
    lines = [line(e) for e in severe[:limit]]
    rest = Counter(e.flag for e in severe[limit:])
    defaulted = sum(1 for e in readback.entries if e.flag == "defaulted")
    tail = [f"{n} {flag}" for flag, n in rest.items()]
    if tail:
        lines.append(f"… and {len(severe) - limit} more: {', '.join(tail)}")
    if defaulted:
        lines.append(f"{defaulted} defaulted (not authored: the runtime's default applies; see the report)")
    return lines


def print_readback(report: RunReport, console) -> None:
    """Under the summary: per asset with flags, what the runtime read differently from what was authored."""
    from .console import short_name

    for asset in report.assets:
        lines = console_lines(asset)
        if not lines:
            continue
        readback = asset.runtime_readback
        assert readback is not None  # it has console lines
        settings = ", ".join(f"{k}={v}" for k, v in readback.settings.items())
        console.print(f"runtime readback {escape(short_name(asset.path))} "
                      f"({readback.engine}{'; ' + settings if settings else ''}):",
                      highlight=False, soft_wrap=True)
        for text in lines:
            console.print(f"    {escape(text)}", highlight=False, soft_wrap=True)
