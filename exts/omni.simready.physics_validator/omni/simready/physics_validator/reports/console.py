"""Console summary of a run, in the shape of where it is read.

On a terminal: a table, one row per asset and test, coloured verdicts, reasons people can act on.
In a log or a pipe (stdout not a terminal): one line per asset (its worst verdict, the tests that
failed, the short path), then under it the reason of each failing row, so 28 assets read as about 28
lines plus the failures, never a table wrapped at 80 columns. Asset names are `short_name` in both,
as in the progress lines. A PASS carrying warnings reads "PASS*" (core.status.verdict_label).
"""

from __future__ import annotations

from pathlib import Path

from rich.console import Console
from rich.markup import escape
from rich.table import Table

from ..core.results import AssetResult, RunReport
from ..core.status import Status, verdict_label, verdict_text, worst

STATUS_STYLE = {
    Status.PASS: "bold green",
    Status.FAIL: "bold red",
    Status.WARN: "bold yellow",
    Status.SKIP: "dim",
    Status.NOT_APPLICABLE: "dim",
    Status.PRECHECK_FAILURE: "bold magenta",
    Status.ERROR: "bold white on red",
}
FAILING = (Status.FAIL, Status.PRECHECK_FAILURE, Status.ERROR)
LABEL_WIDTH = len("PRECHECK_FAILURE")


def short_name(path: str) -> str:
    """The asset's name on the console: its folder and file name ("pb_mug/floating_base.usda").

    The one rule for the progress lines, the summary and the comparison table, so an asset reads the
    same everywhere; the reports on disk keep the full path.
    """
    p = Path(path)
    return f"{p.parent.name}/{p.name}" if p.parent.name else p.name


display_path = short_name  # the name the comparison table imports


def plural(count: int, noun: str) -> str:
    """'1 asset', '28 assets'."""
    return f"{count} {noun}{'' if count == 1 else 's'}"


def styled(label: str, status: Status) -> str:
    return f"[{STATUS_STYLE.get(status, 'bold')}]{escape(label)}[/]"


def failing_rows(asset: AssetResult, fail_on_skip: bool = False) -> list:
    """The asset's test results that count against it (SKIP too with --fail-on-skip)."""
    return [r for r in asset.tests if r.status in FAILING or (fail_on_skip and r.status == Status.SKIP)]


def asset_label(asset: AssetResult) -> tuple[str, Status | None]:
    """The asset's worst verdict as shown ('PASS*' when its worst is a PASS that carries warnings)."""
    status = worst(r.status for r in asset.tests)
    if status is None:
        return "NO RESULT", None
    if status == Status.PASS and any(verdict_label(r) == "PASS*" for r in asset.tests):
        return "PASS*", status
    return status.value, status


def print_summary(report: RunReport, console: Console | None = None, compact: bool | None = None,
                  fail_on_skip: bool = False) -> None:
    """The run's summary: a table on a terminal, one line per asset otherwise (`compact` forces either)."""
    console = console or Console()
    compact = not console.is_terminal if compact is None else compact
    title = f"simready-physics {report.tool_version} on {report.engine}"
    if compact:
        _print_lines(report, console, title, fail_on_skip)
    else:
        _print_table(report, console, title)
    counts = {k: v for k, v in report.counts().items() if v}
    marked = sum(1 for r in report.all_results() if verdict_label(r) == "PASS*")
    text = "  ".join(f"{k}: {v}" for k, v in counts.items()) or "no results"
    if marked:
        text += f"  (PASS*: {marked} with warnings)"
    console.print(f"{plural(len(report.assets), 'asset')}: {text}", highlight=False, soft_wrap=True)
    if not report.complete:
        console.print(f"[bold yellow]interrupted[/]: {plural(len(report.not_run), 'test run')} did not run (listed in the JSON report)")


