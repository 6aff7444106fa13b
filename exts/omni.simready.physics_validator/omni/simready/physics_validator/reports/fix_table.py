"""`simready-physics fix` on the console: per asset the fix's outcome, each test before -> after, each changed
attribute (old and new value, in USD units) with the joint's verdicts before -> after, and what drive values
cannot fix, with the cause. A table on a terminal, lines in a log."""

from __future__ import annotations

from rich.console import Console
from rich.table import Table

from .pipe_console import PipeConsole
from ..core.results import RunReport
from .console import short_name, styled
from .safe_text import escape  # control characters escaped too: names are data

# how a cause is introduced on the console (the rest read "not fixable by drives")
CAUSE_LABEL = {"actuator_rating": "beyond the actuator's rating", "no_drive": "no drive",
               "max_force_exposes": "exposed by the maxForce its load needs", "still_skips": "still skips",
               "implausible_need": "a need no mass explains", "reverted": "left as authored"}


def _value(value) -> str:
    if value is None:
        return "—"
    return f"{value:.4g}" if isinstance(value, float) else str(value)


def _before(change) -> str:
    """The value before, with the spelling it was read from when that is another ('180.5 (newton:velocityLimit)')."""
    if change.before is None:
        return "not authored"
    return _value(change.before) + (f" ({change.before_attribute})" if change.before_attribute else "")


def _name(change) -> str:
    """An attribute as the table names it: the last part of a drive or per-axis attribute, else whole (an API schema)."""
    short = change.attribute.startswith(("drive:", "physxJointAxis:", "physxJoint:"))
    return change.attribute.rsplit(":", 1)[-1] if short else change.attribute


def _after(change, unit: str = "") -> str:
    text = f"{_value(change.after)} {unit}".rstrip()
    return text + (" (assumed: confirm the actuator's rating)" if change.assumed else "")


def _verdicts(joint) -> str:
    parts = []
    for test, before in joint.before.items():
        after = joint.after.get(test)
        if after is None or after == before:
            parts.append(f"{test} {before.value}")
        else:
            parts.append(f"{test} {before.value}→{after.value}")
    return ", ".join(parts)


def print_fix_table(report: RunReport, console: Console | None = None, compact: bool | None = None) -> None:
    """Per asset: the fix's outcome, each test before -> after, each changed attribute (old and new value) with the
    joint's verdicts before -> after, and what drive values cannot fix. A table on a terminal, lines in a log."""
    console = console or PipeConsole()
    compact = not console.is_terminal if compact is None else compact
    for asset in report.assets:
        fix = asset.fix
        if fix is None:
            continue
        console.print(f"[bold]fix[/] {escape(short_name(asset.path))}: [bold]{escape(fix.status)}[/] — {escape(fix.summary)}",
                      highlight=False, soft_wrap=True)
        changed = [t for t in fix.tests if t.after is not None and t.after != t.before]
        tests = "  ".join(f"{t.test} {styled(t.before.value, t.before)}"
                          + (f"→{styled(t.after.value, t.after)}" if t in changed and t.after is not None else "")
                          for t in fix.tests)
        console.print(f"    tests: {tests}", highlight=False, soft_wrap=True)
        if fix.seconds:  # where the fix's time went
            phases = ", ".join(f"{name} {value:.0f} s" for name, value in fix.seconds.items())
            console.print(f"    time: {sum(fix.seconds.values()):.0f} s ({phases})", highlight=False, soft_wrap=True)
        if fix.joints and not compact:
            table = Table(show_lines=False, expand=False, title=None)
            for column in ("joint", "attribute", "before", "after", "unit", "verdicts before → after"):
                table.add_column(column, overflow="fold")
            for joint in fix.joints:
                for n, change in enumerate(joint.changes):
                    table.add_row(escape(joint.joint) if n == 0 else "", escape(_name(change)),
                                  escape(_before(change)), escape(_after(change)), change.unit,
                                  escape(_verdicts(joint)) if n == 0 else "")
            console.print(table)
        elif fix.joints:
            for joint in fix.joints:
                values = ", ".join(f"{_name(c)} {_before(c)} → {_after(c, c.unit)}"
                                   for c in joint.changes)
                verdicts = _verdicts(joint)
                console.print(f"    {escape(joint.joint)}: {escape(values)}" + (f" | {escape(verdicts)}" if verdicts else ""),
                              highlight=False, soft_wrap=True)
        for item in fix.not_fixable:
            where = " ".join(x for x in (item.joint, f"({item.test})" if item.test else "") if x)
            bodies = f" [bodies: {', '.join(b.rsplit('/', 1)[-1] for b in item.bodies)}]" if item.bodies else ""
            label = CAUSE_LABEL.get(item.cause, "not fixable by drives")
            head = where if item.cause in CAUSE_LABEL else " ".join(x for x in (where, item.cause) if x)
            console.print(f"    {label}: " + (f"{escape(head)}: " if head else "") + f"{escape(item.why)}{escape(bodies)}",
                          highlight=False, soft_wrap=True)
        if fix.layer:
            console.print(f"    layer: {escape(fix.layer)} (over the asset: {escape(fix.composed)})", highlight=False,
                          soft_wrap=True)