def _print_table(report: RunReport, console: Console, title: str) -> None:
    table = Table(title=escape(title), show_lines=False, expand=False)
    table.add_column("asset", overflow="fold")
    table.add_column("test")
    table.add_column("verdict", no_wrap=True)
    table.add_column("reason", overflow="fold")
    for asset in report.assets:
        for result in asset.tests:
            label = verdict_label(result)
            reason = result.reason
            if label == "PASS*":
                reason = f"{verdict_text(result)}; {reason}" if reason else verdict_text(result)
            table.add_row(escape(short_name(asset.path)), result.name, styled(label, result.status), escape(reason))
    console.print(table)


def _print_lines(report: RunReport, console: Console, title: str, fail_on_skip: bool) -> None:
    """One line per asset, then the reasons of its failing rows (identical reasons once)."""
    console.print(escape(f"{title}: {plural(len(report.assets), 'asset')}"), highlight=False, soft_wrap=True)
    for asset in report.assets:
        label, status = asset_label(asset)
        failing = failing_rows(asset, fail_on_skip)
        line = f"{styled(f'{label:<{LABEL_WIDTH}}', status)} {escape(short_name(asset.path))}"
        if failing:
            line += f"  failing: {escape(', '.join(r.name for r in failing))}"
        elif label == "PASS*":
            line += "  " + escape(", ".join(f"{r.name}: {verdict_text(r)}" for r in asset.tests if verdict_label(r) == "PASS*"))
        console.print(line, highlight=False, soft_wrap=True)
        by_reason: dict[str, list] = {}
        for result in failing:
            by_reason.setdefault(f"{result.status.value}: {' '.join((result.reason or 'no reason given').split())}", []).append(result.name)
        for reason, names in by_reason.items():
            console.print(f"    {escape(', '.join(names))} {escape(reason)}", highlight=False, soft_wrap=True)


# -- simready-physics fix: the before/after table ------------------------------------------------------------------
def _value(value) -> str:
    if value is None:
        return "—"
    return f"{value:.4g}" if isinstance(value, float) else str(value)


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
    console = console or Console()
    compact = not console.is_terminal if compact is None else compact
    for asset in report.assets:
        fix = asset.fix
        if fix is None:
            continue
        console.print(f"[bold]fix[/] {escape(short_name(asset.path))}: [bold]{escape(fix.status)}[/] — {escape(fix.summary)}",
                      highlight=False, soft_wrap=True)
        changed = [t for t in fix.tests if t.after is not None and t.after != t.before]
        tests = "  ".join(f"{t.test} {styled(t.before.value, t.before)}"
                          + (f"→{styled(t.after.value, t.after)}" if t in changed else "") for t in fix.tests)
        console.print(f"    tests: {tests}", highlight=False, soft_wrap=True)
        if fix.joints and not compact:
            table = Table(show_lines=False, expand=False, title=None)
            for column in ("joint", "attribute", "before", "after", "unit", "verdicts before → after"):
                table.add_column(column, overflow="fold")
            for joint in fix.joints:
                for n, change in enumerate(joint.changes):
                    table.add_row(escape(joint.joint) if n == 0 else "", escape(change.attribute.split(":", 1)[-1]),
                                  _value(change.before), _value(change.after), change.unit,
                                  escape(_verdicts(joint)) if n == 0 else "")
            console.print(table)
        elif fix.joints:
            for joint in fix.joints:
                values = ", ".join(f"{c.attribute.rsplit(':', 1)[-1]} {_value(c.before)} → {_value(c.after)} {c.unit}".rstrip()
                                   for c in joint.changes)
                console.print(f"    {escape(joint.joint)}: {escape(values)} | {escape(_verdicts(joint))}", highlight=False, soft_wrap=True)
        for item in fix.not_fixable:
            where = " ".join(x for x in (item.joint, f"({item.test})" if item.test else "") if x)
            bodies = f" [bodies: {', '.join(b.rsplit('/', 1)[-1] for b in item.bodies)}]" if item.bodies else ""
            console.print(f"    not fixable by drives: {escape(where)} {item.cause}: {escape(item.why)}{escape(bodies)}",
                          highlight=False, soft_wrap=True)
        if fix.layer:
            console.print(f"    layer: {escape(fix.layer)} (over the asset: {escape(fix.composed)})", highlight=False, soft_wrap=True)
